// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference | FileCheck %s --check-prefix=ALIGN
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-lower-ops -verify-diagnostics | FileCheck %s

// The sm_90a lowering of a pipelined K loop (the default target).
//
// Stage buffers: both operands get a 128-byte swizzle (B's 256-byte rows as
// two 128-byte panels) and their versions are 1024-byte aligned, the period
// of the pattern that tensor copies write and wgmma reads.
// ALIGN-LABEL: func.func @tma_wgmma
// ALIGN: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<3x128x64xf16
// ALIGN: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<3x64x128xf16
//
// The TMA version: the host makes one tensor map per tensor and box (A:
// 128x64, B: one 64-column panel) before the launch. In the kernel, thread
// 0 initializes 3 full barriers (2 arrivals: one per copy) and 3 empty ones
// (4 arrivals: one per warp), then the block synchronizes. Per iteration,
// consumers first (wgmma is asynchronous): they wait on the full barrier of
// their hand-off; wgmma computes from the swizzled tiles (8 = 4 k steps x 2
// slabs of 64 rows; the first k step of each slab through inline asm, its
// scale-d false on the first iteration since the zero fill moved after the
// loop) and stays in flight (wait for all groups but 1); each warp then
// releases the slot of the previous hand-off, whose wgmma is done. The
// producer thread then waits on the empty barrier of its slot, arrives on
// the full one with the bytes of each copy (16 KiB) and issues one tensor
// copy per panel (1 for A, 2 for B). After the loop: a wait for all wgmma
// groups, then the fill for loops that ran no iteration.
// CHECK-LABEL: func.func @tma_wgmma
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: tile.kernel @k_tma
// CHECK: memref.view %{{.*}} to memref<6xi64, #gpu.address_space<workgroup>>
// CHECK: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK-NEXT: arith.constant
// CHECK: nvvm.mbarrier.init %{{.*}}, %c4_i32
// CHECK-COUNT-4: nvvm.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK-NOT: memref.store
// CHECK: scf.for %[[IT:.*]] = %[[LB:.*]] to
// CHECK: %[[FIRST:.*]] = arith.addi %[[LB]], %{{.*}} : index
// CHECK: %[[ACCUMULATE:.*]] = arith.cmpi ne, %[[IT]], %[[FIRST]] : index
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[SCALE:.*]] = arith.extui %[[ACCUMULATE]] : i1 to i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}setp.ne.b32 p, $130, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;{{.*}}%[[SCALE]]
// CHECK-COUNT-6: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: } {tile.pipeline_stage = 2 : i64}
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL:.*]], %c16384_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[FULL]], box
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL2:.*]], %c16384_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[FULL2]], box
// CHECK: } {tile.pipeline_stage = 0 : i64}
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: scf.if
// CHECK-COUNT-128: memref.store %cst
// The fall-back kernel keeps cp.async groups.
// CHECK: tile.kernel @k blocks
// CHECK-NOT: nvvm.mbarrier
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.wgmma.mma_async
// CHECK: return
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
func.func @tma_wgmma(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// A tensor copy outside a pipe has no barrier to complete on.
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
func.func @tma_without_pipe(%A: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : !sA
    // expected-error @below {{a tensor copy (tma) must fill a pipe slot: expected a tile.pipe.produce_acquire before it}}
    tile.copy async tma %A[%c0, %c0], %as : !g to !sA
  }
  return
}

// -----

// sm_80 has no tensor copies.
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @tma_on_sm80(%A: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : !sA
    // expected-error @below {{tensor copies (tma) need sm_90 or newer; the target is sm_80}}
    tile.copy async tma %A[%c0, %c0], %as : !g to !sA
  }
  return
}
}
