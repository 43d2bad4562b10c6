// RUN: tile-opt %s -split-input-file -tile-trim-role-loops | FileCheck %s
// RUN: tile-opt %examples/fp8_gemm.mlir --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes --tile-trim-role-loops | FileCheck %s --check-prefix=FP8

// Loops of the software pipeliner's shape (tile-inject-pipeline) after
// tile-warp-specialize: each role keeps the ops of one stage, skewed by the
// stage's distance, over `tile.pipeline_drain` more iterations.

!s = memref<2x64x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>

// The consumers (stage 2 of a drain of 2) run the original iterations: the
// range test is gone, the ops read it' + 2 * step, and the wait and release
// count their hand-offs from the new iterations (k - 2 + 2 = k).
// CHECK-LABEL: func.func @consumer
// CHECK: %[[BASE:.*]] = tile.pipe.base
// CHECK: scf.for %[[IT:.*]] = %[[LB:.*]] to %[[UB:[^ ]*]] step %[[STEP:[^ ]*]] {
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[SHIFT:.*]] = arith.muli %[[STEP]], %[[C2]] : index
// CHECK: %[[OLD:.*]] = arith.addi %[[IT]], %[[SHIFT]] : index
// CHECK: %[[FROM:.*]] = arith.subi %[[IT]], %[[LB]] : index
// CHECK: %[[K:.*]] = arith.divsi %[[FROM]], %[[STEP]] : index
// CHECK: %[[SEQ:.*]] = arith.addi %[[BASE]], %[[K]] : index
// CHECK: tile.pipe.consume_wait %{{.*}}[%[[SEQ]]] in_flight(1)
// CHECK-NOT: scf.if
// CHECK: arith.cmpi ne, %[[OLD]]
// CHECK: tile.fill
// CHECK: %[[SEQ2:.*]] = arith.addi %[[BASE]], %[[K]] : index
// CHECK: tile.pipe.consume_release %{{.*}}[%[[SEQ2]]] : <2>
// CHECK-NEXT: }
// CHECK-NOT: tile.pipeline_drain
func.func @consumer(%n: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %p = tile.pipe.create : <2>
    %acc = tile.alloc : !f
    tile.ws [0] {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %extra = arith.muli %c1, %c2 : index
      %ub = arith.addi %n, %extra : index
      %base = tile.pipe.base %p : <2>
      scf.for %it = %c0 to %ub step %c1 {
        %from = arith.subi %it, %c0 : index
        %k = arith.divsi %from, %c1 : index
        %seq0 = arith.addi %base, %k : index
        %seq = arith.subi %seq0, %c2 : index
        tile.pipe.consume_wait %p[%seq] in_flight(1) : <2>
        %shift = arith.muli %c1, %c2 : index
        %j = arith.subi %it, %shift : index
        %below = arith.cmpi slt, %j, %n : index
        %above = arith.cmpi sge, %j, %c0 : index
        %in = arith.andi %above, %below : i1
        scf.if %in {
          %first = arith.cmpi ne, %it, %c2 : index
          %v = arith.uitofp %first : i1 to f32
          tile.fill %acc, %v : !f
        } {tile.pipeline_stage = 2 : i64}
        tile.pipe.consume_release %p[%seq] {tile.pipeline_stage = 2 : i64} : <2>
      } {tile.pipeline_drain = 2 : i64}
      tile.pipe.advance %p by %n : <2>
    }
  }
  return
}

// -----

!s = memref<2x64x64xf16, #gpu.address_space<workgroup>>

