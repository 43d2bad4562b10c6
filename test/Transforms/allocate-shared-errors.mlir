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

// -----

// Pinned staging buffers of two tensor stores that run one after the other:
// the second store's panels could overwrite the first's before its tensor
// store has read them.
!g = memref<?x?xbf16>
!f = memref<128x64xf32, #tile.mem<fragment>>
!st = memref<128x64xbf16, #gpu.address_space<workgroup>>
func.func @staging_in_sequence(%C: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %acc = tile.alloc : !f
    // expected-note @below {{the other tile}}
    %s0 = tile.alloc {offset = 0 : i64} : !st
    // expected-error @below {{'tile.alloc' op overlaps bytes [0, 16384) of shared memory with a tile whose contents may be live there}}
    %s1 = tile.alloc {offset = 0 : i64} : !st
    tile.copy %acc, %C[%c0, %c0] scratch(%s0 : !st) {tile.tma_store = 2 : i64} : !f to !g
    tile.copy %acc, %C[%c0, %c0] scratch(%s1 : !st) {tile.tma_store = 2 : i64} : !f to !g
  }
  return
}

// -----

// The same in the two branches of one scf.if: never both in one run, so
// the placement stands.
!g = memref<?x?xbf16>
!f = memref<128x64xf32, #tile.mem<fragment>>
!st = memref<128x64xbf16, #gpu.address_space<workgroup>>
func.func @staging_exclusive(%C: !g, %whole: i1) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %acc = tile.alloc : !f
    %s0 = tile.alloc {offset = 0 : i64} : !st
    %s1 = tile.alloc {offset = 0 : i64} : !st
    scf.if %whole {
      tile.copy %acc, %C[%c0, %c0] scratch(%s0 : !st) {tile.tma_store = 2 : i64} : !f to !g
    } else {
      tile.copy %acc, %C[%c0, %c0] scratch(%s1 : !st) {tile.tma_store = 2 : i64} : !f to !g
    }
  }
  return
}
