// A GEMM whose K loop hands off one tile TMA can fill and one it cannot:
// B's shared tile has padded rows (a layout the kernel fixes itself, read
// by ldmatrix, so the gemm runs on mma.sync), which a tensor copy cannot
// write. tile-select-tma makes A's copy a tensor copy and leaves B's on
// cp.async; with warp specialization the producer warpgroup issues both,
// and each producer thread arrives on the slot's full barrier when its
// cp.async copies land (cp.async.mbarrier.arrive.noinc). For the GPU check
// (scripts/gpu-sweep.sh add f16-mixed --ws --input
// test/Examples/Inputs/gemm_mixed_copies.mlir); lit checks its sm_90a
// lowering in test/Conversion/ptxas-ws.mlir.

!gA = memref<?x?xf16>
!gB = memref<?x?xf16>
!gC = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// C = A * B with A [M, K], B [K, N], C [M, N].
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

  // Specialized whatever the occupancy rule of tile-warp-specialize says:
  // the lowering of the producer warpgroup is what this input checks.
  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(128)
      attributes {tile.warp_specialize = true} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc {layout = #tile.shared<pad = 16>} : !sB
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
