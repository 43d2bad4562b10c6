// RUN: tile-opt %s -split-input-file -tile-plan-pipes | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-plan-pipes -tile-plan-pipes | FileCheck %s
// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=GEMM
// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks=clusters=true --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=CLUSTER
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_128x128.mlir --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=FP8
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_128x256.mlir --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=FP8W
// RUN: tile-opt %examples/fp8_gemm.mlir --tile-attach-target=chip=sm_90a --tile-fuse-consumer --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=FP8X
// RUN: tile-opt %examples/flash_attention.mlir --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=FA
// RUN: tile-opt %examples/gemm_sparse.mlir --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=SPARSE
// RUN: sed 's/threads(256) {/threads(256) attributes {tile.sparse_in_flight = true} {/' %examples/gemm_sparse.mlir | tile-opt --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=INFLIGHT
// RUN: sed -e 's/128x256xf/128x128xf/g' -e 's/%BN = arith.constant 256/%BN = arith.constant 128/' -e 's/num_stages = 2/num_stages = 3/' %examples/gemm_sparse.mlir | tile-opt --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=THREE
// RUN: sed -e 's/128x256xf/128x128xf/g' -e 's/%BN = arith.constant 256/%BN = arith.constant 128/' -e 's/num_stages = 2/num_stages = 3/' -e 's/threads(256) {/threads(256) attributes {tile.sparse_in_flight = false} {/' %examples/gemm_sparse.mlir | tile-opt --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes | FileCheck %s --check-prefix=THREE-OFF
// RUN: sed -e 's/128x256xf/128x128xf/g' -e 's/%BN = arith.constant 256/%BN = arith.constant 128/' -e 's/num_stages = 2/num_stages = 3/' -e 's/threads(256) {/threads(256) attributes {tile.warp_specialize = false} {/' %examples/gemm_sparse.mlir | tile-opt --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes 2>/dev/null | FileCheck %s --check-prefix=THREE-NOWS

