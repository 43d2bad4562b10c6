// A tile.kernel may carry its own #tile.target; tile-to-nvvm compiles a
// module for one chip, so a kernel's own target must name that chip (and,
// where it names one, the same PTX version). Before (issue 26), a gfx942
// kernel under tile-to-nvvm was compiled with wave-64 layouts for NVIDIA
// (a miscompile) and an sm_90a kernel under chip=sm_80 ended in "LLVM ERROR:
// Cannot select ... setmaxnreg". Both are now errors at the kernel when the
// pipeline starts.
//
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="format=isa chip=sm_80" -verify-diagnostics -o /dev/null
// RUN: not tile-opt %s -split-input-file --tile-to-nvvm="format=isa chip=sm_80" -o /dev/null 2>&1 | FileCheck %s
// CHECK: kernel-target-errors.mlir:[[@LINE+10]]:3: error: 'tile.kernel' op @amd targets gfx942, an AMD GPU, which tile-to-nvvm does not compile (it compiles for NVIDIA GPUs): compile this kernel with tile-to-rocdl, in a module of its own
// CHECK-NOT: LLVM ERROR
// CHECK-NOT: {{^}}<unknown>

!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

func.func @amd_kernel(%A: !g) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.kernel' op @amd targets gfx942, an AMD GPU, which tile-to-nvvm does not compile (it compiles for NVIDIA GPUs): compile this kernel with tile-to-rocdl, in a module of its own}}
  tile.kernel @amd blocks(%bx) in [1] threads(256) attributes {tile.target = #tile.target<"gfx942">} {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  return
}

// -----

!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

func.func @other_chip(%A: !g) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.kernel' op @hopper targets sm_90a, but tile-to-nvvm compiles this module for sm_80 (the chip option): the kernels of a module are compiled for one chip; remove the kernel's target or compile it in a module for sm_90a}}
  tile.kernel @hopper blocks(%bx) in [1] threads(128) attributes {tile.target = #tile.target<"sm_90a">} {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  return
}

// -----

// The module's own target names the chip: a kernel for another one is
// reported against it.
!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @module_chip(%A: !g) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.kernel' op @k targets sm_86, but tile-to-nvvm compiles this module for sm_80 (the chip option): the kernels of a module are compiled for one chip; remove the kernel's target or compile it in a module for sm_86}}
    tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.target = #tile.target<"sm_86">} {
      %f = tile.alloc : !f
      tile.copy %A[%c0, %c0], %f : !g to !f
      tile.copy %f, %A[%c0, %c0] : !f to !g
    }
    return
  }
}

// -----

// The same chip with another PTX ISA version than the module's.
!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

func.func @other_ptx(%A: !g) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.kernel' op @k asks for PTX ISA +ptx85, but tile-to-nvvm compiles this module with +ptx80: remove the kernel's features or give the module the same ones}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.target = #tile.target<"sm_80", "+ptx85">} {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  return
}

// -----

// Every kernel is checked; one whose target is the module's is fine.
!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

func.func @two_kernels(%A: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @same blocks(%bx) in [1] threads(128) attributes {tile.target = #tile.target<"sm_80", "+ptx80">} {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  // expected-error @+1 {{'tile.kernel' op @cdna2 targets gfx90a, an AMD GPU}}
  tile.kernel @cdna2 blocks(%bx) in [1] threads(256) attributes {tile.target = #tile.target<"gfx90a">} {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  return
}
