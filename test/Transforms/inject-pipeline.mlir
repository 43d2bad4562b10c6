// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=sm_80 -tile-pipeline-planning -tile-inject-pipeline -verify-diagnostics | FileCheck %s

// tile-inject-pipeline, after tile-pipeline-planning: multi-versioned shared
// tiles, the predicated pipelined loop (no prologue or epilogue: the loop
// runs S - 1 more iterations and each stage's ops run under
// `lb <= it - s * step < ub`), and asynchronous copies handed from the
// producer stage to the consumer stage through a tile.pipe with one slot
// per version: hand-off j = (it - lb) / step is acquired before the copies
// and committed after them; the consumers wait for hand-off j - distance
// (in_flight: the hand-offs the producer may have committed after it at
// that point) and release it at the end of the iteration.

//===----------------------------------------------------------------------===//
// The GEMM loop with 2, 3 and 4 stages
//===----------------------------------------------------------------------===//

// 2 stages: both tiles get 2 versions (written at stage 0, last read at
// stage 1: 1 - 0 + 1); the loop runs 1 more iteration (ub + 1 * step).
// Each iteration first waits until at most 0 groups of copies are in flight
// (the copies read by this iteration's gemm, for iteration it - 1, were
// committed 1 iteration ago; this iteration's copies are not committed yet), then
// issues the copies of iteration it (stage 0: it < ub suffices, it >= lb
// always holds), commits them as one group, and runs the gemm of iteration
// j = it - 1 * step when lb <= j < ub. Every multi-versioned tile is used
// through version ((j - lb) / step) mod 2.
// CHECK-LABEL: func.func @gemm_2_stages(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[B:[^:]*]]: memref<?x?xf16>, %[[KT:[^:]*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: tile.kernel
// CHECK-NEXT: tile.pipe.create : <{{[0-9]+}}>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[BS:.*]] = tile.alloc : memref<2x32x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[ACC:.*]] = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
// CHECK-NEXT: %[[SM1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[EXTRA:.*]] = arith.muli %[[C1]], %[[SM1]] : index
// CHECK-NEXT: %[[UB:.*]] = arith.addi %[[KT]], %[[EXTRA]] : index
// CHECK-NEXT: scf.for %[[IT:.*]] = %[[C0]] to %[[UB]] step %[[C1]] {
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(0) : <{{[0-9]+}}>
// CHECK-NEXT: tile.pipe.produce_acquire %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SH0:.*]] = arith.muli %[[C1]], %[[S0]] : index
// CHECK-NEXT: %[[J0:.*]] = arith.subi %[[IT]], %[[SH0]] : index
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi slt, %[[J0]], %[[KT]] : index
// CHECK-NEXT: scf.if %[[P0]] {
// CHECK-NEXT: %[[D0:.*]] = arith.subi %[[J0]], %[[C0]] : index
// CHECK-NEXT: %[[N0:.*]] = arith.divsi %[[D0]], %[[C1]] : index
// CHECK-NEXT: %[[V:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[VA0:.*]] = arith.remsi %[[N0]], %[[V]] : index
// CHECK-NEXT: %[[AS0:.*]] = memref.subview %[[AS]][%[[VA0]], 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[V:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[VB0:.*]] = arith.remsi %[[N0]], %[[V]] : index
// CHECK-NEXT: %[[BS0:.*]] = memref.subview %[[BS]][%[[VB0]], 0, 0] [1, 32, 128] [1, 1, 1] : memref<2x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[J0]], %[[C32]] : index
// CHECK-NEXT: tile.copy async %[[A]][%[[C0]], %[[K0]]], %[[AS0]] : memref<?x?xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.copy async %[[B]][%[[K0]], %[[C0]]], %[[BS0]] : memref<?x?xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[SL:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[SHL:.*]] = arith.muli %[[C1]], %[[SL]] : index
// CHECK-NEXT: %[[JL:.*]] = arith.subi %[[IT]], %[[SHL]] : index
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[JL]], %[[KT]] : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[JL]], %[[C0]] : index
// CHECK-NEXT: %[[PL:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if %[[PL]] {
// CHECK-NEXT: %[[DL:.*]] = arith.subi %[[JL]], %[[C0]] : index
// CHECK-NEXT: %[[NL:.*]] = arith.divsi %[[DL]], %[[C1]] : index
// CHECK-NEXT: %[[V:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[VAL:.*]] = arith.remsi %[[NL]], %[[V]] : index
// CHECK-NEXT: %[[ASL:.*]] = memref.subview %[[AS]][%[[VAL]], 0, 0] [1, 128, 32] [1, 1, 1]
// CHECK-NEXT: %[[V:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[VBL:.*]] = arith.remsi %[[NL]], %[[V]] : index
// CHECK-NEXT: %[[BSL:.*]] = memref.subview %[[BS]][%[[VBL]], 0, 0] [1, 32, 128] [1, 1, 1]
// CHECK-NEXT: tile.gemm %[[ASL]], %[[BSL]], %[[ACC]] :
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.consume_release %{{.*}}[%{{.*}}] {tile.pipeline_stage = 1 : i64} : <{{[0-9]+}}>
// CHECK-NEXT: } {tile.pipeline_drain = 1 : i64}
// CHECK-NEXT: tile.async_wait 0
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @gemm_2_stages(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// 3 stages: both tiles get 3 versions (written at stage 0, last read at
// stage 2: 2 - 0 + 1); the loop runs 2 more iterations (ub + 2 * step).
// Each iteration first waits until at most 1 group of copies is in flight
// (the copies read by this iteration's gemm, for iteration it - 2, were
// committed 2 iterations ago; this iteration's copies are not committed yet), then
// issues the copies of iteration it (stage 0: it < ub suffices, it >= lb
// always holds), commits them as one group, and runs the gemm of iteration
// j = it - 2 * step when lb <= j < ub. Every multi-versioned tile is used
// through version ((j - lb) / step) mod 3.
// CHECK-LABEL: func.func @gemm_3_stages(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[B:[^:]*]]: memref<?x?xf16>, %[[KT:[^:]*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: tile.kernel
// CHECK-NEXT: tile.pipe.create : <{{[0-9]+}}>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[BS:.*]] = tile.alloc : memref<3x32x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[ACC:.*]] = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
// CHECK-NEXT: %[[SM1:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[EXTRA:.*]] = arith.muli %[[C1]], %[[SM1]] : index
// CHECK-NEXT: %[[UB:.*]] = arith.addi %[[KT]], %[[EXTRA]] : index
// CHECK-NEXT: scf.for %[[IT:.*]] = %[[C0]] to %[[UB]] step %[[C1]] {
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(1) : <{{[0-9]+}}>
// CHECK-NEXT: tile.pipe.produce_acquire %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SH0:.*]] = arith.muli %[[C1]], %[[S0]] : index
// CHECK-NEXT: %[[J0:.*]] = arith.subi %[[IT]], %[[SH0]] : index
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi slt, %[[J0]], %[[KT]] : index
// CHECK-NEXT: scf.if %[[P0]] {
// CHECK-NEXT: %[[D0:.*]] = arith.subi %[[J0]], %[[C0]] : index
// CHECK-NEXT: %[[N0:.*]] = arith.divsi %[[D0]], %[[C1]] : index
// CHECK-NEXT: %[[VA0:.*]], %{{.*}} = tile.ring_position %[[N0]] mod 3
// CHECK-NEXT: %[[AS0:.*]] = memref.subview %[[AS]][%[[VA0]], 0, 0] [1, 128, 32] [1, 1, 1] : memref<3x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[VB0:.*]], %{{.*}} = tile.ring_position %[[N0]] mod 3
// CHECK-NEXT: %[[BS0:.*]] = memref.subview %[[BS]][%[[VB0]], 0, 0] [1, 32, 128] [1, 1, 1] : memref<3x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[J0]], %[[C32]] : index
// CHECK-NEXT: tile.copy async %[[A]][%[[C0]], %[[K0]]], %[[AS0]] : memref<?x?xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.copy async %[[B]][%[[K0]], %[[C0]]], %[[BS0]] : memref<?x?xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[SL:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[SHL:.*]] = arith.muli %[[C1]], %[[SL]] : index
// CHECK-NEXT: %[[JL:.*]] = arith.subi %[[IT]], %[[SHL]] : index
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[JL]], %[[KT]] : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[JL]], %[[C0]] : index
// CHECK-NEXT: %[[PL:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if %[[PL]] {
// CHECK-NEXT: %[[DL:.*]] = arith.subi %[[JL]], %[[C0]] : index
// CHECK-NEXT: %[[NL:.*]] = arith.divsi %[[DL]], %[[C1]] : index
// CHECK-NEXT: %[[VAL:.*]], %{{.*}} = tile.ring_position %[[NL]] mod 3
// CHECK-NEXT: %[[ASL:.*]] = memref.subview %[[AS]][%[[VAL]], 0, 0] [1, 128, 32] [1, 1, 1]
// CHECK-NEXT: %[[VBL:.*]], %{{.*}} = tile.ring_position %[[NL]] mod 3
// CHECK-NEXT: %[[BSL:.*]] = memref.subview %[[BS]][%[[VBL]], 0, 0] [1, 32, 128] [1, 1, 1]
// CHECK-NEXT: tile.gemm %[[ASL]], %[[BSL]], %[[ACC]] :
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.consume_release %{{.*}}[%{{.*}}] {tile.pipeline_stage = {{[0-9]+}} : i64} : <{{[0-9]+}}>
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @gemm_3_stages(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// 4 stages: both tiles get 4 versions (written at stage 0, last read at
// stage 3: 3 - 0 + 1); the loop runs 3 more iterations (ub + 3 * step).
// Each iteration first waits until at most 2 groups of copies are in flight
// (the copies read by this iteration's gemm, for iteration it - 3, were
// committed 3 iterations ago; this iteration's copies are not committed yet), then
// issues the copies of iteration it (stage 0: it < ub suffices, it >= lb
// always holds), commits them as one group, and runs the gemm of iteration
// j = it - 3 * step when lb <= j < ub. Every multi-versioned tile is used
// through version ((j - lb) / step) mod 4.
// CHECK-LABEL: func.func @gemm_4_stages(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[B:[^:]*]]: memref<?x?xf16>, %[[KT:[^:]*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: tile.kernel
// CHECK-NEXT: tile.pipe.create : <{{[0-9]+}}>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<4x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[BS:.*]] = tile.alloc : memref<4x32x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[ACC:.*]] = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
// CHECK-NEXT: %[[SM1:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[EXTRA:.*]] = arith.muli %[[C1]], %[[SM1]] : index
// CHECK-NEXT: %[[UB:.*]] = arith.addi %[[KT]], %[[EXTRA]] : index
// CHECK-NEXT: scf.for %[[IT:.*]] = %[[C0]] to %[[UB]] step %[[C1]] {
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(2) : <{{[0-9]+}}>
// CHECK-NEXT: tile.pipe.produce_acquire %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SH0:.*]] = arith.muli %[[C1]], %[[S0]] : index
// CHECK-NEXT: %[[J0:.*]] = arith.subi %[[IT]], %[[SH0]] : index
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi slt, %[[J0]], %[[KT]] : index
// CHECK-NEXT: scf.if %[[P0]] {
// CHECK-NEXT: %[[D0:.*]] = arith.subi %[[J0]], %[[C0]] : index
// CHECK-NEXT: %[[N0:.*]] = arith.divsi %[[D0]], %[[C1]] : index
// CHECK-NEXT: %[[V:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[VA0:.*]] = arith.remsi %[[N0]], %[[V]] : index
// CHECK-NEXT: %[[AS0:.*]] = memref.subview %[[AS]][%[[VA0]], 0, 0] [1, 128, 32] [1, 1, 1] : memref<4x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[V:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[VB0:.*]] = arith.remsi %[[N0]], %[[V]] : index
// CHECK-NEXT: %[[BS0:.*]] = memref.subview %[[BS]][%[[VB0]], 0, 0] [1, 32, 128] [1, 1, 1] : memref<4x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[J0]], %[[C32]] : index
// CHECK-NEXT: tile.copy async %[[A]][%[[C0]], %[[K0]]], %[[AS0]] : memref<?x?xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.copy async %[[B]][%[[K0]], %[[C0]]], %[[BS0]] : memref<?x?xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[SL:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[SHL:.*]] = arith.muli %[[C1]], %[[SL]] : index
// CHECK-NEXT: %[[JL:.*]] = arith.subi %[[IT]], %[[SHL]] : index
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[JL]], %[[KT]] : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[JL]], %[[C0]] : index
// CHECK-NEXT: %[[PL:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if %[[PL]] {
// CHECK-NEXT: %[[DL:.*]] = arith.subi %[[JL]], %[[C0]] : index
// CHECK-NEXT: %[[NL:.*]] = arith.divsi %[[DL]], %[[C1]] : index
// CHECK-NEXT: %[[V:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[VAL:.*]] = arith.remsi %[[NL]], %[[V]] : index
// CHECK-NEXT: %[[ASL:.*]] = memref.subview %[[AS]][%[[VAL]], 0, 0] [1, 128, 32] [1, 1, 1]
// CHECK-NEXT: %[[V:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[VBL:.*]] = arith.remsi %[[NL]], %[[V]] : index
// CHECK-NEXT: %[[BSL:.*]] = memref.subview %[[BS]][%[[VBL]], 0, 0] [1, 32, 128] [1, 1, 1]
// CHECK-NEXT: tile.gemm %[[ASL]], %[[BSL]], %[[ACC]] :
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.consume_release %{{.*}}[%{{.*}}] {tile.pipeline_stage = {{[0-9]+}} : i64} : <{{[0-9]+}}>
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @gemm_4_stages(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 4 : i64}
  }
  return
}


