// A tiled GEMM, C = A * B, written at tile granularity.
//
//   A: M x K (row-major), B: K x N (row-major), C: M x N, f16 in, f32 acc.
//
// Each thread block computes a 128 x 128 tile of C: the grid is
// (ceil(N / 128), ceil(M / 128)). The K loop copies a 128 x 32 tile of A and
// a 32 x 128 tile of B into shared memory and accumulates their product into
// a register fragment; it is marked for a 4-stage software pipeline. Edges
// of the matrices need no special care: copies read zeros outside the
// tensors and drop writes outside them.

!gA = memref<?x?xf16>
!gB = memref<?x?xf16>
!gC = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// The host function: C = A * B with A [M, K], B [K, N], C [M, N]. The
// `tile.shape` annotations name the dimensions: a call whose operands
// disagree (A's K is not B's K, ...) is reported to the caller through the
// tile runtime, before anything is launched.
func.func @gemm(%A: !gA {tile.shape = ["M", "K"]},
                %B: !gB {tile.shape = ["K", "N"]},
                %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %c128 : index
  %gy = arith.ceildivui %M, %c128 : index
  %kt = arith.ceildivui %K, %c32 : index

  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(128) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC

    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%k0, %n0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}

    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
