// RUN: tile-opt %s -split-input-file -tile-hand-off-copies=remarks=true -verify-diagnostics | FileCheck %s

// A pipelined kernel's one-time copies into shared tiles are handed off
// through one-slot pipes: acquired and committed where they were, waited
// for right before the first op reading the tile (here: Q and the first
// keys together before the first gemm, the last values only before the
// gemm after the loop).

!g = memref<?x?xf16>
!s = memref<64x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @edge_copies
// CHECK: tile.kernel
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[PV:.*]] = tile.pipe.create : <1>
// CHECK-DAG: %[[PQK:.*]] = tile.pipe.create : <1>
// CHECK: tile.pipe.produce_acquire %[[PQK]][%[[C0]]] : <1>
// CHECK-NEXT: tile.copy async %{{.*}}, %[[Q:[0-9]+]] : memref<?x?xf16> to
// CHECK-NEXT: tile.fill
// CHECK-NEXT: tile.copy async %{{.*}}, %[[K:[0-9]+]] : memref<?x?xf16> to
// CHECK-NEXT: tile.pipe.produce_commit %[[PQK]][%[[C0]]] : <1>
// CHECK-NEXT: tile.pipe.produce_acquire %[[PV]][%[[C0]]] : <1>
// CHECK-NEXT: tile.copy async %{{.*}}, %[[V:[0-9]+]] : memref<?x?xf16> to
// CHECK-NEXT: tile.pipe.produce_commit %[[PV]][%[[C0]]] : <1>
// CHECK-NEXT: tile.pipe.consume_wait %[[PQK]][%[[C0]]] in_flight(0) : <1>
// CHECK-NEXT: tile.gemm %[[Q]], %[[K]]
// CHECK: scf.for
// CHECK: tile.pipe.consume_wait %[[PV]][%[[C0]]] in_flight(0) : <1>
// CHECK-NEXT: scf.if
// CHECK-NEXT: tile.gemm %{{.*}}, %[[V]]
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @edge_copies(%A: !g, %n: index, %ok: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %p = tile.pipe.create : <2>
      %q = tile.alloc : !s
      %k = tile.alloc : !s
      %v = tile.alloc : !s
      %acc = tile.alloc : !f
      // expected-remark @below {{loaded asynchronously, waited for before its tile's first reader}}
      tile.copy %A[%c0, %c0], %q : !g to !s
      tile.fill %acc, %zero : !f
      // expected-remark @below {{loaded asynchronously, waited for before its tile's first reader}}
      tile.copy %A[%bx, %c0], %k : !g to !s
      // expected-remark @below {{loaded asynchronously, waited for before its tile's first reader}}
      tile.copy %A[%n, %c0], %v : !g to !s
      tile.gemm %q, %k, %acc transpose_b : !s, !s, !f
      scf.for %i = %c0 to %n step %c1 {
        tile.gemm %q, %q, %acc : !s, !s, !f
      }
      scf.if %ok {
        tile.gemm %q, %v, %acc : !s, !s, !f
      }
    }
    return
  }
}

// -----

!g = memref<?x?xf16>
!s = memref<64x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>

// Kept synchronous: a copy marked tile.hand_off = false, a tile written
// twice, a tile read before its copy, a copy into a view of a tile, and a
// copy inside a loop.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: tile.pipe.create : <1>
// CHECK-NOT: tile.copy async
// CHECK: return
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @kept(%A: !g, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %p = tile.pipe.create : <2>
      %a = tile.alloc : !s
      %b = tile.alloc : !s
      %c = tile.alloc : !s
      %d = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
      %e = tile.alloc : !s
      %acc = tile.alloc : !f
      tile.copy %A[%c0, %c0], %a {tile.hand_off = false} : !g to !s
      tile.copy %A[%c0, %c0], %b : !g to !s
      tile.copy %A[%bx, %c0], %b : !g to !s
      tile.gemm %c, %c, %acc : !s, !s, !f
      tile.copy %A[%c0, %c0], %c : !g to !s
      %view = memref.subview %d[0, 0] [64, 64] [1, 1] : memref<128x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      tile.copy %A[%c0, %c0], %view : !g to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      scf.for %i = %c0 to %n step %c1 {
        tile.copy %A[%i, %c0], %e : !g to !s
        tile.gemm %e, %e, %acc : !s, !s, !f
      }
      tile.gemm %a, %b, %acc : !s, !s, !f
      tile.gemm %view, %view, %acc : memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>, memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>, !f
    }
    return
  }
}

