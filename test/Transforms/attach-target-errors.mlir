// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=gfx942 --verify-each=false -verify-diagnostics

// A module naming another chip than the one requested.
// expected-error @below {{the module targets sm_80, but gfx942 was requested}}
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @other_chip() {
    return
  }
}

// -----

// What verified for the default chip (128-thread warpgroups) does not on
// gfx942, which has no warpgroups: the region's loop would unroll over one
// thread. The pass fails at the op instead of leaving IR that does not
// verify.
func.func @parallel_ws(%A: memref<?x?xf32>) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    tile.ws [1] {
      // expected-error @below {{'tile.parallel' op unrolls 262144 iterations per thread (its iteration space padded to powers of two, over 1 threads), more than the limit of 2048; split the loop or use smaller tiles}}
      tile.parallel (%i, %j) in [512, 512] {
        %x = memref.load %A[%i, %j] : memref<?x?xf32>
        memref.store %x, %A[%j, %i] : memref<?x?xf32>
      }
    }
  }
  return
}
