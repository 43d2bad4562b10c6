// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=sm_90a -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics

// Turns between tile.ws regions (tile.turn_wait / tile.turn_pass) need a
// second region with turns to pass to.
func.func @lonely_turn() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    tile.ws [0] {
      // expected-error @+1 {{'tile.turn_wait' op needs another tile.ws region with turns to take turns with}}
      tile.turn_wait
    }
    tile.ws [1] {
    }
  }
  return
}

// -----

func.func @lonely_pass() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    tile.ws [1] {
      // expected-error @+1 {{'tile.turn_pass' op needs another tile.ws region with turns to take turns with}}
      tile.turn_pass
    }
  }
  return
}
