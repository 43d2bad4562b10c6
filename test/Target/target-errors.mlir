// The target's legality checks (TargetInfo::verifyKernel and the MMA
// selection), run by every pass that reads the target; here through
// tile-select-mma.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-select-mma

// TargetInfo::verifyKernel: a thread count that is a multiple of the warpgroup.
func.func @ws_threads_not_warpgroup_multiple() {
  tile.kernel @k blocks(%bx) in [1] threads(192) {
    // expected-error @+1 {{'tile.ws' op requires a kernel thread count that is a multiple of 128 (a warpgroup on sm_90a), got 192}}
    tile.ws [0] {
    }
  }
  return
}

// -----

// TargetInfo::verifyKernel: warpgroup ids in range.
func.func @ws_warpgroup_out_of_range() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op warpgroup 2 is out of range: the kernel has 2 warpgroups}}
    tile.ws [0, 2] {
    }
  }
  return
}

// -----

// TargetInfo::verifyKernel: setmaxnreg budgets (not a multiple of 8).
func.func @ws_registers_not_multiple_of_8() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op expects a register count that is a multiple of 8 in [24, 256], got 100}}
    tile.ws [0] registers(100) {
    }
  }
  return
}

// -----

// TargetInfo::verifyKernel: setmaxnreg budgets (too small).
func.func @ws_registers_too_few() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op expects a register count that is a multiple of 8 in [24, 256], got 16}}
    tile.ws [0] registers(16) {
    }
  }
  return
}

// -----

// TargetInfo::verifyKernel: setmaxnreg budgets (too large).
func.func @ws_registers_too_many() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op expects a register count that is a multiple of 8 in [24, 256], got 264}}
    tile.ws [1] registers(264) {
    }
  }
  return
}

// -----

// Register budgets need setmaxnreg (sm_90a).
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @ws_registers_sm80() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op sets a register budget, which needs setmaxnreg (sm_90a); the target is sm_80}}
    tile.ws [1] registers(232) {
    }
  }
  return
}
}

// -----

// 64-lane wavefronts: 96 threads is not whole waves on gfx942.
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @wave64_threads() {
  // expected-error @+1 {{'tile.kernel' op expects whole warps: 96 threads is not a multiple of gfx942's warp size 64}}
  tile.kernel @k blocks(%bx) in [1] threads(96) {
  }
  return
}
}

// -----

// No warpgroups on AMD: warp specialization is diagnosed.
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @ws_on_amd() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op needs warpgroups, which gfx942 does not have: warp specialization is not supported there}}
    tile.ws [0] {
    }
  }
  return
}
}

// -----

// An unknown chip names the supported ones.
// expected-error @+1 {{unknown or unsupported chip 'sm_70'; supported chips: sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, gfx90a, gfx942}}
module attributes {tile.target = #tile.target<"sm_70">} {
}

// -----

// A PTX version below the chip's minimum.
// expected-error @+1 {{sm_90a needs a PTX ISA version from 80 to 90, got '+ptx70'}}
module attributes {tile.target = #tile.target<"sm_90a", "+ptx70">} {
}

// -----

// Features are PTX versions.
// expected-error @+1 {{unsupported target feature '+sm90': expected '+ptxNN' (the PTX ISA version)}}
module attributes {tile.target = #tile.target<"sm_90a", "+sm90">} {
}

// -----

// tile.target on another op.
// expected-error @+1 {{'tile.target' may only be attached to a module or a tile.kernel}}
func.func @target_on_func() attributes {tile.target = #tile.target<"sm_80">} {
  return
}
