// The block-scaled FP8 GEMM of examples/fp8_gemm.mlir with 128 x 256 tiles
// (the example's are 128 x 128): the K block's product (%part) and the
// running sum (%acc) would take 256 registers a thread, so
// tile-fuse-consumer hands the product to the scaling tile.parallel one
// 128-column half at a time (`consumer_chunk = 128`), and the gemm issues
// m64n128k32, completes and consumes each half before the next.
// fuse-consumer.mlir and ptxas-fp8.mlir check it; docs/perf.md run 53b
// measures it. B's scales come per 128 rows, so a 256-wide tile reads two
// (the second clamped to the last block).

!gA = memref<?x?xf8E4M3FN>
!gB = memref<?x?xf8E4M3FN>
!gC = memref<?x?xbf16>
!gS2 = memref<?x?xf32>
!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fS = memref<128xf32, #tile.mem<fragment>>
!sBw = memref<256x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fCw = memref<128x256xf32, #tile.mem<fragment>>
!gCol = memref<?xf32, strided<[?], offset: ?>>

func.func @fp8_gemm_blockwise(%A: !gA {tile.shape = ["M", "K"]},
                              %B: !gB {tile.shape = ["N", "K"]},
                              %sa: !gS2 {tile.shape = ["M", "ceil(K/128)"]},
                              %sb: !gS2 {tile.shape = ["ceil(N/128)",
                                                       "ceil(K/128)"]},
                              %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 256 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %BK = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c0 : !gB
  %gx = arith.ceildivui %N, %BN : index
  // The last of B's 128-row blocks (a 256-wide tile spans two).
  %nb = arith.ceildivui %N, %c128 : index
  %nbLast = arith.subi %nb, %c1 : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @fp8_gemm_blockwise_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sBw
    %acc = tile.alloc : !fCw
    %part = tile.alloc : !fCw
    %sa_t = tile.alloc : !fS
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fCw
    %m0 = arith.muli %by, %BM : index
    %n0 = arith.muli %bx, %BN : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %BK : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%n0, %k0], %Bs : !gB to !sBw
      tile.gemm %As, %Bs, %part transpose_b clear_accum : !sA, !sBw, !fCw
      // Column k of sa: the scales of this K block's 1 x 128 groups.
      %col = memref.subview %sa[0, %k] [%M, 1] [1, 1] : !gS2 to !gCol
      tile.copy %col[%m0], %sa_t : !gCol to !fS
      // The scales of the tile's two 128-column halves (the second one
      // clamped: past N it scales nothing that is stored).
      %nb0 = arith.muli %bx, %c2 : index
      %nb1 = arith.addi %nb0, %c1 : index
      %nb1c = arith.minui %nb1, %nbLast : index
      %b0 = memref.load %sb[%nb0, %k] : !gS2
      %b1 = memref.load %sb[%nb1c, %k] : !gS2
      tile.parallel (%i, %j) in [128, 256] {
        %x = memref.load %acc[%i, %j] : !fCw
        %p = memref.load %part[%i, %j] : !fCw
        %a = memref.load %sa_t[%i] : !fS
        %high = arith.cmpi uge, %j, %c128 : index
        %b = arith.select %high, %b1, %b0 : f32
        %ab = arith.mulf %a, %b : f32
        %y = math.fma %p, %ab, %x : f32
        memref.store %y, %acc[%i, %j] : !fCw
      }
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%m0, %n0] : !fCw to !gC
  }
  return
}
