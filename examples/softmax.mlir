// Row-wise softmax, Y = softmax(X) along each row, written at tile
// granularity.
//
//   X, Y: R x N (row-major) f16, N <= 1024; the math is in f32.
//
// Each thread block takes 4 rows with 128 threads: the grid is ceil(R / 4).
// The block copies its 4 x 1024 window of X into registers, converting to
// f32. Columns past N (and rows past R) read as -inf, the copy's
// `padding`: they neither raise a row's maximum nor add to its sum
// (exp(-inf) = 0), so the reductions run over whole tiles without masks.
// Rows past R are computed but never stored: copies drop writes outside
// the tensor.
//
// `N<=1024` in the `tile.shape` annotations is the kernel's limit: a call
// with longer rows is refused by the host function, with a message naming
// the bound, and nothing is launched.

!gX = memref<?x?xf16>
!fX = memref<4x1024xf32, #tile.mem<fragment>>
!fRow = memref<4xf32, #tile.mem<fragment>>

func.func @softmax(%X: !gX {tile.shape = ["R", "N<=1024"]},
                   %Y: !gX {tile.shape = ["R", "N<=1024"]}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %R = memref.dim %X, %c0 : !gX
  %blocks = arith.ceildivui %R, %c4 : index

  tile.kernel @softmax_kernel blocks(%bx) in [%blocks] threads(128) {
    %x = tile.alloc : !fX
    %row_max = tile.alloc : !fRow
    %row_sum = tile.alloc : !fRow
    %r0 = arith.muli %bx, %c4 : index

    // -inf outside the tensor (0xFF800000 is the f32 bit pattern of -inf).
    tile.copy %X[%r0, %c0], %x padding(0xFF800000 : f32) : !gX to !fX
    tile.reduce <max> %x, %row_max dim 1 clear : !fX to !fRow
    tile.parallel (%i, %j) in [4, 1024] {
      %v = memref.load %x[%i, %j] : !fX
      %m = memref.load %row_max[%i] : !fRow
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      memref.store %e, %x[%i, %j] : !fX
    }
    tile.reduce <sum> %x, %row_sum dim 1 clear : !fX to !fRow
    tile.parallel (%i, %j) in [4, 1024] {
      %e = memref.load %x[%i, %j] : !fX
      %s = memref.load %row_sum[%i] : !fRow
      %y = arith.divf %e, %s : f32
      memref.store %y, %x[%i, %j] : !fX
    }
    tile.copy %x, %Y[%r0, %c0] : !fX to !gX
  }
  return
}
