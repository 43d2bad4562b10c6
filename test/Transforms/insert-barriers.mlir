// RUN: tile-opt %s -split-input-file -tile-insert-barriers | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-insert-barriers -tile-insert-barriers | FileCheck %s

// The block's synchronization, written into the IR. On a chip with an
// asynchronous copy engine (sm_80), the run of synchronous global -> shared
// copies becomes async copies, one commit and a wait for everything (which
// orders them before their readers); the barrier before them protects
// earlier readers. A register -> shared write gets a barrier before it
// (others still read the tile it overwrites) and after it (the next op
// reads it). The kernel is marked: running the pass again changes nothing.

!g = memref<?x?xf16>
!s = memref<64x32xf16, #gpu.address_space<workgroup>>
!f = memref<64x32xf16, #tile.mem<fragment>>

// CHECK-LABEL: func.func @copy_engine
// CHECK: tile.kernel @k {{.*}} attributes {tile.synchronized}
// CHECK: tile.barrier
// CHECK-NEXT: tile.copy async %{{.*}}, %[[A:.*]] :
// CHECK-NEXT: tile.copy async %{{.*}}, %[[B:.*]] :
// CHECK-NEXT: tile.async_commit
// CHECK-NEXT: tile.async_wait 0
// CHECK-NEXT: tile.copy %[[A]], %[[F:.*]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[F]], %[[B]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[B]], %{{.*}}[
// CHECK-NOT: tile.barrier
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @copy_engine(%A: !g, %i: index) {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %a = tile.alloc : !s
      %b = tile.alloc : !s
      %f = tile.alloc : !f
      tile.copy %A[%i, %i], %a : !g to !s
      tile.copy %A[%i, %i], %b : !g to !s
      tile.copy %a, %f : !s to !f
      tile.copy %f, %b : !f to !s
      tile.copy %b, %A[%i, %i] : !s to !g
    }
    return
  }
}

// -----

// Without a copy engine (gfx942) the copies stay synchronous: one barrier
// before the two consecutive writers and one after them.

!g = memref<?x?xf16>
!s = memref<64x32xf16, #gpu.address_space<workgroup>>
!f = memref<64x32xf16, #tile.mem<fragment>>

// CHECK-LABEL: func.func @no_copy_engine
// CHECK: tile.barrier
// CHECK-NEXT: tile.copy %{{.*}}, %[[A:.*]] : memref<?x?xf16> to
// CHECK-NEXT: tile.copy %{{.*}}, %{{.*}} : memref<?x?xf16> to
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[A]], %{{.*}} :
// CHECK-NOT: async
// CHECK: return
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @no_copy_engine(%A: !g, %i: index) {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %a = tile.alloc : !s
      %b = tile.alloc : !s
      %f = tile.alloc : !f
      tile.copy %A[%i, %i], %a : !g to !s
      tile.copy %A[%i, %i], %b : !g to !s
      tile.copy %a, %f : !s to !f
    }
    return
  }
}

// -----

// Ops that touch only registers between two writers (a fragment fill, index
// arithmetic) do not separate them: the writers share their barriers, and
// their loads overlap (the rotated FlashAttention's Q, first-key and
// last-value copies). An op that reads shared memory between them does.

!g = memref<?x?xf16>
!s = memref<64x32xf16, #gpu.address_space<workgroup>>
!f = memref<64x32xf16, #tile.mem<fragment>>

// CHECK-LABEL: func.func @thread_local_between
// CHECK: tile.barrier
// CHECK-NEXT: tile.copy %{{.*}}, %[[A:.*]] : memref<?x?xf16> to
// CHECK-NEXT: tile.fill
// CHECK-NEXT: arith.addi
// CHECK-NEXT: tile.copy %{{.*}}, %{{.*}} : memref<?x?xf16> to
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[A]], %{{.*}} :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %{{.*}}, %[[A]] : memref<?x?xf16> to
// CHECK-NEXT: tile.barrier
// CHECK: return
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @thread_local_between(%A: !g, %i: index) {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %zero = arith.constant 0.0 : f16
      %a = tile.alloc : !s
      %b = tile.alloc : !s
      %f = tile.alloc : !f
      tile.copy %A[%i, %i], %a : !g to !s
      tile.fill %f, %zero : !f
      %j = arith.addi %i, %i : index
      tile.copy %A[%j, %i], %b : !g to !s
      tile.copy %a, %f : !s to !f
      tile.copy %A[%j, %j], %a : !g to !s
    }
    return
  }
}

