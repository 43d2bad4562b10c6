// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ anon::SimplifyDimOfAllocOp::matchAndRewrite
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --canonicalize -o /dev/null
// found: seed 11, input 319 (test/Regression/memref-dim.mlir#0; mutations copy, shape, shape), 2 occurrences; minimized: yes (74 tests)
// tile-fuzz-json: {"count": 2, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 319, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["copy", "shape", "shape"], "pipeline": {"args": ["--canonicalize"], "chip": null, "emits_binary": false, "format": null, "name": "bounds-lower", "odd_options": false}, "seed": 11, "signature": "crash: SIGSEGV @ anon::SimplifyDimOfAllocOp::matchAndRewrite", "source": "test/Regression/memref-dim.mlir#0"}

func.func @negative(%A: memref<?x48xf16>) {
  %cm1 = arith.constant -1 : index
  %n = memref.dim %A, %cm1 : memref<?x48xf16>
  tile.kernel @k blocks(%bx) in [%n] threads(128) {
  }
  return
}
