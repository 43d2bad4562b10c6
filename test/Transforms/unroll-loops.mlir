// RUN: tile-opt %s -split-input-file -tile-unroll-loops -verify-diagnostics | FileCheck %s
// RUN: sed 's/num_stages = 4/num_stages = 5/' %tile_src_root/test/Examples/Inputs/fp8_gemm_128x128.mlir | tile-opt --tile-to-nvvm="chip=sm_90a format=isa" -mlir-print-ir-after=tile-lower-ops -o /dev/null 2>&1 | FileCheck %s --check-prefix=MARK
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_128x128.mlir --tile-to-nvvm="chip=sm_90a format=isa" -mlir-print-ir-after=tile-lower-ops -o /dev/null 2>&1 | FileCheck %s --check-prefix=FOUR

// A loop marked tile.unroll = 2: where its trip count is odd, the first
// iteration alone behind an scf.if that ends with the wait placed after the
// loop; then two iterations per pass, the second reading the first's
// results.

// CHECK-LABEL: func.func @pairs
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[X:.*]]: i32)
// CHECK: %[[ABOVE:.*]] = arith.cmpi sgt, %[[UB]], %[[LB]]
// CHECK: %[[DIST:.*]] = arith.subi %[[UB]], %[[LB]]
// CHECK: %[[SPAN:.*]] = arith.select %[[ABOVE]], %[[DIST]], %{{.*}}
// CHECK: %[[UP:.*]] = arith.addi %[[SPAN]], %{{.*}}
// CHECK: %[[COUNT:.*]] = arith.divui %[[UP]], %{{.*}}
// CHECK: %[[LOW:.*]] = arith.andi %[[COUNT]], %{{.*}}
// CHECK: %[[ODD:.*]] = arith.cmpi ne, %[[LOW]], %{{.*}}
// CHECK: %[[FIRST:.*]] = scf.if %[[ODD]] -> (i32) {
// CHECK:   %[[V0:.*]] = arith.index_cast %[[LB]] : index to i32
// CHECK:   %[[S0:.*]] = arith.addi %[[X]], %[[V0]] : i32
// CHECK:   nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:   scf.yield %[[S0]] : i32
// CHECK: } else {
// CHECK-NEXT:   scf.yield %[[X]] : i32
// CHECK: }
// CHECK: %[[NEXT:.*]] = arith.addi %[[LB]], %{{.*}}
// CHECK: %[[START:.*]] = arith.select %[[ODD]], %[[NEXT]], %[[LB]]
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %[[START]] to %[[UB]] step %[[TWO]] iter_args(%[[A:.*]] = %[[FIRST]]) -> (i32) {
// CHECK:   %[[V1:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:   %[[S1:.*]] = arith.addi %[[A]], %[[V1]] : i32
// CHECK:   %[[I2:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK:   %[[V2:.*]] = arith.index_cast %[[I2]] : index to i32
// CHECK:   %[[S2:.*]] = arith.addi %[[S1]], %[[V2]] : i32
// CHECK:   scf.yield %[[S2]] : i32
// CHECK: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: return %[[R]] : i32
// CHECK-NOT: tile.unroll
func.func @pairs(%lb: index, %ub: index, %x: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%a = %x) -> (i32) {
    %v = arith.index_cast %i : index to i32
    %s = arith.addi %a, %v : i32
    scf.yield %s : i32
  } {tile.unroll = 2 : i64}
  nvvm.wgmma.wait.group.sync.aligned 0
  return %r : i32
}

// -----

// Unsigned bounds compare unsigned; a step of 3 rounds the count up and
// pairs by 6.

// CHECK-LABEL: func.func @unsigned_step
// CHECK: arith.cmpi ugt
// CHECK: arith.divui %{{.*}}, %{{.*}} : i32
// CHECK: scf.if
// CHECK-COUNT-1: memref.store
// CHECK: } else {
// CHECK: %[[C6:.*]] = arith.constant 6 : i32
// CHECK-NEXT: scf.for unsigned %{{.*}} = %{{.*}} to %{{.*}} step %[[C6]] {{ *}}: i32 {
// CHECK-COUNT-2: memref.store
// CHECK: }
// CHECK-NEXT: return
func.func @unsigned_step(%lb: i32, %ub: i32, %m: memref<?xi32>) {
  %c3 = arith.constant 3 : i32
  scf.for unsigned %i = %lb to %ub step %c3 : i32 {
    %j = arith.index_castui %i : i32 to index
    memref.store %i, %m[%j] : memref<?xi32>
  } {tile.unroll = 2 : i64}
  return
}

// -----

// tile.unroll = 1 keeps the loop and drops the mark.

// CHECK-LABEL: func.func @kept
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: tile.unroll
// CHECK-NOT: scf.if
func.func @kept(%n: index, %m: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.store %i, %m[%i] : memref<?xindex>
  } {tile.unroll = 1 : i64}
  return
}

// -----

// A step that is not a constant keeps the loop, with a remark.

// CHECK-LABEL: func.func @dynamic_step
// CHECK: scf.for
// CHECK-NOT: scf.if
func.func @dynamic_step(%n: index, %s: index, %m: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{not unrolled by two: the step is not a positive constant}}
  scf.for %i = %c0 to %n step %s {
    memref.store %i, %m[%i] : memref<?xindex>
  } {tile.unroll = 2 : i64}
  return
}

// The lowering marks the K loop of an FP8 gemm promoting one K block late
// (partials) with 5 or more pipeline slots and, in it, issues the block's
// MMAs before adding the previous block's partial sums; with 4 slots it
// adds first and leaves the loop as it is.

// MARK-LABEL: IR Dump After LowerOps
// MARK: nvvm.wgmma.wait.group.sync.aligned 0
// MARK-NEXT: llvm.mlir.poison
// MARK-NEXT: nvvm.wgmma.fence.aligned
// MARK-COUNT-4: nvvm.wgmma.mma_async
// MARK: nvvm.wgmma.commit.group.sync.aligned
// MARK-NOT: nvvm.wgmma
// MARK: arith.addf
// MARK: } {tile.unroll = 2 : i64}

// FOUR-LABEL: IR Dump After LowerOps
// FOUR-NOT: tile.unroll
// FOUR: nvvm.wgmma.wait.group.sync.aligned 0
// FOUR-NOT: nvvm.wgmma.mma_async
// FOUR: arith.addf
// FOUR: nvvm.wgmma.fence.aligned
// FOUR: nvvm.wgmma.mma_async
// FOUR-NOT: tile.unroll