// -----

// A pipelined loop: its copies are already counted in groups (its hand-offs
// order them), so none becomes a run of its own; the barrier before the
// slot's copies orders the previous readers' release.

!g = memref<?x?xf16>
!s = memref<64x32xf16, #gpu.address_space<workgroup>>
!f = memref<64x32xf16, #tile.mem<fragment>>

// CHECK-LABEL: func.func @pipelined
// CHECK: tile.pipe.produce_acquire
// CHECK-NOT: tile.async_commit
// CHECK: tile.copy async
// CHECK: tile.pipe.produce_commit
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @pipelined(%A: !g, %n: index) {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %pipe = tile.pipe.create : <2>
      %a = tile.alloc : memref<2x64x32xf16, #gpu.address_space<workgroup>>
      scf.for %k = %c0 to %n step %c1 {
        tile.pipe.produce_acquire %pipe[%k] : <2>
        %s = arith.remui %k, %c1 : index
        %v = memref.subview %a[%s, 0, 0] [1, 64, 32] [1, 1, 1] : memref<2x64x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        %k0 = arith.muli %k, %c32 : index
        tile.copy async %A[%c0, %k0], %v : !g to memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        tile.pipe.produce_commit %pipe[%k] : <2>
        tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
        tile.pipe.consume_release %pipe[%k] : <2>
      }
    }
    return
  }
}

// -----

// Barrier ids of warp-specialized regions. The producer region [0] does not
// synchronize its threads (no barrier of its own); the consumer region [1]
// waits for hand-offs, so its barriers get barrier 1, over its threads
// only. A pingpong region of two warpgroups takes the next two barriers for
// its turns, one per warpgroup.

!s = memref<64x32xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @ws_ids
// CHECK: tile.ws [0] {
// CHECK: tile.ws [1] attributes {barrier = 1 : i64} {
// CHECK: tile.ws [2, 3] pingpong attributes {barrier = 2 : i64, turn_barrier = 3 : i64} {
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @ws_ids(%n: index) {
    tile.kernel @k blocks(%bx) in [1] threads(512) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pipe = tile.pipe.create : <2>
      tile.ws [0] {
        scf.for %k = %c0 to %n step %c1 {
          tile.pipe.produce_acquire %pipe[%k] : <2>
          tile.pipe.produce_commit %pipe[%k] : <2>
        }
      }
      tile.ws [1] {
        scf.for %k = %c0 to %n step %c1 {
          tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
          tile.pipe.consume_release %pipe[%k] : <2>
        }
      }
      tile.ws [2, 3] pingpong {
        tile.barrier
      }
    }
    return
  }
}

// -----

// Regions taking turns between them (tile.turn_wait / tile.turn_pass) form a
// ring in warpgroup order, each with a barrier: region [1] waits at its own
// (1, with region [2] before it in the ring: 256 threads) and passes at
// region [2]'s (2).

// CHECK-LABEL: func.func @region_ring
// CHECK: tile.ws [1] attributes {region_turn = array<i64: 1, 256, 2, 256>} {
// CHECK: tile.ws [2] attributes {region_turn = array<i64: 2, 256, 1, 256>} {
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @region_ring() {
    tile.kernel @k blocks(%bx) in [1] threads(384) {
      tile.ws [1] {
        tile.turn_wait
        tile.turn_pass
      }
      tile.ws [2] {
        tile.turn_wait
        tile.turn_pass
      }
    }
    return
  }
}
