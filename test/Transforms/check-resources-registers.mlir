// Registers against what the launch gives a thread on NVIDIA chips
// (issue 26): the register file over threads x tile.blocks_per_sm, in steps
// of 8, at most 255, or the setmaxnreg budget of a tile.ws region. A wgmma
// keeps its whole accumulator in registers (m64nN: N / 2 f32 registers per
// thread, plus about 26 for descriptors and addresses): one that needs more
// than that made ptxas fail with "Insufficient registers" after the whole
// pipeline ran. Register tiles that alone take more than the cap are
// rejected too. The estimate in the message is the tiles plus 40 registers
// of addresses.
// RUN: tile-opt %s -split-input-file -tile-check-resources -verify-diagnostics | FileCheck %s
// The pipeline runs the check before anything is lowered.
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="format=isa" -verify-diagnostics -o /dev/null

!sA = memref<512x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<512x128xf32, #tile.mem<fragment>>

// 1024 threads get 64 registers each; one wgmma m64n128k16 (8 warpgroups
// of 64 rows) needs about 90 (ptxas: "Insufficient registers (64) ... Try
// to compile with register target of 90 or higher").
func.func @wgmma_1024_threads() {
  // expected-error @below {{kernel 'wgmma_1024_threads' needs about 104 registers per thread, the launch allows 64 (1024 threads, 1 block per multiprocessor): one wgmma m64n128k16 needs about 90 at once, its accumulator in registers; use fewer threads, a smaller accumulator tile, or lower tile.blocks_per_sm}}
  tile.kernel @wgmma_1024_threads blocks(%bx) in [1] threads(1024) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-note @below {{the wgmma}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}

// -----

// The same with a 512x64 accumulator: m64n64k16 needs about 58 of the 64
// (ptxas compiles it).
// CHECK-LABEL: func.func @wgmma_1024_threads_n64
// CHECK: tile.fragment_registers = 32 : i64
!sA = memref<512x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x64xf16, #gpu.address_space<workgroup>>
!fC = memref<512x64xf32, #tile.mem<fragment>>
func.func @wgmma_1024_threads_n64() {
  tile.kernel @wgmma_1024_threads_n64 blocks(%bx) in [1] threads(1024) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}

// -----

// Two blocks of 512 threads per multiprocessor: 64 registers each, too few
// for a wgmma of a 256x128 accumulator.
!sA = memref<256x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<256x128xf32, #tile.mem<fragment>>
func.func @blocks_per_sm() {
  // expected-error @below {{kernel 'blocks_per_sm' needs about 104 registers per thread, the launch allows 64 (512 threads, 2 blocks per multiprocessor): one wgmma m64n128k16 needs about 90 at once}}
  tile.kernel @blocks_per_sm blocks(%bx) in [1] threads(512) attributes {tile.blocks_per_sm = 2 : i64} {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-note @below {{the wgmma}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}

// -----

// At the limit: two blocks of 256 threads get 128 registers each, which
// the 256x128 accumulator fills (ptxas compiles it, spilling around the
// wgmmas).
// CHECK-LABEL: func.func @blocks_per_sm_at_limit
// CHECK: tile.fragment_registers = 128 : i64
!sA = memref<256x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<256x128xf32, #tile.mem<fragment>>
func.func @blocks_per_sm_at_limit() {
  tile.kernel @blocks_per_sm_at_limit blocks(%bx) in [1] threads(256) attributes {tile.blocks_per_sm = 2 : i64} {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}

// -----

// Register tiles alone over the cap: a 256x256 f32 fragment over 1024
// threads takes 64 registers per thread, two blocks allow 32. (With one
// block it fits: the per-block limit is 65536 / 1024 = 64.)
func.func @tiles_over_the_launch() {
  // expected-error @below {{kernel 'tiles_over_the_launch' needs about 104 registers per thread, the launch allows 32 (1024 threads, 2 blocks per multiprocessor): its register tiles alone take 64; use fewer threads, a smaller accumulator tile, or lower tile.blocks_per_sm}}
  tile.kernel @tiles_over_the_launch blocks(%bx) in [1] threads(1024) attributes {tile.blocks_per_sm = 2 : i64} {
    %c = tile.alloc : memref<256x256xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// The launch's count is rounded down to a multiple of 8: 384 threads get
// 168 (not 170); 168 registers of tiles fit.
// CHECK-LABEL: func.func @rounded_launch
// CHECK: tile.fragment_registers = 168 : i64
func.func @rounded_launch() {
  tile.kernel @rounded_launch blocks(%bx) in [1] threads(384) {
    %c = tile.alloc : memref<384x168xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// A warp-specialized consumer has the budget of its tile.ws region: a
// wgmma m64n256k16 needs about 154 of them (128 of accumulator).
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
func.func @consumer_budget() {
  // expected-error @below {{kernel 'consumer_budget' needs about 126 registers per thread, the launch allows 152 (the register budget of its tile.ws region): one wgmma m64n256k16 needs about 154 at once}}
  tile.kernel @consumer_budget blocks(%bx) in [1] threads(384) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.ws [0] registers(40) {
    }
    tile.ws [1, 2] registers(152) {
      // expected-note @below {{the wgmma}}
      tile.gemm %a, %b, %c : !sA, !sB, !fC
    }
  }
  return
}

// -----

// At the limit: a budget of 160.
// CHECK-LABEL: func.func @consumer_budget_at_limit
// CHECK: tile.fragment_registers = 86 : i64
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
func.func @consumer_budget_at_limit() {
  tile.kernel @consumer_budget_at_limit blocks(%bx) in [1] threads(384) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.ws [0] registers(40) {
    }
    tile.ws [1, 2] registers(160) {
      tile.gemm %a, %b, %c : !sA, !sB, !fC
    }
  }
  return
}

// -----

// More blocks per multiprocessor than it holds threads for (a fuzzed
// tile.blocks_per_sm = 2^63 - 1 reached ptxas as .minnctapersm 4294967295).

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @too_many_blocks() {
  // expected-error @+1 {{kernel 'k' asks for tile.blocks_per_sm = 9 blocks of 256 threads, but a multiprocessor of sm_90a holds 2048 threads (8 such blocks)}}
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.blocks_per_sm = 9 : i64} {
  }
  return
}
}

// -----

// An FP8 gemm promoting its partial sums holds one instruction's besides
// its accumulator: pinned to m64n256k32 on a 128 x 256 tile, 128 of them
// beside the slab's 128 do not fit 255 registers. (Unpinned, tile-select-mma
// narrows the instruction to m64n128k32: select-mma-fp8.mlir.)
!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<256x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
func.func @fp8_wide_promoted_pinned() {
  // expected-error @below {{kernel 'fp8_wide_promoted_pinned' needs about 168 registers per thread, the launch allows 255 (256 threads, 1 block per multiprocessor): one wgmma m64n256k32 needs about 282 at once}}
  tile.kernel @fp8_wide_promoted_pinned blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-note @below {{the wgmma}}
    tile.gemm %a, %b, %c transpose_b {mma = #tile.mma<wgmma, shape = [64, 256, 32], warps = [8, 1]>, promote_k = 128 : i64} : !sA, !sB, !fC
  }
  return
}
