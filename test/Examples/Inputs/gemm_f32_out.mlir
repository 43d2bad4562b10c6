// A GEMM with an f32 result, written as a user would from the docs: the
// example's kernel with C of the accumulator's type. bf16 in, f32 out.

!gA = memref<?x?xbf16>
!gB = memref<?x?xbf16>
!gC = memref<?x?xf32>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

func.func @gemm_f32(%A: !gA {tile.shape = ["M", "K"]},
                    %B: !gB {tile.shape = ["K", "N"]},
                    %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 256 : index
  %BK = arith.constant 64 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @gemm_f32_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
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
