// RUN: tile-opt %s -split-input-file -tile-check-handoffs -verify-diagnostics -o /dev/null

// What tile-check-handoffs rejects (errors: provably wrong) and what it
// cannot prove (warnings), one case per rule.

// in_flight(1), but no hand-off is committed after hand-off 0: cp.async
// would wait for all groups but the last, hand-off 0's own.
func.func @in_flight_without_later_commit() {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
    tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
    // expected-error @+1 {{in_flight(1), but at most 0 later hand-offs of the pipe are committed when it executes}}
    tile.pipe.consume_wait %p[%c0] in_flight(1) : !tile.pipe<2>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
  }
  return
}

// -----

// The wait comes before the commit of its hand-off.
func.func @wait_before_commit() {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    // expected-error @+1 {{waits for a hand-off before it is committed}}
    tile.pipe.consume_wait %p[%c0] in_flight(0) : !tile.pipe<2>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
    tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
  }
  return
}

// -----

// The same in a loop: iteration k waits for hand-off k before committing it.
func.func @wait_before_commit_loop(%kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    scf.for %k = %c0 to %kt step %c1 {
      // expected-error @+1 {{waits for a hand-off before it is committed}}
      tile.pipe.consume_wait %p[%k] in_flight(0) : !tile.pipe<2>
      tile.pipe.produce_acquire %p[%k] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%k] : !tile.pipe<2>
      tile.pipe.consume_release %p[%k] : !tile.pipe<2>
    }
  }
  return
}

// -----

// Nothing commits the pipe.
func.func @never_committed() {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    // expected-error @+1 {{waits for a hand-off that nothing commits}}
    tile.pipe.consume_wait %p[%c0] in_flight(0) : !tile.pipe<2>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
  }
  return
}

// -----

// No release frees a slot: the third acquire waits forever.
func.func @never_released(%kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    scf.for %k = %c0 to %kt step %c1 {
      // expected-error @+1 {{acquires a slot that is never released: no tile.pipe.consume_release of this pipe frees one, so the acquire after its 2 slots are used waits forever}}
      tile.pipe.produce_acquire %p[%k] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%k] : !tile.pipe<2>
      tile.pipe.consume_wait %p[%k] in_flight(0) : !tile.pipe<2>
    }
  }
  return
}

// -----

// The same over 3 iterations of a pipe of 2 slots.
func.func @never_released_constant_trips() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    scf.for %k = %c0 to %c3 step %c1 {
      // expected-error @+1 {{acquires a slot that is never released}}
      tile.pipe.produce_acquire %p[%k] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%k] : !tile.pipe<2>
      tile.pipe.consume_wait %p[%k] in_flight(0) : !tile.pipe<2>
    }
  }
  return
}

// -----

// One slot: hand-off 1 reuses hand-off 0's slot, released only later.
func.func @acquire_before_release() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<1>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<1>
    tile.pipe.produce_commit %p[%c0] : !tile.pipe<1>
    tile.pipe.consume_wait %p[%c0] in_flight(0) : !tile.pipe<1>
    // expected-error @+1 {{acquires a slot before its slot's previous use (hand-off s - 1) is released: the release comes later in the program or never (deadlock)}}
    tile.pipe.produce_acquire %p[%c1] : !tile.pipe<1>
    tile.pipe.produce_commit %p[%c1] : !tile.pipe<1>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<1>
    tile.pipe.consume_wait %p[%c1] in_flight(0) : !tile.pipe<1>
    tile.pipe.consume_release %p[%c1] : !tile.pipe<1>
  }
  return
}

// -----

// Roles: the consumer waits for hand-off 1 before releasing hand-off 0,
// whose slot the producer needs to fill hand-off 1.
func.func @consumer_holds_slot() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %p = tile.pipe.create : !tile.pipe<1>
    tile.ws [0] {
      tile.pipe.produce_acquire %p[%c0] : !tile.pipe<1>
      tile.pipe.produce_commit %p[%c0] : !tile.pipe<1>
      tile.pipe.produce_acquire %p[%c1] : !tile.pipe<1>
      tile.pipe.produce_commit %p[%c1] : !tile.pipe<1>
    }
    tile.ws [1] {
      tile.pipe.consume_wait %p[%c0] in_flight(0) : !tile.pipe<1>
      // expected-error @+1 {{waits for a hand-off before releasing its slot's previous use (hand-off s - 1), which the producers need to fill the slot (deadlock)}}
      tile.pipe.consume_wait %p[%c1] in_flight(0) : !tile.pipe<1>
      tile.pipe.consume_release %p[%c0] : !tile.pipe<1>
      tile.pipe.consume_release %p[%c1] : !tile.pipe<1>
    }
  }
  return
}

