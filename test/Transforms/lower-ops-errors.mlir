// RUN: tile-opt %s -split-input-file -allow-unregistered-dialect -tile-layout-inference -tile-insert-barriers -tile-lower-ops -verify-diagnostics

// An op the GPU lowering does not know, inside a kernel, is an error of
// tile-lower-ops, not passed on to the next pass.
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @unknown_op(%X: memref<?xf32>) {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      // expected-error @+1 {{'mystery.op' op is not lowered by tile-lower-ops: a kernel may hold tile ops and ops of registered dialects only}}
      "mystery.op"() : () -> ()
    }
    return
  }
}

// -----

// The same inside a loop, after tile ops that lower.
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @unknown_in_loop(%X: memref<?xf32>, %n: index) {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %f = tile.alloc : memref<128xf32, #tile.mem<fragment>>
      scf.for %i = %c0 to %n step %c1 {
        tile.copy %X[%i], %f : memref<?xf32> to memref<128xf32, #tile.mem<fragment>>
        // expected-error @+1 {{'mystery.op' op is not lowered by tile-lower-ops}}
        "mystery.op"(%i) : (index) -> ()
      }
    }
    return
  }
}

// -----

// Clusters of blocks on a chip without them.
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @cluster_on_sm80(%X: memref<?xf32>) {
    // expected-error @+1 {{'tile.kernel' op runs in clusters of 2 blocks, which sm_80 does not have}}
    tile.kernel @k blocks(%bx) in [2] threads(128) attributes {tile.cluster = 2 : i64} {
      %f = tile.alloc : memref<128xf32, #tile.mem<fragment>>
      %c0 = arith.constant 0 : index
      tile.copy %X[%c0], %f : memref<?xf32> to memref<128xf32, #tile.mem<fragment>>
    }
    return
  }
}
