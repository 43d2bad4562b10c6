// Y = X padded to whole 64 x 64 tiles with 7.0: each block walks its row of
// tiles in a 2-stage pipelined loop whose global -> shared copy is
// asynchronous (cp.async on NVIDIA) and pads with 7.0, then moves the tile
// through registers to Y, which the caller sizes to whole tiles.
!gX = memref<?x?xf16>
!sT = memref<64x64xf16, #gpu.address_space<workgroup>>
!fT = memref<64x64xf16, #tile.mem<fragment>>

func.func @pad_copy(%X: !gX {tile.shape = ["R", "C"]},
                    %Y: !gX {tile.shape = ["RT", "CT"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %R = memref.dim %X, %c0 : !gX
  %C = memref.dim %X, %c1 : !gX
  %rows = arith.ceildivui %R, %c64 : index
  %cols = arith.ceildivui %C, %c64 : index
  tile.kernel @pad_copy_kernel blocks(%by) in [%rows] threads(128) {
    %s = tile.alloc : !sT
    %f = tile.alloc : !fT
    %r0 = arith.muli %by, %c64 : index
    scf.for %k = %c0 to %cols step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %X[%r0, %k0], %s padding(7.0 : f16) : !gX to !sT
      tile.copy %s, %f : !sT to !fT
      tile.copy %f, %Y[%r0, %k0] : !fT to !gX
    } {tile.num_stages = 2 : i64}
  }
  return
}
