// RUN: tile-opt %s -split-input-file -tile-allocate-shared -verify-diagnostics

// A placement is all the user's or all the pass's.
!s8 = memref<8x8xf16, #gpu.address_space<workgroup>>
func.func @partly_pinned() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-note @below {{a pinned tile}}
    %a = tile.alloc {offset = 0 : i64} : !s8
    // expected-error @below {{'tile.alloc' op has no offset, but other shared tiles of the kernel have one: pin every shared tile's offset or none}}
    %b = tile.alloc : !s8
  }
  return
}

// -----

// Pinned tiles that overlap while both may hold live data.
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
