// A vector value in a kernel wider than a thread's register file (a fuzz
// finding of session 15: a hand-written nvgpu.rcp on vector<65536xf32> kept
// LLVM's NVPTX code generation busy for minutes). Both pipelines reject such
// values at the op, before any lowering; 256 32-bit registers still compile.
//
// RUN: not timeout 120 tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80 format=isa pipeline=false" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: not timeout 120 tile-opt %s -split-input-file --tile-to-rocdl="chip=gfx942 format=isa" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: not timeout 120 tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80 format=isa pipeline=false" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVGPU

// CHECK: wide-vectors.mlir:[[# @LINE + 5]]:10: error: 'vector.load' op result #0 is a 'vector<65536xf32>' (2097152 bits) inside a kernel, more than a thread's 256 32-bit registers can hold: split it into narrower vectors
// CHECK: wide-vectors.mlir:[[# @LINE + 5]]:10: error: 'arith.negf' op result #0 is a 'vector<65536xf32>'
func.func @wide(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @wide blocks(%bx) in [1] threads(64) {
    %v = vector.load %A[%c0] : memref<?xf32>, vector<65536xf32>
    %r = arith.negf %v : vector<65536xf32>
    vector.store %r, %A[%c0] : memref<?xf32>, vector<65536xf32>
  }
  return
}

// -----

// The limit itself compiles.
// CHECK-NOT: error
func.func @limit(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @limit blocks(%bx) in [1] threads(64) {
    %v = vector.load %A[%c0] : memref<?xf32>, vector<256xf32>
    %r = arith.negf %v : vector<256xf32>
    vector.store %r, %A[%c0] : memref<?xf32>, vector<256xf32>
  }
  return
}

// -----

// CHECK: wide-vectors.mlir:[[# @LINE + 4]]:10: error: 'vector.load' op result #0 is a 'vector<257xf32>' (8224 bits) inside a kernel
func.func @over(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @over blocks(%bx) in [1] threads(64) {
    %v = vector.load %A[%c0] : memref<?xf32>, vector<257xf32>
    vector.store %v, %A[%c0] : memref<?xf32>, vector<257xf32>
  }
  return
}

// -----

// The fuzz finding: an NVIDIA vendor op (tile-to-nvvm only).
// NVGPU: wide-vectors.mlir:[[# @LINE + 5]]:10: error: 'nvgpu.rcp' op result #0 is a 'vector<65536xf32>' (2097152 bits) inside a kernel
func.func @rcp(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @rcp blocks(%bx) in [1] threads(64) {
    %v = vector.load %A[%c0] : memref<?xf32>, vector<65536xf32>
    %r = nvgpu.rcp %v {rounding = approx, ftz} : vector<65536xf32>
  }
  return
}

// -----

// A kernel parameter of 2^62 elements (a fuzz finding of session 34: the
// size in bits overflowed 64 bits and passed, and LLVM stopped with a fatal
// error on the parameter).
// CHECK: wide-vectors.mlir:[[# @LINE + 3]]:5: error: 'gpu.func' op argument #0 is a 'vector<4611686018427387904xf32>' (more than 2^64 bits) inside a kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @huge(%v: vector<4611686018427387904xf32>) kernel {
      gpu.return
    }
  }
}
