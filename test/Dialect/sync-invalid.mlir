// RUN: tile-opt %s -split-input-file -verify-diagnostics

// A pipe needs a slot.
func.func @zero_slots() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{a pipe needs at least one slot, got 0}}
    %p = tile.pipe.create : !tile.pipe<0>
  }
  return
}

// -----

// Pipes are created at the kernel's top level.
func.func @nested_create(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{'tile.pipe.create' op must be at the top level of a tile.kernel}}
      %p = tile.pipe.create : !tile.pipe<2>
    }
  }
  return
}

// -----

// A wait cannot expect more later hand-offs in flight than the pipe has
// slots.
func.func @in_flight(%i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    // expected-error @+1 {{'tile.pipe.consume_wait' op cannot have 2 later hand-offs in flight on a pipe of 2 slots}}
    tile.pipe.consume_wait %p[%i] in_flight(2) : !tile.pipe<2>
  }
  return
}

// -----

// Barriers and hand-offs synchronize every executing thread: not inside a
// tile.parallel, whose threads run different iteration counts.
func.func @barrier_in_parallel() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    tile.parallel (%i) in [128] {
      // expected-error @+1 {{'tile.barrier' op cannot be nested in a tile.parallel}}
      tile.barrier
    }
  }
  return
}

// -----

func.func @acquire_in_parallel(%s: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    tile.parallel (%i) in [128] {
      // expected-error @+1 {{'tile.pipe.produce_acquire' op cannot be nested in a tile.parallel}}
      tile.pipe.produce_acquire %p[%s] : !tile.pipe<2>
    }
  }
  return
}

// -----

// Outside a kernel.
func.func @barrier_outside() {
  // expected-error @+1 {{'tile.barrier' op must be nested in a tile.kernel}}
  tile.barrier
  return
}

// -----

// A pipe's base is per thread: every thread executing the kernel's region
// must pass the same advances, not a tile.parallel's varying iterations.
func.func @advance_in_parallel(%s: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    tile.parallel (%i) in [128] {
      // expected-error @+1 {{'tile.pipe.advance' op cannot be nested in a tile.parallel}}
      tile.pipe.advance %p by %s : !tile.pipe<2>
    }
  }
  return
}

// -----

func.func @base_in_parallel() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    tile.parallel (%i) in [128] {
      // expected-error @+1 {{'tile.pipe.base' op cannot be nested in a tile.parallel}}
      %b = tile.pipe.base %p : !tile.pipe<2>
    }
  }
  return
}

// -----

// A ring needs a slot.
func.func @ring_without_slots(%i: index) {
  // expected-error @+1 {{'tile.ring_position' op needs 1 to 64 slots, not 0}}
  %s, %w = tile.ring_position %i mod 0
  return
}