//===----------------------------------------------------------------------===//
// Allocations
//===----------------------------------------------------------------------===//

// -----

// A tile allocated at kernel level, outside an enclosing (sequential) loop:
// its allocation is replaced in place by the multi-versioned one, keeping
// its attributes, and the old one is erased. The loop bound, the waits and
// the commit are emitted around and in the pipelined inner loop only. The
// inner loop runs once per outer iteration: its hand-offs, and the versions
// of the copied tile, are numbered from the pipe's base, which it advances
// by its trip count, so that the next pass continues the slots and phases.
// CHECK-LABEL: func.func @outer_buffer(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[KT:[^:]*]]: index, %[[NT:[^:]*]]: index)
// CHECK: tile.kernel
// CHECK-NEXT: %[[P:.*]] = tile.pipe.create : <3>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 64>} : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[AF:.*]] = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
// CHECK-NOT: tile.alloc
// CHECK-NEXT: scf.for %[[N:.*]] = %{{.*}} to %[[NT]] step
// CHECK-NEXT: arith.constant 2 : index
// CHECK-NEXT: %[[EXTRA:.*]] = arith.muli
// CHECK-NEXT: %[[UB:.*]] = arith.addi %[[KT]], %[[EXTRA]] : index
// CHECK-NEXT: %[[BASE:.*]] = tile.pipe.base %[[P]] : <3>
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[UB]] step
// CHECK-NEXT: arith.subi
// CHECK-NEXT: %[[I:.*]] = arith.div{{[su]}}i
// CHECK-NEXT: %[[SEQ:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[CSEQ:.*]] = arith.subi %[[SEQ]]
// CHECK-NEXT: tile.pipe.consume_wait %[[P]][%[[CSEQ]]] in_flight(1) : <3>
// CHECK-NEXT: tile.pipe.produce_acquire %[[P]][%[[SEQ]]] : <3>
// CHECK: scf.if
// CHECK: %[[J:.*]] = arith.div{{[su]}}i
// CHECK: %[[V:.*]], %{{.*}} = tile.ring_position %[[J]] from %[[BASE]] mod 3
// CHECK: %[[AS0:.*]] = memref.subview %[[AS]][%[[V]], 0, 0] [1, 128, 32] [1, 1, 1] : memref<3x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[K0:.*]] = arith.muli
// CHECK-NEXT: tile.copy async %[[A]][%[[N]], %[[K0]]], %[[AS0]]
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %[[P]][%[[SEQ]]] : <3>
// CHECK: scf.if
// CHECK: %[[J:.*]] = arith.div{{[su]}}i
// CHECK: %[[V:.*]], %{{.*}} = tile.ring_position %[[J]] from %[[BASE]] mod 3
// CHECK: %[[AS2:.*]] = memref.subview %[[AS]][%[[V]], 0, 0] [1, 128, 32] [1, 1, 1]
// CHECK-NEXT: tile.copy %[[AS2]], %[[AF]] :
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.consume_release %[[P]][%[[CSEQ]]] {tile.pipeline_stage = 2 : i64} : <3>
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
// The trip count of the original loop, 0 when it is empty.
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[KT]], %{{.*}} : index
// CHECK-NEXT: %[[TRIPS:.*]] = arith.ceildivsi %[[SPAN]], %{{.*}} : index
// CHECK-NEXT: %[[EMPTY:.*]] = arith.cmpi sle, %[[KT]], %{{.*}} : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[TRIPS]] : index
// CHECK-NEXT: tile.pipe.advance %[[P]] by %[[COUNT]] : <3>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @outer_buffer(%A: memref<?x?xf16>, %kt: index, %nt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 64>} : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %n = %c0 to %nt step %c1 {
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c32 : index
        tile.copy %A[%n, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
        tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      } {tile.num_stages = 3 : i64}
    }
  }
  return
}

