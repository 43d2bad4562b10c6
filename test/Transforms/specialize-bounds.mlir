// RUN: tile-opt %s -split-input-file -allow-unregistered-dialect -tile-specialize-bounds | FileCheck %s
// RUN: tile-opt %s -split-input-file -allow-unregistered-dialect -tile-specialize-bounds -tile-attach-target=chip=sm_80 -tile-pipeline-planning -tile-inject-pipeline | FileCheck %s --check-prefix=PIPE

// tile-specialize-bounds: loops whose copies walk the tensor with the
// induction variable get an interior version (copies marked `in_bounds`)
// chosen by one test before the loop; other loops and copies are left alone.

!gA = memref<?x?xf16>
!gB = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// The GEMM loop. The test: the offsets of the first iteration are not
// negative (m0, n0; 0 along K folds away), the tiles of the last iteration
// end within the tensors (rows m0 + 128 <= M of A, columns
// (kt - 1) * 32 + 32 <= K, ...),
// rows are multiples of 8 elements (16 bytes of f16), and so are the last
// offsets of the first two iterations (0 and 32 along K fold away; n0 along
// N is tested once). A loop that does not run (kt <= 0) takes either
// version. The copy after the loop is left to the lowering's own test.
// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[B:[^:]*]]: memref<?x?xf16>, %[[KT:[^:]*]]: index)
// CHECK: tile.kernel
// CHECK: %[[M0:.*]] = arith.muli %{{.*}}, %c128
// CHECK: %[[N0:.*]] = arith.muli %{{.*}}, %c128
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %c0, %[[KT]] : index
// CHECK: %[[UB:.*]] = arith.select %[[RUNS]], %[[KT]], %[[ONE:.*]] : index
// CHECK: %[[LAST:.*]] = arith.subi %[[UB]], %[[ONE]]
// CHECK: %[[M:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: arith.cmpi sge, %[[M0]], %{{.*}}
// CHECK: %[[AROWS:.*]] = arith.addi %[[M0]], %{{.*}}
// CHECK: %[[IN0:.*]] = arith.cmpi ule, %[[AROWS]], %[[M]]
// CHECK: %[[K:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: %[[LASTK:.*]] = arith.muli %[[LAST]], %c32
// CHECK: %[[AEND:.*]] = arith.addi %[[LASTK]], %{{.*}}
// CHECK: arith.cmpi ule, %[[AEND]], %[[K]]
// CHECK: arith.remui %[[K]], %c8
// The data pointer too (a view may start at any element): 8 f16 = 16 bytes.
// CHECK: %[[ABASE:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: arith.remui %[[ABASE]], %c16
// CHECK: memref.dim %[[B]]
// CHECK: %[[BEND:.*]] = arith.addi %[[LASTK]], %{{.*}}
// CHECK: arith.cmpi ule, %[[BEND]]
// CHECK: %[[N:.*]] = memref.dim %[[B]]
// CHECK: arith.cmpi sge, %[[N0]], %{{.*}}
// CHECK: arith.addi %[[N0]]
// CHECK: arith.remui %[[N]], %c8
// CHECK: arith.remui %[[N0]], %c8
// CHECK-NOT: arith.remui %[[N0]], %c8
// CHECK: %[[IDLE:.*]] = arith.xori %[[RUNS]], %true
// CHECK: %[[INTERIOR:.*]] = arith.ori %{{.*}}, %[[IDLE]] : i1
// CHECK: scf.if %[[INTERIOR]] {
// CHECK-NEXT: scf.for %[[K1:.*]] = %c0 to %[[KT]] step %c1 {
// CHECK-NEXT: %[[K10:.*]] = arith.muli %[[K1]], %c32
// CHECK-NEXT: tile.copy in_bounds %[[A]][%[[M0]], %[[K10]]]
// CHECK-NEXT: tile.copy in_bounds %[[B]][%[[K10]], %[[N0]]]
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: } {tile.num_stages = 3 : i64}
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.for %[[K2:.*]] = %c0 to %[[KT]] step %c1 {
// CHECK-NEXT: %[[K20:.*]] = arith.muli %[[K2]], %c32
// CHECK-NEXT: tile.copy %[[A]][%[[M0]], %[[K20]]]
// CHECK-NEXT: tile.copy %[[B]][%[[K20]], %[[N0]]]
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: } {tile.num_stages = 3 : i64}
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy %{{.*}}, %[[A]][%[[M0]], %[[N0]]] : memref<128x128xf32

