// tile-fuzz finding: crash
// signature: crash: runtime error: signed integer overflow: N * N cannot be represented in type 'long int' (SpecializeBounds.cpp)
// message: runtime error: signed integer overflow: N * N cannot be represented in type 'long int' (SpecializeBounds.cpp)
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_90a format=isa specialize-bounds=true" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 1, input 1038 (test/Transforms/lower-ops-tma-store.mlir#0; mutations num_stages, int), 1 occurrence; minimized: no (0 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 1038, "kind": "crash", "message": "runtime error: signed integer overflow: N * N cannot be represented in type 'long int' (SpecializeBounds.cpp)", "minimized": false, "mutations": ["num_stages", "int"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_90a format=isa specialize-bounds=true", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_90a", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 1, "signature": "crash: runtime error: signed integer overflow: N * N cannot be represented in type 'long int' (SpecializeBounds.cpp)", "source": "test/Transforms/lower-ops-tma-store.mlir#0"}

!g = memref<?x?xbf16>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

func.func @epilogue(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 4611686018427387904 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 7 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}
