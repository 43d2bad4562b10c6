// The per-tensor FP8 GEMM of examples/fp8_gemm.mlir with its tile width
// and pipeline depth as parameters, for tile-tune (docs/tuner.md):
//
//   ${BN}      columns of C a block computes (its rows: 128, two consumer
//              warpgroups of 64)
//   ${STAGES}  the requested software pipeline depth
//   ${GROUP:-8}    grid rows per launch group (8 where none is given: the
//              compiler's own choice)
//   ${CLUSTER:-1}  blocks per cluster sharing their B panel's loads by
//              multicast (1: single blocks, the compiler's default)
//   ${PINGPONG:-false}  whether the two consumer warpgroups take turns at
//              the tensor cores (tile.pingpong)
//
// C = (A * sa) (B * sb)^T with A: M x K and B: N x K in f8E4M3FN, one
// scale per tensor, C: M x N in bf16. tile-compile -D BN=256 -D STAGES=4
// compiles the example's own configuration; examples/fp8_gemm_tunable.space
// is a search space (128 x 256 tiles read less shared memory per product;
// 128 x 128 ones give small problems more blocks).

!gA = memref<?x?xf8E4M3FN>
!gB = memref<?x?xf8E4M3FN>
!gC = memref<?x?xbf16>
!gS = memref<?xf32>
!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<${BN}x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x${BN}xf32, #tile.mem<fragment>>

func.func @fp8_gemm(%A: !gA {tile.shape = ["M", "K"]},
                    %B: !gB {tile.shape = ["N", "K"]},
                    %sa: !gS {tile.shape = ["1"]},
                    %sb: !gS {tile.shape = ["1"]},
                    %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant ${BN} : index
  %BK = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c0 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @fp8_gemm_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(256) attributes {tile.launch_group = ${GROUP:-8} : i64,
                               tile.cluster = ${CLUSTER:-1} : i64,
                               tile.pingpong = ${PINGPONG:-false}} {
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
      tile.copy %B[%n0, %k0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc transpose_b : !sA, !sB, !fC
    } {tile.num_stages = ${STAGES} : i64}
    %a = memref.load %sa[%c0] : !gS
    %b = memref.load %sb[%c0] : !gS
    %s = arith.mulf %a, %b : f32
    tile.parallel (%i, %j) in [128, ${BN}] {
      %x = memref.load %acc[%i, %j] : !fC
      %y = arith.mulf %x, %s : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