// Both versions are pipelined and share the tiles, versioned once.
// PIPE-LABEL: func.func @gemm(
// PIPE: tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// PIPE: tile.alloc : memref<3x32x128xf16, #gpu.address_space<workgroup>>
// PIPE: scf.if
// PIPE: scf.for
// PIPE: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(1)
// PIPE: tile.copy async in_bounds
// PIPE: tile.copy async in_bounds
// PIPE: tile.pipe.produce_commit
// PIPE: tile.gemm
// PIPE: } else {
// PIPE: scf.for
// PIPE: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(1)
// PIPE: tile.copy async %
// PIPE: tile.copy async %
// PIPE: tile.pipe.produce_commit
// PIPE: tile.gemm
func.func @gemm(%A: !gA, %B: !gB, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel @gemm_kernel blocks(%bx, %by) in [%c1, %c1] threads(128) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%k0, %n0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %A[%m0, %n0] : !fC to !gA
  }
  return
}

// -----

// Dynamic bounds and step, offsets with an invariant term (k * 64 + base),
// a copy to global memory from a fragment, and loop results: the last
// iteration is lb + ((ub - lb - 1) / step) * step and the second lb + step;
// offsets of the first iteration must not be negative (lb may be); both
// versions yield the loop results through the scf.if.
// CHECK-LABEL: func.func @dynamic_bounds(
// CHECK-SAME: %[[G:[^:]*]]: memref<?x?xf32>, %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index, %[[STEP:[^:]*]]: index, %[[BASE:[^:]*]]: index)
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]]
// CHECK: %[[LB1:.*]] = arith.addi %[[LB]], %{{.*}}
// CHECK: %[[SEL:.*]] = arith.select %[[RUNS]], %[[UB]], %[[LB1]]
// CHECK: %[[SPAN:.*]] = arith.subi %[[SEL]], %[[LB1]]
// CHECK: %[[TRIPS:.*]] = arith.divui %[[SPAN]], %[[STEP]]
// CHECK: %[[DIST:.*]] = arith.muli %[[TRIPS]], %[[STEP]]
// CHECK: %[[LAST:.*]] = arith.addi %[[LB]], %[[DIST]]
// CHECK: %[[SECOND:.*]] = arith.addi %[[LB]], %[[STEP]]
// CHECK: arith.cmpi sge, %[[BASE]], %{{.*}}
// CHECK: %[[FIRSTCOL:.*]] = arith.muli %[[LB]], %c64
// CHECK: %[[FIRST:.*]] = arith.addi %[[FIRSTCOL]], %[[BASE]]
// CHECK: arith.cmpi sge, %[[FIRST]], %{{.*}}
// CHECK: %[[LASTCOL:.*]] = arith.muli %[[LAST]], %c64
// CHECK: arith.addi %[[LASTCOL]], %[[BASE]]
// CHECK: arith.remui %[[FIRST]], %c4
// CHECK: %[[SECONDCOL:.*]] = arith.muli %[[SECOND]], %c64
// CHECK: arith.addi %[[SECONDCOL]], %[[BASE]]
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: %[[F:.*]] = scf.for {{.*}} iter_args
// CHECK: tile.copy in_bounds %{{.*}}, %[[G]]
// CHECK: scf.yield %[[F]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[S:.*]] = scf.for {{.*}} iter_args
// CHECK: tile.copy %{{.*}}, %[[G]]
// CHECK: scf.yield %[[S]] : f32
// CHECK: "test.use"(%[[R]])
func.func @dynamic_bounds(%G: memref<?x?xf32>, %lb: index, %ub: index,
                          %step: index, %base: index) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  tile.kernel @k blocks(%bx) in [%c1] threads(128) {
    %f = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %r = scf.for %i = %lb to %ub step %step iter_args(%x = %zero) -> (f32) {
      %i64 = arith.muli %i, %c64 : index
      %col = arith.addi %i64, %base : index
      tile.copy %f, %G[%base, %col] : memref<64x64xf32, #tile.mem<fragment>> to memref<?x?xf32>
      scf.yield %x : f32
    }
    "test.use"(%r) : (f32) -> ()
  }
  return
}

