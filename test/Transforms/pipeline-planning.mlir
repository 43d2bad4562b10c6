// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -verify-diagnostics | FileCheck %s
// RUN: not tile-opt %s -split-input-file -tile-pipeline-planning="max-shared-memory=65536" 2>&1 | FileCheck %s --check-prefix=LIMIT

// tile-pipeline-planning: default schedules (tile.stage / tile.order, one
// entry per body op, terminator excluded), user schedules and their checks,
// the loops left sequential (with a remark and without their pipelining
// attributes), and the multi-buffered shared memory check.
//
// The first RUN keeps the default shared memory limit (232448 bytes); the
// second one allows 64 KiB and only checks the shared memory errors (the
// expected-* annotations belong to the first RUN). Every loop that fits
// under the default limit but not under 64 KiB is said so with a LIMIT line;
// every other one fits under both.

//===----------------------------------------------------------------------===//
// Default schedules of the GEMM loop
//===----------------------------------------------------------------------===//

// The k offset (arith.muli) feeds the copies: it goes to stage 0 with them;
// the gemm goes to the last stage. Emission order: stage 0 first, program
// order within a stage. Two 8 KiB tiles, double-buffered: 32 KiB.
// CHECK-LABEL: func.func @gemm_2_stages
// CHECK: scf.for
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tile.copy
// CHECK-NEXT: tile.copy
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: } {tile.num_stages = 2 : i64, tile.order = array<i64: 1, 2, 3, 0>, tile.stage = array<i64: 0, 0, 0, 1>}
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

// Three stages: 48 KiB.
// CHECK-LABEL: func.func @gemm_3_stages
// CHECK: scf.for
// CHECK: } {tile.num_stages = 3 : i64, tile.order = array<i64: 1, 2, 3, 0>, tile.stage = array<i64: 0, 0, 0, 2>}
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

// Four stages: 64 KiB, exactly the limit of the second RUN (which fits).
// CHECK-LABEL: func.func @gemm_4_stages
// CHECK: scf.for
// CHECK: } {tile.num_stages = 4 : i64, tile.order = array<i64: 1, 2, 3, 0>, tile.stage = array<i64: 0, 0, 0, 3>}
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

// -----

// Interleaved body: the offsets of each copy (a chain of side-effect-free
// ops) go to stage 0 with it, whatever their position; the ops that only
// feed later stages (the fragment load, %k1, the shared -> fragment copy)
// go to the last stage. Stage-0 ops are emitted first, in program order.
//   ops:   0 %k0  1 %m  2 copyA  3 %k1  4 %n  5 copyB  6 copyF  7 gemm
// CHECK-LABEL: func.func @interleaved_body
// CHECK: scf.for
// CHECK: } {tile.num_stages = 3 : i64, tile.order = array<i64: 3, 4, 5, 0, 6, 7, 1, 2>, tile.stage = array<i64: 0, 0, 0, 2, 0, 0, 2, 2>}
func.func @interleaved_body(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      %m = arith.addi %k0, %c32 : index
      tile.copy %A[%c0, %m], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      %k1 = arith.addi %k, %c1 : index
      %n = arith.muli %k, %c32 : index
      tile.copy %B[%n, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      tile.gemm %af, %bs, %acc : memref<128x32xf16, #tile.mem<fragment>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64}
  }
  return
}

//===----------------------------------------------------------------------===//
// User schedules
//===----------------------------------------------------------------------===//

// -----

// A user schedule is kept as given: copyB in stage 1, and the gemm emitted
// before copyB (emission: %k0, copyA, gemm, copyB).
// CHECK-LABEL: func.func @user_schedule
// CHECK: scf.for
// CHECK: } {tile.num_stages = 3 : i64, tile.order = array<i64: 0, 1, 3, 2>, tile.stage = array<i64: 0, 0, 1, 2>}
func.func @user_schedule(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
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
    } {tile.num_stages = 3 : i64, tile.stage = array<i64: 0, 0, 1, 2>, tile.order = array<i64: 0, 1, 3, 2>}
  }
  return
}

// -----

// User stages without an order: the default order (stage by stage, program
// order within a stage) is added.
// CHECK-LABEL: func.func @user_stages_only
// CHECK: scf.for
// CHECK: } {tile.num_stages = 3 : i64, tile.order = array<i64: 2, 1, 3, 0>, tile.stage = array<i64: 0, 1, 0, 2>}
func.func @user_stages_only(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
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
    } {tile.num_stages = 3 : i64, tile.stage = array<i64: 0, 1, 0, 2>}
  }
  return
}

