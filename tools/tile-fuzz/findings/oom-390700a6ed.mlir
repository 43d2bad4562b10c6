// tile-fuzz finding: oom
// signature: oom: target-chain
// message: out of memory (limit: RLIMIT_AS)
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-attach-target=chip=sm_90a --tile-pipeline-planning --tile-inject-pipeline --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops --convert-tile-to-gpu -o /dev/null
// found: seed 11, input 581 (test/Regression/resource-limits.mlir#5; mutations layout, elemtype), 1 occurrence; minimized: no (1 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 581, "kind": "oom", "message": "out of memory (limit: RLIMIT_AS)", "minimized": false, "mutations": ["layout", "elemtype"], "pipeline": {"args": ["--tile-attach-target=chip=sm_90a", "--tile-pipeline-planning", "--tile-inject-pipeline", "--tile-layout-inference", "--tile-insert-barriers", "--tile-plan-pipes", "--tile-allocate-scratch", "--tile-allocate-shared", "--tile-lower-ops", "--convert-tile-to-gpu"], "chip": null, "emits_binary": false, "format": null, "name": "target-chain", "odd_options": false}, "seed": 11, "signature": "oom: target-chain", "source": "test/Regression/resource-limits.mlir#5"}

func.func @parallel(%A: memref<?x?xi8, strided<[2, 64], offset: ?>>) {
  tile.kernel @parallel blocks(%bx) in [1] threads(128) {
    tile.parallel (%i, %j) in [65536, 32768] {
      %x = memref.load %A[%i, %j] : memref<?x?xi8, strided<[2, 64], offset: ?>>
      memref.store %x, %A[%j, %i] : memref<?x?xi8, strided<[2, 64], offset: ?>>
    }
  }
  return
}