// -----

// A loop with unsigned bounds runs when lb < ub as unsigned values.
// CHECK-LABEL: func.func @unsigned_loop(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index)
// CHECK: %[[RUNS:.*]] = arith.cmpi ult, %[[LB]], %[[UB]]
// CHECK: scf.if
// CHECK-NEXT: scf.for unsigned
// CHECK: tile.copy in_bounds
// CHECK: } else {
// CHECK-NEXT: scf.for unsigned
func.func @unsigned_loop(%A: memref<?x?xf16>, %lb: index, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [%c1] threads(128) {
    %As = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for unsigned %k = %lb to %ub step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %As : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// Left alone: offsets that may decrease (subi, multiplication by a negative
// constant or by an unknown value), a global memref defined in the loop, a
// copy already marked in_bounds, a loop without copies.
// CHECK-LABEL: func.func @not_specialized(
// CHECK-NOT: scf.if
// CHECK-COUNT-4: tile.copy %
// CHECK: tile.copy in_bounds
// CHECK-NOT: scf.if
// CHECK: return
func.func @not_specialized(%A: memref<?x?xf16>, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %cm32 = arith.constant -32 : index
  %zero = arith.constant 0.0 : f16
  tile.kernel @k blocks(%bx) in [%c1] threads(128) {
    %As = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %n step %c1 {
      %k0 = arith.subi %n, %k : index
      tile.copy %A[%c0, %k0], %As : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    scf.for %k = %c0 to %n step %c1 {
      %k0 = arith.muli %k, %cm32 : index
      tile.copy %A[%c0, %k0], %As : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    scf.for %k = %c0 to %n step %c1 {
      %k0 = arith.muli %k, %s : index
      tile.copy %A[%c0, %k0], %As : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    scf.for %k = %c0 to %n step %c1 {
      %k0 = arith.muli %k, %c32 : index
      %alloc = memref.alloc(%n, %n) : memref<?x?xf16>
      tile.copy %alloc[%c0, %k0], %As : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    scf.for %k = %c0 to %n step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy in_bounds %A[%c0, %k0], %As : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    scf.for %k = %c0 to %n step %c1 {
      tile.fill %As, %zero : memref<128x32xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// Nested loops: a loop is versioned for the copies directly in its body. The
// inner loop is (the outer variable is invariant in it, so its test sits in
// the outer loop's body); the outer loop has no copy of its own.
// CHECK-LABEL: func.func @nested(
// CHECK: scf.for %[[I:.*]] =
// CHECK-NEXT: %[[M0:.*]] = arith.muli %[[I]], %c128
// CHECK: arith.addi %[[M0]]
// CHECK: scf.if
// CHECK-NEXT: scf.for %[[J:.*]] =
// CHECK: tile.copy in_bounds
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK: tile.copy %
func.func @nested(%A: memref<?x?xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel @k blocks(%bx) in [%c1] threads(128) {
    %As = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %n step %c1 {
      %m0 = arith.muli %i, %c128 : index
      scf.for %j = %c0 to %n step %c1 {
        %k0 = arith.muli %j, %c32 : index
        tile.copy %A[%m0, %k0], %As : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      }
    }
  }
  return
}

// -----

// Tensor copies need no interior version (the copy engine handles the
// edges), and a loop with stage hand-offs of its own (pipe ops written by
// hand) keeps its shape: two versions would hand off on the same pipe, and
// a pipe of tensor copies counts the copies of a hand-off.
// CHECK-LABEL: func.func @hand_offs(
// CHECK-NOT: scf.if
// CHECK-NOT: in_bounds
// CHECK: return
func.func @hand_offs(%A: memref<?x?xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [%c1] threads(128) {
    %p = tile.pipe.create : <2>
    %As = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %n step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy async tma %A[%c0, %k0], %As : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    scf.for %k = %c0 to %n step %c1 {
      tile.pipe.produce_acquire %p[%k] : <2>
      %k0 = arith.muli %k, %c32 : index
      tile.copy async %A[%c0, %k0], %Bs : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.pipe.produce_commit %p[%k] : <2>
    }
  }
  return
}