// -----

// Roles: the producer acquires hand-off 1 before committing hand-off 0,
// which the consumers must wait for and release first.
func.func @producer_holds_slot() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %p = tile.pipe.create : !tile.pipe<1>
    tile.ws [0] {
      tile.pipe.produce_acquire %p[%c0] : !tile.pipe<1>
      // expected-error @+1 {{acquires a slot before committing its slot's previous use (hand-off s - 1), which the consumers must release first (deadlock)}}
      tile.pipe.produce_acquire %p[%c1] : !tile.pipe<1>
      tile.pipe.produce_commit %p[%c0] : !tile.pipe<1>
      tile.pipe.produce_commit %p[%c1] : !tile.pipe<1>
    }
    tile.ws [1] {
      tile.pipe.consume_wait %p[%c0] in_flight(0) : !tile.pipe<1>
      tile.pipe.consume_release %p[%c0] : !tile.pipe<1>
      tile.pipe.consume_wait %p[%c1] in_flight(0) : !tile.pipe<1>
      tile.pipe.consume_release %p[%c1] : !tile.pipe<1>
    }
  }
  return
}

// -----

// Warnings: hand-off numbers the checker cannot relate (a run-time value).
func.func @unknown_numbers(%i: index, %j: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    // expected-warning @+1 {{cannot prove that its slot's previous use (hand-off s - 2) is released before this acquire}}
    tile.pipe.produce_acquire %p[%i] : !tile.pipe<2>
    tile.pipe.produce_commit %p[%i] : !tile.pipe<2>
    // expected-warning @+1 {{cannot prove that the hand-off is committed before this wait}}
    tile.pipe.consume_wait %p[%j] in_flight(0) : !tile.pipe<2>
    tile.pipe.consume_release %p[%j] : !tile.pipe<2>
  }
  return
}

// -----

// Warning: hand-off 1 is committed on one path only, so in_flight(1) may
// leave hand-off 0 in flight on the other.
func.func @in_flight_on_one_path(%c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
    tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
    scf.if %c {
      tile.pipe.produce_acquire %p[%c1] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%c1] : !tile.pipe<2>
    }
    // expected-warning @+1 {{cannot prove that 1 later hand-offs are committed before this wait (in_flight)}}
    tile.pipe.consume_wait %p[%c0] in_flight(1) : !tile.pipe<2>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
  }
  return
}

// -----

// Warning: without any release, an acquire of a run-time hand-off number
// may reuse a slot.
func.func @maybe_reused(%i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    // expected-warning @+1 {{cannot prove that this acquire never reuses a slot: no tile.pipe.consume_release of this pipe frees one}}
    tile.pipe.produce_acquire %p[%i] : !tile.pipe<2>
    tile.pipe.produce_commit %p[%i] : !tile.pipe<2>
  }
  return
}

// -----

// Warning: roles whose hand-off numbers cannot be related.
func.func @roles_unknown(%i: index) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %p = tile.pipe.create : !tile.pipe<2>
    tile.ws [0] {
      // expected-warning @+1 {{cannot prove that its slot's previous use (hand-off s - 2) is committed before this acquire}}
      tile.pipe.produce_acquire %p[%i] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%i] : !tile.pipe<2>
    }
    tile.ws [1] {
      // expected-warning @+1 {{cannot prove that its slot's previous use (hand-off s - 2) is released before this wait}}
      tile.pipe.consume_wait %p[%i] in_flight(0) : !tile.pipe<2>
      tile.pipe.consume_release %p[%i] : !tile.pipe<2>
    }
  }
  return
}

// -----

// Warning: pipe ops in a region the checker does not follow.
func.func @other_region(%c: i1) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    // expected-warning @+1 {{cannot follow the hand-offs of a pipe through this op: its pipe ops are not checked}}
    scf.execute_region {
      tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
      scf.yield
    }
    // expected-warning @+1 {{cannot prove that the hand-off is committed before this wait}}
    tile.pipe.consume_wait %p[%c0] in_flight(0) : !tile.pipe<2>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
  }
  return
}

// -----

// The number of slots is bounded when the type is built (at parse time),
// before anything sets up per-slot barriers.
func.func @too_many_slots() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{a pipe has at most 64 slots (the most stages tile-pipeline-planning makes), got 65}}
    %p = tile.pipe.create : !tile.pipe<65>
  }
  return
}

// -----

func.func @huge_pipe() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{a pipe has at most 64 slots (the most stages tile-pipeline-planning makes), got 2305843009213693952}}
    %p = tile.pipe.create : !tile.pipe<2305843009213693952>
  }
  return
}