// The producers (stage 0) stop at the original bound: the acquisitions and
// commits of the last two iterations carried no copies, and a pipe without
// base numbers its hand-offs from 0.
// CHECK-LABEL: func.func @producer
// CHECK: scf.for %[[IT:.*]] = %[[LB:.*]] to %arg0 step %[[STEP:[^ ]*]] {
// CHECK: %[[FROM:.*]] = arith.subi %[[IT]], %[[LB]] : index
// CHECK: %[[K:.*]] = arith.divsi %[[FROM]], %[[STEP]] : index
// CHECK: tile.pipe.produce_acquire %{{.*}}[%[[K]]] : <2>
// CHECK-NOT: scf.if
// CHECK: tile.copy async
// CHECK: tile.pipe.produce_commit %{{.*}}[%[[K]]] : <2>
// CHECK-NOT: tile.pipeline
func.func @producer(%n: index, %A: memref<?x?xf16>) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %p = tile.pipe.create : <2>
    %buf = tile.alloc : !s
    tile.ws [1] {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %extra = arith.muli %c1, %c2 : index
      %ub = arith.addi %n, %extra : index
      scf.for %it = %c0 to %ub step %c1 {
        %from = arith.subi %it, %c0 : index
        %k = arith.divsi %from, %c1 : index
        tile.pipe.produce_acquire %p[%k] : <2>
        %in = arith.cmpi slt, %it, %n : index
        scf.if %in {
          %slot = arith.remsi %k, %c2 : index
          %view = memref.subview %buf[%slot, 0, 0] [1, 64, 64] [1, 1, 1] : !s to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
          %col = arith.muli %it, %c64 : index
          tile.copy async %A[%c0, %col], %view : memref<?x?xf16> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        } {tile.pipeline_stage = 0 : i64}
        tile.pipe.produce_commit %p[%k] : <2>
      } {tile.pipeline_drain = 2 : i64}
    }
  }
  return
}

// -----

!f = memref<64x64xf32, #tile.mem<fragment>>

// An i32 unsigned loop: the comparisons stay unsigned, the hand-off number
// is the iteration cast to index.
// CHECK-LABEL: func.func @unsigned_i32
// CHECK: scf.for unsigned %[[IT:.*]] = %[[LB:.*]] to %arg0 step %[[STEP:[^ ]*]] : i32 {
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[SHIFT:.*]] = arith.muli %[[STEP]], %[[C1]] : i32
// CHECK: arith.addi %[[IT]], %[[SHIFT]] : i32
// CHECK: %[[FROM:.*]] = arith.subi %[[IT]], %[[LB]] : i32
// CHECK: %[[K:.*]] = arith.divui %[[FROM]], %[[STEP]] : i32
// CHECK: %[[KI:.*]] = arith.index_cast %[[K]] : i32 to index
// CHECK: tile.pipe.consume_wait %{{.*}}[%[[KI]]] in_flight(0)
// CHECK-NOT: scf.if
// CHECK: tile.fill
// CHECK: tile.pipe.consume_release %{{.*}}[%[[KI]]] : <2>
func.func @unsigned_i32(%n: i32) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %p = tile.pipe.create : <2>
    %acc = tile.alloc : !f
    %cst = arith.constant 0.0 : f32
    tile.ws [0] {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %one = arith.constant 1 : i32
      %extra = arith.muli %c1, %one : i32
      %ub = arith.addi %n, %extra : i32
      scf.for unsigned %it = %c0 to %ub step %c1 : i32 {
        %from = arith.subi %it, %c0 : i32
        %k = arith.divui %from, %c1 : i32
        %ki = arith.index_cast %k : i32 to index
        %c1i = arith.constant 1 : index
        %seq = arith.subi %ki, %c1i : index
        tile.pipe.consume_wait %p[%seq] in_flight(0) : <2>
        %shift = arith.muli %c1, %one : i32
        %j = arith.subi %it, %shift : i32
        %b = arith.cmpi ult, %j, %n : i32
        %a = arith.cmpi uge, %j, %c0 : i32
        %in = arith.andi %a, %b : i1
        scf.if %in {
          tile.fill %acc, %cst : !f
        } {tile.pipeline_stage = 1 : i64}
        tile.pipe.consume_release %p[%seq] {tile.pipeline_stage = 1 : i64} : <2>
      } {tile.pipeline_drain = 1 : i64}
    }
  }
  return
}

// -----

!f = memref<64x64xf32, #tile.mem<fragment>>

