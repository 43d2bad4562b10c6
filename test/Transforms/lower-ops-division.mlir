// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops | FileCheck %s

// A tile.parallel that divides by a value its iterations share along a
// dimension (a row's sum, FlashAttention's O = acc / l) computes each
// divisor's correctly rounded reciprocal once and every quotient as
// Markstein's correction of x * (1 / d): q0 = x r, e = fma(-q0, d, x),
// q = copysign(fma(e, r, q0), q0), the correctly rounded x / d where every
// operand's magnitude is in [2^-60, 2^60] (numerators may be zero). One
// test per thread, ahead of the body (the largest magnitude at most 2^60, bits 0x5D800000;
// the smallest numerator minus one and the smallest divisor at least
// 2^-60, bits 0x21800000) picks these quotients or the IEEE divisions.

!f = memref<32x32xf32, #tile.mem<fragment>>
!r = memref<32xf32, #tile.mem<fragment>>
!g = memref<?x?xf32>

// CHECK-LABEL: func.func @row_divisor
// The operands' magnitudes: each thread holds 8 elements of 2 rows.
// Balanced min / max trees, each level combined as soon as it fills.
// CHECK-COUNT-8: arith.subi %{{.*}}, %c1_i32
// CHECK-DAG: arith.maxui
// CHECK-DAG: arith.minui
// CHECK: arith.cmpi ule, %{{.*}}, %c1568669696_i32 : i32
// CHECK: arith.cmpi uge, %{{.*}}, %c562036735_i32 : i32
// CHECK: %[[LO:.*]] = arith.cmpi uge, %{{.*}}, %c562036736_i32 : i32
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %[[LO]] : i1
// CHECK: scf.if %[[OK]] {
// Two reciprocals, 8 quotients.
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[R:.*]] = arith.divf %[[ONE]], %[[D:.*]] : f32
// CHECK: %[[Q0:.*]] = arith.mulf %[[X:.*]], %[[R]] : f32
// CHECK: %[[NQ0:.*]] = arith.negf %[[Q0]] : f32
// CHECK: %[[E:.*]] = math.fma %[[NQ0]], %[[D]], %[[X]] : f32
// CHECK: %[[Q1:.*]] = math.fma %[[E]], %[[R]], %[[Q0]] : f32
// CHECK: %[[Q:.*]] = math.copysign %[[Q1]], %[[Q0]] : f32
// CHECK: memref.store %[[Q]], %{{.*}} : memref<8xf32>
// CHECK-COUNT-7: math.copysign
// CHECK-NOT: math.copysign
// CHECK: } else {
// CHECK-COUNT-8: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.divf
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @row_divisor(%A: !g, %O: !g) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %acc = tile.alloc : !f
      %l = tile.alloc : !r
      tile.copy %A[%c0, %c0], %acc : !g to !f
      tile.reduce <sum> %acc, %l dim 1 clear : !f to !r
      tile.parallel (%i, %j) in [32, 32] {
        %o = memref.load %acc[%i, %j] : !f
        %li = memref.load %l[%i] : !r
        %q = arith.divf %o, %li : f32
        memref.store %q, %acc[%i, %j] : !f
      }
      tile.copy %acc, %O[%c0, %c0] : !f to !g
    }
    return
  }
}

// -----

!f = memref<32x32xf32, #tile.mem<fragment>>
!g = memref<?x?xf32>

// A divisor computed above the loop, and a numerator computed in the body:
// one reciprocal; the body's ops that the numerator needs run in the test
// too.
// CHECK-LABEL: func.func @uniform_divisor
// CHECK-COUNT-8: arith.addf
// CHECK: arith.maxui
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-8: math.copysign
// CHECK-NOT: arith.divf
// CHECK: } else {
// CHECK-COUNT-8: arith.divf
// CHECK-NOT: arith.divf
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @uniform_divisor(%A: !g, %O: !g, %s: index) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %acc = tile.alloc : !f
      %si = arith.index_cast %s : index to i32
      %d = arith.sitofp %si : i32 to f32
      tile.copy %A[%c0, %c0], %acc : !g to !f
      tile.parallel (%i, %j) in [32, 32] {
        %o = memref.load %acc[%i, %j] : !f
        %o1 = arith.addf %o, %o : f32
        %q = arith.divf %o1, %d : f32
        memref.store %q, %acc[%i, %j] : !f
      }
      tile.copy %acc, %O[%c0, %c0] : !f to !g
    }
    return
  }
}

// -----

!f = memref<32x32xf32, #tile.mem<fragment>>
!h = memref<32x32xf16, #tile.mem<fragment>>
!r = memref<32xf32, #tile.mem<fragment>>
!g = memref<?x?xf32>

// Left as IEEE divisions: a divisor that differs per element (nothing to
// share), a numerator read after the body stored it (the test before the
// body would read the old value), and f16.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: math.copysign
// CHECK-NOT: arith.maxui
// CHECK-COUNT-24: arith.divf
// CHECK-NOT: arith.divf
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @kept(%A: !g, %O: !g) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %acc = tile.alloc : !f
      %b = tile.alloc : !f
      %h = tile.alloc : !h
      %l = tile.alloc : !r
      tile.copy %A[%c0, %c0], %acc : !g to !f
      tile.copy %A[%c0, %c0], %b : !g to !f
      tile.reduce <sum> %acc, %l dim 1 clear : !f to !r
      tile.parallel (%i, %j) in [32, 32] {
        %o = memref.load %acc[%i, %j] : !f
        %bi = memref.load %b[%i, %j] : !f
        %q = arith.divf %o, %bi : f32
        memref.store %q, %acc[%i, %j] : !f
        %o2 = memref.load %acc[%i, %j] : !f
        %li = memref.load %l[%i] : !r
        %q2 = arith.divf %o2, %li : f32
        memref.store %q2, %b[%i, %j] : !f
        %q16 = arith.truncf %q2 : f32 to f16
        %l16 = arith.truncf %li : f32 to f16
        %d16 = arith.divf %q16, %l16 : f16
        memref.store %d16, %h[%i, %j] : !h
      }
      tile.copy %acc, %O[%c0, %c0] : !f to !g
      tile.copy %b, %O[%c0, %c0] : !f to !g
    }
    return
  }
}

// -----

!f = memref<32x32xf32, #tile.mem<fragment>>
!r = memref<32xf32, #tile.mem<fragment>>
!g = memref<?x?xf32>

// A divisor that reaches the element's coordinates through an op the
// numerator uses too differs per element: kept.
// CHECK-LABEL: func.func @shared_operand
// CHECK-NOT: math.copysign
// CHECK-COUNT-8: arith.divf
// CHECK-NOT: arith.divf
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @shared_operand(%A: !g, %O: !g) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %acc = tile.alloc : !f
      %out = tile.alloc : !f
      %l = tile.alloc : !r
      tile.copy %A[%c0, %c0], %acc : !g to !f
      tile.reduce <sum> %acc, %l dim 1 clear : !f to !r
      tile.parallel (%i, %j) in [32, 32] {
        %t = memref.load %acc[%i, %j] : !f
        %li = memref.load %l[%i] : !r
        %x = arith.mulf %t, %li : f32
        %d = arith.addf %t, %li : f32
        %q = arith.divf %x, %d : f32
        memref.store %q, %out[%i, %j] : !f
      }
      tile.copy %out, %O[%c0, %c0] : !f to !g
    }
    return
  }
}