// The decisions of tile-plan-pipes on the examples, compiled for sm_90a as
// tile-to-nvvm does up to this pass.
//
// The GEMM's tensor-copy kernel: A and B tiles fill each slot (two tensor
// copies: full = 2); the consumer warpgroups [0, 1] release it (8 warps);
// only wgmma reads the slots, and the loop qualifies for the deferred
// release: the gemm leaves its wgmma group in flight and overwrites the
// accumulator on its first iteration (the zero fill moved after the loop,
// for a loop that runs none). The kernel without tensor copies gets no plan.
// GEMM-LABEL: tile.kernel @gemm_kernel_tma
// GEMM: tile.pipe.create plan <full = 2, empty = 8, deferred> : <4>
// GEMM: tile.ws [0, 1] registers(232) attributes {barrier = 1 : i64, store_barrier = 2 : i64} {
// GEMM: %[[FIRST:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : index
// GEMM: tile.gemm {{.*}} accumulate(%[[FIRST]]) {{.*}}mma_groups_in_flight = 1 : i64
// GEMM: } {tile.pipeline_drain = 3 : i64}
// GEMM: %[[DRAIN:.*]] = arith.constant 3 : index
// GEMM: %[[EXTRA:.*]] = arith.muli %{{.*}}, %[[DRAIN]] : index
// GEMM: %[[UB:.*]] = arith.subi %{{.*}}, %[[EXTRA]] : index
// GEMM: %[[NONE:.*]] = arith.cmpi sge, %{{.*}}, %[[UB]] : index
// GEMM: scf.if %[[NONE]] {
// GEMM-NEXT: tile.fill
// GEMM-LABEL: tile.kernel @gemm_kernel blocks
// GEMM: tile.pipe.create : <4>
//
// In clusters of two blocks, B is multicast: each release counts the
// consumer warps of both blocks (16).
// CLUSTER-LABEL: tile.kernel @gemm_kernel_tma
// CLUSTER: tile.pipe.create plan <full = 2, empty = 16, deferred, cluster> : <4>
//
// An FP8 GEMM of 128 x 128 tiles (test/Examples/Inputs/fp8_gemm_128x128.mlir)
// promotes every K block (promote_k = K = 128): its release is
// deferred too, with the promotion one gemm late. The partial sums go in
// flight into a tile of their own (a copy of the accumulator's alloc), which
// the next gemm adds to the accumulator once they are done (from the second
// gemm on: `accumulate`); the accumulator is never in flight, so its zero
// fill stays before the loop. Without tensor copies nothing is deferred.
// FP8-LABEL: tile.kernel @fp8_gemm_tensor_kernel_tma
// FP8: tile.pipe.create plan <full = 2, empty = 8, deferred> : <4>
// FP8: %[[ACC:.*]] = tile.alloc {layout = #tile.linear<[128, 128], [[LAYOUT:.*]]>} : memref<128x128xf32, #tile.mem<fragment>>
// FP8-NEXT: %[[PART:.*]] = tile.alloc {layout = #tile.linear<[128, 128], [[LAYOUT]]>} : memref<128x128xf32, #tile.mem<fragment>>
// FP8: tile.ws [0, 1] registers(232)
// FP8: tile.fill %[[ACC]]
// FP8: %[[SECOND:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : index
// FP8: tile.gemm %{{.*}}, %{{.*}}, %[[ACC]] accumulate(%[[SECOND]]) partials(%[[PART]] : memref<128x128xf32, #tile.mem<fragment>>) transpose_b {{.*}}mma_groups_in_flight = 1 : i64, promote_k = 128 : i64}
// FP8: } {tile.pipeline_drain = 3 : i64}
// FP8-NOT: tile.fill %[[ACC]]
// FP8: tile.gemm %{{.*}}, %{{.*}}, %[[ACC]] accumulate(%{{.*}}) partials(%[[PART]] :
// FP8-LABEL: tile.kernel @fp8_gemm_tensor_kernel blocks
// FP8: tile.pipe.create : <4>
// FP8-NOT: partials
//
// 128 x 256 tiles (test/Examples/Inputs/fp8_gemm_128x256.mlir's
// @fp8_gemm_tensor) promote each column half in place (m64n128
// instructions, narrowed by tile-select-mma): the partial sums of the
// whole tile would not fit beside the accumulator, so nothing is deferred
// and each gemm completes its MMAs.
// FP8W-LABEL: tile.kernel @fp8_gemm_tensor_kernel_tma
// FP8W: tile.pipe.create plan <full = 2, empty = 8> : <4>
// FP8W-NOT: partials
// FP8W: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 128, 32], warps = [8, 1]>, promote_k = 128 : i64} : {{.*}}, memref<128x256xf32, #tile.mem<fragment>>
// FP8W-NOT: partials
// FP8W-LABEL: tile.kernel @fp8_gemm_tensor_kernel blocks
//
// The example's per-tensor and row-wise kernels (128 x 128, 5 stages):
// deferred one K block, each consumer warpgroup storing its own rows
// (store_barrier) and no turns; the block-scaled one (5 slots too) clears
// its accumulator per K block and hands it to its consumer one gemm late
// (tile-fuse-consumer): no partials, its MMAs in flight past the release,
// and the consumer warpgroups take turns (tile-warp-specialize's default
// for such a gemm with 5 slots or more).
// FP8X-LABEL: tile.kernel @fp8_gemm_tensor_kernel_tma
// FP8X: tile.pipe.create plan <full = 2, empty = 8, deferred> : <5>
// FP8X: tile.ws [0, 1] registers(232) attributes {barrier = 1 : i64, store_barrier = 2 : i64} {
// FP8X: tile.gemm {{.*}} partials({{.*}}promote_k = 128 : i64} : {{.*}}, memref<128x128xf32, #tile.mem<fragment>>
// FP8X-LABEL: tile.kernel @fp8_gemm_rowwise_kernel_tma
// FP8X: tile.ws [0, 1] registers(232) attributes {barrier = 1 : i64, store_barrier = 2 : i64} {
// FP8X: tile.gemm {{.*}} partials(
// FP8X-LABEL: tile.kernel @fp8_gemm_blockwise_kernel_tma
// FP8X: tile.pipe.create plan <full = 2, empty = 8, deferred> : <5>
// FP8X: tile.ws [0, 1] registers(232) pingpong
// FP8X-NOT: partials
// FP8X: tile.gemm {{.*}} clear_accum {mma = {{.*}}, mma_groups_in_flight = 1 : i64, tile.consumer_late = true}
// FP8X-LABEL: tile.kernel @fp8_gemm_blockwise_kernel blocks
//
// FlashAttention's pipe (persistent: one for the key loop's versions): K and
// V, one tensor copy each per hand-off, read by wgmma only, released by the
// 8 consumer warps. P V reads P from registers (wgmma's RS form): no release
// is deferred.
// FA-LABEL: tile.kernel @flash_attention_fwd_kernel_tma
// FA: tile.pipe.create plan <full = 2, empty = 8> : <2>
// FA-NOT: mma_groups_in_flight
// FA-LABEL: tile.kernel @flash_attention_fwd_kernel blocks
//
// The 2:4-sparse GEMM (examples/gemm_sparse.mlir): A, its metadata and B
// fill each slot by tensor copies (full = 3), but no release is deferred:
// wgmma.sp reads its metadata register as it runs, and the next K step
// would load the next words into it under an MMA in flight.
// SPARSE-LABEL: tile.kernel @gemm_sp_kernel_tma
// SPARSE: tile.pipe.create plan <full = 3, empty = 8> : <2>
// SPARSE-NOT: mma_groups_in_flight
// SPARSE-LABEL: tile.kernel @gemm_sp_kernel blocks
//
// With `tile.sparse_in_flight = true` on the kernel the release is
// deferred and the consumers' K loop runs two steps an iteration (each
// step's gemm leaves its MMAs in flight; the lowering keeps each step's
// metadata registers until the other step's wait), then at most one more
// step in a loop of its own.
// INFLIGHT-LABEL: tile.kernel @gemm_sp_kernel_tma
// INFLIGHT: tile.pipe.create plan <full = 3, empty = 8, deferred> : <2>
// INFLIGHT: tile.ws [0, 1] registers(232)
// INFLIGHT: scf.for
// INFLIGHT: tile.gemm {{.*}} sparse({{.*}}mma_groups_in_flight = 1 : i64
// INFLIGHT: tile.gemm {{.*}} sparse({{.*}}mma_groups_in_flight = 1 : i64
// INFLIGHT: } {tile.pipeline_drain
// INFLIGHT-NEXT: scf.for
// INFLIGHT: tile.gemm {{.*}} sparse({{.*}}mma_groups_in_flight = 1 : i64
// INFLIGHT: } {tile.pipeline_drain
//
// Without the attribute the pass decides: at 128 x 128 tiles with three
// stages (the producer warpgroup still fills a slot ahead while the MMAs
// in flight hold one) the release is deferred as above; the kernel's
// `tile.sparse_in_flight = false` keeps the MMAs completed, and so does a
// kernel whose producers are its consumers (no warp specialization).
// THREE-LABEL: tile.kernel @gemm_sp_kernel_tma
// THREE: tile.pipe.create plan <full = 3, empty = 8, deferred> : <3>
// THREE: tile.ws [0, 1] registers(232)
// THREE: scf.for
// THREE: tile.gemm {{.*}} sparse({{.*}}mma_groups_in_flight = 1 : i64
// THREE: tile.gemm {{.*}} sparse({{.*}}mma_groups_in_flight = 1 : i64
// THREE: } {tile.pipeline_drain
// THREE-LABEL: tile.kernel @gemm_sp_kernel blocks
// THREE-OFF-LABEL: tile.kernel @gemm_sp_kernel_tma
// THREE-OFF: tile.pipe.create plan <full = 3, empty = 8> : <3>
// THREE-OFF-NOT: mma_groups_in_flight
// THREE-OFF-LABEL: tile.kernel @gemm_sp_kernel blocks
// THREE-NOWS-LABEL: tile.kernel @gemm_sp_kernel_tma
// THREE-NOWS: tile.pipe.create plan <full = 3, empty = 8> : <3>
// THREE-NOWS-NOT: mma_groups_in_flight
// THREE-NOWS-LABEL: tile.kernel @gemm_sp_kernel blocks

