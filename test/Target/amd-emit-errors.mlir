// RUN: tile-opt %s -split-input-file -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics
//
// The MFMA emitter checks the choice itself: IR whose layouts are given
// (no layout inference, which verifies choices first) reaches it with a
// pinned `#tile.mma` as written.

// A pinned choice on IR that skipped layout inference is checked by the
// emitter (an unknown instruction size would divide by zero).
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @pinned_unverified() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc {alignment = 512 : i64, layout = #tile.shared<swizzle = 64>} : !sA
    %b = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : !sB
    %c = tile.alloc {layout = #tile.linear<[64, 64], register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[0, 32], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0]]>} : !fC
    // expected-error @+1 {{mfma on gfx942 has the shapes 32x32x8 and 16x16x16 for 'f16' inputs, got 128x128x4}}
    tile.gemm %a, %b, %c {mma = #tile.mma<mfma, shape = [128, 128, 4], warps = [1, 1]>} : !sA, !sB, !fC
  }
  return
}
}
