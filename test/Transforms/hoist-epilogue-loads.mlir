// RUN: tile-opt %s -split-input-file -tile-hoist-epilogue-loads="remarks=true" -verify-diagnostics | FileCheck %s

// The per-tensor scales of an FP8 GEMM's epilogue are read before the main
// loop; the load of a value the loop computes, and the copy of a tile into a
// fragment (its registers would be held through the loop), stay.

!gA = memref<?x?xf8E4M3FN>
!gC = memref<?x?xbf16>
!gS = memref<?xf32>
!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
!fS = memref<128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @scales
// CHECK: tile.kernel
// CHECK: %[[A:.*]] = memref.load %{{.*}}[%[[C0:.*]]] : memref<?xf32>
// CHECK-NEXT: %[[B:.*]] = memref.load %{{.*}}[%[[C0]]] : memref<?xf32>
// CHECK-NEXT: scf.for
// CHECK: tile.gemm
// CHECK: }
// CHECK-NEXT: memref.load %{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK-NEXT: tile.copy %{{.*}}[%{{.*}}], %{{.*}} : memref<?xf32> to
// CHECK-NEXT: arith.mulf %[[A]], %[[B]] : f32
func.func @scales(%A: !gA, %B: !gA, %sa: !gS, %sb: !gS, %sr: !gS,
                  %C: !gC, %kt: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sA
    %acc = tile.alloc : !fC
    %rs = tile.alloc : !fS
    %last = scf.for %k = %c0 to %kt step %c1 iter_args(%i = %c0) -> index {
      tile.copy %A[%c0, %c0], %As : !gA to !sA
      tile.copy %B[%c0, %c0], %Bs : !gA to !sA
      tile.gemm %As, %Bs, %acc transpose_b : !sA, !sA, !fC
      scf.yield %k : index
    }
    // expected-remark @below {{read before its main loop}}
    %a = memref.load %sa[%c0] : !gS
    %r = memref.load %sr[%last] : !gS
    tile.copy %sr[%c0], %rs : !gS to !fS
    // expected-remark @below {{read before its main loop}}
    %b = memref.load %sb[%c0] : !gS
    %s = arith.mulf %a, %b : f32
    tile.copy %acc, %C[%c0, %c0] : !fC to !gC
  }
  return
}

// -----

// A load after a store to global memory, or after a loop that writes global
// memory, stays: it may read what the store wrote. `tile.early_loads =
// false` keeps every load in place.

!gA = memref<?x?xf8E4M3FN>
!gC = memref<?x?xbf16>
!gS = memref<?xf32>
!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @stays
// CHECK: tile.kernel @after_store
// CHECK: scf.for
// CHECK: }
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.load
// CHECK: tile.kernel @global_loop
// CHECK: scf.for
// CHECK: tile.copy %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<128x128xf32, #tile.mem<fragment>> to memref<?x?xbf16>
// CHECK: }
// CHECK-NEXT: memref.load
// CHECK: tile.kernel @opt_out
// CHECK: scf.for
// CHECK: }
// CHECK-NEXT: memref.load
func.func @stays(%A: !gA, %sa: !gS, %C: !gC, %kt: index, %x: f32) {
  tile.kernel @after_store blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %As = tile.alloc : !sA
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %c0], %As : !gA to !sA
      tile.gemm %As, %As, %acc transpose_b : !sA, !sA, !fC
    }
    memref.store %x, %sa[%c1] : !gS
    %a = memref.load %sa[%c0] : !gS
  }
  tile.kernel @global_loop blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %As = tile.alloc : !sA
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %c0], %As : !gA to !sA
      tile.gemm %As, %As, %acc transpose_b : !sA, !sA, !fC
      tile.copy %acc, %C[%c0, %c0] : !fC to !gC
    }
    %a = memref.load %sa[%c0] : !gS
  }
  tile.kernel @opt_out blocks(%bx) in [1] threads(256) attributes {tile.early_loads = false} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %As = tile.alloc : !sA
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %c0], %As : !gA to !sA
      tile.gemm %As, %As, %acc transpose_b : !sA, !sA, !fC
    }
    %a = memref.load %sa[%c0] : !gS
  }
  return
}
