// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-allocate-shared -tile-lower-ops -verify-diagnostics

// What the barriers of a pipe of tensor copies count is tile-plan-pipes'
// decision, in the IR (the pipe's plan): lowering such a pipe without one
// is an error.
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @unplanned(%A: !g, %s: index) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %p = tile.pipe.create : !tile.pipe<2>
      %as = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : !sA
      tile.pipe.produce_acquire %p[%s] : !tile.pipe<2>
      // expected-error @below {{'tile.copy' op fills a pipe without a plan for its barriers: run tile-plan-pipes before tile-lower-ops}}
      tile.copy async tma %A[%c0, %c0], %as : !g to !sA
      tile.pipe.produce_commit %p[%s] : !tile.pipe<2>
    }
    return
  }
}

// -----

// A plan that releases across a cluster in a kernel without clusters.
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @cluster_plan_without_cluster(%A: !g, %s: index) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      // expected-error @below {{'tile.pipe.create' op plans releases across a cluster, but the kernel does not run in clusters}}
      %p = tile.pipe.create plan <full = 1, empty = 8, cluster> : !tile.pipe<2>
      %as = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : !sA
      tile.pipe.produce_acquire %p[%s] : !tile.pipe<2>
      tile.copy async tma %A[%c0, %c0], %as : !g to !sA
      tile.pipe.produce_commit %p[%s] : !tile.pipe<2>
    }
    return
  }
}

// -----

// A gemm left with MMA groups in flight (by hand) on an MMA that is not
// asynchronous.
!s = memref<64x32xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @in_flight_mma_sync() {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %a = tile.alloc : !s
      %b = tile.alloc : !s
      %c = tile.alloc : !f
      // expected-error @below {{'tile.gemm' op leaves MMA groups in flight or accumulates on a condition, which needs an asynchronous MMA; mma_sync is not one}}
      tile.gemm %a, %b, %c transpose_b {mma_groups_in_flight = 1 : i64} : !s, !s, !f
    }
    return
  }
}

// -----

// The shared tiles ops exchange data through are tile-allocate-scratch's,
// in the IR (the ops' scratch operands): a conversion between register
// layouts without one is an error.
!f = memref<128x128xf16, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @conversion_without_scratch() {
    tile.kernel @k blocks(%bx) in [1] threads(256) {
      %x = tile.alloc {layout = #tile.linear<[128, 128], register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[0, 64], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]]>} : !f
      %y = tile.alloc {layout = #tile.linear<[128, 128], register = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 64], [64, 0]]>} : !f
      // expected-error @below {{'tile.copy' op converts between register layouts through shared memory but has no scratch tile: run tile-allocate-scratch before tile-lower-ops}}
      tile.copy %x, %y : !f to !f
    }
    return
  }
}

// -----

// The same for a reduction across warps.
!f = memref<128x128xf16, #tile.mem<fragment>>
!r = memref<128xf16, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @reduce_without_scratch() {
    tile.kernel @k blocks(%bx) in [1] threads(256) {
      %x = tile.alloc {layout = #tile.linear<[128, 128], register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[0, 64], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]]>} : !f
      %r = tile.alloc : !r
      // expected-error @below {{'tile.reduce' op reduces across warps through shared memory but has no scratch tile: run tile-allocate-scratch before tile-lower-ops}}
      tile.reduce <sum> %x, %r dim 0 clear : !f to !r
    }
    return
  }
}

// -----

// A copy-engine wait that leaves more groups in flight than later
// hand-offs are proved committed (tile-plan-pipes would lower the count).
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @in_flight_unproved(%c: i1) {
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
      // expected-error @below {{'tile.pipe.consume_wait' op leaves 1 copy groups in flight, but only 0 later hand-offs are proved committed before it: the waited copies could still be in flight (tile-plan-pipes lowers the count)}}
      tile.pipe.consume_wait %p[%c0] in_flight(1) : !tile.pipe<2>
      tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
    }
    return
  }
}
