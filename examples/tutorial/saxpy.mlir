// y = a * x + y over vectors of any length n, in blocks of 1024 elements:
// the first kernel of docs/tutorial.md.

!g = memref<?xf32>
!f = memref<1024xf32, #tile.mem<fragment>>

func.func @saxpy(%a: f32, %x: !g {tile.shape = ["N"]},
                 %y: !g {tile.shape = ["N"]}) {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %n = memref.dim %x, %c0 : !g
  %blocks = arith.ceildivui %n, %c1024 : index
  tile.kernel @saxpy_kernel blocks(%b) in [%blocks] threads(128) {
    %xt = tile.alloc : !f
    %yt = tile.alloc : !f
    %base = arith.muli %b, %c1024 : index
    tile.copy %x[%base], %xt : !g to !f
    tile.copy %y[%base], %yt : !g to !f
    tile.parallel (%i) in [1024] {
      %xv = memref.load %xt[%i] : !f
      %yv = memref.load %yt[%i] : !f
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %yt[%i] : !f
    }
    tile.copy %yt, %y[%base] : !f to !g
  }
  return
}