// -----

// A user order without stages: the default stages are added. The offset is
// emitted after the copies using it (it is side-effect-free: injection
// recomputes it).
// CHECK-LABEL: func.func @user_order_only
// CHECK: scf.for
// CHECK: } {tile.num_stages = 2 : i64, tile.order = array<i64: 2, 1, 0, 3>, tile.stage = array<i64: 0, 0, 0, 1>}
func.func @user_order_only(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
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
    } {tile.num_stages = 2 : i64, tile.order = array<i64: 2, 1, 0, 3>}
  }
  return
}

// -----

// Invalid user schedule: a value of an op with side effects (memref.load)
// used by an op of an earlier stage.
func.func @user_value_from_later_stage(%A: memref<?x?xf16>, %O: memref<?xindex>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      // expected-note @+1 {{produced here}}
      %k0 = memref.load %O[%k] : memref<?xindex>
      // expected-error @+1 {{pipeline schedule: this op (stage 0) uses a value produced in a later stage (1)}}
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64, tile.stage = array<i64: 1, 0, 1>}
  }
  return
}

// -----

// Invalid user schedule: a value of an op with side effects cannot cross
// stages either way (only side-effect-free ops are recomputed in the stage
// that needs them).
func.func @user_value_from_earlier_stage(%A: memref<?x?xf16>, %O: memref<?xindex>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      // expected-note @+1 {{produced here}}
      %k0 = memref.load %O[%k] : memref<?xindex>
      // expected-error @+1 {{pipeline schedule: this op (stage 1) uses a value produced in an earlier stage (0); only side-effect-free values can cross stages}}
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64, tile.stage = array<i64: 0, 1, 2>}
  }
  return
}

// -----

// Invalid user schedule: within a stage, a value of an op with side effects
// is needed before it is emitted.
func.func @user_value_emitted_later(%A: memref<?x?xf16>, %O: memref<?xindex>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      // expected-note @+1 {{produced here}}
      %k0 = memref.load %O[%k] : memref<?xindex>
      // expected-error @+1 {{pipeline schedule: this op (stage 0) uses a value produced by an op with side effects that is not emitted before it in the same group}}
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64, tile.stage = array<i64: 0, 0, 1>, tile.order = array<i64: 1, 0, 2>}
  }
  return
}

// -----

// Invalid user schedule: the gemm reads %as in stage 0, before the stage
// (1) of the copy filling it.
func.func @user_read_before_copy_stage(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      // expected-note @+1 {{filled here}}
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{pipeline schedule: this op (stage 0) reads a shared tile that is filled in a later stage (1)}}
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64, tile.stage = array<i64: 0, 1, 0, 0>}
  }
  return
}

// -----

// Invalid user schedule: the gemm is in the stage of copyB but emitted
// before it.
func.func @user_read_before_copy_order(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
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
      // expected-note @+1 {{filled here}}
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{pipeline schedule: this op (stage 1) is emitted before the copy filling the shared tile it reads}}
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64, tile.stage = array<i64: 0, 0, 1, 1>, tile.order = array<i64: 0, 1, 3, 2>}
  }
  return
}

//===----------------------------------------------------------------------===//
// Loops left sequential
//===----------------------------------------------------------------------===//

// -----

