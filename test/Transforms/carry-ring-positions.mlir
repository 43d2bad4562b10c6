// RUN: tile-opt %s -split-input-file -allow-unregistered-dialect -tile-carry-ring-positions | FileCheck %s

// The slot and wraps of hand-off %base + %i: the loop carries them from the
// base's position, one slot per iteration.

// CHECK-LABEL: func.func @counted_from_base
// CHECK-SAME: (%[[BASE:.*]]: index, %[[N:.*]]: index)
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[R:.*]] = arith.remui %[[BASE]], %[[C3]] : index
// CHECK: %[[S0:.*]] = arith.index_castui %[[R]] : index to i32
// CHECK: %[[Q:.*]] = arith.divui %[[BASE]], %[[C3]] : index
// CHECK: %[[W0:.*]] = arith.index_cast %[[Q]] : index to i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[S:.*]] = %[[S0]], %[[W:.*]] = %[[W0]]) -> (i32, i32) {
// CHECK-NOT: divui
// CHECK-NOT: remui
// CHECK: %[[SLOT:.*]] = arith.index_castui %[[S]] : i32 to index
// CHECK: "use"(%[[SLOT]], %[[W]])
// CHECK: %[[NEXT:.*]] = arith.addi %[[S]], %{{.*}} : i32
// CHECK: %[[END:.*]] = arith.cmpi eq, %[[NEXT]], %{{.*}} : i32
// CHECK: %[[S1:.*]] = arith.select %[[END]], %{{.*}}, %[[NEXT]] : i32
// CHECK: %[[E:.*]] = arith.extui %[[END]] : i1 to i32
// CHECK: %[[W1:.*]] = arith.addi %[[W]], %[[E]] : i32
// CHECK: scf.yield %[[S1]], %[[W1]] : i32, i32
// CHECK: } {tile.pipeline_drain = 2 : i64}
func.func @counted_from_base(%base: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s, %w = tile.ring_position %i from %base mod 3
    "use"(%s, %w) : (index, i32) -> ()
  } {tile.pipeline_drain = 2 : i64}
  return
}

// -----

// Hand-offs one ahead and one behind the iteration's share its cursor; the
// one behind is the base's position while its offset is negative. No base:
// the ring counts from 0.

// CHECK-LABEL: func.func @shifted
// CHECK: %[[Z0:.*]] = arith.constant 0 : i32
// CHECK: %[[Z1:.*]] = arith.constant 0 : i32
// CHECK: scf.for %[[I:.*]] = %{{.*}} iter_args(%[[S:.*]] = %[[Z0]], %[[W:.*]] = %[[Z1]]) -> (i32, i32) {
// CHECK: %[[AHEAD:.*]] = arith.addi %[[S]], %{{.*}} : i32
// CHECK: %[[OVER:.*]] = arith.cmpi sge, %[[AHEAD]], %{{.*}} : i32
// CHECK: %[[BACK:.*]] = arith.subi %[[AHEAD]], %{{.*}} : i32
// CHECK: %[[S1:.*]] = arith.select %[[OVER]], %[[BACK]], %[[AHEAD]] : i32
// CHECK: %[[E1:.*]] = arith.extui %[[OVER]] : i1 to i32
// CHECK: %[[W1:.*]] = arith.addi %[[W]], %[[E1]] : i32
// CHECK: %[[V1:.*]] = arith.index_castui %[[S1]] : i32 to index
// CHECK: "use"(%[[V1]], %[[W1]])
// CHECK: %[[OLD:.*]] = arith.subi %[[I]], %{{.*}} : index
// CHECK: %[[AHEAD2:.*]] = arith.addi %[[S]], %{{.*}} : i32
// CHECK: %[[OVER2:.*]] = arith.cmpi sge, %[[AHEAD2]], %{{.*}} : i32
// CHECK: %[[MOVED:.*]] = arith.select %[[OVER2]], %{{.*}}, %[[AHEAD2]] : i32
// CHECK: %[[WM:.*]] = arith.addi %[[W]], %{{.*}} : i32
// CHECK: %[[WT:.*]] = arith.addi %[[WM]], %{{.*}} : i32
// CHECK: %[[O32:.*]] = arith.index_cast %[[OLD]] : index to i32
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[O32]], %{{.*}} : i32
// CHECK: %[[SB:.*]] = arith.select %[[NEG]], %[[Z0]], %[[MOVED]] : i32
// CHECK: %[[WB:.*]] = arith.select %[[NEG]], %[[Z1]], %[[WT]] : i32
// CHECK: %[[SLOT:.*]] = arith.index_castui %[[SB]] : i32 to index
// CHECK: "use"(%[[SLOT]], %[[WB]])
// CHECK: scf.yield
// CHECK-NOT: divui
func.func @shifted(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %n step %c1 {
    %next = arith.addi %i, %c1 : index
    %s, %w = tile.ring_position %next mod 5
    "use"(%s, %w) : (index, i32) -> ()
    %old = arith.subi %i, %c7 : index
    %t, %v = tile.ring_position %old mod 5
    "use"(%t, %v) : (index, i32) -> ()
  }
  return
}

