// tile-to-rocdl checks every kernel's own #tile.target like tile-to-nvvm
// (kernel-target-errors.mlir). Before (issue 26), an sm_90a kernel under
// tile-to-rocdl ended in an LLVM ERROR of the AMD backend or an unlocated
// unrealized_conversion_cast error.
//
// RUN: tile-opt %s -split-input-file --tile-to-rocdl="format=isa" -verify-diagnostics -o /dev/null
// RUN: not tile-opt %s -split-input-file --tile-to-rocdl="format=isa" -o /dev/null 2>&1 | FileCheck %s
// CHECK: kernel-target-errors-rocdl.mlir:[[@LINE+10]]:3: error: 'tile.kernel' op @nv targets sm_90a, an NVIDIA GPU, which tile-to-rocdl does not compile (it compiles for AMD GPUs): compile this kernel with tile-to-nvvm, in a module of its own
// CHECK-NOT: LLVM ERROR
// CHECK-NOT: {{^}}<unknown>

!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

func.func @nvidia_kernel(%A: !g) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.kernel' op @nv targets sm_90a, an NVIDIA GPU, which tile-to-rocdl does not compile (it compiles for AMD GPUs): compile this kernel with tile-to-nvvm, in a module of its own}}
  tile.kernel @nv blocks(%bx) in [1] threads(128) attributes {tile.target = #tile.target<"sm_90a">} {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  return
}

// -----

// A module without a target is compiled for gfx942 by tile-to-rocdl.
!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

func.func @other_chip(%A: !g) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.kernel' op @mi200 targets gfx90a, but tile-to-rocdl compiles this module for gfx942 (the pipeline's default chip): the kernels of a module are compiled for one chip; remove the kernel's target or compile it in a module for gfx90a}}
  tile.kernel @mi200 blocks(%bx) in [1] threads(256) attributes {tile.target = #tile.target<"gfx90a">} {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  return
}

// -----

// The module's target names the chip.
!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx90a">} {
  func.func @module_chip(%A: !g) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.kernel' op @mi300 targets gfx942, but tile-to-rocdl compiles this module for gfx90a (the module's #tile.target): the kernels of a module are compiled for one chip; remove the kernel's target or compile it in a module for gfx942}}
    tile.kernel @mi300 blocks(%bx) in [1] threads(256) attributes {tile.target = #tile.target<"gfx942">} {
      %f = tile.alloc : !f
      tile.copy %A[%c0, %c0], %f : !g to !f
      tile.copy %f, %A[%c0, %c0] : !f to !g
    }
    return
  }
}
