// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize -tile-lower-ops 2>/dev/null | FileCheck %s --check-prefix=LOWER
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize=all=false 2>/dev/null | FileCheck %s --check-prefix=OPTIN

// The GEMM's K loop on sm_90a (the default target). The TMA version of the
// kernel gets a producer warpgroup (threads 256 -> 384): tile.ws [2] keeps
// the loop's acquire, tensor copies and commit with 40 registers per
// thread; tile.ws [0, 1] the fill, the gemm's wait/guard/release and the
// epilogue with 232 (setmaxnreg moves the rest over). The shared tiles and the
// pipe stay at the top level. The fall-back kernel (cp.async) is unchanged.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @gemm
// With all=false (tile-to-nvvm's default) only marked kernels are split.
// OPTIN-LABEL: func.func @gemm
// OPTIN-NOT: tile.ws
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(384)
// CHECK-DAG: tile.alloc {{.*}}: memref<3x128x64xf16
// CHECK-DAG: tile.alloc {{.*}}: memref<3x64x128xf16
// CHECK-DAG: tile.pipe.create : <3>
// CHECK: tile.ws [2] registers(40) {
// CHECK-NOT: tile.fill
// CHECK: scf.for
// CHECK-NOT: tile.pipe.consume
// CHECK: tile.pipe.produce_acquire
// CHECK: tile.copy async tma
// CHECK: tile.copy async tma
// CHECK: tile.pipe.produce_commit
// CHECK-NOT: tile.gemm
// CHECK: tile.ws [0, 1] registers(232) {
// CHECK: tile.fill
// CHECK: scf.for
// CHECK-NOT: tile.pipe.produce
// CHECK: tile.pipe.consume_wait
// CHECK: tile.gemm
// CHECK: tile.pipe.consume_release
// CHECK-NOT: tile.copy async
// CHECK: }
// CHECK: tile.copy %{{.*}}, %arg2
// CHECK: } else {
// CHECK: tile.kernel @k blocks(%{{.*}}) in [1] threads(256)
// CHECK-NOT: tile.ws
// CHECK: return

// REMARK: remark: warp-specialized: a producer warpgroup issues the tensor copies

// The lowering: the producer branch (threads 256 to 383) lowers its budget
// and its first thread waits for free slots and issues the tensor copies;
// the consumers raise theirs, keep one wgmma group in flight and release a
// slot one hand-off late (planDeferredRelease), and the zero fill moves
// after the loop.
// LOWER-LABEL: func.func @gemm
// LOWER: arith.cmpi uge, %{{.*}}, %c256
// LOWER: arith.cmpi ult, %{{.*}}, %c384
// LOWER: scf.if
// LOWER-NEXT: nvvm.setmaxregister decrease 40
// LOWER: scf.for
// LOWER: nvvm.mbarrier.try_wait.parity
// LOWER: nvvm.mbarrier.arrive.expect_tx
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global
// LOWER: arith.cmpi ult, %{{.*}}, %c256
// LOWER: scf.if
// LOWER-NEXT: nvvm.setmaxregister increase 232
// LOWER: scf.for
// LOWER: nvvm.mbarrier.try_wait.parity
// LOWER: llvm.inline_asm {{.*}}wgmma.mma_async
// LOWER: nvvm.wgmma.wait.group.sync.aligned 1
// LOWER: nvvm.mbarrier.arrive %
// LOWER: nvvm.wgmma.wait.group.sync.aligned 0
func.func @gemm(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
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
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

// Two pipelined loops, the second under a branch: the producer region
// keeps both loops and the branch (its condition recomputed there), in
// program order, each loop with its own pipe; the consumer keeps the rest.
// With 256 threads in all, every thread may have the 255 registers a thread
// can address: no budgets.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @two_loops
// CHECK: tile.kernel @k_tma
// CHECK: tile.ws [1] {
// CHECK: scf.for
// CHECK: tile.pipe.produce_acquire %[[P1:.*]][
// CHECK: arith.cmpi sgt
// CHECK: scf.if
// CHECK: scf.for
// CHECK: tile.pipe.produce_acquire %[[P2:.*]][
// CHECK: tile.ws [0] {
// CHECK: scf.for
// CHECK: tile.pipe.consume_wait %[[P1]][
// CHECK: scf.if
// CHECK: scf.for
// CHECK: tile.pipe.consume_wait %[[P2]][
func.func @two_loops(%A: !g, %B: !g, %C: !g, %kt: index, %n: index) {
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
    } {tile.num_stages = 2 : i64}
    %more = arith.cmpi sgt, %n, %c0 : index
    scf.if %more {
      scf.for %k = %c0 to %n step %c1 {
        %k0 = arith.muli %k, %c64 : index
        tile.copy %A[%c0, %k0], %as : !g to !sA
        tile.copy %B[%k0, %c0], %bs : !g to !sB
        tile.gemm %as, %bs, %acc : !sA, !sB, !fC
      } {tile.num_stages = 2 : i64}
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

// Opted out: the kernel keeps its shape, and says why.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @opted_out
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(128)
// CHECK-NOT: tile.ws
// CHECK: return
func.func @opted_out(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{not warp-specialized: disabled by tile.warp_specialize = false}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.warp_specialize = false} {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
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

// 1024 threads leave no room for a producer warpgroup.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @full_block
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(1024)
// CHECK-NOT: tile.ws
func.func @full_block(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{not warp-specialized: a producer warpgroup would exceed 1024 threads per block}}
  tile.kernel @k blocks(%bx) in [1] threads(1024) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %sum = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %sum : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// The copies' offsets depend on a value the kernel writes: the producer
// cannot compute them alone.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @side_effect
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(128)
// CHECK-NOT: tile.ws
func.func @side_effect(%A: !g, %B: !g, %counter: memref<1xi64>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{not warp-specialized: its copies depend on 'memref.atomic_rmw', which has side effects}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %one = arith.constant 1 : i64
    %old = memref.atomic_rmw addi %one, %counter[%c0] : (i64, memref<1xi64>) -> i64
    %row = arith.index_cast %old : i64 to index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%row, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// A kernel with its own tile.ws regions is left to the user.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @manual
// OPTIN-LABEL: func.func @manual
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(256)
// CHECK: tile.ws [0] {
// CHECK-NOT: tile.ws [1]
func.func @manual(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{not warp-specialized: the kernel already has tile.ws regions}}
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    tile.ws [0] {
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c64 : index
        tile.copy %A[%c0, %k0], %as : !g to !sA
        tile.copy %B[%k0, %c0], %bs : !g to !sB
        tile.gemm %as, %bs, %acc : !sA, !sB, !fC
      } {tile.num_stages = 3 : i64}
    }
  }
  return
}

// -----

// Marked kernels are split also with all=false.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @opted_in
// CHECK: tile.ws [1] {
// OPTIN-LABEL: func.func @opted_in
// OPTIN: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(256)
// OPTIN: tile.ws [1] {
// OPTIN: tile.ws [0] {
func.func @opted_in(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.warp_specialize = true} {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  return
}