// -----

// Two pipelined loops with the same number of stages share one tile: it is
// versioned once and both loops use the new allocation. They share its pipe
// too, the second continuing the hand-offs (and versions) where the first
// stopped: both count from the pipe's base.
// CHECK-LABEL: func.func @shared_tile_same_stages
// CHECK: tile.kernel
// CHECK-NEXT: %[[P:.*]] = tile.pipe.create : <2>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: tile.pipe.create
// CHECK: %[[BASE1:.*]] = tile.pipe.base %[[P]] : <2>
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.addi %[[BASE1]]
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %[[P]][%{{.*}}] in_flight(0) : <2>
// CHECK: memref.subview %[[AS]][
// CHECK: tile.copy async
// CHECK: tile.pipe.produce_commit %[[P]][%{{.*}}] : <2>
// CHECK: memref.subview %[[AS]][
// CHECK: tile.copy %{{.*}}, %{{.*}} : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
// CHECK: tile.async_wait 0
// CHECK: tile.pipe.advance %[[P]] by
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[BASE2:.*]] = tile.pipe.base %[[P]] : <2>
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.addi %[[BASE2]]
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %[[P]][%{{.*}}] in_flight(0) : <2>
// CHECK: memref.subview %[[AS]][
// CHECK: tile.copy async
// CHECK: tile.pipe.produce_commit %[[P]][%{{.*}}] : <2>
// CHECK: memref.subview %[[AS]][
// CHECK: tile.copy %{{.*}}, %{{.*}} : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
// CHECK: tile.async_wait 0
// CHECK: tile.pipe.advance %[[P]] by
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @shared_tile_same_stages(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%k0, %c0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// Two pipelined loops in the two branches of an scf.if (as
// tile-specialize-bounds makes them) share their tile but never both run:
// each gets its own pipe and numbers its hand-offs from 0, with no base.
// CHECK-LABEL: func.func @shared_tile_exclusive_branches
// CHECK: tile.kernel
// CHECK-NEXT: %[[P2:.*]] = tile.pipe.create : <2>
// CHECK-NEXT: %[[P1:.*]] = tile.pipe.create : <2>
// CHECK-NOT: tile.pipe.base
// CHECK-NOT: tile.pipe.advance
// CHECK: tile.pipe.produce_acquire %[[P1]]
// CHECK: } else {
// CHECK: tile.pipe.produce_acquire %[[P2]]
func.func @shared_tile_exclusive_branches(%A: memref<?x?xf16>, %kt: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.if %c {
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c32 : index
        tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
        tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      } {tile.num_stages = 2 : i64}
    } else {
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c32 : index
        tile.copy %A[%k0, %c0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
        tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      } {tile.num_stages = 2 : i64}
    }
  }
  return
}

