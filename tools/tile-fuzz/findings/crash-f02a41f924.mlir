// tile-fuzz finding: crash
// signature: crash: runtime error: signed integer overflow: N * -N cannot be represented in type 'long int' (TileAttrs.cpp)
// message: runtime error: signed integer overflow: N * -N cannot be represented in type 'long int' (TileAttrs.cpp)
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-attach-target=chip=sm_90a --tile-pipeline-planning --tile-inject-pipeline --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops --convert-tile-to-gpu -o /dev/null
// found: seed 1, input 16 (test/Transforms/inject-pipeline.mlir#15; mutations tma_store), 2 occurrences; minimized: no (0 tests)
// tile-fuzz-json: {"count": 2, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 16, "kind": "crash", "message": "runtime error: signed integer overflow: N * -N cannot be represented in type 'long int' (TileAttrs.cpp)", "minimized": false, "mutations": ["tma_store"], "pipeline": {"args": ["--tile-attach-target=chip=sm_90a", "--tile-pipeline-planning", "--tile-inject-pipeline", "--tile-layout-inference", "--tile-insert-barriers", "--tile-plan-pipes", "--tile-allocate-scratch", "--tile-allocate-shared", "--tile-lower-ops", "--convert-tile-to-gpu"], "chip": null, "emits_binary": false, "format": null, "name": "target-chain", "odd_options": false}, "seed": 1, "signature": "crash: runtime error: signed integer overflow: N * -N cannot be represented in type 'long int' (TileAttrs.cpp)", "source": "test/Transforms/inject-pipeline.mlir#15"}

func.func @copies_in_two_stages(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as {tile.tma_store = 2 : i8} : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64, tile.stage = array<i64: 0, 0, 1, 2>}
  }
  return
}
