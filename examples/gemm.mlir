// A tiled GEMM, C = A * B, written at tile granularity.
//
//   A: M x K (row-major), B: K x N (row-major), C: M x N, f16 in, f32 acc.
//
// Each thread block computes a 128 x 256 tile of C with 256 threads (two
// warpgroups, each 64 rows of the tile): the grid is (ceil(N / 256),
// ceil(M / 128)). The K loop copies a 128 x 64 tile of A and a 64 x 256
// tile of B into shared memory and accumulates their product into a
// register fragment; it asks for a 4-stage software pipeline. Edges of the
// matrices need no special care: copies read zeros outside the tensors and
// drop writes outside them.
//
// Nothing here is specific to one GPU; the compiler decides the rest:
//  - the stage count is a request: where the 4 stages' 192 KiB of shared
//    memory do not fit (163 KiB on sm_80, 64 KiB of LDS on CDNA), the loop
//    is lowered with as many as fit, with a warning;
//  - on sm_90a the copies become tensor copies (TMA) issued by a producer
//    warpgroup of their own (tile-warp-specialize), and the gemm wgmma;
//  - blocks are launched in groups of grid rows, so that the panels of A
//    and B a wave of blocks reads stay in L2 (tile-launch-order).
// Each decision is an attribute or op in the IR (tile-opt prints them) that
// the source can override: `tile.exact_stages` on the loop,
// `tile.warp_specialize = false` or `tile.launch_group = 1` on the kernel.

!gA = memref<?x?xf16>
!gB = memref<?x?xf16>
!gC = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// The host function: C = A * B with A [M, K], B [K, N], C [M, N]. The
// `tile.shape` annotations name the dimensions: a call whose operands
// disagree (A's K is not B's K, ...) is reported to the caller through the
// tile runtime, before anything is launched.
func.func @gemm(%A: !gA {tile.shape = ["M", "K"]},
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

  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
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
