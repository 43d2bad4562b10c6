// RUN: tile-opt %s -split-input-file -tile-attach-target="chip=sm_90a" -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize -tile-insert-barriers | FileCheck %s --check-prefix=DECIDE
// RUN: tile-opt %s -split-input-file -tile-attach-target="chip=sm_90a" -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops | FileCheck %s

// The consumers' wgmma accumulator gives each of their two warpgroups 64
// rows of the tile, so tile-insert-barriers gives the region one barrier
// per warpgroup for its tensor store (store_barrier = 2: barriers 2 and 3),
// and each warpgroup stores its own 64 rows of every panel: its first
// thread waits for its own earlier stores, the warpgroup's 128 threads
// meet at barrier 2 + warpgroup, and the first thread stores the panel's
// 64 x 32 slab (a tensor map of 64-row boxes) from the slab's place in the
// staging buffer (64 x 32 elements further for the second warpgroup) at
// row 64 x warpgroup. The copies ask for 64-byte panels (four buffers;
// tile-select-tma would take two of 128 bytes for this 128-column tile):
// the buffers hold all four panels, so the first thread waits for all its
// earlier stores (wait_group 0), the warpgroup writes every panel, fences
// and meets once, and the first thread stores the four panels
// (lower-ops-tma-store.mlir has panels that reuse buffers).

!g = memref<?x?xbf16>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// DECIDE-LABEL: func.func @epilogue
// DECIDE: tile.ws [0, 1] registers(232) attributes {barrier = 1 : i64, store_barrier = 2 : i64}
// DECIDE: tile.copy {{.*}} {tile.tma_store = 4 : i64

// CHECK-LABEL: func.func @epilogue
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<64x32xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_64b
// CHECK: %[[GROUP:.*]] = arith.divui %thread_id_x, %c128{{.*}} : index
// CHECK: %[[LANE:.*]] = arith.remui %thread_id_x, %c128{{.*}} : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: %[[ID:.*]] = arith.addi %[[GROUP]], %c2{{.*}} : index
// CHECK-NEXT: %[[ID32:.*]] = arith.index_cast %[[ID]] : index to i32
// CHECK-NEXT: %[[N128:.*]] = arith.constant 128 : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID32]] number_of_threads = %[[N128]]
// CHECK-NOT: gpu.barrier
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: nvvm.fence.proxy
// CHECK-COUNT-8: nvvm.stmatrix
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NOT: nvvm.stmatrix
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: %[[SLAB:.*]] = arith.muli %[[GROUP]], %c64{{.*}} : index
// CHECK: arith.muli %[[SLAB]], %c32{{.*}} : index
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT: nvvm.barrier
// CHECK: nvvm.cp.async.bulk.wait_group 0
func.func @epilogue(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store_panel = 64 : i64} : !fC to !g
  }
  return
}

// -----

// `tile.warpgroup_stores = false` keeps the region's threads storing every
// panel together, over the region's barrier.

!g = memref<?x?xbf16>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// DECIDE-LABEL: func.func @together
// DECIDE: tile.ws [0, 1] registers(232) attributes {barrier = 1 : i64} {

// CHECK-LABEL: func.func @together
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<128x32xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_64b
func.func @together(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.warpgroup_stores = false} {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store_panel = 64 : i64} : !fC to !g
  }
  return
}
