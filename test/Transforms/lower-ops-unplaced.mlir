// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-lower-ops -verify-diagnostics

// Where a shared tile lies is tile-allocate-shared's decision, in the IR
// (its offset): lowering a tile without one is an error.
!s8 = memref<8x8xf16, #gpu.address_space<workgroup>>
func.func @unplaced() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @below {{'tile.alloc' op has no place in shared memory: run tile-allocate-shared before tile-lower-ops}}
    %a = tile.alloc : !s8
  }
  return
}

// -----

// Overlapping offsets are checked again where they are emitted.
!s8 = memref<8x8xf16, #gpu.address_space<workgroup>>
func.func @overlap() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-note @below {{the other tile}}
    %a = tile.alloc {offset = 0 : i64} : !s8
    // expected-error @below {{'tile.alloc' op overlaps bytes [64, 128) of shared memory with a tile whose contents may be live there}}
    %b = tile.alloc {offset = 64 : i64} : !s8
  }
  return
}