// -----

// The same two branches inside an outer loop (a persistent kernel's edge
// and interior tiles): both branches run, for different outer iterations,
// so the loops share one pipe and continue each other's hand-offs.
// CHECK-LABEL: func.func @shared_tile_branches_in_loop
// CHECK: tile.kernel
// CHECK-NEXT: %[[P:.*]] = tile.pipe.create : <2>
// CHECK-NOT: tile.pipe.create
// CHECK: scf.if
// CHECK: tile.pipe.base %[[P]]
// CHECK: tile.pipe.produce_acquire %[[P]]
// CHECK: tile.pipe.advance %[[P]]
// CHECK: } else {
// CHECK: tile.pipe.base %[[P]]
// CHECK: tile.pipe.produce_acquire %[[P]]
// CHECK: tile.pipe.advance %[[P]]
func.func @shared_tile_branches_in_loop(%A: memref<?x?xf16>, %kt: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %t = %c0 to %n step %c1 {
      %odd = arith.remui %t, %c2 : index
      %c = arith.cmpi eq, %odd, %c1 : index
      scf.if %c {
        scf.for %k = %c0 to %kt step %c1 {
          %k0 = arith.muli %k, %c32 : index
          tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
          tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
        } {tile.num_stages = 2 : i64}
      } else {
        scf.for %k = %c0 to %kt step %c1 {
          %k0 = arith.muli %k, %c32 : index
          tile.copy %A[%k0, %c0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
          tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
        } {tile.num_stages = 2 : i64}
      }
    }
  }
  return
}