!g = memref<?x?xf16>
!s = memref<2x64x32xf16, #gpu.address_space<workgroup>>
!v = memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
!f = memref<64x32xf16, #tile.mem<fragment>>

// A tensor copy and a copy-engine copy fill each slot: full counts the
// tensor copy and the 128 threads of the copy-engine copy
// (engine_threads). The block's threads read the slot themselves (a copy to
// registers): each of the 128 releases it after its own reads (per_thread).
// CHECK-LABEL: func.func @threads_read
// CHECK: tile.pipe.create plan <full = 129, empty = 128, engine_threads = 128, per_thread> : <2>
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @threads_read(%A: !g, %n: index) {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %pipe = tile.pipe.create : <2>
      %a = tile.alloc : !s
      %b = tile.alloc : !s
      %f = tile.alloc : !f
      scf.for %k = %c0 to %n step %c1 {
        %slot = arith.remui %k, %c2 : index
        %va = memref.subview %a[%slot, 0, 0] [1, 64, 32] [1, 1, 1] : !s to !v
        %vb = memref.subview %b[%slot, 0, 0] [1, 64, 32] [1, 1, 1] : !s to !v
        tile.pipe.produce_acquire %pipe[%k] : <2>
        tile.copy async tma %A[%c0, %k], %va : !g to !v
        tile.copy async %A[%c0, %k], %vb : !g to !v
        tile.pipe.produce_commit %pipe[%k] : <2>
        tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
        tile.copy %va, %f : !v to !f
        tile.pipe.consume_release %pipe[%k] : <2>
      }
    }
    return
  }
}

