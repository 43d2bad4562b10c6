// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -tile-carry-ring-positions | FileCheck %s

// A hand-off number s uses slot s mod S and phase s / S of a pipe of S
// slots. With S not a power of two, the slot and the phase of the K loop's
// hand-offs (the barriers' and the copied tiles' versions) come from one
// cursor the loop carries (tile-carry-ring-positions): no division in the
// loop, 32-bit and 64-bit alike.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @three_slots
// CHECK: tile.kernel @k_tma
// CHECK: scf.for %{{.*}} iter_args(%[[SLOT:.*]] = %{{.*}}, %[[WRAPS:.*]] = %{{.*}}) -> (i32, i32) {
// CHECK-NOT: arith.remui %{{.*}}, %c3
// CHECK-NOT: arith.divui %{{.*}}, %c3
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: arith.remui %{{.*}}, %c3
// CHECK-NOT: arith.divui %{{.*}}, %c3
// CHECK: %[[END:.*]] = arith.cmpi eq, %{{.*}}, %c3_i32{{(_[0-9]+)?}} : i32
// CHECK: arith.select %[[END]]
// CHECK: scf.yield
// CHECK: } else {
func.func @three_slots(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

// Powers of two keep the index arithmetic (a mask and a shift).

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @four_slots
// CHECK: tile.kernel @k_tma
// CHECK-NOT: %c4294967296
// CHECK: arith.remui %{{.*}}, %c4{{(_[0-9]+)?}} : index
// CHECK: } else {
func.func @four_slots(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}
