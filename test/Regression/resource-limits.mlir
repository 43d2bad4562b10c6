// Kernels over the target's limits (issue 10). tile-to-nvvm compiled
// kernels that tile-check-resources rejects (300 KiB of shared memory,
// register tiles far over the register file), and it never finished on a
// register tile far beyond the register file or on a tile.parallel over
// 2^31 points (unrolled without limit). tile-to-nvvm now runs
// tile-check-resources before any lowering, which checks against the
// module's target when no limit is given; the tile.parallel verifier bounds
// the iterations a thread unrolls, whatever passes run.
//
// RUN: tile-opt %s -split-input-file -tile-check-resources -verify-diagnostics
// RUN: not timeout 300 tile-opt %s -split-input-file --tile-to-nvvm="format=isa" -o /dev/null 2>&1 | FileCheck %s
// CHECK: resource-limits.mlir:{{[0-9]+}}:3: error: kernel 'smem' needs 307200 bytes of shared memory but at most 232448 are available
// CHECK: resource-limits.mlir:{{[0-9]+}}:5: error: kernel 'sm80' needs 196608 bytes of shared memory but at most 166912 are available
// CHECK: resource-limits.mlir:{{[0-9]+}}:3: error: kernel 'regs' needs about 2048 registers per thread for its register tiles but at most 255 are available
// CHECK: resource-limits.mlir:{{[0-9]+}}:10: error: 'tile.alloc' op a fragment of 4294967296 elements (padded to powers of two) over 64 threads holds 67108864 per thread
// CHECK: resource-limits.mlir:{{[0-9]+}}:3: error: kernel 'block' needs about 128 registers per thread for its register tiles, 131072 for its 1024 threads, but a block has at most 65536 registers
// CHECK: resource-limits.mlir:{{[0-9]+}}:5: error: 'tile.parallel' op unrolls 16777216 iterations per thread (its iteration space padded to powers of two, over 128 threads), more than the limit of 2048
// CHECK: resource-limits.mlir:{{[0-9]+}}:7: error: 'tile.parallel' op unrolls 4096 iterations per thread (its iteration space padded to powers of two, over 128 threads), more than the limit of 2048

// 300 KiB of shared memory.
func.func @smem(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{kernel 'smem' needs 307200 bytes of shared memory but at most 232448 are available}}
  tile.kernel @smem blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<300x256xf32, #gpu.address_space<workgroup>>
    tile.copy %A[%c0, %c0], %s : memref<?x?xf32> to memref<300x256xf32, #gpu.address_space<workgroup>>
    tile.copy %s, %A[%c0, %c0] : memref<300x256xf32, #gpu.address_space<workgroup>> to memref<?x?xf32>
  }
  return
}

// -----

// Limits come from the module's target: 192 KiB fit sm_90a, not sm_80.
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @sm80(%A: memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{kernel 'sm80' needs 196608 bytes of shared memory but at most 166912 are available}}
    tile.kernel @sm80 blocks(%bx) in [1] threads(128) {
      %s = tile.alloc : memref<192x256xf32, #gpu.address_space<workgroup>>
      tile.copy %A[%c0, %c0], %s : memref<?x?xf32> to memref<192x256xf32, #gpu.address_space<workgroup>>
      tile.copy %s, %A[%c0, %c0] : memref<192x256xf32, #gpu.address_space<workgroup>> to memref<?x?xf32>
    }
    return
  }
}

// -----

// A 512 x 512 f32 accumulator over 128 threads: 2048 registers per thread.
func.func @regs(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{kernel 'regs' needs about 2048 registers per thread for its register tiles but at most 255 are available; use more threads or smaller tiles}}
  tile.kernel @regs blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<512x512xf32, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %f : memref<?x?xf32> to memref<512x512xf32, #tile.mem<fragment>>
    tile.copy %f, %A[%c0, %c0] : memref<512x512xf32, #tile.mem<fragment>> to memref<?x?xf32>
  }
  return
}

// -----

// Far beyond any register file: 2^32 f32 elements over 64 threads, which
// no pass may lower (the tile.alloc verifier bounds the elements per
// thread).
func.func @huge(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @huge blocks(%bx) in [1] threads(64) {
    // expected-error @+1 {{'tile.alloc' op a fragment of 4294967296 elements (padded to powers of two) over 64 threads holds 67108864 per thread, more than the limit of 2048, far beyond any register file}}
    %f = tile.alloc : memref<65536x65536xf32, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %f : memref<?x?xf32> to memref<65536x65536xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// Within the per-thread limit, over the block's register file: 128
// registers for each of 1024 threads.
func.func @block(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{kernel 'block' needs about 128 registers per thread for its register tiles, 131072 for its 1024 threads, but a block has at most 65536 registers; use fewer threads or smaller tiles}}
  tile.kernel @block blocks(%bx) in [1] threads(1024) {
    %f = tile.alloc : memref<256x512xf32, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %f : memref<?x?xf32> to memref<256x512xf32, #tile.mem<fragment>>
    tile.copy %f, %A[%c0, %c0] : memref<256x512xf32, #tile.mem<fragment>> to memref<?x?xf32>
  }
  return
}

// -----

// A tile.parallel over 2^31 points (global memory only): 2^24 iterations
// for each of 128 threads.
func.func @parallel(%A: memref<?x?xf32>) {
  tile.kernel @parallel blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op unrolls 16777216 iterations per thread (its iteration space padded to powers of two, over 128 threads), more than the limit of 2048; split the loop or use smaller tiles}}
    tile.parallel (%i, %j) in [65536, 32768] {
      %x = memref.load %A[%i, %j] : memref<?x?xf32>
      memref.store %x, %A[%j, %i] : memref<?x?xf32>
    }
  }
  return
}

// -----

// Inside tile.ws the loop is spread over the region's warpgroup only.
func.func @parallel_ws(%A: memref<?x?xf32>) {
  tile.kernel @parallel_ws blocks(%bx) in [1] threads(256) {
    tile.ws [1] {
      // expected-error @+1 {{'tile.parallel' op unrolls 4096 iterations per thread (its iteration space padded to powers of two, over 128 threads), more than the limit of 2048}}
      tile.parallel (%i, %j) in [512, 1000] {
        %x = memref.load %A[%i, %j] : memref<?x?xf32>
        memref.store %x, %A[%j, %i] : memref<?x?xf32>
      }
    }
  }
  return
}
