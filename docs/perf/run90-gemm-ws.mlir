// examples/gemm.mlir with its tile sizes, threads, stages and element type
// as parameters, for tile-tune (docs/tuner.md):
//
//   ${BM} x ${BN}  the tile of C a block computes
//   ${BK}          the K step (the tiles of A and B are BM x BK, BK x BN)
//   ${THREADS}     threads per block
//   ${STAGES}      the requested software pipeline depth
//   ${DTYPE}       f16 or bf16: A, B and C (the accumulator is f32)
//   ${GROUP:-8}    grid rows per launch group (default 8, the compiler's)
//   ${CLUSTER:-1}  blocks per cluster sharing their B panel's loads by
//                  multicast (1: none, the compiler's default; 2: pairs)
// tile-compile -D BM=128 -D BN=256 -D BK=64 -D THREADS=256 -D STAGES=4
// -D DTYPE=f16 compiles the example's own configuration;
// examples/gemm_tunable.space is a search space for tile-tune.

!gA = memref<?x?x${DTYPE}>
!gB = memref<?x?x${DTYPE}>
!gC = memref<?x?x${DTYPE}>
!sA = memref<${BM}x${BK}x${DTYPE}, #gpu.address_space<workgroup>>
!sB = memref<${BK}x${BN}x${DTYPE}, #gpu.address_space<workgroup>>
!fC = memref<${BM}x${BN}xf32, #tile.mem<fragment>>

// The host function: C = A * B with A [M, K], B [K, N], C [M, N].
func.func @gemm(%A: !gA {tile.shape = ["M", "K"]},
                %B: !gB {tile.shape = ["K", "N"]},
                %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant ${BM} : index
  %BN = arith.constant ${BN} : index
  %BK = arith.constant ${BK} : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index

  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(${THREADS}) attributes {tile.launch_group = ${GROUP:-8} : i64, tile.cluster = ${CLUSTER:-1} : i64, tile.warp_specialize = ${WS}} {
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
    } {tile.num_stages = ${STAGES} : i64}

    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
