// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-allocate-scratch | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-allocate-scratch -tile-allocate-scratch | FileCheck %s

// The shared tiles ops exchange data through, allocated at the top of the
// kernel and passed as the ops' scratch operands. A copy between register
// tiles of different layouts: a row-major 128 x 128 tile (16-byte
// aligned). A reduction along dimension 0, which the layout spreads over
// warps (warp bases [32, 0] and [64, 0]): one element per thread (256) and
// register of the reduced layout (the 64 along dimension 1), 16384. A
// reduction along dimension 1, within warps, needs none. Ops with scratch keep it: running
// the pass twice allocates nothing more.

!g = memref<?x?xf16>
!f = memref<128x128xf16, #tile.mem<fragment>>
!r = memref<128xf16, #tile.mem<fragment>>

// CHECK-LABEL: func.func @conversion_and_reduce
// CHECK: tile.kernel
// CHECK-NEXT: %[[RED:.*]] = tile.alloc {alignment = 16 : i64, layout = #tile.shared<>} : memref<16384xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[CONV:.*]] = tile.alloc {alignment = 16 : i64, layout = #tile.shared<>} : memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: tile.alloc {{.*}}workgroup
// CHECK: tile.copy %{{.*}}, %{{.*}} scratch(%[[CONV]] : memref<128x128xf16, #gpu.address_space<workgroup>>) :
// CHECK: tile.reduce <sum> %{{.*}}, %{{.*}} dim 0 clear scratch(%[[RED]] : memref<16384xf16, #gpu.address_space<workgroup>>) :
// CHECK: tile.reduce <sum> %{{.*}}, %{{.*}} dim 1 clear :
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @conversion_and_reduce(%G: !g, %R: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %x = tile.alloc {layout = #tile.linear<[128, 128], register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[0, 64], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]]>} : !f
    %y = tile.alloc {layout = #tile.linear<[128, 128], register = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 64], [64, 0]]>} : !f
    %r0 = tile.alloc : !r
    %r1 = tile.alloc : !r
    tile.copy %G[%c0, %c0], %x : !g to !f
    tile.copy %x, %y : !f to !f
    tile.reduce <sum> %x, %r0 dim 0 clear : !f to !r
    tile.reduce <sum> %x, %r1 dim 1 clear : !f to !r
    tile.copy %r0, %R[%c0] : !r to memref<?xf16>
    tile.copy %r1, %R[%c0] : !r to memref<?xf16>
    tile.copy %y, %G[%c0, %c0] : !f to !g
  }
  return
}
}

// -----

// A tensor store of a 128 x 256 bf16 tile in two buffers
// (tile.tma_store = 2) of 128-byte panels: 128 x (2 x 64) elements, swizzled
// as the tensor map reads them (1024-byte aligned), after the kernel's
// tiles.

!g = memref<?x?xbf16>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @tensor_store
// CHECK: %[[ACC:.*]] = tile.alloc {layout = #tile.linear<{{.*}}>} : memref<128x256xf32, #tile.mem<fragment>>
// CHECK-NEXT: %[[STAGE:.*]] = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<128x128xbf16, #gpu.address_space<workgroup>>
// CHECK: tile.copy %[[ACC]], %{{.*}}[%{{.*}}, %{{.*}}] scratch(%[[STAGE]] : memref<128x128xbf16, #gpu.address_space<workgroup>>) {tile.tma_store = 2 : i64}
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @tensor_store(%C: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %acc = tile.alloc : !fC
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store = 2 : i64} : !fC to !g
  }
  return
}
}
