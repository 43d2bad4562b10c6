// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared 2>/dev/null | FileCheck %s --check-prefix=PLACE
// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-allocate-shared 2>/dev/null | FileCheck %s --check-prefix=PLACE
//
// tile-allocate-shared writes each shared tile's byte offset (prefix PLACE, the
// decision in the IR); tile-lower-ops places the views there.
//
// A fragment -> fragment copy between layouts goes through a scratch tile
// in shared memory. When the kernel would not fit the chip's shared memory
// (64 KiB of LDS on gfx942) with it, the scratch borrows the storage of a
// shared tile whose contents are dead during the copy; when none is, the
// kernel is rejected with the numbers instead of compiling to a kernel that
// cannot launch.

!g = memref<?x?xf16>
!s = memref<128x128xf16, #gpu.address_space<workgroup>>
!f = memref<128x128xf16, #tile.mem<fragment>>

// %b is fully rewritten at the start of each iteration and only read before
// the conversion: the 32 KiB scratch sits at %b's offset (32768), and the
// kernel needs 64 KiB instead of 96.
// PLACE-LABEL: func.func @reuse
// PLACE: tile.alloc {{{.*}}offset = 32768 : i64} : memref<128x128xf16, #gpu.address_space<workgroup>>
// PLACE: tile.alloc {{{.*}}offset = 0 : i64{{.*}}} : memref<128x128xf16, #gpu.address_space<workgroup>>
// PLACE: tile.alloc {{{.*}}offset = 32768 : i64{{.*}}} : memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @reuse
// CHECK: tile.kernel {{.*}} attributes {tile.shared_memory_bytes = 65536 : i64}
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK: memref.view %[[SMEM]][%c32768{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]][%c32768{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.view
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @reuse(%G: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !s
    %b = tile.alloc : !s
    %x = tile.alloc {layout = #tile.linear<[128, 128], register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[0, 64], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]]>} : !f
    %y = tile.alloc {layout = #tile.linear<[128, 128], register = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 64], [64, 0]]>} : !f
    tile.copy %G[%c0, %c0], %a : !g to !s
    scf.for %i = %c0 to %n step %c1 {
      tile.copy %G[%i, %c0], %b : !g to !s
      tile.copy %b, %x : !s to !f
      tile.copy %x, %y : !f to !f
      tile.copy %y, %G[%i, %c0] : !f to !g
    }
    tile.copy %a, %x : !s to !f
    tile.copy %x, %G[%c0, %c0] : !f to !g
  }
  return
}
}

// -----

!g = memref<?x?xf16>
!s = memref<128x128xf16, #gpu.address_space<workgroup>>
!f = memref<128x128xf16, #tile.mem<fragment>>

// %b is read again after the conversion: no tile is dead there.
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @no_room(%G: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'tile.kernel' op needs 98304 bytes of shared memory once lowered (32768 of them scratch tiles for layout conversions and cross-warp reductions), more than the 65536 a block has on gfx942}}
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !s
    %b = tile.alloc : !s
    %x = tile.alloc {layout = #tile.linear<[128, 128], register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[0, 64], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]]>} : !f
    %y = tile.alloc {layout = #tile.linear<[128, 128], register = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 64], [64, 0]]>} : !f
    tile.copy %G[%c0, %c0], %a : !g to !s
    scf.for %i = %c0 to %n step %c1 {
      tile.copy %G[%i, %c0], %b : !g to !s
      tile.copy %b, %x : !s to !f
      tile.copy %x, %y : !f to !f
      tile.copy %b, %x : !s to !f
      tile.copy %y, %G[%i, %c0] : !f to !g
    }
    tile.copy %a, %x : !s to !f
    tile.copy %x, %G[%c0, %c0] : !f to !g
  }
  return
}
}

// -----

// Without pressure (sm_90a: 227 KiB), tiles lie one after the other in
// program order at their alignment (the swizzled operand at 1024 bytes).
// A kernel whose tiles all have an offset keeps the user's placement.
!s8 = memref<8x8xf16, #gpu.address_space<workgroup>>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
// PLACE-LABEL: func.func @sequential
// PLACE: tile.alloc {{{.*}}offset = 0 : i64} : memref<8x8xf16
// PLACE: tile.alloc {alignment = 1024 : i64, {{.*}}offset = 1024 : i64} : memref<128x64xf16
// PLACE: tile.alloc {{{.*}}offset = 17408 : i64} : memref<8x8xf16
// CHECK-LABEL: func.func @sequential
// CHECK: memref.view %{{.*}}[%c0{{.*}}][]
// CHECK: memref.view %{{.*}}[%c1024{{.*}}][]
// CHECK: memref.view %{{.*}}[%c17408{{.*}}][]
// PLACE-LABEL: func.func @pinned
// PLACE: tile.alloc {{{.*}}offset = 4096 : i64} : memref<8x8xf16
// PLACE: tile.alloc {{{.*}}offset = 0 : i64} : memref<8x8xf16
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @sequential() {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %a = tile.alloc : !s8
      %b = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : !sA
      %c = tile.alloc : !s8
    }
    return
  }
  func.func @pinned() {
    tile.kernel @k2 blocks(%bx) in [1] threads(128) {
      %a = tile.alloc {offset = 4096 : i64} : !s8
      %b = tile.alloc {offset = 0 : i64} : !s8
    }
    return
  }
}
