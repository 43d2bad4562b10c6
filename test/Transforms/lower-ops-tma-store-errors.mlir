// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics

// tile.tma_store is tile-select-tma's decision; written by hand it is
// checked before the lowering: a chip with tensor copies, and a copy whose
// tile is whole 128-byte panels (a hand-written one on gfx90a crashed the
// lowering, issue 26).

module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @amd(%C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<64x64xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op is a tensor store (tile.tma_store), which needs a chip with tensor copies; gfx90a has none}}
    tile.copy %f, %C[%c0, %c0] {tile.tma_store = 1} : memref<64x64xf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @narrow(%C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<16x16xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op cannot be a tensor store (tile.tma_store): the tile is not whole panels (at most 64) of at most 256 rows x 128 bytes}}
    tile.copy %f, %C[%c0, %c0] {tile.tma_store = 1} : memref<16x16xf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}
}

// -----

// A region storing per warpgroup (store_barrier, written by hand here) needs
// each warpgroup's threads to hold rows of its own slab only; this
// fragment's layout spreads every warpgroup over rows of both slabs.

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @rows_shared(%C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 1.0 : f16
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %f = tile.alloc : memref<64x64xf16, #tile.mem<fragment>>
    tile.ws [0, 1] attributes {store_barrier = 2 : i64} {
      tile.fill %f, %x : memref<64x64xf16, #tile.mem<fragment>>
      // expected-error @+1 {{'tile.copy' op cannot be stored by each warpgroup of its region apart (store_barrier): a warpgroup's threads hold rows outside its slab of 32 rows}}
      tile.copy %f, %C[%c0, %c0] {tile.tma_store = 1} : memref<64x64xf16, #tile.mem<fragment>> to memref<?x?xf16>
    }
  }
  return
}
}
