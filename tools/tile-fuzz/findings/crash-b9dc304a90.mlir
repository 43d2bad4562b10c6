// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ anon::LowerOpsPass::runOnOperation
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops -o /dev/null
// found: seed 9, input 46 (test/Regression/memref-dim.mlir#0; mutations elemtype), 2 occurrences; minimized: yes (129 tests)
// tile-fuzz-json: {"count": 2, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 46, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["elemtype"], "pipeline": {"args": ["--tile-layout-inference", "--tile-insert-barriers", "--tile-plan-pipes", "--tile-allocate-scratch", "--tile-allocate-shared", "--tile-lower-ops"], "chip": null, "emits_binary": false, "format": null, "name": "bounds-lower", "odd_options": false}, "seed": 9, "signature": "crash: SIGSEGV @ anon::LowerOpsPass::runOnOperation", "source": "test/Regression/memref-dim.mlir#0"}

func.func @negative(%A: memref<?x?xindex>, %C: memref<?x?xindex>) {
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant 0 : index
  %n = memref.dim %A, %cm1 : memref<?x?xindex>
  tile.kernel @k blocks(%bx) in [%n] threads(128) {
    %f = tile.alloc : memref<16x16xf16, #tile.mem<fragment>>
    tile.copy %f, %C[%c0, %c0] : memref<16x16xf16, #tile.mem<fragment>> to memref<?x?xindex>
  }
  return
}
