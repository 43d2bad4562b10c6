// RUN: tile-opt %s -tile-pipeline-planning -tile-inject-pipeline -tile-hand-off-copies -tile-layout-inference -tile-select-tma -tile-warp-specialize | FileCheck %s

// The one-time copies of a warp-specialized kernel: tile-hand-off-copies
// hands Q and the last values off before the loop; tile-select-tma makes
// them tensor copies and tile-warp-specialize gives them to the producer,
// which issues Q first and the last values after the loop's stages (in the
// order the consumers wait for them). The fall-back kernel keeps them
// where they were, as cp.async copies.

!g = memref<?x?xf16>
!s = memref<128x64xf16, #gpu.address_space<workgroup>>
!f = memref<128x128xf32, #tile.mem<fragment>>
!t = memref<128x64xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @one_time
// CHECK: tile.kernel @k_tma
// CHECK: %[[PV:.*]] = tile.pipe.create : <1>
// CHECK-NEXT: %[[PQ:.*]] = tile.pipe.create : <1>
// CHECK: tile.ws [2] registers(40) {
// CHECK: tile.pipe.produce_acquire %[[PQ]]
// CHECK-NEXT: tile.copy async tma %arg0
// CHECK-NEXT: tile.pipe.produce_commit %[[PQ]]
// CHECK: scf.for
// CHECK: tile.pipe.produce_acquire
// CHECK: tile.copy async tma {{.*}}%arg1
// CHECK: tile.pipe.produce_commit
// CHECK: }
// CHECK-NEXT: tile.pipe.produce_acquire %[[PV]]
// CHECK-NEXT: tile.copy async tma %arg2
// CHECK-NEXT: tile.pipe.produce_commit %[[PV]]
// CHECK: tile.ws [0, 1] registers(232) {
// CHECK: tile.pipe.consume_wait %[[PQ]]
// CHECK: scf.for
// CHECK: tile.pipe.consume_wait
// CHECK: tile.gemm
// CHECK: tile.pipe.consume_wait %[[PV]]
// CHECK-NEXT: tile.gemm
// CHECK: } else {
// CHECK: tile.kernel @k blocks
// CHECK: tile.pipe.produce_acquire
// CHECK-NEXT: tile.copy async %arg0
// CHECK: tile.pipe.produce_acquire
// CHECK-NEXT: tile.copy async %arg2
// CHECK: scf.for
func.func @one_time(%Q: !g, %K: !g, %V: !g, %O: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %qs = tile.alloc : !s
    %ks = tile.alloc : !s
    %vs = tile.alloc : !t
    %acc = tile.alloc : !f
    tile.copy %Q[%c0, %c0], %qs : !g to !s
    tile.copy %V[%c0, %c0], %vs : !g to !t
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %K[%k0, %c0], %ks : !g to !s
      tile.gemm %qs, %ks, %acc transpose_b : !s, !s, !f
    } {tile.num_stages = 3 : i64}
    tile.gemm %qs, %vs, %acc transpose_b : !s, !t, !f
    tile.copy %acc, %O[%c0, %c0] : !f to !g
  }
  return
}
