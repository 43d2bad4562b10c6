// Quantization of bf16 activations to FP8 with one scale per 1 x 128 group
// (DeepSeek-V3's activation recipe), the input of examples/fp8_gemm.mlir's
// @fp8_gemm_blockwise:
//
//   X: M x K bf16  ->  Q: M x K f8E4M3FN,  S: M x KB f32, KB = ceil(K / 128)
//
//   S[i, g] = max(|X[i, 128 g .. 128 g + 127]|) / 448   (448: e4m3's largest)
//   Q[i, k] = X[i, k] / S[i, k / 128], rounded to nearest
//
// so that X ~ Q * S (S are dequantization factors). A group of zeros gets
// the scale 1e-12 / 448 and zeros. Each block quantizes a 64 x 128 tile:
// the group's absolute maximum is a tile.reduce over its rows, and the
// rounding to e4m3 saturates at 448 (`arith.truncf` to an 8-bit float,
// `cvt.rn.satfinite` on NVIDIA).

!gX = memref<?x?xbf16>
!gQ = memref<?x?xf8E4M3FN>
!gS = memref<?x?xf32>
!gCol = memref<?xf32, strided<[?], offset: ?>>
!fX = memref<64x128xf32, #tile.mem<fragment>>
!fQ = memref<64x128xf8E4M3FN, #tile.mem<fragment>>
!fRow = memref<64xf32, #tile.mem<fragment>>

func.func @fp8_quantize(%X: !gX {tile.shape = ["M", "K"]},
                        %Q: !gQ {tile.shape = ["M", "K"]},
                        %S: !gS {tile.shape = ["M", "ceil(K/128)"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 64 : index
  %G = arith.constant 128 : index
  %M = memref.dim %X, %c0 : !gX
  %K = memref.dim %X, %c1 : !gX
  %gx = arith.ceildivui %K, %G : index
  %gy = arith.ceildivui %M, %BM : index
  tile.kernel @fp8_quantize_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(128) {
    %x = tile.alloc : !fX
    %ax = tile.alloc : !fX
    %q = tile.alloc : !fQ
    %amax = tile.alloc : !fRow
    %tiny = arith.constant 1.0e-12 : f32
    %fmax = arith.constant 448.0 : f32
    %m0 = arith.muli %by, %BM : index
    %k0 = arith.muli %bx, %G : index
    // Zeros outside X: they change no maximum.
    tile.copy %X[%m0, %k0], %x : !gX to !fX
    tile.parallel (%i, %j) in [64, 128] {
      %v = memref.load %x[%i, %j] : !fX
      %a = math.absf %v : f32
      memref.store %a, %ax[%i, %j] : !fX
    }
    tile.reduce <max> %ax, %amax dim 1 clear : !fX to !fRow
    tile.parallel (%i, %j) in [64, 128] {
      %v = memref.load %x[%i, %j] : !fX
      %m = memref.load %amax[%i] : !fRow
      %mt = arith.maximumf %m, %tiny : f32
      %inv = arith.divf %fmax, %mt : f32
      %y = arith.mulf %v, %inv : f32
      %r = arith.truncf %y : f32 to f8E4M3FN
      memref.store %r, %q[%i, %j] : !fQ
    }
    tile.copy %q, %Q[%m0, %k0] : !fQ to !gQ
    // This group's column of S (the host code checked that S has
    // ceil(K / 128) columns).
    tile.parallel (%i) in [64] {
      %m = memref.load %amax[%i] : !fRow
      %mt = arith.maximumf %m, %tiny : f32
      %s = arith.divf %mt, %fmax : f32
      memref.store %s, %amax[%i] : !fRow
    }
    %col = memref.subview %S[0, %bx] [%M, 1] [1, 1] : !gS to !gCol
    tile.copy %amax, %col[%m0] : !fRow to !gCol
  }
  return
}