// -----

// Loops sharing copied tiles share one pipe, so they need as many slots:
// the first copies A into 3 versions and B into 2 (a user schedule), the
// second only B, into 2.
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
func.func @shared_pipe_slots(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %as2 = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64, tile.stage = array<i64: 0, 0, 1, 2>}
    // expected-error @+1 {{this pipelined loop hands off its copies in 2 slots, but shares tiles with a loop using 3}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as2 : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to !sB
      tile.gemm %as2, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// A loop copying the tiles of two loops that hand them off separately would
// need both pipes in one hand-off.
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
func.func @shared_pipe_two_pipes(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %as2 = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %bs2 = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %c0], %bs2 : memref<?x?xf16> to !sB
      tile.gemm %as, %bs2, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as2 : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to !sB
      tile.gemm %as2, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64}
    // expected-error @+1 {{this pipelined loop copies shared tiles that two other pipelined loops hand off separately}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// Two pipelined loops sharing one tile but needing 2 and 3 versions of it.
func.func @shared_tile_different_stages(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-note @+1 {{the shared tile}}
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-note @+1 {{the other loop}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
    // expected-error @+1 {{this pipelined loop needs 3 versions of a shared tile that another pipelined loop versions 2 times}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%k0, %c0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// Only tiles written at one stage and read at a later one are versioned: a
// shared tile the loop does not use (%cs) and one it fills but never reads
// (%ds, filled by a synchronous copy in stage 0) keep their types; neither
// do fragments change.
// CHECK-LABEL: func.func @unversioned_tiles
// CHECK: tile.kernel
// CHECK-NEXT: tile.pipe.create : <{{[0-9]+}}>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[CS:[0-9]+]] = tile.alloc : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[DS:.*]] = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[AF:.*]] = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
// CHECK-NOT: %[[CS]]{{[^0-9_]}}
// CHECK: scf.for
// CHECK: tile.copy async %{{.*}}, %{{.*}} : memref<?x?xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.copy %{{.*}}, %[[DS]] : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NOT: %[[CS]]{{[^0-9_]}}
// CHECK: return
func.func @unversioned_tiles(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %cs = tile.alloc : memref<64x64xf32, #gpu.address_space<workgroup>>
    %ds = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%k0, %c0], %ds : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

//===----------------------------------------------------------------------===//
// Trip counts
//===----------------------------------------------------------------------===//

// -----

// Zero iterations (lb = ub = 0), 3 stages. The loop runs it = 0, 1: stage 0
// needs it < ub = 0 and stage 2 needs it - 2 >= lb = 0, both false, so no
// copy and no read executes. The commits close empty groups and the waits
// have nothing to wait for: the predicated form is correct (a prologue
// issuing S - 1 unconditional copies would not be).
// CHECK-LABEL: func.func @trip_count_0(
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: tile.kernel
// CHECK-NEXT: tile.pipe.create : <{{[0-9]+}}>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[AF:.*]] = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
// CHECK-NEXT: %[[SM1:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[EXTRA:.*]] = arith.muli %[[C1]], %[[SM1]] : index
// CHECK-NEXT: %[[UB:.*]] = arith.addi %[[C0]], %[[EXTRA]] : index
// CHECK-NEXT: scf.for %[[IT:.*]] = %[[C0]] to %[[UB]] step %[[C1]] {
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(1) : <{{[0-9]+}}>
// CHECK-NEXT: tile.pipe.produce_acquire %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SH0:.*]] = arith.muli %[[C1]], %[[S0]] : index
// CHECK-NEXT: %[[J0:.*]] = arith.subi %[[IT]], %[[SH0]] : index
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi slt, %[[J0]], %[[C0]] : index
// CHECK-NEXT: scf.if %[[P0]] {
// CHECK: tile.copy async
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[SH2:.*]] = arith.muli %[[C1]], %[[S2]] : index
// CHECK-NEXT: %[[J2:.*]] = arith.subi %[[IT]], %[[SH2]] : index
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[J2]], %[[C0]] : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[J2]], %[[C0]] : index
// CHECK-NEXT: %[[P2:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if %[[P2]] {
// CHECK: tile.copy %{{.*}}, %[[AF]]
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.consume_release %{{.*}}[%{{.*}}] {tile.pipeline_stage = {{[0-9]+}} : i64} : <{{[0-9]+}}>
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
func.func @trip_count_0(%A: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %c0 step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// One iteration (lb = 0, ub = 1), 3 stages. The loop runs it = 0, 1, 2:
// stage 0 copies iteration 0 at it = 0 only (it < 1), committed as group
// G0; it = 1 commits an empty group G1; at it = 2 stage 2 reads iteration 0
// (it - 2 = 0 in [0, 1)) after `tile.async_wait 1`, which leaves at most G1
// in flight, so G0 is complete. Version ((0 - 0) / 1) mod 3 = 0 is both
// written and read. Nothing runs twice or out of range: correct.
// CHECK-LABEL: func.func @trip_count_1(
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: tile.kernel
// CHECK-NEXT: tile.pipe.create : <{{[0-9]+}}>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[AF:.*]] = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
// CHECK-NEXT: %[[SM1:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[EXTRA:.*]] = arith.muli %[[C1]], %[[SM1]] : index
// CHECK-NEXT: %[[UB:.*]] = arith.addi %[[C1]], %[[EXTRA]] : index
// CHECK-NEXT: scf.for %[[IT:.*]] = %[[C0]] to %[[UB]] step %[[C1]] {
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(1) : <{{[0-9]+}}>
// CHECK-NEXT: tile.pipe.produce_acquire %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SH0:.*]] = arith.muli %[[C1]], %[[S0]] : index
// CHECK-NEXT: %[[J0:.*]] = arith.subi %[[IT]], %[[SH0]] : index
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi slt, %[[J0]], %[[C1]] : index
// CHECK-NEXT: scf.if %[[P0]] {
// CHECK: tile.copy async
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[SH2:.*]] = arith.muli %[[C1]], %[[S2]] : index
// CHECK-NEXT: %[[J2:.*]] = arith.subi %[[IT]], %[[SH2]] : index
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[J2]], %[[C1]] : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[J2]], %[[C0]] : index
// CHECK-NEXT: %[[P2:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if %[[P2]] {
// CHECK: tile.copy %{{.*}}, %[[AF]]
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.consume_release %{{.*}}[%{{.*}}] {tile.pipeline_stage = {{[0-9]+}} : i64} : <{{[0-9]+}}>
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
func.func @trip_count_1(%A: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %c1 step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// Dynamic lower bound, upper bound and step: the extra iterations are
// (S - 1) * step, stage s runs j = it - s * step, and the version index is
// ((j - lb) / step) mod 3, all on the dynamic values.
// CHECK-LABEL: func.func @dynamic_bounds(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index, %[[STEP:[^:]*]]: index)
// CHECK: tile.kernel
// CHECK-NEXT: tile.pipe.create : <{{[0-9]+}}>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[AF:.*]] = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
// CHECK-NEXT: %[[SM1:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[EXTRA:.*]] = arith.muli %[[STEP]], %[[SM1]] : index
// CHECK-NEXT: %[[NEWUB:.*]] = arith.addi %[[UB]], %[[EXTRA]] : index
// CHECK-NEXT: scf.for %[[IT:.*]] = %[[LB]] to %[[NEWUB]] step %[[STEP]] {
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(1) : <{{[0-9]+}}>
// CHECK-NEXT: tile.pipe.produce_acquire %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SH0:.*]] = arith.muli %[[STEP]], %[[S0]] : index
// CHECK-NEXT: %[[J0:.*]] = arith.subi %[[IT]], %[[SH0]] : index
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi slt, %[[J0]], %[[UB]] : index
// CHECK-NEXT: scf.if %[[P0]] {
// CHECK-NEXT: %[[D0:.*]] = arith.subi %[[J0]], %[[LB]] : index
// CHECK-NEXT: %[[N0:.*]] = arith.divsi %[[D0]], %[[STEP]] : index
// CHECK-NEXT: %[[V0:.*]], %{{.*}} = tile.ring_position %[[N0]] mod 3
// CHECK-NEXT: %[[AS0:.*]] = memref.subview %[[AS]][%[[V0]], 0, 0] [1, 128, 32] [1, 1, 1]
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[J0]], %{{.*}} : index
// CHECK-NEXT: tile.copy async %[[A]][%{{.*}}, %[[K0]]], %[[AS0]]
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[SH2:.*]] = arith.muli %[[STEP]], %[[S2]] : index
// CHECK-NEXT: %[[J2:.*]] = arith.subi %[[IT]], %[[SH2]] : index
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[J2]], %[[UB]] : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[J2]], %[[LB]] : index
// CHECK-NEXT: %[[P2:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if %[[P2]] {
// CHECK-NEXT: %[[D2:.*]] = arith.subi %[[J2]], %[[LB]] : index
// CHECK-NEXT: %[[N2:.*]] = arith.divsi %[[D2]], %[[STEP]] : index
// CHECK-NEXT: %[[V2:.*]], %{{.*}} = tile.ring_position %[[N2]] mod 3
// CHECK-NEXT: %[[AS2:.*]] = memref.subview %[[AS]][%[[V2]], 0, 0] [1, 128, 32] [1, 1, 1]
// CHECK-NEXT: tile.copy %[[AS2]], %[[AF]]
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.consume_release %{{.*}}[%{{.*}}] {tile.pipeline_stage = {{[0-9]+}} : i64} : <{{[0-9]+}}>
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
func.func @dynamic_bounds(%A: memref<?x?xf16>, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %lb to %ub step %step {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64}
  }
  return
}