// Loops that keep their shape: two stages in one role; a role whose waits
// would happen in the iterations left out (hand-off k, not k - 1, at stage
// 1); a release after the original range (stage 0 of a drain of 1); a loop
// outside tile.ws; an op with effects outside the stage's test.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: tile.pipeline_drain = 1 : i64
func.func @kept(%n: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %p = tile.pipe.create : <2>
    %acc = tile.alloc : !f
    %cst = arith.constant 0.0 : f32
    tile.ws [0] {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ub = arith.addi %n, %c1 : index
      %base = tile.pipe.base %p : <2>
      // Two stages.
      scf.for %it = %c0 to %ub step %c1 {
        %in0 = arith.cmpi slt, %it, %n : index
        scf.if %in0 {
          tile.fill %acc, %cst : !f
        } {tile.pipeline_stage = 0 : i64}
        %j = arith.subi %it, %c1 : index
        %b = arith.cmpi slt, %j, %n : index
        %a = arith.cmpi sge, %j, %c0 : index
        %in1 = arith.andi %a, %b : i1
        scf.if %in1 {
          tile.fill %acc, %cst : !f
        } {tile.pipeline_stage = 1 : i64}
      } {tile.pipeline_drain = 1 : i64}
      // Hand-off k at stage 1: iteration 0 waits for hand-off base + 0.
      scf.for %it = %c0 to %ub step %c1 {
        %from = arith.subi %it, %c0 : index
        %k = arith.divsi %from, %c1 : index
        %seq = arith.addi %base, %k : index
        tile.pipe.consume_wait %p[%seq] in_flight(0) : <2>
        %j = arith.subi %it, %c1 : index
        %b = arith.cmpi slt, %j, %n : index
        %a = arith.cmpi sge, %j, %c0 : index
        %in1 = arith.andi %a, %b : i1
        scf.if %in1 {
          tile.fill %acc, %cst : !f
        } {tile.pipeline_stage = 1 : i64}
      } {tile.pipeline_drain = 1 : i64}
      // A release in the iteration after the original range.
      scf.for %it = %c0 to %ub step %c1 {
        %from = arith.subi %it, %c0 : index
        %k = arith.divsi %from, %c1 : index
        %seq = arith.addi %base, %k : index
        %in0 = arith.cmpi slt, %it, %n : index
        scf.if %in0 {
          tile.fill %acc, %cst : !f
        } {tile.pipeline_stage = 0 : i64}
        tile.pipe.consume_release %p[%seq] : <2>
      } {tile.pipeline_drain = 1 : i64}
      // An op with effects outside the stage's test.
      scf.for %it = %c0 to %ub step %c1 {
        %in0 = arith.cmpi slt, %it, %n : index
        scf.if %in0 {
          tile.fill %acc, %cst : !f
        } {tile.pipeline_stage = 0 : i64}
        tile.fill %acc, %cst : !f
      } {tile.pipeline_drain = 1 : i64}
    }
    // Outside tile.ws.
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ub = arith.addi %n, %c1 : index
    scf.for %it = %c0 to %ub step %c1 {
      %in0 = arith.cmpi slt, %it, %n : index
      scf.if %in0 {
        tile.fill %acc, %cst : !f
      } {tile.pipeline_stage = 0 : i64}
    } {tile.pipeline_drain = 1 : i64}
  }
  return
}

// The FP8 GEMM's roles: the producer loads K blocks [0, K / 128) and the
// consumers multiply them, without range tests (the loops of the kernel
// without tensor copies, not specialized, keep their shape).
// FP8-LABEL: tile.kernel @fp8_gemm_tensor_kernel_tma
// FP8: tile.ws [2] registers(40) {
// FP8: scf.for %{{.*}} = %c0 to %[[KT:[^ ]*]] step %c1 {
// FP8-NEXT: %[[K:.*]] = arith.subi
// FP8: tile.pipe.produce_acquire
// FP8-NOT: scf.if
// FP8: tile.copy async tma in_bounds
// FP8: tile.pipe.produce_commit
// FP8-NEXT: }
// FP8: tile.ws [0, 1] registers(232)
// FP8: scf.for %{{.*}} = %c0 to %[[KT]] step %c1 {
// FP8: tile.pipe.consume_wait
// FP8-NOT: scf.if
// FP8: tile.gemm
// FP8: tile.pipe.consume_release
// FP8-NEXT: }
// FP8-LABEL: tile.kernel @fp8_gemm_tensor_kernel blocks
// FP8: tile.pipeline_drain = 4 : i64
// FP8-LABEL: tile.kernel @fp8_gemm_rowwise_kernel_tma
