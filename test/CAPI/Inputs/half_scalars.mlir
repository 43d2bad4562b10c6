// A host function with 16-bit float scalar arguments (test/CAPI/host_aot.test).
!g = memref<?xf16>
!f = memref<256xf16, #tile.mem<fragment>>
func.func @scale(%x: !g {tile.shape = ["N"]}, %alpha: f16, %beta: bf16) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : !g
  %blocks = arith.ceildivui %n, %c256 : index
  %bf = arith.extf %beta : bf16 to f32
  %b16 = arith.truncf %bf : f32 to f16
  tile.kernel @scale_kernel blocks(%b) in [%blocks] threads(128) {
    %t = tile.alloc : !f
    %base = arith.muli %b, %c256 : index
    tile.copy %x[%base], %t : !g to !f
    tile.parallel (%i) in [256] {
      %v = memref.load %t[%i] : !f
      %p = arith.mulf %alpha, %v : f16
      %q = arith.addf %p, %b16 : f16
      memref.store %q, %t[%i] : !f
    }
    tile.copy %t, %x[%base] : !f to !g
  }
  return
}
