// A GEMM whose K loop issues two gemms into one accumulator per iteration
// (the two 32-wide halves of a 64-wide K step), for the GPU check of
// tile-lower-ops' deferred release: only the first gemm into the
// accumulator may overwrite it on the first iteration (TileLang #2547).
// Compiled with warp specialization by scripts/gpu-sweep.sh add ... --ws
// --input test/Examples/Inputs/gemm_two_gemms.mlir; lit checks its sm_90a
// lowering in test/Conversion/ptxas-ws.mlir.

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
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %c128 : index
  %gy = arith.ceildivui %M, %c128 : index
  %kt = arith.ceildivui %K, %c64 : index

  // Specialized whatever the occupancy rule of tile-warp-specialize says:
  // the lowering of the producer warpgroup is what this input checks.
  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(128)
      attributes {tile.warp_specialize = true} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %As2 = tile.alloc : !sA
    %Bs2 = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC

    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      %k1 = arith.addi %k0, %c32 : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%k0, %n0], %Bs : !gB to !sB
      tile.copy %A[%m0, %k1], %As2 : !gA to !sA
      tile.copy %B[%k1, %n0], %Bs2 : !gB to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
      tile.gemm %As2, %Bs2, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}

    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