// Write-after-read across iterations: the gemm reads %as before the copy
// overwrites it in the same iteration.
// CHECK-LABEL: func.func @war_hazard
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK-NOT: tile.stage
// CHECK-NOT: tile.order
// CHECK: return
func.func @war_hazard(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-remark @+1 {{loop not pipelined: a shared tile is read before it is overwritten in the same iteration (a write-after-read dependence across iterations)}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      // expected-note @+1 {{read here}}
      tile.gemm %as, %bs, %acc : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
      // expected-note @+1 {{overwritten here}}
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// No copy from global into a whole shared tile: nothing to overlap.
// CHECK-LABEL: func.func @no_copy_into_shared
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: return
func.func @no_copy_into_shared(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-remark @+1 {{loop not pipelined: the body has no copy from global into a whole shared tile to overlap with computation}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %af : memref<?x?xf16> to memref<128x32xf16, #tile.mem<fragment>>
      tile.copy %af, %as : memref<128x32xf16, #tile.mem<fragment>> to memref<128x32xf16, #gpu.address_space<workgroup>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// Loop-carried values.
// CHECK-LABEL: func.func @iter_args
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: return
func.func @iter_args(%A: memref<?x?xf16>, %kt: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-remark @+1 {{loop not pipelined: loop-carried values (iter_args) are not supported by the pipeliner yet}}
    %r = scf.for %k = %c0 to %kt step %c1 iter_args(%k0 = %c0) -> (index) {
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      %next = arith.addi %k0, %c32 : index
      scf.yield %next : index
    } {tile.num_stages = 2 : i64}
  }
  return %c0 : index
}

// -----

// A shared tile filled in the loop and read after it: the reader would not
// know which version holds the last copy.
// CHECK-LABEL: func.func @tile_used_outside
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: return
func.func @tile_used_outside(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-remark @+1 {{loop not pipelined: a shared tile filled in the loop is also used outside it}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
    tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// A copy into shared memory under an scf.if of the body.
// CHECK-LABEL: func.func @copy_in_if
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: return
func.func @copy_in_if(%A: memref<?x?xf16>, %kt: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-remark @+1 {{loop not pipelined: a copy into shared memory is nested in a region of the loop body}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      scf.if %cond {
        tile.copy %A[%c0, %k0], %bs : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      }
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// Not inside a tile.kernel.
// CHECK-LABEL: func.func @outside_kernel
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: return
func.func @outside_kernel(%kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @+1 {{loop not pipelined: it is not inside a tile.kernel}}
  scf.for %k = %c0 to %kt step %c1 {
    %x = arith.addi %k, %c1 : index
  } {tile.num_stages = 2 : i64}
  return
}

// -----

// The copy offset comes from an op with side effects: it cannot be moved to
// stage 0 with the copy.
// CHECK-LABEL: func.func @offset_with_side_effects
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: return
func.func @offset_with_side_effects(%A: memref<?x?xf16>, %O: memref<?xindex>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-remark @+1 {{loop not pipelined: a copy's operands depend on an op with side effects}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = memref.load %O[%k] : memref<?xindex>
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// Another op of the loop writes the tile a copy fills.
// CHECK-LABEL: func.func @tile_written_twice
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: return
func.func @tile_written_twice(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    %zero = arith.constant 0.0 : f16
    // expected-remark @+1 {{loop not pipelined: a shared tile filled by a copy is also written by another op of the loop}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      tile.fill %as, %zero : memref<128x32xf16, #gpu.address_space<workgroup>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// A view of the tile other than memref.subview: its result type could not
// follow the new version dimension.
// CHECK-LABEL: func.func @tile_cast
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: return
func.func @tile_cast(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<4096xf16, #tile.mem<fragment>>
    // expected-remark @+1 {{loop not pipelined: a shared tile filled by a copy is viewed by an op other than memref.subview}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      %flat = memref.collapse_shape %as [[0, 1]] : memref<128x32xf16, #gpu.address_space<workgroup>> into memref<4096xf16, #gpu.address_space<workgroup>>
      tile.copy %flat, %af : memref<4096xf16, #gpu.address_space<workgroup>> to memref<4096xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// A tile shared by two loops marked for pipelining is fine while both are
// pipelined (tile-inject-pipeline versions it once). Here the second loop
// stays sequential (its body reads %as before the copy), so the first one
// must too: it is given up after all loops are planned.
// CHECK-LABEL: func.func @shared_with_sequential_loop
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: scf.for
// CHECK-NOT: tile.num_stages
// CHECK: return
func.func @shared_with_sequential_loop(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-remark @+1 {{loop not pipelined: a shared tile filled in the loop is also used by a loop that is not pipelined}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
    // expected-remark @+1 {{loop not pipelined: a shared tile is read before it is overwritten}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      // expected-note @+1 {{read here}}
      tile.copy %as, %af : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
      // expected-note @+1 {{overwritten here}}
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

//===----------------------------------------------------------------------===//
// num_stages = 1
//===----------------------------------------------------------------------===//

// -----

// One stage is the sequential loop: unchanged, no remark.
// CHECK-LABEL: func.func @one_stage
// CHECK: scf.for
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tile.copy %{{.*}}, %{{.*}} : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.copy %{{.*}}, %{{.*}} : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: } {tile.num_stages = 1 : i64}
func.func @one_stage(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
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
    } {tile.num_stages = 1 : i64}
  }
  return
}

//===----------------------------------------------------------------------===//
// Shared memory
//
// The loops below ask for exactly their stage count (tile.exact_stages):
// a count that does not fit is an error naming the count that would. The
// last cases have no tile.exact_stages: the loop is lowered with the
// largest count that fits, with a warning.
//===----------------------------------------------------------------------===//

// -----

// Two 16 KiB tiles, 4 stages: 128 KiB. Fits the default limit; over the
// 64 KiB of the second RUN, where 2 stages (64 KiB) fit.
// CHECK-LABEL: func.func @fits_default_limit
// CHECK: } {tile.exact_stages, tile.num_stages = 4 : i64, tile.order = array<i64: 1, 2, 3, 0>, tile.stage = array<i64: 0, 0, 0, 3>}
// LIMIT: error: pipelining with num_stages = 4 needs 131072 bytes of shared memory but at most 65536 are available; num_stages = 2 would fit
func.func @fits_default_limit(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<64x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<128x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<64x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    } {tile.exact_stages, tile.num_stages = 4 : i64}
  }
  return
}

// -----

// Two 32 KiB tiles, 4 stages: 256 KiB > 227 KiB (232448 bytes); 3 stages
// (192 KiB) fit.
// LIMIT: error: pipelining with num_stages = 4 needs 262144 bytes of shared memory but at most 65536 are available; only num_stages = 1 (no pipelining) fits
func.func @overflow_fewer_stages_fit(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<256x64xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<64x256xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<256x256xf32, #tile.mem<fragment>>
    // expected-error @+1 {{pipelining with num_stages = 4 needs 262144 bytes of shared memory but at most 232448 are available; num_stages = 3 would fit}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<256x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<256x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #tile.mem<fragment>>
    } {tile.exact_stages, tile.num_stages = 4 : i64}
  }
  return
}

// -----

// Two 64 KiB tiles: 2 stages need 256 KiB; only the sequential loop
// (128 KiB) fits.
// LIMIT: error: pipelining with num_stages = 2 needs 262144 bytes of shared memory but at most 65536 are available; the kernel does not fit even without pipelining
func.func @overflow_only_sequential_fits(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<256x128xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<128x256xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<256x256xf32, #tile.mem<fragment>>
    // expected-error @+1 {{pipelining with num_stages = 2 needs 262144 bytes of shared memory but at most 232448 are available; only num_stages = 1 (no pipelining) fits}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c128 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<256x128xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<128x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<256x128xf16, #gpu.address_space<workgroup>>, memref<128x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #tile.mem<fragment>>
    } {tile.exact_stages, tile.num_stages = 2 : i64}
  }
  return
}

// -----

// Two 128 KiB tiles: the kernel does not fit at all.
// LIMIT: error: pipelining with num_stages = 2 needs 524288 bytes of shared memory but at most 65536 are available; the kernel does not fit even without pipelining
func.func @overflow_nothing_fits(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<256x256xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<256x256xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<256x256xf32, #tile.mem<fragment>>
    // expected-error @+1 {{pipelining with num_stages = 2 needs 524288 bytes of shared memory but at most 232448 are available; the kernel does not fit even without pipelining}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c256 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<256x256xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<256x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<256x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #tile.mem<fragment>>
    } {tile.exact_stages, tile.num_stages = 2 : i64}
  }
  return
}

// -----

// Two pipelined loops of one kernel, each with two 32 KiB tiles (128 KiB
// single-buffered). Double-buffering the first loop's tiles gives 192 KiB
// (fits); the second loop's would add 64 KiB more (256 KiB): the tiles of
// loops planned before count.
// LIMIT: error: pipelining with num_stages = 2 needs 196608 bytes of shared memory but at most 65536 are available; the kernel does not fit even without pipelining
func.func @two_loops_add_up(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<256x64xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<64x256xf16, #gpu.address_space<workgroup>>
    %as2 = tile.alloc : memref<256x64xf16, #gpu.address_space<workgroup>>
    %bs2 = tile.alloc : memref<64x256xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<256x256xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<256x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<256x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #tile.mem<fragment>>
    } {tile.exact_stages, tile.num_stages = 2 : i64}
    // expected-error @+1 {{pipelining with num_stages = 2 needs 262144 bytes of shared memory but at most 232448 are available; only num_stages = 1 (no pipelining) fits}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as2 : memref<?x?xf16> to memref<256x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs2 : memref<?x?xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %as2, %bs2, %acc : memref<256x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #tile.mem<fragment>>
    } {tile.exact_stages, tile.num_stages = 2 : i64}
  }
  return
}

