// Ops of the other vendor's dialects are reported at the op when tile-to-nvvm
// starts. Before (issue 26), a rocdl op in a kernel passed every check and
// ended in "LLVM ERROR: Cannot select: intrinsic %llvm.amdgcn...".
//
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="format=isa" -verify-diagnostics -o /dev/null
// RUN: not tile-opt %s -split-input-file --tile-to-nvvm="format=isa" -o /dev/null 2>&1 | FileCheck %s
// CHECK: vendor-ops-errors.mlir:[[@LINE+8]]:10: error: 'rocdl.workitem.id.x' op is an AMD operation (the rocdl dialect), which tile-to-nvvm cannot compile: it compiles for NVIDIA GPUs (sm_90a)
// CHECK-NOT: LLVM ERROR
// CHECK-NOT: {{^}}<unknown>

func.func @rocdl_op(%A: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'rocdl.workitem.id.x' op is an AMD operation (the rocdl dialect), which tile-to-nvvm cannot compile: it compiles for NVIDIA GPUs (sm_90a)}}
    %t = rocdl.workitem.id.x : i32
    memref.store %t, %A[%c0] : memref<?xi32>
  }
  return
}

// -----

func.func @amdgpu_op(%A: memref<?xi32>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'amdgpu.lds_barrier' op is an AMD operation (the amdgpu dialect), which tile-to-nvvm cannot compile: it compiles for NVIDIA GPUs (sm_90a)}}
    amdgpu.lds_barrier
  }
  return
}

// -----

// Every such op is reported, with the chip the pipeline compiles for; the
// vendor's own ops are fine.
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @two(%A: memref<?xi32>) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %n = nvvm.read.ptx.sreg.tid.x : i32
      // expected-error @+1 {{'rocdl.workitem.id.y' op is an AMD operation (the rocdl dialect), which tile-to-nvvm cannot compile: it compiles for NVIDIA GPUs (sm_80)}}
      %t = rocdl.workitem.id.y : i32
      // expected-error @+1 {{'rocdl.s.barrier' op is an AMD operation}}
      rocdl.s.barrier
      %s = arith.addi %n, %t : i32
      memref.store %s, %A[%c0] : memref<?xi32>
    }
    return
  }
}
