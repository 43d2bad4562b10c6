// A GEMM of one warpgroup whose 64 x 256 tiles two consumer warpgroups
// take in turn (`tile.alternate_tiles = true`): tile-persistent-blocks makes
// it persistent, tile-warp-specialize gives it a producer warpgroup and two
// consumer regions, each running the body for every second tile of the
// block's loop and passing the turn (tile.turn_wait / tile.turn_pass) once
// its tile's loads are consumed. A GPU check input (docs/perf.md run 41:
// correct and sanitizer-clean, slower than the example); lit checks its
// structure in test/Transforms/warp-specialize-alternate.mlir.

!gA = memref<?x?xf16>
!gB = memref<?x?xf16>
!gC = memref<?x?xf16>
!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<64x256xf32, #tile.mem<fragment>>

func.func @gemm(%A: !gA {tile.shape = ["M", "K"]},
                %B: !gB {tile.shape = ["K", "N"]},
                %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 64 : index
  %BN = arith.constant 256 : index
  %BK = arith.constant 64 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index

  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(128)
      attributes {tile.alternate_tiles = true} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC

    %m0 = arith.muli %by, %BM : index
    %n0 = arith.muli %bx, %BN : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %BK : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%k0, %n0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}

    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
