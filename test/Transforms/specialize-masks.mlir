// RUN: tile-opt %s -split-input-file --tile-specialize-masks="remarks=true" -verify-diagnostics | FileCheck %s

// tile-specialize-masks: a mask that holds for whole tiles on a prefix of
// a loop's iterations (FlashAttention's causal mask below the diagonal) is
// applied only from the first iteration a tile may fail it, computed before
// the loop.

!fS = memref<128x64xf32, #tile.mem<fragment>>

// key = 64 kb + j <= query = q0 + i for every i, j while 64 kb + 63 - q0 <= 0:
// the prefix has floor((q0 - 63 - 64 lb) / 64) + 1 iterations (at least 0),
// which end at lb + that, clamped to [lb, ub].
// CHECK-LABEL: func.func @causal(
// CHECK-SAME: %{{.*}}: memref<?x?xf32>, %[[N:.*]]: index)
// CHECK: tile.kernel @causal_kernel blocks(%[[BX:.*]]) in [4] threads(128) {
// CHECK: %[[Q0:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK: %[[C63:.*]] = arith.constant 63 : index
// CHECK: %[[MINUS1:.*]] = arith.constant -1 : index
// CHECK: %[[NEGQ:.*]] = arith.muli %[[Q0]], %[[MINUS1]] : index
// CHECK: %[[B:.*]] = arith.addi %[[C63]], %[[NEGQ]] : index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[CLB:.*]] = arith.muli %[[C64]], %[[LB:.*]] : index
// CHECK: %[[BLB:.*]] = arith.addi %[[B]], %[[CLB]] : index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[ROOM:.*]] = arith.subi %[[ZERO]], %[[BLB]] : index
// CHECK: %[[STRIDE:.*]] = arith.muli %[[C64]], %[[STEP:.*]] : index
// CHECK: %[[Q:.*]] = arith.floordivsi %[[ROOM]], %[[STRIDE]] : index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[COUNT:.*]] = arith.addi %[[Q]], %[[ONE]] : index
// CHECK: %[[COUNT0:.*]] = arith.maxsi %[[COUNT]], %[[ZERO]] : index
// CHECK: %[[ADV:.*]] = arith.muli %[[COUNT0]], %[[STEP]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[LB]], %[[ADV]] : index
// CHECK: %[[ATLB:.*]] = arith.maxsi %[[AT]], %[[LB]] : index
// CHECK: %[[UBLB:.*]] = arith.maxsi %[[N]], %[[LB]] : index
// CHECK: %[[SPLIT:.*]] = arith.minsi %[[ATLB]], %[[UBLB]] : index
// In the loop: below the split, nothing (the mask without its select
// stores back what it loads); from it on, the mask as written.
// CHECK: scf.for %[[KB:.*]] = %[[LB]] to %[[N]] step %[[STEP]] {
// CHECK: tile.copy
// CHECK: %[[BELOW:.*]] = arith.cmpi slt, %[[KB]], %[[SPLIT]] : index
// CHECK: scf.if %[[BELOW]] {
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.parallel
// CHECK: arith.cmpi ule
// CHECK: arith.select
// CHECK: }
// CHECK: tile.copy
// CHECK: } {tile.num_stages = 2 : i64}
func.func @causal(%S: memref<?x?xf32>, %n: index) {
  tile.kernel @causal_kernel blocks(%bx) in [4] threads(128) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %neg_inf = arith.constant 0xFF800000 : f32
    %s = tile.alloc : !fS
    %q0 = arith.muli %bx, %c128 : index
    scf.for %kb = %c0 to %n step %c1 {
      %k0 = arith.muli %kb, %c64 : index
      tile.copy %S[%q0, %k0], %s : memref<?x?xf32> to !fS
      // expected-remark @below {{mask applied only from the first iteration where a tile may fail it (computed before the loop); the iterations before it skip the tile.parallel}}
      tile.parallel (%i, %j) in [128, 64] {
        %key = arith.addi %k0, %j : index
        %query = arith.addi %q0, %i : index
        %visible = arith.cmpi ule, %key, %query : index
        %v = memref.load %s[%i, %j] : !fS
        %m = arith.select %visible, %v, %neg_inf : f32
        memref.store %m, %s[%i, %j] : !fS
      }
      tile.copy %s, %S[%q0, %k0] : !fS to memref<?x?xf32>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

!fS = memref<128x64xf32, #tile.mem<fragment>>

// Masks the pass leaves alone, and why.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: scf.if
func.func @kept(%S: memref<?x?xf32>, %n: index, %off: index) {
  tile.kernel @kept_kernel blocks(%bx) in [4] threads(128) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %neg_inf = arith.constant 0xFF800000 : f32
    %s = tile.alloc : !fS
    scf.for %kb = %c0 to %n step %c1 {
      %k0 = arith.muli %kb, %c64 : index
      // expected-remark @below {{mask kept on every iteration: it does not hold on a prefix of the loop (the loop index's coefficient is not positive)}}
      tile.parallel (%i, %j) in [128, 64] {
        %key = arith.addi %k0, %j : index
        %visible = arith.cmpi uge, %key, %i : index
        %v = memref.load %s[%i, %j] : !fS
        %m = arith.select %visible, %v, %neg_inf : f32
        memref.store %m, %s[%i, %j] : !fS
      }
    }
    scf.for %kb = %c0 to %n step %c1 {
      %k0 = arith.muli %kb, %c64 : index
      // expected-remark @below {{mask kept on every iteration: its comparison is an equality}}
      tile.parallel (%i, %j) in [128, 64] {
        %key = arith.addi %k0, %j : index
        %visible = arith.cmpi eq, %key, %i : index
        %v = memref.load %s[%i, %j] : !fS
        %m = arith.select %visible, %v, %neg_inf : f32
        memref.store %m, %s[%i, %j] : !fS
      }
    }
    scf.for %kb = %c0 to %n step %c1 {
      %k0 = arith.muli %kb, %c64 : index
      // expected-remark @below {{mask kept on every iteration: its comparison is not linear in the loop's and the tile's indices}}
      tile.parallel (%i, %j) in [128, 64] {
        %sq = arith.muli %j, %j : index
        %visible = arith.cmpi ule, %sq, %k0 : index
        %v = memref.load %s[%i, %j] : !fS
        %m = arith.select %visible, %v, %neg_inf : f32
        memref.store %m, %s[%i, %j] : !fS
      }
    }
    scf.for %kb = %c0 to %n step %c1 {
      %k0 = arith.muli %kb, %c64 : index
      // expected-remark @below {{mask kept on every iteration: its unsigned comparison has operands that may be negative}}
      tile.parallel (%i, %j) in [128, 64] {
        %key = arith.addi %k0, %off : index
        %visible = arith.cmpi ule, %key, %i : index
        %v = memref.load %s[%i, %j] : !fS
        %m = arith.select %visible, %v, %neg_inf : f32
        memref.store %m, %s[%i, %j] : !fS
      }
    }
    scf.for %kb = %c0 to %n step %c1 {
      // No select: no remark.
      tile.parallel (%i, %j) in [128, 64] {
        %v = memref.load %s[%i, %j] : !fS
        memref.store %v, %s[%i, %j] : !fS
      }
    }
  }
  return
}

// -----

!fS = memref<128x64xf32, #tile.mem<fragment>>

// A signed comparison with an invariant of any sign is linear too. This
// tile.parallel does more than mask: below the split it runs without the
// select.
// CHECK-LABEL: func.func @signed(
// CHECK: arith.floordivsi
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NEXT: tile.parallel
// CHECK-NOT: arith.select
// CHECK: arith.mulf
// CHECK: } else {
// CHECK-NEXT: tile.parallel
// CHECK: arith.select
// CHECK: arith.mulf
func.func @signed(%S: memref<?x?xf32>, %n: index, %off: index) {
  tile.kernel @signed_kernel blocks(%bx) in [4] threads(128) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %neg_inf = arith.constant 0xFF800000 : f32
    %s = tile.alloc : !fS
    scf.for %kb = %c0 to %n step %c1 {
      %k0 = arith.muli %kb, %c32 : index
      // expected-remark @below {{mask applied only from the first iteration where a tile may fail it (computed before the loop)}}
      tile.parallel (%i, %j) in [128, 64] {
        %key = arith.addi %k0, %j : index
        %limit = arith.subi %off, %i : index
        %visible = arith.cmpi slt, %key, %limit : index
        %v = memref.load %s[%i, %j] : !fS
        %m = arith.select %visible, %v, %neg_inf : f32
        %two = arith.constant 2.0 : f32
        %d = arith.mulf %m, %two : f32
        memref.store %d, %s[%i, %j] : !fS
      }
    }
  }
  return
}
