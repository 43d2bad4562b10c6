// convert-tile-to-gpu alone outlines only lowered kernels: every tile op but
// the kernel's terminator must be gone (tile-lower-ops). It checked only the
// block-cooperative ops, so the hand-off, barrier and async ops of a kernel
// went into the gpu.func, where they do not verify (found by
// tile-pass-fuzzer: builtin.module(tile-attach-target, convert-tile-to-gpu)
// made IR that does not verify). Now each is an error at the kernel, with a
// note at the op.
//
// RUN: tile-opt %s -split-input-file --tile-attach-target --convert-tile-to-gpu -verify-diagnostics -o /dev/null

func.func @pipe(%c: i1) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.kernel' op still contains tile ops: run tile-lower-ops before convert-tile-to-gpu}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-note @+1 {{'tile.pipe.create' is not lowered}}
    %p = tile.pipe.create : !tile.pipe<2>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
    tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
    tile.pipe.consume_wait %p[%c0] in_flight(0) : !tile.pipe<2>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
  }
  return
}

// -----

func.func @barrier() {
  // expected-error @+1 {{'tile.kernel' op still contains tile ops}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    scf.execute_region {
      // expected-note @+1 {{'tile.barrier' is not lowered}}
      tile.barrier
      scf.yield
    }
  }
  return
}

// -----

func.func @async() {
  // expected-error @+1 {{'tile.kernel' op still contains tile ops}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-note @+1 {{'tile.async_commit' is not lowered}}
    tile.async_commit
    tile.async_wait 0
  }
  return
}

// -----

// A lowered kernel (its terminator is a tile op) is outlined.
func.func @lowered(%m: memref<4xf32>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %m[%c0] : memref<4xf32>
  }
  return
}