// -----

// Not exact: two 32 KiB tiles, 4 stages need 256 KiB; the loop is planned
// with 3 (192 KiB), the largest count that fits, and says so. Under 64 KiB
// (second RUN) only the sequential loop fits.
// CHECK-LABEL: func.func @clamped_to_fit
// CHECK: } {tile.num_stages = 3 : i64, tile.order = array<i64: 1, 2, 3, 0>, tile.stage = array<i64: 0, 0, 0, 2>}
// LIMIT: warning: num_stages = 4 needs 262144 bytes of shared memory but at most 65536 are available: lowered without pipelining (num_stages = 1), the only count that fits (tile.exact_stages makes this an error)
func.func @clamped_to_fit(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<256x64xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<64x256xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<256x256xf32, #tile.mem<fragment>>
    // expected-warning @+1 {{num_stages = 4 needs 262144 bytes of shared memory but at most 232448 are available: lowered with num_stages = 3, the largest count that fits (tile.exact_stages makes this an error)}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<256x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<256x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #tile.mem<fragment>>
    } {tile.num_stages = 4 : i64}
  }
  return
}

// -----

// Not exact, and only one stage fits: the loop stays sequential (no
// tile.stage / tile.order) with num_stages = 1 written down. Its tiles (1 KiB
// per thread) are too large to wait in registers: no register prefetching.
// CHECK-LABEL: func.func @clamped_to_sequential
// CHECK: } {tile.num_stages = 1 : i64, tile.register_prefetch = false}
// LIMIT: error: pipelining with num_stages = 2 needs 262144 bytes of shared memory but at most 65536 are available; the kernel does not fit even without pipelining
func.func @clamped_to_sequential(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<256x128xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<128x256xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<256x256xf32, #tile.mem<fragment>>
    // expected-warning @+1 {{num_stages = 2 needs 262144 bytes of shared memory but at most 232448 are available: lowered without pipelining (num_stages = 1), the only count that fits (tile.exact_stages makes this an error)}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c128 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<256x128xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<128x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<256x128xf16, #gpu.address_space<workgroup>>, memref<128x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// Not exact, only one stage fits, and the tiles take 128 bytes per thread
// (16 KiB over 128 threads): one buffer, the next iteration's tiles loaded
// ahead into registers (tile-register-prefetch applies it).
// `tile.register_prefetch = false` keeps the second loop
// sequential instead.
// CHECK-LABEL: func.func @clamped_to_prefetch
// CHECK: } {tile.num_stages = 1 : i64, tile.register_prefetch = true}
// CHECK: } {tile.num_stages = 1 : i64, tile.register_prefetch = false}
// LIMIT: error: pipelining with num_stages = 3 needs 262144 bytes of shared memory but at most 65536 are available; the kernel does not fit even without pipelining
func.func @clamped_to_prefetch(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %big = tile.alloc : memref<96x1024xf16, #gpu.address_space<workgroup>>
    %as = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %as2 = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %bs2 = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-warning @+1 {{num_stages = 3 needs 262144 bytes of shared memory but at most 232448 are available: lowered with one buffer (num_stages = 1), the next iteration's tiles loaded ahead into registers (tile.register_prefetch) (tile.exact_stages makes this an error)}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64}
    // expected-warning @+1 {{num_stages = 3 needs 262144 bytes of shared memory but at most 232448 are available: lowered without pipelining (num_stages = 1), the only count that fits (tile.exact_stages makes this an error)}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as2 : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs2 : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.gemm %as2, %bs2, %acc : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
    } {tile.num_stages = 3 : i64, tile.register_prefetch = false}
    tile.copy %big, %A[%c0, %c0] : memref<96x1024xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
  }
  return
}

// -----

// One stage with `tile.register_prefetch = true` asks for prefetching where
// everything would fit: checked like a pipeline (here: the tile is read
// before its copy, which is fine with one buffer), kept as one stage.
// CHECK-LABEL: func.func @prefetch_asked
// CHECK: } {tile.num_stages = 1 : i64, tile.register_prefetch = true}
// CHECK-NOT: tile.stage
func.func @prefetch_asked(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
    } {tile.num_stages = 1 : i64, tile.register_prefetch = true}
  }
  return
}

// -----

// Not exact and nothing fits: still an error.
// LIMIT: error: pipelining with num_stages = 2 needs 524288 bytes of shared memory but at most 65536 are available; the kernel does not fit even without pipelining
func.func @clamp_cannot_fit(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<256x256xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<256x256xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<256x256xf32, #tile.mem<fragment>>
    // expected-error @+1 {{pipelining with num_stages = 2 needs 524288 bytes of shared memory but at most 232448 are available; the kernel does not fit even without pipelining}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c256 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to memref<256x256xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to memref<256x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %as, %bs, %acc : memref<256x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}
