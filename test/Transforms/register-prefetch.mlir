// RUN: tile-opt %s -split-input-file -tile-register-prefetch -verify-diagnostics | FileCheck %s

// tile-register-prefetch: loops with tile.register_prefetch = true and one
// stage load the next iteration's tiles into registers (fragments) while
// the current iteration computes; loops it cannot transform stay
// sequential with a remark.

!g = memref<?x?xf16>
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// The copies' offsets are computed again for the first iteration (before
// the loop) and for the next one (in the loop, after the shared stores).
// CHECK-LABEL: func.func @gemm
// CHECK: tile.kernel
// CHECK-NEXT: %[[AR:.*]] = tile.alloc : memref<64x32xf16, #tile.mem<fragment>>
// CHECK-NEXT: %[[BR:.*]] = tile.alloc : memref<32x64xf16, #tile.mem<fragment>>
// CHECK: %[[AS:.*]] = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: %[[BS:.*]] = tile.alloc : memref<32x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB:.*]], %[[UB:.*]] : index
// CHECK-NEXT: scf.if %[[RUNS]] {
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[LB]], %{{.*}} : index
// CHECK-NEXT: tile.copy %{{.*}}[%{{.*}}, %[[K0]]], %[[AR]] : memref<?x?xf16> to memref<64x32xf16, #tile.mem<fragment>>
// CHECK-NEXT: tile.copy %{{.*}}[%[[K0]], %{{.*}}], %[[BR]] : memref<?x?xf16> to memref<32x64xf16, #tile.mem<fragment>>
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %[[STEP:.*]] {
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tile.copy %[[AR]], %[[AS]] : memref<64x32xf16, #tile.mem<fragment>> to memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.copy %[[BR]], %[[BS]] : memref<32x64xf16, #tile.mem<fragment>> to memref<32x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[UB]] : index
// CHECK-NEXT: scf.if %[[MORE]] {
// CHECK-NEXT: %[[K1:.*]] = arith.muli %[[NEXT]], %{{.*}} : index
// CHECK-NEXT: tile.copy %{{.*}}[%{{.*}}, %[[K1]]], %[[AR]]
// CHECK-NEXT: tile.copy %{{.*}}[%[[K1]], %{{.*}}], %[[BR]]
// CHECK-NEXT: }
// CHECK-NEXT: tile.gemm %[[AS]], %[[BS]]
// CHECK-NEXT: }
// CHECK-NOT: tile.register_prefetch
// CHECK-NOT: tile.num_stages
func.func @gemm(%A: !g, %B: !g, %lb: index, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %lb to %ub step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %As : !g to !sA
      tile.copy %B[%k0, %c0], %Bs : !g to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 1 : i64, tile.register_prefetch = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>

// Unsigned loops compare unsigned; `in_bounds` copies keep the attribute.
// CHECK-LABEL: func.func @unsigned_in_bounds
// CHECK: arith.cmpi ult
// CHECK: tile.copy in_bounds %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<?x?xf16> to memref<64x32xf16, #tile.mem<fragment>>
// CHECK: scf.for unsigned
// CHECK: arith.cmpi ult
// CHECK: tile.copy in_bounds %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<?x?xf16> to memref<64x32xf16, #tile.mem<fragment>>
func.func @unsigned_in_bounds(%A: !g, %B: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %As = tile.alloc : !sA
    scf.for unsigned %k = %c0 to %n step %c1 {
      tile.copy in_bounds %A[%c0, %k], %As : !g to !sA
      tile.copy %As, %B[%k, %c0] : !sA to !g
    } {tile.register_prefetch = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>

// The loop writes the tensor its copy reads: loading it ahead would read
// stale data.
func.func @writes_source(%A: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %As = tile.alloc : !sA
    // expected-remark @+1 {{loop not prefetched through registers: the loop writes a tensor its copies read}}
    scf.for %k = %c0 to %n step %c1 {
      tile.copy %A[%c0, %k], %As : !g to !sA
      tile.copy %As, %A[%k, %c0] : !sA to !g
    } {tile.register_prefetch = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!fA = memref<64x32xf16, #tile.mem<fragment>>

func.func @no_producer(%A: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %Af = tile.alloc : !fA
    // expected-remark @+1 {{loop not prefetched through registers: the body has no copy from global into a whole shared tile}}
    scf.for %k = %c0 to %n step %c1 {
      tile.copy %A[%c0, %k], %Af : !g to !fA
    } {tile.register_prefetch = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>

func.func @iter_args(%A: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %As = tile.alloc : !sA
    // expected-remark @+1 {{loop not prefetched through registers: loop-carried values (iter_args) are not supported}}
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%o = %c0) -> index {
      tile.copy %A[%o, %k], %As : !g to !sA
      %o1 = arith.addi %o, %c1 : index
      scf.yield %o1 : index
    } {tile.register_prefetch = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>

// An offset computed by an op with side effects cannot be computed ahead.
func.func @effects(%A: !g, %idx: memref<?xindex>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %As = tile.alloc : !sA
    // expected-remark @+1 {{loop not prefetched through registers: a copy's operands depend on an op with side effects or regions}}
    scf.for %k = %c0 to %n step %c1 {
      %row = memref.load %idx[%k] : memref<?xindex>
      tile.copy %A[%row, %c0], %As : !g to !sA
    } {tile.register_prefetch = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>

// `false`, and loops still pipelined with several stages, are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: #tile.mem<fragment>
// CHECK: } {tile.num_stages = 1 : i64, tile.register_prefetch = false}
// CHECK: } {tile.num_stages = 2 : i64, tile.register_prefetch = true}
func.func @left_alone(%A: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %As = tile.alloc : !sA
    scf.for %k = %c0 to %n step %c1 {
      tile.copy %A[%c0, %k], %As : !g to !sA
    } {tile.num_stages = 1 : i64, tile.register_prefetch = false}
    scf.for %k = %c0 to %n step %c1 {
      tile.copy %A[%c0, %k], %As : !g to !sA
    } {tile.num_stages = 2 : i64, tile.register_prefetch = true}
  }
  return
}
