// Element types the verifiers accepted but the lowering could not size or
// convert (issue 10): an `index` copy crashed the lowering (SIGSEGV in
// getIntOrFloatBitWidth), bf16 <-> f16 copies emitted an invalid
// arith.extf, conversions from or to 8-bit floats failed in the LLVM
// translation, f80 hit an LLVM ERROR in instruction selection, tf32 and
// signed integers failed to legalize. The verifiers now reject them, at the
// op, with what is supported.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics
//
// The pipeline stops at the verifier too, with a non-zero exit code.
// RUN: not tile-opt %s -split-input-file --tile-to-nvvm="format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: element-types.mlir:{{[0-9]+}}:5: error: 'tile.copy' op expects integer or floating-point elements, got 'index' (the source): index has no fixed bit width; use i32 or i64
// PIPELINE-NOT: Stack dump
// PIPELINE-NOT: LLVM ERROR

func.func @index_copy(%A: memref<?x?xindex>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %t = tile.alloc : memref<16x16xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op expects integer or floating-point elements, got 'index' (the source): index has no fixed bit width; use i32 or i64}}
    tile.copy %A[%c0, %c0], %t : memref<?x?xindex> to memref<16x16xf32, #tile.mem<fragment>>
    tile.copy %t, %B[%c0, %c0] : memref<16x16xf32, #tile.mem<fragment>> to memref<?x?xf32>
  }
  return
}

// -----

func.func @index_tile() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects integer or floating-point elements, got 'index' (the tile): index has no fixed bit width}}
    %t = tile.alloc : memref<16x16xindex, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @bf16_to_f16(%A: memref<?x?xbf16>, %B: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<32x32xbf16, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %f : memref<?x?xbf16> to memref<32x32xbf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op cannot convert 'bf16' to 'f16' directly: copy through an f32 tile}}
    tile.copy %f, %B[%c0, %c0] : memref<32x32xbf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}

// -----

func.func @f16_to_bf16(%A: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<32x32xbf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op cannot convert 'f16' to 'bf16' directly: copy through an f32 tile}}
    tile.copy %A[%c0, %c0], %s : memref<?x?xf16> to memref<32x32xbf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @f8_to_f16(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<32x32xf8E4M3FN, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %f : memref<?x?xf8E4M3FN> to memref<32x32xf8E4M3FN, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op cannot convert 'f8E4M3FN' to 'f16': copies of 8-bit float tiles must keep their element type}}
    tile.copy %f, %B[%c0, %c0] : memref<32x32xf8E4M3FN, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}

// -----

func.func @f32_to_f8(%B: memref<?x?xf8E5M2>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<32x32xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op cannot convert 'f32' to 'f8E5M2': copies of 8-bit float tiles must keep their element type}}
    tile.copy %f, %B[%c0, %c0] : memref<32x32xf32, #tile.mem<fragment>> to memref<?x?xf8E5M2>
  }
  return
}

// -----

func.func @f80_tile() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op the tile has element type 'f80', which tiles do not support: use i8, i16, i32 or i64 (signless), f16, bf16, f32, f64, or 8-bit floats (f8E4M3FN, f8E5M2 and their FNUZ flavours)}}
    %t = tile.alloc : memref<32x32xf80, #tile.mem<fragment>>
  }
  return
}

// -----

func.func @tf32_tile() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op the tile has element type 'tf32', which tiles do not support}}
    %t = tile.alloc : memref<32x32xtf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @signed_tile() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op the tile has element type 'si32', which tiles do not support}}
    %t = tile.alloc : memref<32x32xsi32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @i4_tile() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op the tile has element type 'i4', which tiles do not support}}
    %t = tile.alloc : memref<32x32xi4, #tile.mem<fragment>>
  }
  return
}

// -----

// i1 (one byte per element) is a register-tile type: no shared i1 tiles,
// whose byte layout the lowering would get wrong, and no i1 copies.
func.func @i1_shared() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op the tile has element type 'i1', which tiles do not support: use i8, i16, i32 or i64 (signless), f16, bf16, f32, f64, or 8-bit floats (f8E4M3FN, f8E5M2 and their FNUZ flavours) (i1 only in fragment and local tiles)}}
    %t = tile.alloc : memref<32x32xi1, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @i1_copy(%A: memref<?x?xi1>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<32x32xi1, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op the source has element type 'i1', which tiles do not support}}
    tile.copy %A[%c0, %c0], %f : memref<?x?xi1> to memref<32x32xi1, #tile.mem<fragment>>
  }
  return
}

// -----

// A shared tile reached through a function argument is checked at its use.
func.func @f80_fill(%s: memref<32xf80, #gpu.address_space<workgroup>>, %v: f80) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.fill' op the filled tile has element type 'f80', which tiles do not support}}
    tile.fill %s, %v : memref<32xf80, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @index_reduce(%s: memref<32x32xindex, #tile.mem<fragment>>, %t: memref<32xindex, #tile.mem<fragment>>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.reduce' op expects float or signless integer elements, got 'index'}}
    tile.reduce <sum> %s, %t dim 1 clear : memref<32x32xindex, #tile.mem<fragment>> to memref<32xindex, #tile.mem<fragment>>
  }
  return
}

// -----

// Loads and stores in tile.parallel are sized by layout inference (it
// crashed on index) and the lowering.
func.func @index_in_parallel(%A: memref<?x?xindex>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    tile.parallel (%i, %j) in [32, 32] {
      // expected-error @+1 {{'memref.load' op expects integer or floating-point elements, got 'index' (the accessed memref): index has no fixed bit width; use i32 or i64}}
      %x = memref.load %A[%i, %j] : memref<?x?xindex>
    }
  }
  return
}