// -----

!g = memref<?x?xf16>
!s = memref<64x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>

// Kept: no tensor copies on sm_80, and a kernel without a pipelined loop.
// CHECK-LABEL: func.func @no_tensor_copies
// CHECK-NOT: tile.copy async
// CHECK-LABEL: func.func @not_pipelined
// CHECK-NOT: tile.copy async
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @no_tensor_copies(%A: !g) {
    %c0 = arith.constant 0 : index
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %p = tile.pipe.create : <2>
      %a = tile.alloc : !s
      %acc = tile.alloc : !f
      tile.copy %A[%c0, %c0], %a : !g to !s
      tile.gemm %a, %a, %acc : !s, !s, !f
    }
    return
  }
}
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @not_pipelined(%A: !g) {
    %c0 = arith.constant 0 : index
    tile.kernel @k2 blocks(%bx) in [4] threads(128) {
      %a = tile.alloc : !s
      %acc = tile.alloc : !f
      tile.copy %A[%c0, %c0], %a : !g to !s
      tile.gemm %a, %a, %acc : !s, !s, !f
    }
    return
  }
}

// -----

!g = memref<?x?xf16>
!s = memref<64x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>

// In a persistent kernel's loop over tiles (inside its test that the tile
// is in the grid) the copies run once per tile: the hand-off is numbered
// from the pipe's base, the slot released after the tile's last reader
// and the base advanced by one per tile. A gemm that leaves its MMAs in
// flight must be followed by `tile.mma_wait 0` before the release.
// CHECK-LABEL: func.func @per_tile
// CHECK: %[[P:.*]] = tile.pipe.create : <1>
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NEXT: %[[B:.*]] = tile.pipe.base %[[P]] : <1>
// CHECK: tile.pipe.produce_acquire %[[P]][%[[B]]] : <1>
// CHECK-NEXT: tile.copy async
// CHECK-NEXT: tile.pipe.produce_commit %[[P]][%[[B]]] : <1>
// CHECK-NEXT: tile.pipe.consume_wait %[[P]][%[[B]]] in_flight(0) : <1>
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: tile.mma_wait 0
// CHECK-NEXT: tile.pipe.consume_release %[[P]][%[[B]]] : <1>
// CHECK: tile.pipe.advance %[[P]] by %{{.*}} : <1>
// CHECK-NEXT: }
// CHECK-NOT: tile.copy async
// CHECK: } {tile.tile_loop}
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @per_tile(%A: !g, %n: index, %t: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %p = tile.pipe.create : <2>
      %a = tile.alloc : !s
      %b = tile.alloc : !s
      %acc = tile.alloc : !f
      scf.for %i = %c0 to %n step %c1 {
        %in = arith.cmpi ult, %i, %t : index
        scf.if %in {
          // expected-remark @below {{loaded asynchronously, waited for before its tile's first reader}}
          tile.copy %A[%i, %c0], %a : !g to !s
          tile.gemm %a, %a, %acc {mma_groups_in_flight = 1 : i64} : !s, !s, !f
          tile.mma_wait 0
          // Left synchronous: its gemm's MMAs may still read it when the
          // tile ends.
          tile.copy %A[%i, %c0], %b : !g to !s
          tile.gemm %b, %b, %acc {mma_groups_in_flight = 1 : i64} : !s, !s, !f
        }
      } {tile.tile_loop}
    }
    return
  }
}