//===----------------------------------------------------------------------===//
// User schedules
//===----------------------------------------------------------------------===//

// -----

// A user order emitting the gemm (stage 1) first, then copyB, copyA and the
// offset (stage 0): the groups follow that order. The offset is recomputed
// once, before copyB, its first user. The wait stays at the start of the
// iteration and the commit follows the copies. All reads come before the
// producers: the release precedes their acquire.
// CHECK-LABEL: func.func @user_order(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[B:[^:]*]]: memref<?x?xf16>, %[[KT:[^:]*]]: index)
// CHECK: scf.for %[[IT:.*]] = %[[C0:.*]] to %{{.*}} step %[[C1:.*]] {
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(0) : <{{[0-9]+}}>
// CHECK-NEXT: %[[S1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[SH1:.*]] = arith.muli %[[C1]], %[[S1]] : index
// CHECK-NEXT: %[[J1:.*]] = arith.subi %[[IT]], %[[SH1]] : index
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[J1]], %[[KT]] : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[J1]], %[[C0]] : index
// CHECK-NEXT: %[[P1:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if %[[P1]] {
// CHECK-COUNT-2: memref.subview
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: } {tile.pipeline_stage = 1 : i64}
// CHECK-NEXT: tile.pipe.consume_release %{{.*}}[%{{.*}}] {tile.pipeline_stage = 1 : i64} : <{{[0-9]+}}>
// CHECK-NEXT: tile.pipe.produce_acquire %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[SH0:.*]] = arith.muli %[[C1]], %[[S0]] : index
// CHECK-NEXT: %[[J0:.*]] = arith.subi %[[IT]], %[[SH0]] : index
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi slt, %[[J0]], %[[KT]] : index
// CHECK-NEXT: scf.if %[[P0]] {
// CHECK: %[[AS0:.*]] = memref.subview
// CHECK: %[[BS0:.*]] = memref.subview
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[J0]], %{{.*}} : index
// CHECK-NEXT: tile.copy async %[[B]][%[[K0]], %{{.*}}], %[[BS0]]
// CHECK-NEXT: tile.copy async %[[A]][%{{.*}}, %[[K0]]], %[[AS0]]
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
func.func @user_order(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64, tile.order = array<i64: 3, 2, 1, 0>}
  }
  return
}

