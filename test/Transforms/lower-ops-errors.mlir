// RUN: tile-opt %s -split-input-file -allow-unregistered-dialect -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics

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

// -----

// A kernel marked synchronized by hand whose warpgroup region waits for
// hand-offs but has no barrier of its own: barrier 0 would wait for the
// whole block.
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @ws_without_barrier(%n: index) {
    tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.synchronized} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pipe = tile.pipe.create : <2>
      // expected-error @+1 {{'tile.ws' op synchronizes its warpgroups but has no barrier of its own: run tile-insert-barriers before tile-lower-ops}}
      tile.ws [1] {
        scf.for %k = %c0 to %n step %c1 {
          tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
          tile.pipe.consume_release %pipe[%k] : <2>
        }
      }
    }
    return
  }
}

// -----

// The same for a pingpong region's turns.
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @pingpong_without_turns() {
    tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.synchronized} {
      // expected-error @+1 {{'tile.ws' op takes turns (pingpong) but has no turn barriers: run tile-insert-barriers before tile-lower-ops}}
      tile.ws [0, 1] pingpong {
      }
    }
    return
  }
}

// -----

// Barrier ids set by hand beyond the chip's.
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @barrier_out_of_range() {
    tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.synchronized} {
      // expected-error @+1 {{'tile.ws' op uses turn barriers up to id 16, but sm_90a has 15 barriers for subsets of the block}}
      tile.ws [0, 1] pingpong attributes {turn_barrier = 15 : i64} {
      }
    }
    return
  }
}

// -----

// The consumer's scales are written before the gemm in its loop: run one
// gemm late, the consumer would read the next K block's, so the lowering
// refuses a hand-written tile.consumer_late with MMAs in flight.
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @late_not_allowed(%sa: memref<?xf32>, %kt: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %as = tile.alloc : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    %part = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    %s = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %sa[%c0], %s : memref<?xf32> to memref<128xf32, #tile.mem<fragment>>
      // expected-error @below {{consumes its product one gemm late (tile.consumer_late), which its loop does not allow: ops of its loop outside the gemm and its consumer use the tiles the consumer reads or writes}}
      tile.gemm %as, %bs, %part transpose_b clear_accum {mma_groups_in_flight = 1 : i64, tile.consumer_late = true} : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %acc[%i, %j] : memref<128x128xf32, #tile.mem<fragment>>
        %p = memref.load %part[%i, %j] : memref<128x128xf32, #tile.mem<fragment>>
        %f = memref.load %s[%i] : memref<128xf32, #tile.mem<fragment>>
        %y = math.fma %p, %f, %x : f32
        memref.store %y, %acc[%i, %j] : memref<128x128xf32, #tile.mem<fragment>>
      }
    }
  }
  return
}
}
