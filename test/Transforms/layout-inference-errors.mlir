// RUN: tile-opt %s -split-input-file -tile-layout-inference -verify-diagnostics

// Layouts partition tiles over the threads of the kernel's tile.ws regions:
// the target's legality checks run first (gfx942 has no warpgroups; the
// fill below would be partitioned over none).
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @ws_on_amd(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %x = tile.alloc : memref<24xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.ws' op needs warpgroups, which gfx942 does not have: warp specialization is not supported there}}
    tile.ws [1, 2] {
      %one = arith.constant 1.0 : f32
      tile.fill %x, %one : memref<24xf32, #tile.mem<fragment>>
      tile.copy %x, %out[%c0] : memref<24xf32, #tile.mem<fragment>> to memref<?xf32>
    }
  }
  return
}
}