// -----

// Copies spread over two stages (copyA at stage 0, copyB at stage 1, gemm
// at stage 2): %as needs 3 versions, %bs 2. All the copies issued in one
// iteration form one group, committed after the last of them (copyB), so
// group G(it) holds copyA(it) and copyB(it - 1). The gemm of iteration
// j = it - 2 needs G(j) and G(j + 1) = G(it - 1): the wait at the start of
// iteration it (before G(it) is committed) may leave 0 groups in flight
// (firstRead - write = 1 for %bs).
// CHECK-LABEL: func.func @copies_in_two_stages
// CHECK: tile.kernel
// CHECK-NEXT: tile.pipe.create : <{{[0-9]+}}>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[BS:.*]] = tile.alloc : memref<2x32x128xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: arith.subi
// The slot is released after its last read: 2 hand-offs back for %as.
// CHECK-NEXT: arith.constant 2 : index
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(0) : <{{[0-9]+}}>
// CHECK: scf.if
// CHECK: tile.copy async %{{.*}}, %{{.*}} : memref<?x?xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NOT: tile.pipe.produce_commit
// CHECK: scf.if
// CHECK: tile.copy async %{{.*}}, %{{.*}} : memref<?x?xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NOT: tile.async
// CHECK: scf.if
// CHECK: tile.gemm
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.consume_release %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
func.func @copies_in_two_stages(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64, tile.stage = array<i64: 0, 0, 1, 2>}
  }
  return
}

// -----

