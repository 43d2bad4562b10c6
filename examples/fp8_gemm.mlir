// FP8 GEMMs with scales, C = (A * sa) (B * sb)^T, written at tile
// granularity: the three ways scales come with FP8 tensors.
//
//   A: M x K, B: N x K ("TN": both K-contiguous, as FP8 tensor cores read
//   them), 8-bit floats (f8E4M3FN or f8E5M2, mixed allowed); C: M x N,
//   bf16; f32 accumulation.
//
//   @fp8_gemm_tensor    one scale per tensor: sa[1], sb[1];
//   @fp8_gemm_rowwise   one per row of A and of B: sa[M], sb[N];
//   @fp8_gemm_blockwise one per 1 x 128 group of A, sa[M, KB], and per
//                       128 x 128 block of B, sb[NB, KB], with
//                       KB = ceil(K / 128) and NB = ceil(N / 128) (the
//                       host code checks both: `tile.shape` entries
//                       "ceil(K/128)").
//
// Per-tensor and row-wise scales multiply the accumulator once, in the
// epilogue. Block-wise scales change along K, so each 128-wide K block is
// multiplied into its own accumulator (`clear_accum`) and added, scaled, to
// the running sum: the "accumulate a K block, then acc += tmp * sa * sb"
// style. The compiler does the rest: the copies become tensor copies from a
// producer warpgroup on sm_90a, the gemms wgmma k32, and a gemm that sums
// more than 128 of K in the tensor core's accumulator (whose FP8 sums keep
// fewer bits than f32) promotes its partial sums to f32 registers every
// 128 of K (`promote_k`, decided by tile-select-mma).
//
// Tiles: 128 x 128 with 5 pipeline stages for per-tensor and row-wise
// scales: one instruction spans the tile, so the compiler promotes each K
// block's partial sums one block late, adding them while the next block's
// MMAs run, each consumer warpgroup storing its own rows of the result
// (measured faster than 128 x 256 tiles, which it must promote in column
// halves: docs/perf.md run 161; and than taking turns at the tensor
// cores, run 199); 128 x 128 with 5 stages for
// block-wise scales too (1-2 % ahead of 4, run 165), whose second
// accumulator (the K block's) leaves no room for a wider tile. There the
// compiler hands each K block's product to the scaling tile.parallel one
// gemm late (tile.consumer_late), so that the scaling runs while the next
// block's MMAs do, the consumer warpgroups taking turns (runs 180, 181):
// the block's scales are written after its gemm, the compiler reads them
// before it, a K block ahead of their use (run 184), and %b, loaded in the
// loop, reaches the late tile.parallel through a fragment it fills.

!gA = memref<?x?xf8E4M3FN>
!gB = memref<?x?xf8E4M3FN>
!gC = memref<?x?xbf16>
!gS = memref<?xf32>
!gS2 = memref<?x?xf32>
!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
!fS = memref<128xf32, #tile.mem<fragment>>
!gCol = memref<?xf32, strided<[?], offset: ?>>

func.func @fp8_gemm_tensor(%A: !gA {tile.shape = ["M", "K"]},
                           %B: !gB {tile.shape = ["N", "K"]},
                           %sa: !gS {tile.shape = ["1"]},
                           %sb: !gS {tile.shape = ["1"]},
                           %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 128 : index
  %BK = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c0 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @fp8_gemm_tensor_kernel blocks(%bx, %by) in [%gx, %gy]
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
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%n0, %k0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc transpose_b : !sA, !sB, !fC
    } {tile.num_stages = 5 : i64}
    %a = memref.load %sa[%c0] : !gS
    %b = memref.load %sb[%c0] : !gS
    %s = arith.mulf %a, %b : f32
    tile.parallel (%i, %j) in [128, 128] {
      %x = memref.load %acc[%i, %j] : !fC
      %y = arith.mulf %x, %s : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}

func.func @fp8_gemm_rowwise(%A: !gA {tile.shape = ["M", "K"]},
                            %B: !gB {tile.shape = ["N", "K"]},
                            %sa: !gS {tile.shape = ["M"]},
                            %sb: !gS {tile.shape = ["N"]},
                            %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 128 : index
  %BK = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c0 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @fp8_gemm_rowwise_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %sa_t = tile.alloc : !fS
    %sb_t = tile.alloc : !fS
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %BM : index
    %n0 = arith.muli %bx, %BN : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %BK : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%n0, %k0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc transpose_b : !sA, !sB, !fC
    } {tile.num_stages = 5 : i64}
    tile.copy %sa[%m0], %sa_t : !gS to !fS
    tile.copy %sb[%n0], %sb_t : !gS to !fS
    tile.parallel (%i, %j) in [128, 128] {
      %x = memref.load %acc[%i, %j] : !fC
      %a = memref.load %sa_t[%i] : !fS
      %b = memref.load %sb_t[%j] : !fS
      %ab = arith.mulf %a, %b : f32
      %y = arith.mulf %x, %ab : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}

func.func @fp8_gemm_blockwise(%A: !gA {tile.shape = ["M", "K"]},
                              %B: !gB {tile.shape = ["N", "K"]},
                              %sa: !gS2 {tile.shape = ["M", "ceil(K/128)"]},
                              %sb: !gS2 {tile.shape = ["ceil(N/128)",
                                                       "ceil(K/128)"]},
                              %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 128 : index
  %BK = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c0 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @fp8_gemm_blockwise_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    %sa_t = tile.alloc : !fS
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %BM : index
    %n0 = arith.muli %bx, %BN : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %BK : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%n0, %k0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %part transpose_b clear_accum : !sA, !sB, !fC
      // Column k of sa: the scales of this K block's 1 x 128 groups.
      %col = memref.subview %sa[0, %k] [%M, 1] [1, 1] : !gS2 to !gCol
      tile.copy %col[%m0], %sa_t : !gCol to !fS
      %b = memref.load %sb[%bx, %k] : !gS2
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %acc[%i, %j] : !fC
        %p = memref.load %part[%i, %j] : !fC
        %a = memref.load %sa_t[%i] : !fS
        %ab = arith.mulf %a, %b : f32
        %y = math.fma %p, %ab, %x : f32
        memref.store %y, %acc[%i, %j] : !fC
      }
    } {tile.num_stages = 5 : i64}
    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
