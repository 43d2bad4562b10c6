// RUN: tile-opt %s -split-input-file --tile-dependent-launch -verify-diagnostics

// A kernel that asks for a dependent launch on a chip without grid
// dependency control.
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @sm80(%n: index) {
  // expected-error @+1 {{'tile.kernel' op tile.dependent_launch = true needs a chip with grid dependency control (sm_90 or newer), not sm_80}}
  tile.kernel @sm80_kernel blocks(%bx) in [%n] threads(128)
      attributes {tile.dependent_launch = true} {
  }
  return
}
}

// -----

module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @gfx90a(%n: index) {
  // expected-error @+1 {{tile.dependent_launch = true needs a chip with grid dependency control (sm_90 or newer), not gfx90a}}
  tile.kernel @gfx90a_kernel blocks(%bx) in [%n] threads(256)
      attributes {tile.dependent_launch = true} {
  }
  return
}
}

// -----

func.func @not_a_bool(%n: index) {
  // expected-error @+1 {{'tile.dependent_launch' must be a boolean}}
  tile.kernel @k blocks(%bx) in [%n] threads(128)
      attributes {tile.dependent_launch = 1 : i64} {
  }
  return
}

// -----

func.func @not_a_kernel() attributes {tile.dependent_launch = true} {
  // expected-error @-1 {{'tile.dependent_launch' may only be attached to a tile.kernel}}
  return
}
