// tile-fuzz finding: crash
// signature: crash: LLVM ERROR: SmallVector unable to grow. Requested capacity (N) is larger than maximum value for size type (N) @ mlir::tile::lowering::lowerTmaStore
// message: LLVM ERROR: SmallVector unable to grow. Requested capacity (N) is larger than maximum value for size type (N)
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-specialize-bounds --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops --canonicalize -o /dev/null
// found: seed 1, input 1323 (test/Transforms/warp-specialize.mlir#13; mutations num_stages, tma_store), 2 occurrences; minimized: no (0 tests)
// tile-fuzz-json: {"count": 2, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 1323, "kind": "crash", "message": "LLVM ERROR: SmallVector unable to grow. Requested capacity (N) is larger than maximum value for size type (N)", "minimized": false, "mutations": ["num_stages", "tma_store"], "pipeline": {"args": ["--tile-specialize-bounds", "--tile-layout-inference", "--tile-insert-barriers", "--tile-plan-pipes", "--tile-allocate-scratch", "--tile-allocate-shared", "--tile-lower-ops", "--canonicalize"], "chip": null, "emits_binary": false, "format": null, "name": "bounds-lower", "odd_options": false}, "seed": 1, "signature": "crash: LLVM ERROR: SmallVector unable to grow. Requested capacity (N) is larger than maximum value for size type (N) @ mlir::tile::lowering::lowerTmaStore", "source": "test/Transforms/warp-specialize.mlir#13"}

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!sK = memref<64x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>
!gRow = memref<?xf32>

func.func @turns_opted_out(%Q: !g, %K: !g, %M: !gRow, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.warp_specialize = true} {
    %qs = tile.alloc : !sQ
    %ks = tile.alloc : !sK
    %s = tile.alloc : !fS
    %m = tile.alloc : !fRow
    %ninf = arith.constant 0xFF800000 : f32
    tile.copy %Q[%c0, %c0], %qs : !g to !sQ
    tile.fill %m, %ninf : !fRow
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %K[%k0, %c0], %ks : !g to !sK
      tile.gemm %qs, %ks, %s transpose_b clear_accum policy <full_row>
          : !sQ, !sK, !fS
      tile.reduce <max> %s, %m dim 1 : !fS to !fRow
    } {tile.num_stages = 7 : i64}
    tile.copy %m, %M[%c0] {tile.tma_store = 1 : i64} : !fRow to !gRow
  }
  return
}
