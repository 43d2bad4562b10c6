// test/Examples/Inputs/gemm_sparse.mlir with wgmma.sp pinned on its gemm
// (test/Conversion/ptxas-sparse.mlir: the diagnostic below PTX ISA 8.2).

!gA = memref<?x?xf16>
!gE = memref<?x?xi16>
!gB = memref<?x?xf16>
!gC = memref<?x?xf32>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sE = memref<128x4xi16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @gemm_sp(%A: !gA {tile.shape = ["M", "2*ceil(K/4)"]},
                   %E: !gE {tile.shape = ["M", "ceil(K/16)"]},
                   %B: !gB {tile.shape = ["K", "N"]},
                   %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 128 : index
  %BK = arith.constant 64 : index
  %BKA = arith.constant 32 : index
  %BKE = arith.constant 4 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %B, %c0 : !gB
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @gemm_sp_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
    %As = tile.alloc : !sA
    %Es = tile.alloc : !sE
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %BM : index
    %n0 = arith.muli %bx, %BN : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %BK : index
      %ka = arith.muli %k, %BKA : index
      %ke = arith.muli %k, %BKE : index
      tile.copy %A[%m0, %ka], %As : !gA to !sA
      tile.copy %E[%m0, %ke], %Es : !gE to !sE
      tile.copy %B[%k0, %n0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc sparse(%Es : !sE) {mma = #tile.mma<wgmma, shape = [64, 128, 32], warps = [8, 1]>} : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