// -----

!g = memref<?x?xf16>
!s = memref<2x64x32xf16, #gpu.address_space<workgroup>>
!v = memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
!f = memref<64x32xf16, #tile.mem<fragment>>

// Two consumer regions release the pipe: one arrival per warp of both (8).
// Regions that take the tiles in turn (tile.alternate_tiles) release the
// slots of their own tiles only: the warps of one region (4).
// CHECK-LABEL: func.func @two_regions
// CHECK: tile.pipe.create plan <full = 1, empty = 8> : <2>
// CHECK-LABEL: func.func @alternate
// CHECK: tile.pipe.create plan <full = 1, empty = 4> : <2>
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @two_regions(%A: !g, %n: index) {
    tile.kernel @k blocks(%bx) in [1] threads(384) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pipe = tile.pipe.create : <2>
      %a = tile.alloc : !s
      tile.ws [0] {
        scf.for %k = %c0 to %n step %c1 {
          %va = memref.subview %a[%k, 0, 0] [1, 64, 32] [1, 1, 1] : !s to !v
          tile.pipe.produce_acquire %pipe[%k] : <2>
          tile.copy async tma %A[%c0, %k], %va : !g to !v
          tile.pipe.produce_commit %pipe[%k] : <2>
        }
      }
      tile.ws [1] {
        scf.for %k = %c0 to %n step %c1 {
          tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
          tile.pipe.consume_release %pipe[%k] : <2>
        }
      }
      tile.ws [2] {
        scf.for %k = %c0 to %n step %c1 {
          tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
          tile.pipe.consume_release %pipe[%k] : <2>
        }
      }
    }
    return
  }
  func.func @alternate(%A: !g, %n: index) {
    tile.kernel @k blocks(%bx) in [1] threads(384) attributes {tile.alternate_tiles = true} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pipe = tile.pipe.create : <2>
      %a = tile.alloc : !s
      tile.ws [0] {
        scf.for %k = %c0 to %n step %c1 {
          %va = memref.subview %a[%k, 0, 0] [1, 64, 32] [1, 1, 1] : !s to !v
          tile.pipe.produce_acquire %pipe[%k] : <2>
          tile.copy async tma %A[%c0, %k], %va : !g to !v
          tile.pipe.produce_commit %pipe[%k] : <2>
        }
      }
      tile.ws [1] {
        scf.for %k = %c0 to %n step %c1 {
          tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
          tile.pipe.consume_release %pipe[%k] : <2>
        }
      }
      tile.ws [2] {
        scf.for %k = %c0 to %n step %c1 {
          tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
          tile.pipe.consume_release %pipe[%k] : <2>
        }
      }
    }
    return
  }
}

