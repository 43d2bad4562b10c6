// RUN: tile-opt %s -split-input-file -tile-check-handoffs -verify-diagnostics | FileCheck %s

// Hand-written hand-offs that tile-check-handoffs accepts (no diagnostic):
// the protocol rules of design.md 2.8.1 on straight-line code, branches,
// loops, warp-specialized roles and passes numbered from the pipe's base.

!g = memref<?x?xf16>
!s = memref<64x32xf16, #gpu.address_space<workgroup>>

// One role (the whole block) filling and reading one slot per iteration:
// hand-off k is committed before its wait, and the acquire of k finds
// hand-off k - 1 (the slot's previous use) released by the iteration before.
// CHECK-LABEL: func.func @loop_one_role
func.func @loop_one_role(%A: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<1>
    %s = tile.alloc : !s
    scf.for %k = %c0 to %kt step %c1 {
      tile.pipe.produce_acquire %p[%k] : !tile.pipe<1>
      tile.copy async %A[%c0, %k], %s : !g to !s
      tile.pipe.produce_commit %p[%k] : !tile.pipe<1>
      tile.pipe.consume_wait %p[%k] in_flight(0) : !tile.pipe<1>
      tile.copy %s, %C[%c0, %k] : !s to !g
      tile.pipe.consume_release %p[%k] : !tile.pipe<1>
    }
  }
  return
}

// -----

// A prologue commits hand-off 0; iteration k commits k + 1 before waiting
// for k, so one later hand-off is committed: in_flight(1) holds.
// CHECK-LABEL: func.func @prologue_in_flight
func.func @prologue_in_flight(%kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    %s = tile.alloc : memref<2x64x32xf16, #gpu.address_space<workgroup>>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
    tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
    scf.for %k = %c0 to %kt step %c1 {
      %next = arith.addi %k, %c1 : index
      tile.pipe.produce_acquire %p[%next] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%next] : !tile.pipe<2>
      tile.pipe.consume_wait %p[%k] in_flight(1) : !tile.pipe<2>
      tile.pipe.consume_release %p[%k] : !tile.pipe<2>
    }
  }
  return
}

// -----

// The predicated form tile-inject-pipeline emits (3 stages): iteration n
// waits for hand-off n - 2 with one later hand-off (n - 1) committed;
// hand-offs below 0 are passed (their ops do nothing).
// CHECK-LABEL: func.func @predicated
func.func @predicated(%kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<3>
    %ub = arith.addi %kt, %c2 : index
    scf.for %it = %c0 to %ub step %c1 {
      %d = arith.subi %it, %c0 : index
      %n = arith.divsi %d, %c1 : index
      %back = arith.subi %n, %c2 : index
      tile.pipe.consume_wait %p[%back] in_flight(1) : !tile.pipe<3>
      tile.pipe.produce_acquire %p[%n] : !tile.pipe<3>
      tile.pipe.produce_commit %p[%n] : !tile.pipe<3>
      tile.pipe.consume_release %p[%back] : !tile.pipe<3>
    }
  }
  return
}

// -----

// Commits on both paths of an scf.if: the wait after it is covered.
// CHECK-LABEL: func.func @branches
func.func @branches(%c: i1) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
    scf.if %c {
      tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
    } else {
      tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
    }
    tile.pipe.consume_wait %p[%c0] in_flight(0) : !tile.pipe<2>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
  }
  return
}

// -----

// A pass per outer iteration numbered from the pipe's base, which it
// advances by its trip count.
// CHECK-LABEL: func.func @base_and_advance
func.func @base_and_advance(%kt: index, %nt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    scf.for %t = %c0 to %nt step %c1 {
      %base = tile.pipe.base %p : !tile.pipe<2>
      scf.for %k = %c0 to %kt step %c1 {
        %s = arith.addi %base, %k : index
        tile.pipe.produce_acquire %p[%s] : !tile.pipe<2>
        tile.pipe.produce_commit %p[%s] : !tile.pipe<2>
        tile.pipe.consume_wait %p[%s] in_flight(0) : !tile.pipe<2>
        tile.pipe.consume_release %p[%s] : !tile.pipe<2>
      }
      tile.pipe.advance %p by %kt : !tile.pipe<2>
    }
  }
  return
}

// -----

// Warp-specialized roles: the producer region commits, the consumer region
// waits and releases. The producer acquires hand-off k once it committed
// k - 2 (the consumers release a slot after its commit); the consumer waits
// for k once it released k - 2. in_flight is not checked across roles
// (barrier pipes wait on the slot's own barrier).
!g = memref<?x?xf16>
!s = memref<64x32xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @roles
func.func @roles(%A: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %p = tile.pipe.create : !tile.pipe<2>
    %s = tile.alloc : !s
    tile.ws [0] registers(40) {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.produce_acquire %p[%k] : !tile.pipe<2>
        tile.copy async tma %A[%c0, %k], %s : !g to !s
        tile.pipe.produce_commit %p[%k] : !tile.pipe<2>
      }
    }
    tile.ws [1] {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.consume_wait %p[%k] in_flight(1) : !tile.pipe<2>
        tile.pipe.consume_release %p[%k] : !tile.pipe<2>
      }
    }
  }
  return
}

// -----

// The deepest pipe.
// CHECK-LABEL: func.func @max_slots
func.func @max_slots() {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<64>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<64>
    tile.pipe.produce_commit %p[%c0] : !tile.pipe<64>
    tile.pipe.consume_wait %p[%c0] in_flight(0) : !tile.pipe<64>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<64>
  }
  return
}

// -----

// No release, but the loop runs twice: its two hand-offs never reuse one
// of the pipe's two slots.
// CHECK-LABEL: func.func @no_release_within_slots
func.func @no_release_within_slots() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    scf.for %k = %c0 to %c2 step %c1 {
      tile.pipe.produce_acquire %p[%k] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%k] : !tile.pipe<2>
      tile.pipe.consume_wait %p[%k] in_flight(0) : !tile.pipe<2>
    }
  }
  return
}
