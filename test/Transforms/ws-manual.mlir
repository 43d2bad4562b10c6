// Hand-written warp specialization (tile.ws regions with explicit pipe
// ops) on sm_90a, the default target: a producer warpgroup issuing tensor
// copies and consumers running wgmma, in the two shapes of
// test/Examples/Inputs/gemm_ws_{merged,split}.mlir.
// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-layout-inference 2>/dev/null | FileCheck %s --check-prefix=LAYOUT

// One consumer over warpgroups 1 and 2: the gemm is partitioned over its 8
// warps (wgmma, warps = [8, 1]); each warpgroup owns 128 rows of the
// 256 x 128 accumulator (warp bit 2 is row 128) as two 64-row slabs.
// LAYOUT-LABEL: func.func @merged
// LAYOUT: tile.alloc {layout = #tile.linear<[256, 128], {{.*}}warp = {{\[\[}}16, 0], [32, 0], [128, 0]]>}
// LAYOUT: tile.gemm {{.*}}mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [8, 1]>

// The full barrier of each slot counts the two tensor copies of a hand-off,
// the empty barrier one arrival per consumer warp (8).
// CHECK-LABEL: func.func @merged
// CHECK: gpu.shuffle  idx
// CHECK: %[[WARP:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK: %[[GROUP:.*]] = arith.divui %[[WARP]], %c4 : index
// CHECK: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c8_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c8_i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// The producer, warpgroup 0 (threads 0..127): 168 registers per thread at
// launch (384 threads), 40 after setmaxnreg; its first warp waits for a
// free slot and its first thread issues the copies. The warpgroup is read
// from lane 0 of the warp, so that the branch is uniform in each warp.
// CHECK: %[[P:.*]] = arith.subi %[[GROUP]], %c0{{(_[0-9]+)?}} : index
// CHECK: arith.cmpi ult, %[[P]], %c1{{(_[0-9]+)?}} : index
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister  decrease 40
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[WARP]], %c0{{(_[0-9]+)?}} : index
// CHECK: %[[ACQUIRE:.*]] = arith.andi %{{.*}}, %[[FIRST]] : i1
// CHECK: scf.if %[[ACQUIRE]]
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// The consumers, warpgroups 1 and 2 (threads 128..383), with 232
// registers.
// CHECK: %[[C:.*]] = arith.subi %[[GROUP]], %c1{{(_[0-9]+)?}} : index
// CHECK: arith.cmpi ult, %[[C]], %c2{{(_[0-9]+)?}} : index
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister  increase 232
// CHECK: nvvm.mbarrier.try_wait.parity
// The gemm: warpgroup g - 1 of the region starts at row 128 x that, and
// issues one wgmma per 64-row slab and k step.
// CHECK: %[[G:.*]] = arith.addi %[[GROUP]], %c-1 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[G]], %c128{{(_[0-9]+)?}}
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: arith.addi %[[ROW]], %c0
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// CHECK: arith.addi %[[ROW]], %c64
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// CHECK-COUNT-6: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// The release (not deferred: the loop is not the pipeliner's): lane 0 of
// each of the region's warps arrives on the empty barrier.
// CHECK-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.bar.warp.sync
// CHECK: %[[T2:.*]] = arith.subi %thread_id_x, %c128{{(_[0-9]+)?}}
// CHECK: arith.andi %[[T2]], %c31
// CHECK: scf.if
// CHECK: nvvm.mbarrier.arrive %
!g = memref<?x?xf16>
!sA = memref<2x256x64xf16, #gpu.address_space<workgroup>>
!sB = memref<2x64x128xf16, #gpu.address_space<workgroup>>
!vA = memref<256x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!vB = memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
!fC = memref<256x128xf32, #tile.mem<fragment>>

