// Kernel names are the user's: two tile.kernel ops of the same name, or a
// symbol with a name the pipeline derives from a kernel's, are reported at
// the user's ops when the pipeline starts. Before (issue 26), two kernels
// @gemm_kernel in two host functions were reported late, under a name the
// user never wrote ("kernel name 'gemm_kernel_tma' is used by another
// kernel").
//
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="format=isa host-runtime=false" -verify-diagnostics -o /dev/null
// RUN: not tile-opt %s -split-input-file --tile-to-nvvm="format=isa host-runtime=false" -o /dev/null 2>&1 | FileCheck %s
// CHECK: kernel-name-errors.mlir:[[# @LINE + 22]]:3: error: 'tile.kernel' op name 'k' is used by another tile.kernel
// CHECK: kernel-name-errors.mlir:[[# @LINE + 10]]:3: note: the other kernel named 'k'
// CHECK-NOT: is used by another kernel
// CHECK-NOT: LLVM ERROR

!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

func.func @first(%A: !g) {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the other kernel named 'k'}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  return
}

func.func @second(%A: !g) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.kernel' op name 'k' is used by another tile.kernel: kernel names must be unique in the module (they name the compiled kernels)}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  return
}

// -----

// The same name twice in one function.
func.func @twice(%A: memref<?xf32>) {
  // expected-note @+1 {{the other kernel named 'k'}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
  }
  // expected-error @+1 {{'tile.kernel' op name 'k' is used by another tile.kernel}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
  }
  return
}

// -----

// A kernel is compiled into the gpu.module @<kernel>_module.
// expected-error @+1 {{'func.func' op name 'k_module' is also the name tile-to-nvvm gives the gpu.module compiled from tile.kernel @k: rename one of them}}
func.func private @k_module()

func.func @host(%A: memref<?xf32>) {
  // expected-note @+1 {{the kernel @k}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
  }
  return
}

// -----

// On chips with tensor copies, a kernel may get a tensor-copy version
// @<kernel>_tma (tile-select-tma).
func.func @host(%A: memref<?xf32>) {
  // expected-note @+1 {{the kernel @k}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
  }
  // expected-error @+1 {{'tile.kernel' op name 'k_tma' is also the name tile-to-nvvm gives the tensor-copy version of tile.kernel @k: rename one of them}}
  tile.kernel @k_tma blocks(%bx) in [1] threads(128) {
  }
  return
}

// -----

// Without tensor copies (sm_80) there is none: both names are the user's.
// expected-no-diagnostics
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @host(%A: memref<?xf32>) {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
    }
    tile.kernel @k_tma blocks(%bx) in [1] threads(128) {
    }
    // Kernels named like gpu.modules are fine: kernels are symbols of their
    // own gpu.module.
    tile.kernel @k_module blocks(%bx) in [1] threads(128) {
    }
    return
  }
}
