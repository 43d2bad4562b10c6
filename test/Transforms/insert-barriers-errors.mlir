// RUN: tile-opt %s -split-input-file -tile-insert-barriers -verify-diagnostics

// A loop whose software-pipeline schedule has not been expanded: its
// 'tile.stage' / 'tile.order' count the body's ops, so barriers placed into
// it would break the schedule. tile-inject-pipeline runs first.
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @unexpanded_schedule(%A: memref<?x?xf16>, %kt: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
      %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
      // expected-error @+1 {{'scf.for' op still carries a software-pipeline schedule ('tile.stage' / 'tile.order'): run tile-inject-pipeline before tile-insert-barriers}}
      scf.for %k = %c0 to %kt step %c1 {
        tile.copy %A[%c0, %k], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
        tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      } {tile.num_stages = 2 : i64, tile.stage = array<i64: 0, 1>, tile.order = array<i64: 1, 0>}
    }
    return
  }
}

// -----

// An order alone is a schedule too.
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @order_only(%A: memref<?x?xf16>, %kt: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
      %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
      // expected-error @+1 {{still carries a software-pipeline schedule}}
      scf.for %k = %c0 to %kt step %c1 {
        tile.copy %A[%c0, %k], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
        tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      } {tile.num_stages = 2 : i64, tile.order = array<i64: 1, 0>}
    }
    return
  }
}

// -----

// More regions that synchronize than the chip has barriers for subsets of
// the block (15 on sm_90a besides the block's): a pingpong region of four
// warpgroups after regions that took the others.
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @out_of_barriers() {
    tile.kernel @k blocks(%bx) in [1] threads(512) {
      tile.ws [0, 1, 2, 3] pingpong {
        tile.barrier
      }
      tile.ws [0, 1, 2, 3] pingpong {
        tile.barrier
      }
      tile.ws [0, 1, 2, 3] pingpong {
        tile.barrier
      }
      // expected-error @+1 {{'tile.ws' op needs 4 barriers for turns, but sm_90a has 15 barriers for subsets of the block and earlier tile.ws regions use them all}}
      tile.ws [0, 1, 2, 3] pingpong {
      }
    }
    return
  }
}
