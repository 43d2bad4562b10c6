// copy -> tile.reduce -> copy (issue 26): a fragment filled from global
// memory, reduced along one dimension and stored. Neither fragment had a
// layout from a gemm or a loop, so both got a plain partition of their own
// and the reduction failed on every target ("the target's layout is not the
// source layout without the reduced dimension"). The targets of reductions
// now get their defaults last, from the source (the source layout without
// the reduced dimension), and a target whose layout is fixed otherwise is
// written through a conversion.
// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=sm_80 -tile-layout-inference | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=gfx942 -tile-layout-inference | FileCheck %s --check-prefix=AMD
// Each kernel compiles on every target, the reductions across lanes with
// shuffles (NVIDIA) or ds_swizzle (AMD).
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_90a format=isa" -o - | FileCheck %s --check-prefix=NVVM
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80 format=isa" -o - | FileCheck %s --check-prefix=NVVM
// RUN: tile-opt %s -split-input-file --tile-to-rocdl="chip=gfx942 format=isa" -o - | FileCheck %s --check-prefix=ROCDL

!g = memref<?x?xf32>
!g1 = memref<?xf32>
!f = memref<128x64xf32, #tile.mem<fragment>>
!r = memref<128xf32, #tile.mem<fragment>>

// Row sums. The source is partitioned over the 128 threads (4 f32 of a row
// per thread, 16 threads per row); the sums keep its row bases (registers
// and warps) and are replicated over the 4 lanes that shared a row.
// CHECK-LABEL: func.func @row_sum
// CHECK: tile.alloc {layout = #tile.linear<[128, 64], register = {{\[}}[0, 1], [0, 2], [8, 0], [16, 0], [32, 0], [64, 0]], lane = {{\[}}[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = {{\[}}[2, 0], [4, 0]]>} : memref<128x64xf32
// CHECK: tile.alloc {layout = #tile.linear<[128], register = {{\[}}[8], [16], [32], [64]], lane = {{\[}}[0], [0], [0], [0], [1]], warp = {{\[}}[2], [4]]>} : memref<128xf32
// CHECK-NOT: tile.alloc
// CHECK: tile.reduce <sum>
// CHECK-NOT: tile.copy {{.*}} !r to !r
// AMD-LABEL: func.func @row_sum
// AMD: tile.alloc {layout = #tile.linear<[128, 64], register = {{\[}}[0, 1], [0, 2], [8, 0], [16, 0], [32, 0], [64, 0]], lane = {{\[}}[0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = {{\[}}[4, 0]]>}
// AMD: tile.alloc {layout = #tile.linear<[128], register = {{\[}}[8], [16], [32], [64]], lane = {{\[}}[0], [0], [0], [0], [1], [2]], warp = {{\[}}[4]]>}
// NVVM-LABEL: gpu.binary @row_sum_kernel_module
// NVVM-SAME: shfl.sync.bfly.b32
// ROCDL-LABEL: gpu.binary @row_sum_kernel_module
// ROCDL-SAME: ds_swizzle_b32
func.func @row_sum(%A: !g, %S: !g1) {
  %c0 = arith.constant 0 : index
  tile.kernel @row_sum_kernel blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !f
    %s = tile.alloc : !r
    tile.copy %A[%c0, %c0], %a : !g to !f
    tile.reduce <sum> %a, %s dim 1 clear : !f to !r
    tile.copy %s, %S[%c0] : !r to !g1
  }
  return
}

// -----

// A running column maximum over row blocks: the target is allocated first,
// combined with (no `clear`) in a loop, and filled before it. It gets the
// source layout without the rows.
// CHECK-LABEL: func.func @column_max
// CHECK: %[[M:.*]] = tile.alloc {layout = #tile.linear<[64], register = {{\[}}[1], [2]], lane = {{\[}}[4], [8], [16], [32], [0]], warp = {{\[}}[0], [0]]>} : memref<64xf32
// CHECK: tile.alloc {layout = #tile.linear<[128, 64], register = {{\[}}[0, 1], [0, 2], [8, 0], [16, 0], [32, 0], [64, 0]], lane = {{\[}}[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = {{\[}}[2, 0], [4, 0]]>} : memref<128x64xf32
// CHECK-NOT: tile.alloc
// CHECK: tile.reduce <max> %{{.*}}, %[[M]] dim 0 :
// NVVM-LABEL: gpu.binary @column_max_kernel_module
// NVVM-SAME: shfl.sync.bfly.b32
// ROCDL-LABEL: gpu.binary @column_max_kernel_module
// ROCDL-SAME: ds_swizzle_b32
!g = memref<?x?xf32>
!g1 = memref<?xf32>
!f = memref<128x64xf32, #tile.mem<fragment>>
!c = memref<64xf32, #tile.mem<fragment>>
func.func @column_max(%A: !g, %M: !g1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  tile.kernel @column_max_kernel blocks(%bx) in [1] threads(128) {
    %m = tile.alloc : !c
    %a = tile.alloc : !f
    %ninf = arith.constant 0xFF800000 : f32
    tile.fill %m, %ninf : !c
    scf.for %i = %c0 to %n step %c1 {
      %r0 = arith.muli %i, %c128 : index
      tile.copy %A[%r0, %c0], %a : !g to !f
      tile.reduce <max> %a, %m dim 0 : !f to !c
    }
    tile.copy %m, %M[%c0] : !c to !g1
  }
  return
}

