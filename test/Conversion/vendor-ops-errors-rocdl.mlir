// Ops of the other vendor's dialects are reported at the op when
// tile-to-rocdl starts. Before (issue 26), an nvvm op in a kernel passed
// every check and ended in "LLVM ERROR: Cannot select: intrinsic
// %llvm.nvvm...".
//
// RUN: tile-opt %s -split-input-file --tile-to-rocdl="format=isa" -verify-diagnostics -o /dev/null
// RUN: not tile-opt %s -split-input-file --tile-to-rocdl="format=isa" -o /dev/null 2>&1 | FileCheck %s
// CHECK: vendor-ops-errors-rocdl.mlir:[[@LINE+8]]:10: error: 'nvvm.read.ptx.sreg.tid.x' op is an NVIDIA operation (the nvvm dialect), which tile-to-rocdl cannot compile: it compiles for AMD GPUs (gfx942)
// CHECK-NOT: LLVM ERROR
// CHECK-NOT: {{^}}<unknown>

func.func @nvvm_op(%A: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(64) {
    // expected-error @+1 {{'nvvm.read.ptx.sreg.tid.x' op is an NVIDIA operation (the nvvm dialect), which tile-to-rocdl cannot compile: it compiles for AMD GPUs (gfx942)}}
    %t = nvvm.read.ptx.sreg.tid.x : i32
    memref.store %t, %A[%c0] : memref<?xi32>
  }
  return
}

// -----

func.func @nvgpu_op(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(64) {
    %v = vector.load %A[%c0] : memref<?xf32>, vector<4xf32>
    // expected-error @+1 {{'nvgpu.rcp' op is an NVIDIA operation (the nvgpu dialect), which tile-to-rocdl cannot compile: it compiles for AMD GPUs (gfx942)}}
    %r = nvgpu.rcp %v {rounding = approx, ftz} : vector<4xf32>
    vector.store %r, %A[%c0] : memref<?xf32>, vector<4xf32>
  }
  return
}

// -----

module attributes {tile.target = #tile.target<"gfx90a">} {
  func.func @barrier(%A: memref<?xi32>) {
    tile.kernel @k blocks(%bx) in [1] threads(64) {
      // expected-error @+1 {{'nvvm.barrier0' op is an NVIDIA operation (the nvvm dialect), which tile-to-rocdl cannot compile: it compiles for AMD GPUs (gfx90a)}}
      nvvm.barrier0
    }
    return
  }
}
