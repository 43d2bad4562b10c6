// Huge tile.num_stages (issue 10): 2^63 - 1 stages passed the shared-memory
// check through integer overflow (and tile-to-nvvm produced a launch with a
// negative shared memory size), and the search for a stage count that fits
// walked down from num_stages one by one. Planning now rejects more than 64
// stages, naming the limit, computes sizes without overflow and searches by
// bisection.
//
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -verify-diagnostics
// RUN: not timeout 120 tile-opt %s -split-input-file --tile-to-nvvm="format=isa" -o /dev/null 2>&1 | FileCheck %s
// CHECK: num-stages.mlir:{{[0-9]+}}:5: error: 'tile.num_stages' = 9223372036854775807 is more than the supported maximum of 64 stages
// CHECK: num-stages.mlir:{{[0-9]+}}:5: error: 'tile.num_stages' = 65 is more than the supported maximum of 64 stages
// CHECK: num-stages.mlir:{{[0-9]+}}:5: error: pipelining with num_stages = 64 needs 1048576 bytes of shared memory but at most 232448 are available; num_stages = 14 would fit

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @max_int64(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    // expected-error @+1 {{'tile.num_stages' = 9223372036854775807 is more than the supported maximum of 64 stages}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 9223372036854775807 : i64}
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// Small tiles would fit 65 stages; the count is still out of range.
func.func @just_over(%A: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<8x8xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<8x8xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.num_stages' = 65 is more than the supported maximum of 64 stages}}
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %as : memref<?x?xf16> to memref<8x8xf16, #gpu.address_space<workgroup>>
      tile.copy %as, %f : memref<8x8xf16, #gpu.address_space<workgroup>> to memref<8x8xf16, #tile.mem<fragment>>
    } {tile.num_stages = 65 : i64}
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// At the maximum, over the target's shared memory (227 KiB on sm_90a, the
// default chip): 64 x 16 KiB; the largest count that fits is found (and
// named in the error: the loop asks for exactly 64).
func.func @at_max(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    // expected-error @+1 {{pipelining with num_stages = 64 needs 1048576 bytes of shared memory but at most 232448 are available; num_stages = 14 would fit}}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.exact_stages, tile.num_stages = 64 : i64}
  }
  return
}
