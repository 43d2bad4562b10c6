// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared | FileCheck %s --check-prefix=PLACE
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops | FileCheck %s
//
// tile-allocate-shared lets the staging buffers of two tensor stores that
// never run in one pass of their code share storage (here the branches of
// one scf.if, as in tile-split-tail's kernels: a whole tile's bf16
// epilogue, a part's f32 partial sums); shared memory a kernel leaves
// unclaimed is L1 cache. The lowering of a store whose staging lies over
// another's waits, before its first panel, until every earlier store of
// its thread 0 has read its buffers (wait_group 0), where a store alone
// waits only for the one N stores back.

!g = memref<?x?xbf16>
!w = memref<?x?xf32>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// The two staging tiles (four buffers of 64-byte panels each: 128 x 128
// bf16 and 128 x 64 f32, 32 KiB each) lie at one offset, so tile-select-tma
// counts one store's staging and finds room for both beside 4 stages
// (side by side, the f32 store would not fit and would keep the register
// path).
// PLACE-LABEL: func.func @exclusive
// PLACE: tile.kernel @k_tma
// PLACE: tile.alloc {{{.*}}offset = [[STAGE:[0-9]+]] : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
// PLACE-NEXT: tile.alloc {{{.*}}offset = [[STAGE]] : i64} : memref<128x64xf32, #gpu.address_space<workgroup>>
// PLACE: tile.copy {{.*}} {tile.tma_store = 4 : i64, tile.tma_store_panel = 64 : i64} : memref<128x256xf32, #tile.mem<fragment>> to memref<?x?xbf16>
// PLACE: tile.copy {{.*}} {tile.tma_store = 4 : i64, tile.tma_store_panel = 64 : i64} : memref<128x256xf32, #tile.mem<fragment>> to memref<?x?xf32>
// CHECK-LABEL: func.func @exclusive
// CHECK: tile.kernel @k_tma
// CHECK-SAME: tile.shared_memory_bytes = 229440
// CHECK: scf.if
// CHECK-NOT: nvvm.cp.async.bulk.wait_group {{[1-9]}} {read}
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.stmatrix
// CHECK: } else {
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @exclusive(%A: !g, %B: !g, %C: !g, %W: !w, %kt: index, %whole: i1) {
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
    scf.if %whole {
      tile.copy %acc, %C[%c0, %c0] : !fC to !g
    } else {
      tile.copy %acc, %W[%c0, %c0] : !fC to !w
    }
  }
  return
}
}

// -----


// Two stores one after the other: each keeps staging buffers of its own,
// and its first wait is for the store N back.

!g = memref<?x?xbf16>
!w = memref<?x?xf32>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// PLACE-LABEL: func.func @sequence
// PLACE: tile.kernel @k_tma
// PLACE: tile.alloc {{{.*}}offset = 147456 : i64} : memref<128x128xbf16, #gpu.address_space<workgroup>>
// PLACE-NEXT: tile.alloc {{{.*}}offset = 180224 : i64} : memref<128x64xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @sequence
// CHECK: tile.kernel @k_tma
// CHECK: nvvm.cp.async.bulk.wait_group 3 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.stmatrix
// CHECK: nvvm.cp.async.bulk.wait_group 3 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @sequence(%A: !g, %B: !g, %C: !g, %W: !w, %kt: index) {
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
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
    tile.copy %acc, %W[%c0, %c0] : !fC to !w
  }
  return
}
}