func.func @merged(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %pipe = tile.pipe.create : <2>
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    tile.ws [0] registers(40) {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.produce_acquire %pipe[%k] : <2>
        %s = arith.remui %k, %c2 : index
        %a = memref.subview %As[%s, 0, 0] [1, 256, 64] [1, 1, 1] : !sA to !vA
        %b = memref.subview %Bs[%s, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
        %k0 = arith.muli %k, %c64 : index
        tile.copy async tma %A[%c0, %k0], %a : !g to !vA
        tile.copy async tma %B[%k0, %c0], %b : !g to !vB
        tile.pipe.produce_commit %pipe[%k] : <2>
      }
    }
    tile.ws [1, 2] registers(232) {
      %zero = arith.constant 0.0 : f32
      tile.fill %acc, %zero : !fC
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
        %s = arith.remui %k, %c2 : index
        %a = memref.subview %As[%s, 0, 0] [1, 256, 64] [1, 1, 1] : !sA to !vA
        %b = memref.subview %Bs[%s, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
        tile.gemm %a, %b, %acc : !vA, !vB, !fC
        tile.pipe.consume_release %pipe[%k] : <2>
      }
      tile.copy %acc, %C[%c0, %c0] : !fC to !g
    }
  }
  return
}

// -----

// Two consumers, each on its own warpgroup and its own 128 rows: both gemms
// are partitioned over 4 warps only (warps = [4, 1], accumulators over 4
// warps), both wait for every hand-off of the one pipe and both release
// it. The slot is free once all 8 warps released it: the empty barriers
// count 8 arrivals (the union of the regions' warpgroups), the full ones
// the three tensor copies.
// LAYOUT-LABEL: func.func @split
// LAYOUT: tile.alloc {layout = #tile.linear<[128, 128], {{.*}}warp = {{\[\[}}16, 0], [32, 0]]>}
// LAYOUT: tile.alloc {layout = #tile.linear<[128, 128], {{.*}}warp = {{\[\[}}16, 0], [32, 0]]>}
// LAYOUT: tile.gemm {{.*}}mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [4, 1]>
// LAYOUT: tile.gemm {{.*}}mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [4, 1]>

