// A 2:4-sparse GEMM, C = A * B, where every group of four consecutive K
// elements of a row of A holds at most two non-zeros.
//
//   Ac: M x 2 ceil(K/4), the kept values of A (each group's two, in order)
//   E:  M x ceil(K/16) of i16, their positions: word j of a row describes
//       groups 4j .. 4j + 3, a nibble each, idx0 | idx1 << 2 with
//       idx0 < idx1 (docs/design.md 5.7; examples/sparse_compress.mlir
//       builds Ac and E from a pruned A on the GPU)
//   B:  K x N (row-major), C: M x N; f16 in, f32 accumulation, f16 out.
//
// Each thread block computes a 128 x 256 tile of C with 256 threads (two
// warpgroups of 64 rows). A K step covers 128 of K: the compressed 128 x 64
// tile of Ac, the 128 x 8 words of E and a 128 x 256 tile of B; the loop
// asks for two stages (82 KiB each). The tensor cores skip the zeros: the
// gemm's K is twice its A tile's columns.
//
// What the compiler decides: on sm_90a, wgmma.sp (m64n256k32) with tensor
// copies (TMA) of all three tiles from a producer warpgroup, each K step's
// MMAs completed before its slot is released (with three stages or more
// they would stay in flight: docs/design.md 5.7); on sm_80 to sm_90,
// mma.sp m16n8k32 (with one stage where two do not fit); on AMD a
// diagnostic (MLIR 22's ROCDL has no 2:4 sparse MFMA).

!gA = memref<?x?xf16>
!gE = memref<?x?xi16>
!gB = memref<?x?xf16>
!gC = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sE = memref<128x8xi16, #gpu.address_space<workgroup>>
!sB = memref<128x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

func.func @gemm_sp(%A: !gA {tile.shape = ["M", "2*ceil(K/4)"]},
                   %E: !gE {tile.shape = ["M", "ceil(K/16)"]},
                   %B: !gB {tile.shape = ["K", "N"]},
                   %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 256 : index
  %BK = arith.constant 128 : index
  %BKA = arith.constant 64 : index
  %BKE = arith.constant 8 : index
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
      tile.gemm %As, %Bs, %acc sparse(%Es : !sE) : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64}

    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