// -----

// A target whose layout is fixed (here by the user) is written through a
// conversion: the reduction writes a temporary in the source layout without
// the reduced dimension, copied from the target before (the reduction
// combines with its contents) and into it after.
// CHECK-LABEL: func.func @fixed_target
// CHECK: %[[S:.*]] = tile.alloc {layout = #tile.linear<[128], register = [], lane = {{\[}}[1], [2], [4], [8], [16]], warp = {{\[}}[32], [64]]>}
// CHECK: %[[T:.*]] = tile.alloc {layout = #tile.linear<[128], register = {{\[}}[8], [16], [32], [64]], lane = {{\[}}[0], [0], [0], [0], [1]], warp = {{\[}}[2], [4]]>}
// CHECK: tile.copy %[[S]], %[[T]] :
// CHECK-NEXT: tile.reduce <abs_max> %{{.*}}, %[[T]] dim 1 :
// CHECK-NEXT: tile.copy %[[T]], %[[S]] :
// NVVM-LABEL: gpu.binary @fixed_target_kernel_module
// NVVM-SAME: shfl.sync.bfly.b32
// ROCDL-LABEL: gpu.binary @fixed_target_kernel_module
// ROCDL-SAME: ds_swizzle_b32
!g = memref<?x?xf32>
!g1 = memref<?xf32>
!f = memref<128x64xf32, #tile.mem<fragment>>
!r = memref<128xf32, #tile.mem<fragment>>
func.func @fixed_target(%A: !g, %S: !g1) {
  %c0 = arith.constant 0 : index
  tile.kernel @fixed_target_kernel blocks(%bx) in [1] threads(128) {
    %s = tile.alloc {layout = #tile.linear<[128], register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]]>} : !r
    %a = tile.alloc : !f
    %zero = arith.constant 0.0 : f32
    tile.fill %s, %zero : !r
    tile.copy %A[%c0, %c0], %a : !g to !f
    tile.reduce <abs_max> %a, %s dim 1 : !f to !r
    tile.copy %s, %S[%c0] : !r to !g1
  }
  return
}

// -----

// Two reductions in a row: 4x32x16 -> 4x32 -> 4.
// CHECK-LABEL: func.func @chained
// CHECK: tile.alloc {layout = #tile.linear<[4, 32, 16], register = {{\[}}[0, 0, 1], [0, 0, 2], [0, 16, 0], [1, 0, 0], [2, 0, 0]], lane = {{\[}}[0, 0, 4], [0, 0, 8], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = {{\[}}[0, 8, 0]]>}
// CHECK: tile.alloc {layout = #tile.linear<[4, 32], register = {{\[}}[0, 16], [1, 0], [2, 0]], lane = {{\[}}[0, 0], [0, 0], [0, 1], [0, 2], [0, 4]], warp = {{\[}}[0, 8]]>}
// CHECK: tile.alloc {layout = #tile.linear<[4], register = {{\[}}[1], [2]], lane = {{\[}}[0], [0], [0], [0], [0]], warp = {{\[}}[0]]>}
// CHECK-NOT: tile.alloc
// NVVM-LABEL: gpu.binary @chained_kernel_module
// NVVM-SAME: shfl.sync.bfly.b32
// ROCDL-LABEL: gpu.binary @chained_kernel_module
// ROCDL-SAME: ds_swizzle_b32
!g3 = memref<?x?x?xf32>
!g1 = memref<?xf32>
func.func @chained(%A: !g3, %S: !g1) {
  %c0 = arith.constant 0 : index
  tile.kernel @chained_kernel blocks(%bx) in [1] threads(64) {
    %a = tile.alloc : memref<4x32x16xf32, #tile.mem<fragment>>
    %b = tile.alloc : memref<4x32xf32, #tile.mem<fragment>>
    %c = tile.alloc : memref<4xf32, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0, %c0], %a : !g3 to memref<4x32x16xf32, #tile.mem<fragment>>
    tile.reduce <sum> %a, %b dim 2 clear : memref<4x32x16xf32, #tile.mem<fragment>> to memref<4x32xf32, #tile.mem<fragment>>
    tile.reduce <sum> %b, %c dim 1 clear : memref<4x32xf32, #tile.mem<fragment>> to memref<4xf32, #tile.mem<fragment>>
    tile.copy %c, %S[%c0] : memref<4xf32, #tile.mem<fragment>> to !g1
  }
  return
}
