// Register budgets of tile.ws regions (setmaxnreg on sm_90a, the default
// target) against the register file, checked by TargetInfo::verifyKernel
// (here through tile-select-mma). Every warp starts with the launch's count
// (the register file split evenly over the block, in steps of 8, at most
// 255: 168 per thread for 384 threads); a decrease gives registers to the
// block's pool and an increase waits until the pool has them, so budgets
// that do not fit would hang the kernel (TileLang #2406, #2559).
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-select-mma

// Budgets that fit: 40 x 128 + 232 x 256 = 168 x 384, the launch's. A
// warpgroup may be listed again with the same budget, or with none.
func.func @fits() {
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    tile.ws [0] registers(40) {
    }
    tile.ws [1, 2] registers(232) {
    }
    tile.ws [0] registers(40) {
    }
    tile.ws [0, 1, 2] {
    }
  }
  return
}

// -----

// Decreases alone never wait.
func.func @only_decreases() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    tile.ws [0] registers(24) {
    }
  }
  return
}

// -----

// A warpgroup keeps its budget from one region to the next: two regions
// may not give it different ones.
func.func @two_budgets() {
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    // expected-note @below {{the earlier budget}}
    tile.ws [0] registers(40) {
    }
    // expected-error @below {{'tile.ws' op gives warpgroup 0 a budget of 56 registers, but an earlier tile.ws gives it 40: a warpgroup keeps its budget from one region to the next}}
    tile.ws [0, 1] registers(56) {
    }
  }
  return
}

// -----

// More than the register file: the consumers rise to 232 but the producer
// warpgroup keeps the 168 it was launched with.
func.func @over_the_file() {
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    // expected-error @below {{'tile.ws' op register budgets of 168, 232 and 232 registers per thread for warpgroups 0 to 2 (168 for a warpgroup without one) need 80896 registers, more than the 65536 of sm_90a's register file}}
    tile.ws [1, 2] registers(232) {
    }
  }
  return
}

// -----

// Within the register file but more than the block is launched with: 384
// threads start with 168 registers each (64512 in all), and setmaxnreg only
// moves registers between the block's warpgroups.
func.func @over_the_launch() {
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    tile.ws [0] registers(48) {
    }
    // expected-error @below {{'tile.ws' op register budgets of 48, 232 and 232 registers per thread for warpgroups 0 to 2 (168 for a warpgroup without one) need 65536 registers, more than the 64512 a block of 384 threads is launched with (168 per thread): setmaxnreg would wait forever}}
    tile.ws [1, 2] registers(232) {
    }
  }
  return
}

// -----

// 640 threads start with 96 registers each (65536 / 640 = 102, in steps of
// 8): a producer at 40 frees 7168 registers, four consumer warpgroups at
// 112 need 8192 more.
func.func @five_warpgroups() {
  tile.kernel @k blocks(%bx) in [1] threads(640) {
    tile.ws [4] registers(40) {
    }
    // expected-error @below {{'tile.ws' op register budgets of 112, 112, 112, 112 and 40 registers per thread for warpgroups 0 to 4 (96 for a warpgroup without one) need 62464 registers, more than the 61440 a block of 640 threads is launched with (96 per thread): setmaxnreg would wait forever}}
    tile.ws [0, 1, 2, 3] registers(112) {
    }
  }
  return
}

// -----

// A launch sized for two blocks per multiprocessor (tile.blocks_per_sm)
// starts every warp with the file split over both: 128 per thread for 256
// threads. 40 x 128 + 216 x 128 fits; 224 does not.
func.func @two_blocks_fit() {
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.blocks_per_sm = 2 : i64} {
    tile.ws [1] registers(40) {
    }
    tile.ws [0] registers(216) {
    }
  }
  return
}

// -----

func.func @two_blocks_over() {
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.blocks_per_sm = 2 : i64} {
    tile.ws [1] registers(40) {
    }
    // expected-error @below {{'tile.ws' op register budgets of 224 and 40 registers per thread for warpgroups 0 to 1 (128 for a warpgroup without one) need 33792 registers, more than the 32768 a block of 256 threads is launched with (128 per thread): setmaxnreg would wait forever}}
    tile.ws [0] registers(224) {
    }
  }
  return
}
