// RUN: tile-opt %s -split-input-file -tile-check-resources="max-shared-memory=49152" -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-check-resources="max-registers=256" | FileCheck %s --check-prefix=DEFAULT

// The first RUN limits shared memory to 48 KiB (the static shared memory of
// a block) and keeps the default register limit (255); the second keeps the
// default shared memory limit (227 KiB) and allows 256 registers, under which
// every kernel fits.

// A GEMM kernel: two 8 KiB f16 shared tiles, one 128x128 f32 fragment over
// 128 threads (512 bytes, 128 registers per thread).
// CHECK-LABEL: func.func @gemm
// CHECK: tile.kernel @gemm blocks(%{{.*}}) in [1] threads(128) attributes {tile.fragment_registers = 128 : i64, tile.shared_memory_bytes = 16384 : i64}
// DEFAULT-LABEL: func.func @gemm
// DEFAULT: tile.kernel @gemm {{.*}} attributes {tile.fragment_registers = 128 : i64, tile.shared_memory_bytes = 16384 : i64}
func.func @gemm() {
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// Each shared tile starts at its own alignment (16 bytes by default), in
// program order:
//   [0, 6)     3 x f16, default alignment
//   [128, 384) 64 x f32, alignment 128 (122 bytes of padding)
//   [384, 394) 10 x i8, alignment 1 (no padding)
//   [400, 416) 4 x f32, default alignment (6 bytes of padding)
//   [416, 418) 1 x i16, alignment 2
//   [418, 426) 8 x i1 local: a byte per element (not shared memory)
// Fragments and local tiles take no shared memory (their 128 + 256 + 8
// bytes per thread are 98 registers).
// CHECK-LABEL: func.func @alignment_padding
// CHECK: attributes {tile.fragment_registers = 98 : i64, tile.shared_memory_bytes = 418 : i64}
func.func @alignment_padding() {
  tile.kernel @alignment_padding blocks(%bx) in [1] threads(128) {
    %t0 = tile.alloc : memref<3xf16, #gpu.address_space<workgroup>>
    %t1 = tile.alloc {alignment = 128 : i64} : memref<64xf32, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %t2 = tile.alloc {alignment = 1 : i64} : memref<10xi8, #gpu.address_space<workgroup>>
    %l = tile.alloc : memref<64xf32, #tile.mem<local>>
    %t3 = tile.alloc : memref<4xf32, #gpu.address_space<workgroup>>
    %t4 = tile.alloc {alignment = 2 : i64} : memref<1xi16, #gpu.address_space<workgroup>>
    %m = tile.alloc : memref<8xi1, #tile.mem<local>>
  }
  return
}

// -----

// Tiles allocated in nested regions (loops, warp-specialized regions) count
// too. Padding before a 1024-byte-aligned (swizzle-ready) tile:
//   [0, 16) 4 x f32; [1024, 17408) 128x64 f16; [17408, 17920) 256 x f16.
// CHECK-LABEL: func.func @nested_regions
// CHECK: tile.shared_memory_bytes = 17920 : i64
func.func @nested_regions(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @nested_regions blocks(%bx) in [1] threads(256) {
    %t0 = tile.alloc : memref<4xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %n step %c1 {
      %t1 = tile.alloc {alignment = 1024 : i64} : memref<128x64xf16, #gpu.address_space<workgroup>>
    }
    tile.ws [1] {
      %t2 = tile.alloc : memref<256xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// Registers: a fragment is spread over the block's threads, a local array is
// held whole by every thread (`#gpu.address_space<private>` is local too):
//   64x64 f32 fragment over 256 threads: 64 bytes per thread;
//   8 x f32 local: 32 bytes; 4 x f16 private: 8 bytes;
//   104 bytes = 26 registers. The shared tile takes no registers.
// CHECK-LABEL: func.func @fragments_and_locals
// CHECK: attributes {tile.fragment_registers = 26 : i64, tile.shared_memory_bytes = 4096 : i64}
func.func @fragments_and_locals() {
  tile.kernel @fragments_and_locals blocks(%bx) in [1] threads(256) {
    %f = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %l = tile.alloc : memref<8xf32, #tile.mem<local>>
    %p = tile.alloc : memref<4xf16, #gpu.address_space<private>>
    %s = tile.alloc : memref<32x32xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The same local array costs as much with more threads; the fragment costs
// half as much with twice the threads (32 + 32 bytes = 16 registers).
// CHECK-LABEL: func.func @fragments_scale_with_threads
// CHECK: attributes {tile.fragment_registers = 16 : i64, tile.shared_memory_bytes = 0 : i64}
func.func @fragments_scale_with_threads() {
  tile.kernel @fragments_scale_with_threads blocks(%bx) in [1] threads(512) {
    %f = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %l = tile.alloc : memref<8xf32, #tile.mem<local>>
  }
  return
}

// -----

// Rounding up: a 100 x f16 fragment over 128 threads takes 2 bytes per thread
// (200 / 128, rounded up); 3 x i8 local takes 3 bytes; 5 bytes = 2 registers.
// CHECK-LABEL: func.func @rounding
// CHECK: attributes {tile.fragment_registers = 2 : i64, tile.shared_memory_bytes = 0 : i64}
func.func @rounding() {
  tile.kernel @rounding blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<1x100xf16, #tile.mem<fragment>>
    %l = tile.alloc : memref<3xi8, #tile.mem<local>>
  }
  return
}

// -----

// Every kernel of the module is annotated; a kernel without tiles needs
// nothing. Existing annotations are overwritten. Two 8-byte tiles at the
// default 16-byte alignment take 24 bytes.
// CHECK-LABEL: func.func @two_kernels
// CHECK: tile.kernel @empty {{.*}} attributes {tile.fragment_registers = 0 : i64, tile.shared_memory_bytes = 0 : i64}
// CHECK: tile.kernel @second {{.*}} attributes {tile.fragment_registers = 1 : i64, tile.shared_memory_bytes = 24 : i64}
func.func @two_kernels() {
  tile.kernel @empty blocks(%bx) in [1] threads(32) attributes {tile.shared_memory_bytes = 12345 : i64} {
  }
  tile.kernel @second blocks(%bx, %by) in [2, 2] threads(64) {
    %s = tile.alloc : memref<2xf32, #gpu.address_space<workgroup>>
    %t = tile.alloc : memref<2xf32, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// Exactly at the limit is fine: 3 stages of a 128x32 and a 32x128 f16 tile
// (48 KiB).
// CHECK-LABEL: func.func @at_limit
// CHECK: tile.shared_memory_bytes = 49152 : i64
func.func @at_limit() {
  tile.kernel @at_limit blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<3x32x128xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Over the 48 KiB limit of the first RUN by 16 bytes of alignment padding
// only; fine under the default limit.
// DEFAULT-LABEL: func.func @over_limit
// DEFAULT: tile.shared_memory_bytes = 49168 : i64
func.func @over_limit() {
  // expected-error @+1 {{kernel 'over_limit' needs 49168 bytes of shared memory but at most 49152 are available}}
  tile.kernel @over_limit blocks(%bx) in [1] threads(128) {
    %x = tile.alloc : memref<2xf16, #gpu.address_space<workgroup>>
    %a = tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<3x32x128xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Over the register limit: a 128x256 f32 accumulator over 128 threads needs
// 1024 bytes = 256 registers per thread (at most 255); at the limit of the
// second RUN.
// DEFAULT-LABEL: func.func @too_many_registers
// DEFAULT: tile.fragment_registers = 256 : i64
func.func @too_many_registers() {
  // expected-error @+1 {{kernel 'too_many_registers' needs about 256 registers per thread for its register tiles but at most 255 are available; use more threads or smaller tiles}}
  tile.kernel @too_many_registers blocks(%bx) in [1] threads(128) {
    %c = tile.alloc : memref<128x256xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// The same accumulator over 256 threads fits (128 registers).
// CHECK-LABEL: func.func @enough_threads
// CHECK: tile.fragment_registers = 128 : i64
func.func @enough_threads() {
  tile.kernel @enough_threads blocks(%bx) in [1] threads(256) {
    %c = tile.alloc : memref<128x256xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// The launch's register cap (check-resources-registers.mlir) is checked on
// NVIDIA chips only: on gfx942 a 256x256 f32 fragment over 1024 threads
// (64 VGPRs per lane) with tile.blocks_per_sm = 2 is accepted (AMD's
// compiler spills to scratch instead of failing).
// CHECK-LABEL: func.func @amd_launch
// CHECK: tile.fragment_registers = 64 : i64
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @amd_launch() {
    tile.kernel @amd_launch blocks(%bx) in [1] threads(1024) attributes {tile.blocks_per_sm = 2 : i64} {
      %c = tile.alloc : memref<256x256xf32, #tile.mem<fragment>>
    }
    return
  }
}