// -----

!g = memref<?x?xf16>
!s = memref<2x64x32xf16, #gpu.address_space<workgroup>>
!v = memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>

// A plan already written (by hand, or by an earlier run) is kept; a pipe of
// copy-engine copies only needs none.
// CHECK-LABEL: func.func @kept
// CHECK: tile.pipe.create plan <full = 1, empty = 2> : <2>
// CHECK: tile.pipe.create : <2>
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @kept(%A: !g, %n: index) {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pipe = tile.pipe.create plan <full = 1, empty = 2> : <2>
      %other = tile.pipe.create : <2>
      %a = tile.alloc : !s
      scf.for %k = %c0 to %n step %c1 {
        %va = memref.subview %a[%k, 0, 0] [1, 64, 32] [1, 1, 1] : !s to !v
        tile.pipe.produce_acquire %pipe[%k] : <2>
        tile.copy async tma %A[%c0, %k], %va : !g to !v
        tile.pipe.produce_commit %pipe[%k] : <2>
        tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
        tile.pipe.consume_release %pipe[%k] : <2>
        tile.pipe.produce_acquire %other[%k] : <2>
        tile.copy async %A[%c0, %k], %va : !g to !v
        tile.pipe.produce_commit %other[%k] : <2>
        tile.pipe.consume_wait %other[%k] in_flight(0) : <2>
        tile.pipe.consume_release %other[%k] : <2>
      }
    }
    return
  }
}

// -----

// Copy-engine pipes (no barriers, no plan). In @one_path, hand-off 1 is
// committed on one path only, so in_flight(1) could leave hand-off 0 in
// flight on the other: the wait's count becomes what is proved, 0. In
// @both_paths it is committed before the wait on every path: 1 stays.
// CHECK-LABEL: func.func @one_path
// CHECK: tile.pipe.create : <2>
// CHECK: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(0)
// CHECK-LABEL: func.func @both_paths
// CHECK: tile.pipe.consume_wait %{{.*}}[%{{.*}}] in_flight(1)
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @one_path(%c: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %p = tile.pipe.create : !tile.pipe<2>
      tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
      scf.if %c {
        tile.pipe.produce_acquire %p[%c1] : !tile.pipe<2>
        tile.pipe.produce_commit %p[%c1] : !tile.pipe<2>
      }
      tile.pipe.consume_wait %p[%c0] in_flight(1) : !tile.pipe<2>
      tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
    }
    return
  }
  func.func @both_paths() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.kernel @k2 blocks(%bx) in [1] threads(128) {
      %p = tile.pipe.create : !tile.pipe<2>
      tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
      tile.pipe.produce_acquire %p[%c1] : !tile.pipe<2>
      tile.pipe.produce_commit %p[%c1] : !tile.pipe<2>
      tile.pipe.consume_wait %p[%c0] in_flight(1) : !tile.pipe<2>
      tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
    }
    return
  }
}
