// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops 2>/dev/null | FileCheck %s --check-prefix=LOWER
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize=all=false 2>/dev/null | FileCheck %s --check-prefix=OPTIN
// RUN: sed 's/num_stages = 4/num_stages = 5/' %tile_src_root/test/Examples/Inputs/fp8_gemm_128x128.mlir | tile-opt --tile-attach-target=chip=sm_90a --tile-pipeline-planning --tile-inject-pipeline --tile-layout-inference --tile-select-tma --tile-warp-specialize | FileCheck %s --check-prefix=NOTURNS
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_128x128.mlir --tile-attach-target=chip=sm_90a --tile-pipeline-planning --tile-inject-pipeline --tile-layout-inference --tile-select-tma --tile-warp-specialize | FileCheck %s --check-prefix=NOTURNS
// RUN: sed -e 's/num_stages = 4/num_stages = 5/' -e 's/threads(256) {/threads(256) attributes {tile.pingpong = true} {/' %tile_src_root/test/Examples/Inputs/fp8_gemm_128x128.mlir | tile-opt --tile-attach-target=chip=sm_90a --tile-pipeline-planning --tile-inject-pipeline --tile-layout-inference --tile-select-tma --tile-warp-specialize | FileCheck %s --check-prefix=TURNS

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

// The lowering: the producer branch (threads 256 to 383) lowers its budget,
// its first warp waits for free slots and its first thread issues the
// tensor copies;
// the consumers raise theirs, keep one wgmma group in flight and release a
// slot one hand-off late (tile-plan-pipes), and the zero fill moves
// after the loop.
// The roles branch on the warpgroup read from lane 0 (uniform in a warp).
// LOWER-LABEL: func.func @gemm
// LOWER: gpu.shuffle  idx
// LOWER: %[[GROUP:.*]] = arith.divui %{{.*}}, %c4 : index
// LOWER: %[[P:.*]] = arith.subi %[[GROUP]], %{{.*}} : index
// LOWER: arith.cmpi ult, %[[P]], %c1{{(_[0-9]+)?}} : index
// LOWER: scf.if
// LOWER-NEXT: nvvm.setmaxregister decrease 40
// LOWER: scf.for
// LOWER: nvvm.mbarrier.try_wait.parity
// LOWER: nvvm.mbarrier.arrive.expect_tx
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global
// LOWER: %[[C:.*]] = arith.subi %[[GROUP]], %{{.*}} : index
// LOWER: arith.cmpi ult, %[[C]], %c2{{(_[0-9]+)?}} : index
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
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.warp_specialize = true} {
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
// program order; the consumer keeps the rest. The loops copy into the same
// tiles, so they share one pipe: the second continues the first's hand-offs
// from the pipe's base, which each role advances after each loop (the
// producer, running ahead, never refills a slot the consumers still read
// in the first loop). One consumer warpgroup: a block of 256 threads
// launched with up to 255 registers each would be alone on its
// multiprocessor, so the launch is sized for two blocks
// (tile.blocks_per_sm = 2: 128 registers per thread at entry) and the
// consumers raise theirs to (128 * 256 - 40 * 128) / 128 = 216.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @two_loops
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(256) attributes {tile.blocks_per_sm = 2 : i64, tile.warp_specialize = true} {
// CHECK-NEXT: %[[P:.*]] = tile.pipe.create : <2>
// CHECK-NOT: tile.pipe.create
// CHECK: tile.ws [1] registers(40) {
// CHECK: tile.pipe.base %[[P]]
// CHECK-NEXT: scf.for
// CHECK: tile.pipe.produce_acquire %[[P]][
// CHECK: tile.pipe.advance %[[P]] by
// CHECK: arith.cmpi sgt
// CHECK: scf.if
// CHECK: tile.pipe.base %[[P]]
// CHECK-NEXT: scf.for
// CHECK: tile.pipe.produce_acquire %[[P]][
// CHECK: tile.pipe.advance %[[P]] by
// CHECK: tile.ws [0] registers(216) {
// CHECK: tile.pipe.base %[[P]]
// CHECK-NEXT: scf.for
// CHECK: tile.pipe.consume_wait %[[P]][
// CHECK: tile.pipe.advance %[[P]] by
// CHECK: scf.if
// CHECK: tile.pipe.base %[[P]]
// CHECK-NEXT: scf.for
// CHECK: tile.pipe.consume_wait %[[P]][
// CHECK: tile.pipe.advance %[[P]] by
// The lowering: the full barriers expect one arrival per tensor copy of a
// hand-off (2), although two loops issue copies into the pipe; the empty
// ones one per consumer warp (4).
// LOWER-LABEL: func.func @two_loops
// LOWER: tile.kernel @k_tma
// LOWER: %[[C2:.*]] = arith.constant 2 : i32
// LOWER-NEXT: nvvm.mbarrier.init %{{.*}}, %[[C2]]
// LOWER: %[[C4:.*]] = arith.constant 4 : i32
// LOWER-NEXT: nvvm.mbarrier.init %{{.*}}, %[[C4]]
func.func @two_loops(%A: !g, %B: !g, %C: !g, %kt: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.warp_specialize = true} {
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
// CHECK: tile.ws [1] registers(40) {
// OPTIN-LABEL: func.func @opted_in
// OPTIN: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(256)
// OPTIN: tile.ws [1] registers(40) {
// OPTIN: tile.ws [0] registers(216) {
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

// -----

// A persistent GEMM: each block loops over output tiles (grid-stride), the
// pipelined K loop runs once per tile, under a branch skipping tiles past
// the end. Hand-offs are numbered from the pipe's base, which each role
// advances by the K loop's trip count after it: the producer's phases
// continue into the next tile while the consumers finish the previous
// one's epilogue, and neither depends on the induction variables. The
// consumers' zero fill stays in their region, per tile.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @persistent
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [%{{.*}}] threads(384)
// CHECK: %[[P:.*]] = tile.pipe.create : <3>
// CHECK: tile.ws [2] registers(40) {
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NOT: tile.fill
// CHECK: %[[PB:.*]] = tile.pipe.base %[[P]] : <3>
// CHECK-NEXT: scf.for
// CHECK: %[[PSEQ:.*]] = arith.addi %[[PB]], %{{.*}} : index
// CHECK: tile.pipe.produce_acquire %[[P]][%[[PSEQ]]]
// CHECK: tile.ring_position %{{.*}} from %[[PB]] mod 3
// CHECK: tile.copy async tma
// CHECK: tile.pipe.produce_commit %[[P]][%[[PSEQ]]]
// CHECK-NOT: tile.gemm
// CHECK: tile.pipe.advance %[[P]] by
// CHECK-NOT: tile.copy %
// CHECK: tile.ws [0, 1] registers(232) {
// CHECK: scf.for
// CHECK: scf.if
// CHECK: tile.fill
// CHECK: %[[CB:.*]] = tile.pipe.base %[[P]] : <3>
// CHECK-NEXT: scf.for
// CHECK: arith.addi %[[CB]], %{{.*}} : index
// CHECK: tile.pipe.consume_wait %[[P]][
// CHECK: tile.gemm
// CHECK: tile.pipe.consume_release %[[P]][
// CHECK: tile.pipe.advance %[[P]] by
// CHECK-NEXT: tile.copy %{{.*}}, %{{.*}}[
// REMARK: remark: warp-specialized: a producer warpgroup issues the tensor copies

// The lowering: a per-thread counter per role (an alloca, 0 at the start),
// hand-offs below it do nothing (compared in 32 bits: a number and its base
// are at most a loop's trip count apart), the consumers release the tile's last
// hand-off after the loop once its MMAs are done, then both roles add the
// trip count to their counter.
// LOWER-LABEL: func.func @persistent
// LOWER: tile.kernel @k_tma
// LOWER: %[[CNT:.*]] = memref.alloca() : memref<1xindex>
// LOWER: memref.store %{{.*}}, %[[CNT]][%{{.*}}] : memref<1xindex>
// LOWER: nvvm.setmaxregister decrease 40
// LOWER: %[[B1:.*]] = memref.load %[[CNT]]
// LOWER: %[[B1A:.*]] = memref.load %[[CNT]]
// LOWER-NEXT: %[[B1N:.*]] = arith.index_cast %[[B1A]] : index to i32
// LOWER-NEXT: %[[S1N:.*]] = arith.index_cast %{{.*}} : index to i32
// LOWER-NEXT: %[[AHEAD1:.*]] = arith.subi %[[S1N]], %[[B1N]] : i32
// LOWER: arith.cmpi sge, %[[AHEAD1]], %{{.*}} : i32
// LOWER: nvvm.mbarrier.try_wait.parity
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global
// LOWER: memref.store %{{[0-9]+}}, %[[CNT]]
// LOWER: nvvm.setmaxregister increase 232
// LOWER: llvm.inline_asm {{.*}}wgmma.mma_async
// LOWER: nvvm.wgmma.wait.group.sync.aligned 1
// LOWER: nvvm.wgmma.wait.group.sync.aligned 0
// The last hand-off, base + count - 1, released when it is >= the base.
// LOWER: %[[B3:.*]] = memref.load %[[CNT]]
// LOWER-NEXT: %[[END:.*]] = arith.addi %[[B3]], %[[COUNT:.*]] : index
// LOWER-NEXT: arith.constant -1 : index
// LOWER-NEXT: %[[LAST:.*]] = arith.addi %[[END]], %{{.*}} : index
// LOWER-NEXT: arith.constant
// LOWER-NEXT: %[[B4:.*]] = memref.load %[[CNT]]
// LOWER-NEXT: %[[B4N:.*]] = arith.index_cast %[[B4]] : index to i32
// LOWER-NEXT: %[[LASTN:.*]] = arith.index_cast %[[LAST]] : index to i32
// LOWER-NEXT: %[[AHEAD2:.*]] = arith.subi %[[LASTN]], %[[B4N]] : i32
// LOWER: arith.cmpi sge, %[[AHEAD2]], %{{.*}} : i32
// LOWER: nvvm.mbarrier.arrive %
// LOWER: %[[B5:.*]] = memref.load %[[CNT]]
// LOWER-NEXT: %[[NEXT2:.*]] = arith.addi %[[B5]], %[[COUNT]] : index
// LOWER-NEXT: arith.constant
// LOWER-NEXT: memref.store %[[NEXT2]], %[[CNT]]
func.func @persistent(%A: !g, %B: !g, %C: !g, %kt: index, %tiles_n: index,
                      %tiles: index, %grid: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.kernel @k blocks(%bx) in [%grid] threads(256) attributes {tile.warp_specialize = true} {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    %waves = arith.ceildivui %tiles, %grid : index
    scf.for %w = %c0 to %waves step %c1 {
      %t0 = arith.muli %w, %grid : index
      %t = arith.addi %t0, %bx : index
      %valid = arith.cmpi ult, %t, %tiles : index
      scf.if %valid {
        %tm = arith.divui %t, %tiles_n : index
        %tn = arith.remui %t, %tiles_n : index
        %m0 = arith.muli %tm, %c128 : index
        %n0 = arith.muli %tn, %c128 : index
        tile.fill %acc, %zero : !fC
        scf.for %k = %c0 to %kt step %c1 {
          %k0 = arith.muli %k, %c64 : index
          tile.copy %A[%m0, %k0], %as : !g to !sA
          tile.copy %B[%k0, %n0], %bs : !g to !sB
          tile.gemm %as, %bs, %acc : !sA, !sB, !fC
        } {tile.num_stages = 3 : i64}
        tile.copy %acc, %C[%m0, %n0] : !fC to !g
      }
    }
  }
  return
}

// -----

// Four consumer warpgroups: a block of 640 threads is launched with 96
// registers per thread, so the consumers can raise theirs only to what the
// producer's decrease frees: (96 * 640 - 40 * 128) / 512 = 110, rounded
// down to 104 (not the 65536-register file's 117).

!g = memref<?x?xf16>
!sA = memref<256x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<256x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @four_consumers
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(640)
// CHECK: tile.ws [4] registers(40) {
// CHECK: tile.ws [0, 1, 2, 3] registers(104) {
func.func @four_consumers(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(512) {
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

// Trip counts 1 and 0 (constant): still split, the producer's loop runs the
// single hand-off (or none) and nothing waits for a hand-off that never
// comes: waits and acquires below 0 do nothing, and the consumers' zero
// fill moves after the loop for the empty case (the lowering guards it).

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @trip_counts
// CHECK: tile.kernel @k_tma
// CHECK: tile.ws [2] registers(40) {
// CHECK: scf.for
// CHECK: tile.copy async tma
// CHECK: scf.for
// CHECK: tile.copy async tma
// CHECK: tile.ws [0, 1] registers(232) {
// CHECK: scf.for
// CHECK: tile.gemm
// CHECK: scf.for
// CHECK: tile.gemm
// REMARK: remark: warp-specialized: a producer warpgroup issues the tensor copies
// LOWER-LABEL: func.func @trip_counts
// LOWER: nvvm.setmaxregister increase 232
// LOWER: nvvm.wgmma.wait.group.sync.aligned 0
// LOWER-NEXT: %[[DRAIN:.*]] = arith.constant 2 : index
// LOWER-NEXT: %[[EXTRA:.*]] = arith.muli %{{.*}}, %[[DRAIN]] : index
// LOWER-NEXT: %[[UB:.*]] = arith.subi %{{.*}}, %[[EXTRA]] : index
// LOWER-NEXT: %[[EMPTY:.*]] = arith.cmpi sge, %{{.*}}, %[[UB]] : index
// LOWER-NEXT: scf.if %[[EMPTY]] {
func.func @trip_counts(%A: !g, %B: !g, %C: !g) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.warp_specialize = true} {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %c1 step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %c0 step %c1 {
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

// A producer mixing tensor copies and cp.async: B's shared tile has padded
// rows, which a tensor copy cannot write, so its copy stays on the copy
// engine (and the gemm on mma.sync). The producer region issues both copies
// of each hand-off and the consumers neither copy nor wait for copy-engine
// groups. Lowered, the full barriers count A's tensor copy and the
// producer's 128 threads (129 arrivals): each producer thread waits for the
// slot and arrives once its cp.async copies land. The consumers read the
// slots with ldmatrix, so each of their 256 threads releases a slot after
// its own reads (the empty barriers count 256).

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @mixed_producer
// CHECK: tile.kernel @k_tma
// CHECK: tile.ws [2] registers(40) {
// CHECK: scf.for
// CHECK: tile.pipe.produce_acquire
// CHECK: tile.copy async tma %{{.*}} : memref<?x?xf16> to memref<128x64xf16
// CHECK: tile.copy async %{{.*}} : memref<?x?xf16> to memref<64x128xf16
// CHECK: tile.pipe.produce_commit
// CHECK: tile.ws [0, 1] registers(232) {
// CHECK-NOT: tile.copy async
// CHECK-NOT: tile.async_wait
// CHECK: tile.gemm
// CHECK: } else {
// REMARK: remark: warp-specialized: a producer warpgroup issues the tensor copies
// LOWER-LABEL: func.func @mixed_producer
// LOWER: nvvm.mbarrier.init %{{.*}}, %c129_i32
// LOWER-NOT: nvvm.mbarrier.init
// LOWER: %[[C256:.*]] = arith.constant 256 : i32
// LOWER-NEXT: nvvm.mbarrier.init %{{.*}}, %[[C256]]
// LOWER: nvvm.setmaxregister decrease 40
// LOWER: nvvm.mbarrier.try_wait.parity
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global
// LOWER: nvgpu.device_async_copy
// LOWER: nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true}
// LOWER: nvvm.setmaxregister increase 232
// LOWER: nvgpu.mma.sync
func.func @mixed_producer(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.warp_specialize = true} {
    %as = tile.alloc : !sA
    %bs = tile.alloc {layout = #tile.shared<pad = 16>} : !sB
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

// Consumer-only initialization and a prologue copy: the shared fill of %w,
// the copy of %b0 before the loop and the accumulator's zero fill stay in
// the consumer region only (cooperative over its 256 threads, with its own
// barrier), never on the producer. Two gemms add into one accumulator in
// each iteration: with the release deferred, only the first overwrites it
// on the first iteration; the second always adds (lowered: one first-iteration
// flag, the second gemm's wgmma with scale-d 1).

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @consumer_init
// CHECK: tile.kernel @k_tma
// CHECK: tile.ws [2] registers(40) {
// CHECK-NOT: tile.fill
// CHECK-NOT: tile.copy %
// CHECK: tile.copy async tma
// CHECK: tile.copy async tma
// CHECK-NOT: tile.gemm
// CHECK: tile.ws [0, 1] registers(232) {
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: tile.fill %{{.*}}, %{{.*}} : memref<128x128xf32
// CHECK-NEXT: tile.fill %{{.*}}, %{{.*}} : memref<64x128xf16
// CHECK-NEXT: tile.copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<?x?xf16> to memref<64x128xf16
// CHECK: scf.for
// CHECK: tile.gemm
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: tile.gemm
// REMARK: remark: warp-specialized: a producer warpgroup issues the tensor copies
// LOWER-LABEL: func.func @consumer_init
// LOWER: nvvm.setmaxregister increase 232
// LOWER: scf.for
// LOWER: arith.cmpi ne, %{{.*}}, %{{.*}} : index
// LOWER-NOT: arith.cmpi ne
// LOWER: wgmma.mma_async.sync.aligned
// LOWER: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>]
// LOWER: nvvm.wgmma.wait.group.sync.aligned 1
func.func @consumer_init(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %b0 = tile.alloc : !sB
    %w = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f16
    tile.fill %acc, %zero : !fC
    tile.fill %w, %half : !sB
    tile.copy %B[%c0, %c0], %b0 : !g to !sB
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
      tile.gemm %as, %b0, %acc : !sA, !sB, !fC
      tile.gemm %as, %w, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

// A loop doing register work beside its gemm (the row maximum of the
// scores, as in FlashAttention's softmax), on a kernel asking for turns
// (`tile.pingpong = true`): the two consumer warpgroups take turns at the
// tensor cores (`pingpong`), so one computes while the other's MMAs run. Lowered: warpgroup 1 hands the first turn to warpgroup 0 at
// hardware barrier 2 (barrier 1 is the region's own); before each gemm a
// warpgroup waits at barrier 2 + g, and once its wgmmas are committed, before
// waiting for them, it passes the turn to barrier 2 + (g + 1) mod 2; after
// the loop warpgroup 0 takes the last turn back.

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!sK = memref<64x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>
!gRow = memref<?xf32>

// CHECK-LABEL: func.func @turns
// CHECK: tile.ws [2] registers(40) {
// CHECK: tile.ws [0, 1] registers(232) pingpong {
// CHECK: scf.for
// CHECK: tile.gemm
// CHECK: tile.reduce <max>
// REMARK: remark: warp-specialized: a producer warpgroup issues the tensor copies
// LOWER-LABEL: func.func @turns
// LOWER: nvvm.setmaxregister increase 232
// LOWER: %[[TID:.*]] = arith.subi %{{.*}}, %c0
// LOWER: %[[G:.*]] = arith.divui %[[TID]], %c128
// LOWER: %[[LAST:.*]] = arith.cmpi eq, %[[G]], %c1
// LOWER: scf.if %[[LAST]] {
// LOWER: nvvm.barrier.arrive id = %c2_i32 number_of_threads = %c256_i32
// LOWER: scf.for
// LOWER: nvvm.mbarrier.try_wait.parity
// LOWER: %[[WG:.*]] = arith.divui %{{.*}}, %c128
// LOWER: %[[MINE:.*]] = arith.addi %[[WG]], %c2
// LOWER: %[[MINE32:.*]] = arith.index_castui %[[MINE]] : index to i32
// LOWER: nvvm.barrier id = %[[MINE32]] number_of_threads = %c256_i32
// LOWER: %[[NEXT:.*]] = arith.remui %{{.*}}, %c2
// LOWER: %[[NEXTID:.*]] = arith.addi %[[NEXT]], %c2
// LOWER: %[[NEXT32:.*]] = arith.index_castui %[[NEXTID]] : index to i32
// LOWER: nvvm.wgmma.fence.aligned
// LOWER: nvvm.wgmma.mma_async
// LOWER: nvvm.wgmma.commit.group.sync.aligned
// LOWER-NEXT: arith.constant 256 : i32
// LOWER-NEXT: nvvm.barrier.arrive id = %[[NEXT32]] number_of_threads =
// LOWER-NEXT: nvvm.wgmma.wait.group.sync.aligned
// LOWER: gpu.shuffle  xor
// LOWER: %[[G0:.*]] = arith.divui %[[TID]], %c128
// LOWER: %[[FIRST:.*]] = arith.cmpi eq, %[[G0]], %c0
// LOWER: scf.if %[[FIRST]] {
// LOWER: nvvm.barrier id = %c2_i32 number_of_threads =
func.func @turns(%Q: !g, %K: !g, %M: !gRow, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256)
      attributes {tile.warp_specialize = true, tile.pingpong = true} {
    %qs = tile.alloc : !sQ
    %ks = tile.alloc : !sK
    %s = tile.alloc : !fS
    %m = tile.alloc : !fRow
    %ninf = arith.constant 0xFF800000 : f32
    tile.copy %Q[%c0, %c0], %qs : !g to !sQ
    tile.fill %m, %ninf : !fRow
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %K[%k0, %c0], %ks : !g to !sK
      tile.gemm %qs, %ks, %s transpose_b clear_accum policy <full_row>
          : !sQ, !sK, !fS
      tile.reduce <max> %s, %m dim 1 : !fS to !fRow
    } {tile.num_stages = 2 : i64}
    tile.copy %m, %M[%c0] : !fRow to !gRow
  }
  return
}

// -----

// Two gemms next to each other (a rotated loop's Q K^T and P V) are one
// turn: the warpgroup waits for it before the first and passes it after
// committing the second.

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!sK = memref<64x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>
!gRow = memref<?xf32>

// CHECK-LABEL: func.func @turn_of_two
// REMARK: remark: warp-specialized: a producer warpgroup issues the tensor copies
// LOWER-LABEL: func.func @turn_of_two
// LOWER: nvvm.setmaxregister increase 232
// LOWER: scf.for
// LOWER: nvvm.mbarrier.try_wait.parity
// LOWER: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// LOWER-NOT: nvvm.barrier
// LOWER: nvvm.wgmma.commit.group.sync.aligned
// LOWER-NOT: nvvm.barrier
// LOWER: nvvm.wgmma.commit.group.sync.aligned
// LOWER-NEXT: arith.constant 256 : i32
// LOWER-NEXT: nvvm.barrier.arrive id = %{{.*}} number_of_threads =
// LOWER: gpu.shuffle  xor
func.func @turn_of_two(%Q: !g, %K: !g, %M: !gRow, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256)
      attributes {tile.warp_specialize = true, tile.pingpong = true} {
    %qs = tile.alloc : !sQ
    %ks = tile.alloc : !sK
    %s = tile.alloc : !fS
    %s2 = tile.alloc : !fS
    %m = tile.alloc : !fRow
    %ninf = arith.constant 0xFF800000 : f32
    tile.copy %Q[%c0, %c0], %qs : !g to !sQ
    tile.fill %m, %ninf : !fRow
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %K[%k0, %c0], %ks : !g to !sK
      tile.gemm %qs, %ks, %s transpose_b clear_accum policy <full_row>
          : !sQ, !sK, !fS
      tile.gemm %qs, %ks, %s2 transpose_b clear_accum policy <full_row>
          : !sQ, !sK, !fS
      tile.reduce <max> %s, %m dim 1 : !fS to !fRow
      tile.reduce <max> %s2, %m dim 1 : !fS to !fRow
    } {tile.num_stages = 2 : i64}
    tile.copy %m, %M[%c0] : !fRow to !gRow
  }
  return
}

// -----

// The same loop without `tile.pingpong = true`: no turns (not a default,
// see wantsTurns), nor with `tile.pingpong = false`.

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!sK = memref<64x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>
!gRow = memref<?xf32>

// CHECK-LABEL: func.func @turns_opted_out
// CHECK: tile.ws [0, 1] registers(232) {
// CHECK-LABEL: func.func @turns_false
// CHECK: tile.ws [0, 1] registers(232) {
// LOWER-LABEL: func.func @turns_opted_out
// LOWER-NOT: nvvm.barrier.arrive
// LOWER: return
func.func @turns_opted_out(%Q: !g, %K: !g, %M: !gRow, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.warp_specialize = true} {
    %qs = tile.alloc : !sQ
    %ks = tile.alloc : !sK
    %s = tile.alloc : !fS
    %m = tile.alloc : !fRow
    %ninf = arith.constant 0xFF800000 : f32
    tile.copy %Q[%c0, %c0], %qs : !g to !sQ
    tile.fill %m, %ninf : !fRow
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %K[%k0, %c0], %ks : !g to !sK
      tile.gemm %qs, %ks, %s transpose_b clear_accum policy <full_row>
          : !sQ, !sK, !fS
      tile.reduce <max> %s, %m dim 1 : !fS to !fRow
    } {tile.num_stages = 2 : i64}
    tile.copy %m, %M[%c0] : !fRow to !gRow
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!sK = memref<64x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>
!gRow = memref<?xf32>

func.func @turns_false(%Q: !g, %K: !g, %M: !gRow, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256)
      attributes {tile.warp_specialize = true, tile.pingpong = false} {
    %qs = tile.alloc : !sQ
    %ks = tile.alloc : !sK
    %s = tile.alloc : !fS
    %m = tile.alloc : !fRow
    %ninf = arith.constant 0xFF800000 : f32
    tile.copy %Q[%c0, %c0], %qs : !g to !sQ
    tile.fill %m, %ninf : !fRow
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %K[%k0, %c0], %ks : !g to !sK
      tile.gemm %qs, %ks, %s transpose_b clear_accum policy <full_row>
          : !sQ, !sK, !fS
      tile.reduce <max> %s, %m dim 1 : !fS to !fRow
    } {tile.num_stages = 2 : i64}
    tile.copy %m, %M[%c0] : !fRow to !gRow
  }
  return
}


// -----

// The default's occupancy rule. Unmarked, this kernel (two warpgroups of
// 64 x 128 f32 accumulator slabs, 104 registers a thread; 4 stages of
// 16 KiB) runs two blocks to a multiprocessor; with a producer each it
// would run one. Its stages hold 128 x 128 x 32 multiply-adds per K step,
// 3 x 128 x 128 x 32 / 2 loaded ahead of each consumer warpgroup, fewer
// than the 2^20 a producer needs to pay: it is left alone, with the
// decision written on it, and a remark.
// CHECK-LABEL: func.func @occupancy_kept_unspecialized
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(256) attributes {tile.warp_specialize = false}
// CHECK-NOT: tile.ws
// CHECK: return
// With all=false only marked kernels are split: nothing to decide here.
// OPTIN-LABEL: func.func @occupancy_kept_unspecialized
// OPTIN-NOT: tile.warp_specialize
// OPTIN: return

!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @occupancy_kept_unspecialized(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-remark @below {{not warp-specialized: a producer warpgroup would leave 2 consumer warpgroups resident per multiprocessor instead of 4 and load 786432 multiply-adds ahead of each (fewer than 1048576) (tile.warp_specialize = true specializes it anyway)}}
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

// The same occupancy loss with enough work ahead: one warpgroup of 128 x
// 128 accumulators (three blocks to a multiprocessor unspecialized, two
// with a producer each) whose 4 stages keep 3 x 128 x 128 x 32 = 1572864
// multiply-adds loaded ahead of it. The producer pays: specialized.
// CHECK-LABEL: func.func @occupancy_lost_work_ahead
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(256) attributes {tile.blocks_per_sm = 2 : i64} {
// CHECK: tile.ws [1] registers(40) {
// CHECK: tile.ws [0] registers(216) {
// OPTIN-LABEL: func.func @occupancy_lost_work_ahead
// OPTIN-NOT: tile.ws
// OPTIN: return

!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @occupancy_lost_work_ahead(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

// 8-bit operands count half: the tensor cores multiply them at twice the
// rate. One warpgroup of 128 x 128 accumulators (three blocks to a
// multiprocessor, two specialized) with 2 stages of 128 x 128 x 64 keeps
// 1048576 multiply-adds ahead, 524288 of 16-bit time: left alone.
// CHECK-LABEL: func.func @occupancy_kept_fp8
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(128) attributes {tile.warp_specialize = false}
// CHECK-NOT: tile.ws
// CHECK: return

!g8 = memref<?x?xf8E4M3FN>
!gC = memref<?x?xf32>
!sA8 = memref<128x64xf8E4M3FN, #gpu.address_space<workgroup>>
!sB8 = memref<128x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @occupancy_kept_fp8(%A: !g8, %B: !g8, %C: !gC, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{not warp-specialized: a producer warpgroup would leave 2 consumer warpgroups resident per multiprocessor instead of 3 and load 524288 multiply-adds ahead of each (fewer than 1048576)}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA8
    %bs = tile.alloc : !sB8
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g8 to !sA8
      tile.copy %B[%c0, %k0], %bs : !g8 to !sB8
      tile.gemm %as, %bs, %acc transpose_b : !sA8, !sB8, !fC
    } {tile.num_stages = 2 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !gC
  }
  return
}

// -----

// Two warpgroups of 64 x 256 accumulator slabs (the example's tiles): one
// block a multiprocessor either way (registers and 192 KiB of shared
// memory), so the producer costs no consumer warpgroup: specialized.
// CHECK-LABEL: func.func @occupancy_specialized
// CHECK: tile.kernel @k_tma blocks(%{{.*}}) in [1] threads(384) {
// CHECK: tile.ws [2] registers(40) {
// CHECK: tile.ws [0, 1] registers(232) {
// OPTIN-LABEL: func.func @occupancy_specialized
// OPTIN-NOT: tile.ws
// OPTIN: return

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

func.func @occupancy_specialized(%A: !g, %B: !g, %C: !g, %kt: index) {
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
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// A gemm that promotes one K block of 8-bit floats per call
// (test/Examples/Inputs/fp8_gemm_128x128.mlir: 128 x 128 tiles, one
// instruction across the tile) does not make its consumer warpgroups take
// turns, with 4 slots or 5 (each warpgroup stores its own rows, and turns
// were slower there: docs/perf.md run 199); `tile.pingpong = true` on the
// kernel asks for them. (The block-scaled kernel, whose gemm hands its
// product over one gemm late, takes turns by default: plan-pipes.mlir.)
// TURNS-LABEL: tile.kernel @fp8_gemm_tensor_kernel_tma
// TURNS: tile.ws [2] registers(40) {
// TURNS: tile.ws [0, 1] registers(232) pingpong {
// TURNS-LABEL: tile.kernel @fp8_gemm_tensor_kernel blocks
// NOTURNS-LABEL: tile.kernel @fp8_gemm_tensor_kernel_tma
// NOTURNS: tile.ws [0, 1] registers(232) {
// NOTURNS-LABEL: tile.kernel @fp8_gemm_tensor_kernel blocks
