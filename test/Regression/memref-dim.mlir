// A memref.dim with a constant index outside the memref's rank verifies,
// but upstream canonicalization (which tile-to-nvvm runs) crashes on it
// (SIGSEGV in the GPU dialect's SimplifyDimOfAllocOp pattern, issue 10).
// tile-to-nvvm now rejects it, at the op, before running anything.
// tile-opt rejects it likewise before any pass pipeline (the bug is
// upstream: the stock mlir-opt still crashes with --canonicalize).
//
// RUN: not tile-opt %s -split-input-file --tile-to-nvvm="format=isa" -o /dev/null 2>&1 | FileCheck %s
// RUN: not tile-opt %s -split-input-file --canonicalize -o /dev/null 2>&1 | FileCheck %s
// Without passes, nothing can crash: the IR is printed as it is.
// RUN: tile-opt %s -split-input-file -o /dev/null
// CHECK-NOT: Stack dump
// CHECK: memref-dim.mlir:[[@LINE+4]]:8: error: 'memref.dim' op index -1 is out of range for a rank-2 memref
func.func @negative(%A: memref<?x?xf16>, %C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant -1 : index
  %n = memref.dim %A, %cm1 : memref<?x?xf16>
  tile.kernel @k blocks(%bx) in [%n] threads(128) {
    %f = tile.alloc : memref<16x16xf16, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %f : memref<?x?xf16> to memref<16x16xf16, #tile.mem<fragment>>
    tile.copy %f, %C[%c0, %c0] : memref<16x16xf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}

// -----

// CHECK: memref-dim.mlir:[[@LINE+4]]:8: error: 'memref.dim' op index 2 is out of range for a rank-2 memref
func.func @past_rank(%A: memref<?x?xf16>, %C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %A, %c2 : memref<?x?xf16>
  tile.kernel @k blocks(%bx) in [%n] threads(128) {
    %f = tile.alloc : memref<16x16xf16, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %f : memref<?x?xf16> to memref<16x16xf16, #tile.mem<fragment>>
    tile.copy %f, %C[%c0, %c0] : memref<16x16xf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}
