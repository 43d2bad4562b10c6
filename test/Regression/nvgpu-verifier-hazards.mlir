// The MLIR 22 verifiers of the nvgpu TMA ops ask the element type of a
// tensor map descriptor's memref for its bit width, and crash when it is
// neither an integer nor a float (found by tile-fuzz: crash-23ee737c17; a
// memref of vector<4xf16>; upstream mlir-opt crashes too). tile-opt
// verifies in its first pass, not in the parser, and rejects such ops
// before the verifiers run, with a located error; tileModuleCreateParse
// (tile-compile) does the same.

// RUN: not tile-opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not tile-opt %s --split-input-file --verify-roundtrip 2>&1 | FileCheck %s
// RUN: not tile-compile %s -o %t.so 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: nvgpu-verifier-hazards.mlir:[[# @LINE + 11]]:8: error: 'nvgpu.tma.create.descriptor' op the memref of its tensor map descriptor, 'memref<64x64xvector<4xf16>, 3>', must have integer or float elements
// COMPILE: tile-compile: error: '{{.*}}' is not valid: parsing and verifying it failed
// CHECK-NOT: PLEASE submit a bug report

!desc_vector = !nvgpu.tensormap.descriptor<tensor = memref<64x64xvector<4xf16>, 3>,
    swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @vector_elements() {
  %c64 = arith.constant 64 : index
  %g = memref.alloc() : memref<64x128xf16>
  %u = memref.cast %g : memref<64x128xf16> to memref<*xf16>
  // CHECK: nvgpu-verifier-hazards.mlir:[[# @LINE + 1]]:8: error: 'nvgpu.tma.create.descriptor' op the memref of its tensor map descriptor, 'memref<64x64xvector<4xf16>, 3>', must have integer or float elements
  %d = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !desc_vector
  return
}

// -----

// An operand (the load's verifier reads the bit width too).
!desc_index = !nvgpu.tensormap.descriptor<tensor = memref<8x8xindex, 3>,
    swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @index_elements(%d: !desc_index, %b: !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>,
                          %dst: memref<8x8xindex, 3>) {
  %c0 = arith.constant 0 : index
  // CHECK: nvgpu-verifier-hazards.mlir:[[# @LINE + 1]]:3: error: 'nvgpu.tma.async.load' op the memref of its tensor map descriptor, 'memref<8x8xindex, 3>', must have integer or float elements
  nvgpu.tma.async.load %d[%c0, %c0], %b[%c0] to %dst : !desc_index, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<8x8xindex, 3>
  return
}

// -----

// Other element types are left to the upstream verifier.
!desc_f16 = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>,
    swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @f16_elements() {
  %c64 = arith.constant 64 : index
  %g = memref.alloc() : memref<64x128xf16>
  %u = memref.cast %g : memref<64x128xf16> to memref<*xf16>
  // CHECK-NOT: error:
  %d = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !desc_f16
  return
}