// %as is read in the stage of its copy (by the shared -> fragment copy) and
// in a later one (by the gemm): it gets 2 versions but its copy stays
// synchronous, since its first reader needs the data in the same iteration.
// Only the copy of %bs is asynchronous, and the waits only count it.
// CHECK-LABEL: func.func @read_in_copy_stage
// CHECK: tile.kernel
// CHECK-NEXT: tile.pipe.create : <{{[0-9]+}}>
// CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[BS:.*]] = tile.alloc : memref<2x32x128xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(0) : <{{[0-9]+}}>
// CHECK: scf.if
// CHECK: %[[AS0:.*]] = memref.subview %[[AS]]
// CHECK: tile.copy %{{.*}}, %[[AS0]] : memref<?x?xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.copy %[[AS0]], %{{.*}} : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
// CHECK-NEXT: tile.copy async %{{.*}}, %{{.*}} : memref<?x?xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK: scf.if
// CHECK: tile.gemm
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipe.consume_release %{{.*}}[%{{.*}}] {tile.pipeline_stage = {{[0-9]+}} : i64} : <{{[0-9]+}}>
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait 0
func.func @read_in_copy_stage(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64, tile.stage = array<i64: 0, 0, 0, 0, 1>}
  }
  return
}

// -----

// A subview of a versioned tile in the loop is rebuilt on the version view
// (its offset becomes dynamic).
// CHECK-LABEL: func.func @subview_of_versioned_tile
// CHECK: scf.if
// CHECK: tile.copy async
// CHECK: scf.if
// CHECK: %[[V:.*]] = memref.subview %{{.*}}[%{{.*}}, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[H:.*]] = memref.subview %[[V]][64, 0] [64, 32] [1, 1] : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.copy %[[H]], %{{.*}} : memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<64x32xf16, #tile.mem<fragment>>
func.func @subview_of_versioned_tile(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<64x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      %h = memref.subview %as[64, 0] [64, 32] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, strided<[32, 1], offset: 2048>, #gpu.address_space<workgroup>>
      tile.copy %h, %f : memref<64x32xf16, strided<[32, 1], offset: 2048>, #gpu.address_space<workgroup>> to memref<64x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

//===----------------------------------------------------------------------===//
// Loop kinds
//===----------------------------------------------------------------------===//

// -----

// An i32 loop: the bound, stage shifts and version arithmetic are i32; the
// version index is cast to index for the subview.
// CHECK-LABEL: func.func @i32_loop(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[KT:[^:]*]]: i32)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[SM1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[EXTRA:.*]] = arith.muli %[[C1]], %[[SM1]] : i32
// CHECK-NEXT: %[[UB:.*]] = arith.addi %[[KT]], %[[EXTRA]] : i32
// CHECK-NEXT: scf.for %[[IT:.*]] = %[[C0]] to %[[UB]] step %[[C1]]  : i32 {
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(0) : <{{[0-9]+}}>
// CHECK: %[[J0:.*]] = arith.subi %[[IT]], %{{.*}} : i32
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi slt, %[[J0]], %[[KT]] : i32
// CHECK-NEXT: scf.if %[[P0]] {
// CHECK-NEXT: %[[D0:.*]] = arith.subi %[[J0]], %[[C0]] : i32
// CHECK-NEXT: %[[N0:.*]] = arith.divsi %[[D0]], %[[C1]] : i32
// CHECK-NEXT: %[[V:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[R0:.*]] = arith.remsi %[[N0]], %[[V]] : i32
// CHECK-NEXT: %[[V0:.*]] = arith.index_cast %[[R0]] : i32 to index
// CHECK-NEXT: memref.subview %{{.*}}[%[[V0]], 0, 0] [1, 128, 32] [1, 1, 1]
// CHECK: tile.copy async
// CHECK: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK: arith.cmpi slt, %{{.*}}, %[[KT]] : i32
// CHECK-NEXT: arith.cmpi sge, %{{.*}}, %[[C0]] : i32
func.func @i32_loop(%A: memref<?x?xf16>, %kt: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %z = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 : i32 {
      %k0 = arith.muli %k, %c32 : i32
      %ki = arith.index_cast %k0 : i32 to index
      tile.copy %A[%z, %ki], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// An unsigned loop stays unsigned, and so do its predicates and version
// arithmetic: at it = 0, stage 1's iteration 0 - step wraps around and
// fails j < ub.
// CHECK-LABEL: func.func @unsigned_loop(
// CHECK: scf.for unsigned %[[IT:.*]] = %[[C0:.*]] to %{{.*}} step %[[C1:.*]] {
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.div{{[su]}}i
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.subi
// CHECK-NEXT: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(0) : <{{[0-9]+}}>
// CHECK: arith.cmpi ult
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.divui
// CHECK-NEXT: arith.constant 2 : index
// CHECK-NEXT: arith.remui
// CHECK: tile.copy async
// CHECK: tile.pipe.produce_commit %{{.*}}[%{{.*}}] : <{{[0-9]+}}>
// CHECK: %[[LT:.*]] = arith.cmpi ult
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi uge
// CHECK-NEXT: arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.divui
// CHECK-NEXT: arith.constant 2 : index
// CHECK-NEXT: arith.remui
func.func @unsigned_loop(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for unsigned %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}