// CHECK-LABEL: func.func @split
// CHECK: gpu.shuffle  idx
// CHECK: %[[GROUP:.*]] = arith.divui %{{.*}}, %c4 : index
// CHECK: nvvm.mbarrier.init %{{.*}}, %c3_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c8_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c3_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c8_i32
// CHECK: nvvm.setmaxregister  decrease 40
// Consumer 1: warpgroup 1 (threads 128..255).
// CHECK: %[[C1:.*]] = arith.subi %[[GROUP]], %c1{{(_[0-9]+)?}} : index
// CHECK: arith.cmpi ult, %[[C1]], %c1{{(_[0-9]+)?}} : index
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister  increase 232
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: %[[G1:.*]] = arith.addi %[[GROUP]], %c-1 : index
// CHECK: arith.muli %[[G1]], %c128{{(_[0-9]+)?}}
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[L1:.*]] = arith.subi %thread_id_x, %c128{{(_[0-9]+)?}}
// CHECK: arith.andi %[[L1]], %c31
// CHECK: nvvm.mbarrier.arrive %
// Consumer 2: warpgroup 2 (threads 256..383), ids relative to thread 256.
// CHECK: %[[C2:.*]] = arith.subi %[[GROUP]], %c2{{(_[0-9]+)?}} : index
// CHECK: arith.cmpi ult, %[[C2]], %c1{{(_[0-9]+)?}} : index
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister  increase 232
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: %[[G2:.*]] = arith.addi %[[GROUP]], %c-2 : index
// CHECK: arith.muli %[[G2]], %c128{{(_[0-9]+)?}}
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[L2:.*]] = arith.subi %thread_id_x, %c256
// CHECK: arith.andi %[[L2]], %c31
// CHECK: nvvm.mbarrier.arrive %
!g = memref<?x?xf16>
!sA = memref<2x2x128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<2x64x128xf16, #gpu.address_space<workgroup>>
!vA = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!vB = memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @split(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %pipe = tile.pipe.create : <2>
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc1 = tile.alloc : !fC
    %acc2 = tile.alloc : !fC
    tile.ws [0] registers(40) {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.produce_acquire %pipe[%k] : <2>
        %s = arith.remui %k, %c2 : index
        %a1 = memref.subview %As[%s, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
        %a2 = memref.subview %As[%s, 1, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
        %b = memref.subview %Bs[%s, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
        %k0 = arith.muli %k, %c64 : index
        tile.copy async tma %A[%c0, %k0], %a1 : !g to !vA
        tile.copy async tma %A[%c128, %k0], %a2 : !g to !vA
        tile.copy async tma %B[%k0, %c0], %b : !g to !vB
        tile.pipe.produce_commit %pipe[%k] : <2>
      }
    }
    tile.ws [1] registers(232) {
      %zero = arith.constant 0.0 : f32
      tile.fill %acc1, %zero : !fC
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
        %s = arith.remui %k, %c2 : index
        %a = memref.subview %As[%s, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
        %b = memref.subview %Bs[%s, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
        tile.gemm %a, %b, %acc1 : !vA, !vB, !fC
        tile.pipe.consume_release %pipe[%k] : <2>
      }
      tile.copy %acc1, %C[%c0, %c0] : !fC to !g
    }
    tile.ws [2] registers(232) {
      %zero = arith.constant 0.0 : f32
      tile.fill %acc2, %zero : !fC
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
        %s = arith.remui %k, %c2 : index
        %a = memref.subview %As[%s, 1, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
        %b = memref.subview %Bs[%s, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
        tile.gemm %a, %b, %acc2 : !vA, !vB, !fC
        tile.pipe.consume_release %pipe[%k] : <2>
      }
      tile.copy %acc2, %C[%c128, %c0] : !fC to !g
    }
  }
  return
}

// -----

// Inside tile.ws [1, 2], barriers and reductions are over the region's 256
// threads: the user barrier and the three barriers of the cross-warp
// reduction (the gemm's rows span 8 warps) are named barrier 1 over 256
// threads, and the reduction's scratch holds one partial per thread of the
// region and register of the target (256 x 32).
// LAYOUT-LABEL: func.func @merged_reduce
// LAYOUT: tile.alloc {layout = #tile.linear<[256, 128], {{.*}}warp = {{\[\[}}16, 0], [32, 0], [128, 0]]>}
// LAYOUT: tile.alloc {layout = #tile.linear<[128], {{.*}}warp = {{\[\[}}0], [0], [0]]>}

// CHECK-LABEL: func.func @merged_reduce
// CHECK: memref.view {{.*}} to memref<8192xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: nvvm.wgmma.mma_async
// CHECK: gpu.shuffle  xor
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NOT: gpu.barrier
// CHECK: return
!s = memref<256x64xf16, #gpu.address_space<workgroup>>
!b = memref<64x128xf16, #gpu.address_space<workgroup>>
!f = memref<256x128xf32, #tile.mem<fragment>>
!r = memref<128xf32, #tile.mem<fragment>>

func.func @merged_reduce(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %as = tile.alloc : !s
    %bs = tile.alloc : !b
    %acc = tile.alloc : !f
    %sum = tile.alloc : !r
    tile.ws [1, 2] {
      tile.barrier
      tile.gemm %as, %bs, %acc clear_accum : !s, !b, !f
      tile.reduce <sum> %acc, %sum dim 0 clear : !f to !r
      tile.copy %sum, %out[%c0] : !r to memref<?xf32>
    }
  }
  return
}

// -----

// The deferred release (tile-plan-pipes) with the pipeliner's loop written
// by hand (its drain iteration recorded as tile-inject-pipeline does): with one consumer region releasing the pipe, the release
// frees the previous hand-off (seq - 1) and the gemm's wgmma group stays in
// flight (wait_group 1, then 0 after the loop).
// CHECK-LABEL: func.func @one_release
// CHECK: nvvm.mbarrier.init %{{.*}}, %c3_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c8_i32
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: arith.addi %{{.*}}, %c-1
// CHECK: nvvm.mbarrier.arrive %
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
!g = memref<?x?xf16>
!sA = memref<2x2x128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<2x64x128xf16, #gpu.address_space<workgroup>>
!vA = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!vB = memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @one_release(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %pipe = tile.pipe.create : <2>
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc1 = tile.alloc : !fC
    %acc2 = tile.alloc : !fC
    tile.ws [0] registers(40) {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.produce_acquire %pipe[%k] : <2>
        %s = arith.remui %k, %c2 : index
        %a1 = memref.subview %As[%s, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
        %a2 = memref.subview %As[%s, 1, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
        %b = memref.subview %Bs[%s, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
        %k0 = arith.muli %k, %c64 : index
        tile.copy async tma %A[%c0, %k0], %a1 : !g to !vA
        tile.copy async tma %A[%c128, %k0], %a2 : !g to !vA
        tile.copy async tma %B[%k0, %c0], %b : !g to !vB
        tile.pipe.produce_commit %pipe[%k] : <2>
      }
    }
    tile.ws [1, 2] registers(232) {
      %zero = arith.constant 0.0 : f32
      tile.fill %acc1, %zero : !fC
      %extra = arith.muli %c1, %c1 : index
      %ub = arith.addi %kt, %extra : index
      scf.for %it = %c0 to %ub step %c1 {
        %s = arith.subi %it, %c1 : index
        tile.pipe.consume_wait %pipe[%s] in_flight(0) : <2>
        %lo = arith.cmpi sge, %s, %c0 : index
        %hi = arith.cmpi slt, %s, %kt : index
        %run = arith.andi %lo, %hi : i1
        scf.if %run {
          %slot = arith.remui %s, %c2 : index
          %a = memref.subview %As[%slot, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
          %b = memref.subview %Bs[%slot, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
          tile.gemm %a, %b, %acc1 : !vA, !vB, !fC
        } {tile.pipeline_stage = 1 : i64}
        tile.pipe.consume_release %pipe[%s] {tile.pipeline_stage = 1 : i64} : <2>
      } {tile.pipeline_drain = 1 : i64}
      tile.copy %acc1, %C[%c0, %c0] : !fC to !g
    }
  }
  return
}

// -----

// Two consumer regions releasing the same pipe: the empty barriers count
// the 8 warps of both regions, so a slot is free only once both released
// it. Each region's release is deferred on its own (its warps arrive for
// hand-off s - 1 once their own MMAs of it are done: wait_group 1 in the
// loop, 0 after it).
// CHECK-LABEL: func.func @two_releases
// CHECK: nvvm.mbarrier.init %{{.*}}, %c3_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c8_i32
// CHECK: nvvm.setmaxregister increase 232
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive %
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.setmaxregister increase 232
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive %
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-LABEL: return
!g = memref<?x?xf16>
!sA = memref<2x2x128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<2x64x128xf16, #gpu.address_space<workgroup>>
!vA = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!vB = memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @two_releases(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %pipe = tile.pipe.create : <2>
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc1 = tile.alloc : !fC
    %acc2 = tile.alloc : !fC
    tile.ws [0] registers(40) {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.produce_acquire %pipe[%k] : <2>
        %s = arith.remui %k, %c2 : index
        %a1 = memref.subview %As[%s, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
        %a2 = memref.subview %As[%s, 1, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
        %b = memref.subview %Bs[%s, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
        %k0 = arith.muli %k, %c64 : index
        tile.copy async tma %A[%c0, %k0], %a1 : !g to !vA
        tile.copy async tma %A[%c128, %k0], %a2 : !g to !vA
        tile.copy async tma %B[%k0, %c0], %b : !g to !vB
        tile.pipe.produce_commit %pipe[%k] : <2>
      }
    }
    tile.ws [1] registers(232) {
      %zero = arith.constant 0.0 : f32
      tile.fill %acc1, %zero : !fC
      %extra = arith.muli %c1, %c1 : index
      %ub = arith.addi %kt, %extra : index
      scf.for %it = %c0 to %ub step %c1 {
        %s = arith.subi %it, %c1 : index
        tile.pipe.consume_wait %pipe[%s] in_flight(0) : <2>
        %lo = arith.cmpi sge, %s, %c0 : index
        %hi = arith.cmpi slt, %s, %kt : index
        %run = arith.andi %lo, %hi : i1
        scf.if %run {
          %slot = arith.remui %s, %c2 : index
          %a = memref.subview %As[%slot, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
          %b = memref.subview %Bs[%slot, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
          tile.gemm %a, %b, %acc1 : !vA, !vB, !fC
        } {tile.pipeline_stage = 1 : i64}
        tile.pipe.consume_release %pipe[%s] {tile.pipeline_stage = 1 : i64} : <2>
      } {tile.pipeline_drain = 1 : i64}
      tile.copy %acc1, %C[%c0, %c0] : !fC to !g
    }
    tile.ws [2] registers(232) {
      %zero = arith.constant 0.0 : f32
      tile.fill %acc2, %zero : !fC
      %extra = arith.muli %c1, %c1 : index
      %ub = arith.addi %kt, %extra : index
      scf.for %it = %c0 to %ub step %c1 {
        %s = arith.subi %it, %c1 : index
        tile.pipe.consume_wait %pipe[%s] in_flight(0) : <2>
        %lo = arith.cmpi sge, %s, %c0 : index
        %hi = arith.cmpi slt, %s, %kt : index
        %run = arith.andi %lo, %hi : i1
        scf.if %run {
          %slot = arith.remui %s, %c2 : index
          %a = memref.subview %As[%slot, 1, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : !sA to !vA
          %b = memref.subview %Bs[%slot, 0, 0] [1, 64, 128] [1, 1, 1] : !sB to !vB
          tile.gemm %a, %b, %acc2 : !vA, !vB, !fC
        } {tile.pipeline_stage = 1 : i64}
        tile.pipe.consume_release %pipe[%s] {tile.pipeline_stage = 1 : i64} : <2>
      } {tile.pipeline_drain = 1 : i64}
      tile.copy %acc2, %C[%c128, %c0] : !fC to !g
    }
  }
  return
}

// -----

// Copy-engine (cp.async) groups are per thread: consumers on other warps
// than the producer cannot wait for its copies. Such a hand-off needs
// tensor copies and is diagnosed instead of racing.
!g = memref<?x?xf16>
!sA = memref<2x128x64xf16, #gpu.address_space<workgroup>>
!vA = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>

func.func @cp_async_between_regions(%A: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %pipe = tile.pipe.create : <2>
    %as = tile.alloc : !sA
    tile.ws [0] {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.produce_acquire %pipe[%k] : <2>
        %s = arith.remui %k, %c2 : index
        %a = memref.subview %as[%s, 0, 0] [1, 128, 64] [1, 1, 1] : !sA to !vA
        %k0 = arith.muli %k, %c64 : index
        tile.copy async %A[%c0, %k0], %a : !g to !vA
        // expected-note @below {{the copies are committed here}}
        tile.pipe.produce_commit %pipe[%k] : <2>
      }
    }
    tile.ws [1] {
      scf.for %k = %c0 to %kt step %c1 {
        // expected-error @below {{'tile.pipe.consume_wait' op waits for copies that other warps issue: a hand-off between tile.ws regions needs tensor copies ('tile.copy async tma')}}
        tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
        tile.pipe.consume_release %pipe[%k] : <2>
      }
    }
  }
  return
}

// -----

// A copy-engine copy beside a tensor copy in one hand-off: the full
// barriers count the tensor copy and the 128 threads of the producer
// region, each of which waits for the slot to be free and arrives once its
// cp.async copies have landed (cp.async.mbarrier.arrive.noinc).
!g = memref<?x?xf16>
!sA = memref<2x128x64xf16, #gpu.address_space<workgroup>>
!vA = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @mixed_pipe
// CHECK: nvvm.mbarrier.init %{{.*}}, %c129_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c4_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c129_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c4_i32
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true}
// CHECK-NOT: nvvm.cp.async.commit.group
// CHECK: return
func.func @mixed_pipe(%A: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %pipe = tile.pipe.create : <2>
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sA
    tile.ws [0] {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.produce_acquire %pipe[%k] : <2>
        %s = arith.remui %k, %c2 : index
        %a = memref.subview %as[%s, 0, 0] [1, 128, 64] [1, 1, 1] : !sA to !vA
        %b = memref.subview %bs[%s, 0, 0] [1, 128, 64] [1, 1, 1] : !sA to !vA
        %k0 = arith.muli %k, %c64 : index
        tile.copy async tma %A[%c0, %k0], %a : !g to !vA
        tile.copy async %A[%c128, %k0], %b : !g to !vA
        tile.pipe.produce_commit %pipe[%k] : <2>
      }
    }
    tile.ws [1] {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
        tile.pipe.consume_release %pipe[%k] : <2>
      }
    }
  }
  return
}

// -----

// Turns take one hardware barrier per warpgroup; sm_90a has 15 for
// subsets of the block, so the eighth pingpong region of two warpgroups
// finds none left.
func.func @turns_out_of_barriers() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    tile.ws [0, 1] pingpong {}
    tile.ws [0, 1] pingpong {}
    tile.ws [0, 1] pingpong {}
    tile.ws [0, 1] pingpong {}
    tile.ws [0, 1] pingpong {}
    tile.ws [0, 1] pingpong {}
    tile.ws [0, 1] pingpong {}
    // expected-error @below {{'tile.ws' op needs 2 barriers for turns, but sm_90a has 15 barriers for subsets of the block and earlier tile.ws regions use them all}}
    tile.ws [0, 1] pingpong {}
  }
  return
}
