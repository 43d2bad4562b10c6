// tile-fuzz finding: hang
// signature: hang: lower-to-gpu
// message: timeout after 21s
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops -o /dev/null
// found: seed 11, input 1241 (test/Regression/resource-limits.mlir#5; mutations threads, bounds), 1 occurrence; minimized: yes (71 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 1241, "kind": "hang", "message": "timeout after 21s", "minimized": true, "mutations": ["threads", "bounds"], "pipeline": {"args": ["--tile-layout-inference", "--tile-insert-barriers", "--tile-plan-pipes", "--tile-allocate-scratch", "--tile-allocate-shared", "--tile-lower-ops"], "chip": null, "emits_binary": false, "format": null, "name": "lower-to-gpu", "odd_options": false}, "seed": 11, "signature": "hang: lower-to-gpu", "source": "test/Regression/resource-limits.mlir#5"}

func.func @parallel() {
  tile.kernel @parallel blocks(%bx) in [1] threads(512) {
    tile.parallel (%i, %j) in [65536, 32768] {
    }
  }
  return
}
