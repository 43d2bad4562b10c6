// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ example
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-check-resources -o /dev/null
// found: a fixture for test/Fuzz/fuzz-smoke.test (valid IR; it does not crash)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 0, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": [], "pipeline": {"args": ["--tile-check-resources"], "chip": null, "emits_binary": false, "format": null, "name": "tile-check-resources", "odd_options": false}, "seed": 0, "signature": "crash: SIGSEGV @ example", "source": "fixture"}

func.func @f() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  return
}
