// A batched C[b] = A[b] B[b]^T, written as a user would from the docs: 3-D
// operands [batch, rows, K], the batch as the grid's third dimension, 2-D
// tiles of each batch's matrices. bf16 in and out, f32 accumulation.

!gA = memref<?x?x?xbf16>
!gB = memref<?x?x?xbf16>
!gC = memref<?x?x?xbf16>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<256x64xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

func.func @bmm_nt(%A: !gA {tile.shape = ["B", "M", "K"]},
                  %B: !gB {tile.shape = ["B", "N", "K"]},
                  %C: !gC {tile.shape = ["B", "M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 256 : index
  %BK = arith.constant 64 : index
  %batch = memref.dim %A, %c0 : !gA
  %M = memref.dim %A, %c1 : !gA
  %K = memref.dim %A, %c2 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @bmm_nt_kernel blocks(%bx, %by, %bz) in [%gx, %gy, %batch]
      threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %BM : index
    %n0 = arith.muli %bx, %BN : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %BK : index
      tile.copy %A[%bz, %m0, %k0], %As : !gA to !sA
      tile.copy %B[%bz, %n0, %k0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc transpose_b : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%bz, %m0, %n0] : !fC to !gC
  }
  return
}