// -----

// A pipelined loop's stage: iteration (j - lb) / step of j = i - 2 * step,
// with a dynamic lower bound and a step of 2.

// CHECK-LABEL: func.func @stage_behind
// CHECK: scf.for %{{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[W:.*]] = %{{.*}}) -> (i32, i32) {
// CHECK-NOT: divui
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: "use"
func.func @stage_behind(%lb: index, %ub: index) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %lb to %ub step %c2 {
    %j = arith.subi %i, %c4 : index
    %from = arith.subi %j, %lb : index
    %it = arith.divsi %from, %c2 : index
    %s, %w = tile.ring_position %it mod 6
    "use"(%s, %w) : (index, i32) -> ()
  }
  return
}

// -----

// The barrier hand-off of tile-lower-ops: the base loaded from the pipe's
// counter inside the loop and the offset counted from it in 32 bits. The
// counter is not stored in the loop: one cursor serves both positions. It
// starts from two cells that hold the position of the counter's value
// (stored with every store of the counter: 0 at first, the loop's final
// cursor where the counter advances by the loop's trip count), not from a
// division of the counter.

// CHECK-LABEL: func.func @counter_base
// CHECK: %[[CNT:.*]] = memref.alloca() : memref<1xindex>
// CHECK-NEXT: %[[CS:.*]] = memref.alloca() : memref<1xi32>
// CHECK-NEXT: %[[CW:.*]] = memref.alloca() : memref<1xi32>
// CHECK: memref.store %{{.*}}, %[[CS]]
// CHECK: memref.store %{{.*}}, %[[CW]]
// CHECK: memref.store %{{.*}}, %[[CNT]]
// CHECK: %[[S0:.*]] = memref.load %[[CS]]
// CHECK: %[[W0:.*]] = memref.load %[[CW]]
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%[[S:.*]] = %[[S0]], %[[W:.*]] = %[[W0]]) -> (i32, i32) {
// CHECK-NOT: divui
// CHECK-NOT: remui
// CHECK: %[[V:.*]] = arith.index_castui %[[S]] : i32 to index
// CHECK: "use"(%[[V]], %[[W]])
// CHECK: %[[H:.*]] = arith.index_castui %[[S]] : i32 to index
// CHECK: "use"(%[[H]], %[[W]])
// CHECK: scf.yield
// CHECK-NOT: divui
// CHECK-NOT: remui
// CHECK: memref.store %[[R]]#0, %[[CS]]
// CHECK-NEXT: memref.store %[[R]]#1, %[[CW]]
// CHECK-NEXT: memref.store %{{.*}}, %[[CNT]]
func.func @counter_base(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %counter = memref.alloca() : memref<1xindex>
  memref.store %c0, %counter[%c0] : memref<1xindex>
  %out = memref.load %counter[%c0] : memref<1xindex>
  scf.for %i = %c0 to %n step %c1 {
    %seq = arith.addi %out, %i : index
    %s, %w = tile.ring_position %i from %out mod 3
    "use"(%s, %w) : (index, i32) -> ()
    %in = memref.load %counter[%c0] : memref<1xindex>
    %seq32 = arith.index_cast %seq : index to i32
    %in32 = arith.index_cast %in : index to i32
    %d = arith.subi %seq32, %in32 : i32
    %off = arith.index_cast %d : i32 to index
    %t, %v = tile.ring_position %off from %in mod 3
    "use"(%t, %v) : (index, i32) -> ()
  }
  %span = arith.subi %n, %c0 : index
  %trips = arith.ceildivsi %span, %c1 : index
  %none = arith.cmpi sle, %n, %c0 : index
  %count = arith.select %none, %c0, %trips : index
  %now = memref.load %counter[%c0] : memref<1xindex>
  %end = arith.addi %now, %count : index
  memref.store %end, %counter[%c0] : memref<1xindex>
  return
}

// -----

// A pipelined loop runs its drain's 2 iterations beyond the trip count the
// counter advances by: the final cursor moved back by 2, or the entry
// position where the range is empty. A counter advanced by anything else
// stores a division.

// CHECK-LABEL: func.func @counter_drain
// CHECK: %[[CS:.*]] = memref.alloca() : memref<1xi32>
// CHECK: %[[CW:.*]] = memref.alloca() : memref<1xi32>
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK: %[[BACK:.*]] = arith.addi %[[R]]#0, %{{.*}} : i32
// CHECK: arith.cmpi sge, %[[BACK]]
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: %[[ES:.*]] = memref.load %[[CS]]
// CHECK: %[[EW:.*]] = memref.load %[[CW]]
// CHECK: %[[NS:.*]] = arith.select %[[EMPTY]], %[[ES]], %{{.*}} : i32
// CHECK: %[[NW:.*]] = arith.select %[[EMPTY]], %[[EW]], %{{.*}} : i32
// CHECK: memref.store %[[NS]], %[[CS]]
// CHECK: memref.store %[[NW]], %[[CW]]
// CHECK: arith.remui %{{.*}} : index
// CHECK: arith.divui %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[CS]]
func.func @counter_drain(%n: index, %x: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %counter = memref.alloca() : memref<1xindex>
  memref.store %c0, %counter[%c0] : memref<1xindex>
  %ub = arith.addi %n, %c2 : index
  scf.for %i = %c0 to %ub step %c1 {
    %in = memref.load %counter[%c0] : memref<1xindex>
    %off = arith.subi %i, %c2 : index
    %s, %w = tile.ring_position %off from %in mod 5
    "use"(%s, %w) : (index, i32) -> ()
  }
  %span = arith.subi %n, %c0 : index
  %trips = arith.ceildivsi %span, %c1 : index
  %none = arith.cmpi sle, %n, %c0 : index
  %count = arith.select %none, %c0, %trips : index
  %now = memref.load %counter[%c0] : memref<1xindex>
  %end = arith.addi %now, %count : index
  memref.store %end, %counter[%c0] : memref<1xindex>
  %again = memref.load %counter[%c0] : memref<1xindex>
  %more = arith.addi %again, %x : index
  memref.store %more, %counter[%c0] : memref<1xindex>
  return
}

// -----

// A counter the loop stores, an offset that is not the iteration count, a
// base that changes in the loop and a position outside any loop are
// divided.

// CHECK-LABEL: func.func @divided
// CHECK: arith.divui %{{.*}} : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: arith.divui %{{.*}} : i32
// CHECK: arith.divui %{{.*}} : i32
// CHECK: arith.divui %{{.*}} : i32
func.func @divided(%n: index, %x: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a, %b = tile.ring_position %x mod 3
  "use"(%a, %b) : (index, i32) -> ()
  %counter = memref.alloca() : memref<1xindex>
  memref.store %c0, %counter[%c0] : memref<1xindex>
  scf.for %i = %c0 to %n step %c1 {
    %in = memref.load %counter[%c0] : memref<1xindex>
    %s, %w = tile.ring_position %i from %in mod 3
    "use"(%s, %w) : (index, i32) -> ()
    %next = arith.addi %in, %c1 : index
    memref.store %next, %counter[%c0] : memref<1xindex>
    %twice = arith.muli %i, %c2 : index
    %t, %v = tile.ring_position %twice mod 3
    "use"(%t, %v) : (index, i32) -> ()
    %moving = arith.addi %x, %i : index
    %p, %q = tile.ring_position %i from %moving mod 3
    "use"(%p, %q) : (index, i32) -> ()
  }
  return
}

// -----

// Nested loops: the position counts the inner loop's iterations from a base
// the outer loop computes; the inner loop carries it, from the base's
// position each time it starts.

// CHECK-LABEL: func.func @nested
// CHECK: scf.for %[[T:.*]] = {{.*}} {
// CHECK: %[[B:.*]] = arith.muli %[[T]]
// CHECK: arith.remui %[[B]]
// CHECK: arith.divui %[[B]]
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (i32, i32) {
// CHECK: "use"
// CHECK: scf.yield {{.*}} : i32, i32
// CHECK: }
// CHECK-NEXT: }
func.func @nested(%tiles: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %tiles step %c1 {
    %base = arith.muli %t, %k : index
    scf.for %i = %c0 to %k step %c1 {
      %s, %w = tile.ring_position %i from %base mod 6
      "use"(%s, %w) : (index, i32) -> ()
    }
  }
  return
}
