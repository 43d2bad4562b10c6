// RUN: tile-opt %s -tile-layout-inference -tile-lower-ops -verify-diagnostics

// The block's barriers are tile-insert-barriers' decision, in the IR:
// lowering a kernel that has not been through it would let its
// shared-memory writes race, so it is an error.
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @unsynchronized(%A: memref<?x?xf16>, %i: index) {
    // expected-error @+1 {{'tile.kernel' op has no barriers around its shared-memory writes yet: run tile-insert-barriers before tile-lower-ops}}
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %a = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%i, %i], %a : memref<?x?xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
    }
    return
  }
}
