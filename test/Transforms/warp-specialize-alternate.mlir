// Consumer warpgroups taking the tiles of a persistent loop in turn
// (`tile.alternate_tiles = true` on a kernel of one warpgroup): the
// producer region loads every tile's stages; each consumer region runs the
// body for every second tile, waits for the turn before it (not on the
// loop's first iteration) and passes it on once the tile's hand-offs are
// counted, on both sides of the tile-exists branch (not on the last
// iteration); for the other region's tiles it only counts their hand-offs.
// Each region has its own accumulator. Lowered, a turn is a named barrier
// of the two regions' 256 threads.
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_alternate.mlir -tile-attach-target=chip=sm_90a -tile-launch-order -tile-persistent-blocks=remarks=true -tile-specialize-bounds -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize=remarks=true 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_alternate.mlir -tile-attach-target=chip=sm_90a -tile-launch-order -tile-persistent-blocks -tile-specialize-bounds -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize -tile-check-resources -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops 2>/dev/null | FileCheck %s --check-prefix=LOWER
// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=sm_90a -tile-persistent-blocks -verify-diagnostics -o /dev/null

// CHECK-LABEL: func.func @gemm
// CHECK: tile.kernel @gemm_kernel_tma blocks(%{{.*}}) in [%{{.*}}] threads(384) attributes {tile.alternate_tiles = true}
// CHECK: %[[ACC0:.*]] = tile.alloc {{.*}} : memref<64x256xf32, #tile.mem<fragment>>
// CHECK: %[[ACC1:.*]] = tile.alloc {{.*}} : memref<64x256xf32, #tile.mem<fragment>>
// CHECK: tile.ws [2] registers(40) {
// CHECK: tile.pipe.produce_acquire
// CHECK: } {tile.tile_loop}
// CHECK: tile.ws [0] registers(232) {
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %[[WAVES:.*]] step
// CHECK: %[[TURN:.*]] = arith.remui %[[IV]], %c2
// CHECK: %[[MINE:.*]] = arith.cmpi eq, %[[TURN]], %c0
// CHECK: scf.if %[[MINE]] {
// CHECK: %[[FIRST:.*]] = arith.cmpi ne, %[[IV]], %c0
// CHECK: %[[NEXT:.*]] = arith.addi %[[IV]], %c1
// CHECK: %[[NOTLAST:.*]] = arith.cmpi ult, %[[NEXT]], %[[WAVES]]
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: tile.turn_wait
// CHECK: tile.fill %[[ACC0]]
// CHECK: tile.gemm {{.*}}, %[[ACC0]]
// CHECK: tile.pipe.advance
// CHECK: tile.gemm {{.*}}, %[[ACC0]]
// CHECK: tile.pipe.advance
// CHECK: scf.if %[[NOTLAST]] {
// CHECK-NEXT: tile.turn_pass
// CHECK: tile.copy %[[ACC0]]
// CHECK: } else {
// CHECK-NEXT: scf.if %[[NOTLAST]] {
// CHECK-NEXT: tile.turn_pass
// CHECK: } else {
// CHECK-NOT: tile.gemm
// CHECK-NOT: tile.turn
// CHECK: tile.pipe.advance
// CHECK-NOT: tile.gemm
// CHECK: tile.pipe.advance
// CHECK: } {tile.tile_loop}
// CHECK: tile.ws [1] registers(232) {
// CHECK: arith.cmpi eq, %{{.*}}, %c1
// CHECK: tile.turn_wait
// CHECK: tile.fill %[[ACC1]]
// CHECK: tile.turn_pass
// CHECK: } {tile.tile_loop}

// REMARK: remark: two consumer warpgroups take the block's tiles in turn
// REMARK: remark: warp-specialized: a producer warpgroup issues the tensor copies, two consumer warpgroups take the tiles in turn

// Region 0 waits at barrier 2 and passes at region 1's barrier 4 (1 and 3
// are the regions' own barriers around their tensor stores).
// LOWER-LABEL: func.func @gemm
// LOWER: nvvm.setmaxregister  decrease 40
// LOWER: nvvm.setmaxregister  increase 232
// LOWER: nvvm.barrier id = %c2_i32 number_of_threads = %c256_i32
// LOWER: nvvm.barrier.arrive id = %c4_i32 number_of_threads = %c256_i32
// LOWER: nvvm.barrier id = %c1_i32{{.*}} number_of_threads = %c128_i32
// LOWER: nvvm.setmaxregister  increase 232
// LOWER: nvvm.barrier id = %c4_i32{{.*}} number_of_threads = %c256_i32
// LOWER: nvvm.barrier.arrive id = %c2_i32{{.*}} number_of_threads = %c256_i32
// LOWER: nvvm.barrier id = %c3_i32{{.*}} number_of_threads = %c128_i32

// -----

// Kernels of several warpgroups keep their cooperative consumers.
func.func @two_warpgroups(%A: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-warning @below {{tile.alternate_tiles ignored: its 256 threads are not one warpgroup}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.alternate_tiles = true} {
    %As = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc : memref<64x256xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x256xf32, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%by, %k], %As : memref<?x?xf16> to memref<128x64xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%k, %bx], %Bs : memref<?x?xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %As, %Bs, %acc : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<128x256xf32, #tile.mem<fragment>>
    } {tile.num_stages = 4 : i64}
  }
  return
}
