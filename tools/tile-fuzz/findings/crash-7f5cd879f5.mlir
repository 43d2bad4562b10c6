// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ anon::LayoutInference::resolveLoop
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-layout-inference -o /dev/null
// found: seed 11, input 299 (test/Regression/resource-limits.mlir#6; mutations elemtype, bounds), 1 occurrence; minimized: yes
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 299, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["elemtype", "bounds"], "pipeline": {"args": ["--tile-layout-inference"], "chip": null, "emits_binary": false, "format": null, "name": "lower-to-gpu", "odd_options": false}, "seed": 11, "signature": "crash: SIGSEGV @ anon::LayoutInference::resolveLoop", "source": "test/Regression/resource-limits.mlir#6"}

func.func @parallel_ws(%A: memref<?x?xindex>) {
  tile.kernel @parallel_ws blocks(%bx) in [1] threads(1) {
    tile.ws [0] {
      tile.parallel (%i, %j) in [1, 1] {
        %x = memref.load %A[%i, %j] : memref<?x?xindex>
      }
    }
  }
  return
}
