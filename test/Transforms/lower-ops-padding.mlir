// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops | FileCheck %s

// A copy's padding: out-of-bounds elements read as the padding instead of
// zero. Register tiles: the masked element loads yield the padding (here
// -inf, converted f16 -> f32 on the way); interior tiles keep the unmasked
// vector loads.

!g = memref<?x?xf16>
!f = memref<4x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @register_padding
// CHECK: scf.if
// CHECK: vector.load %{{.*}} : memref<?x?xf16>, vector<4xf16>
// CHECK: } else {
// CHECK: %[[V:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK: memref.load %{{.*}} : memref<?x?xf16>
// CHECK: arith.extf
// CHECK: } else {
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: scf.yield %[[NEG]] : f32
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @register_padding(%X: !g, %Y: !g, %r: index) {
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %c0 = arith.constant 0 : index
      %x = tile.alloc : !f
      tile.copy %X[%r, %c0], %x padding(0xFF800000 : f32) : !g to !f
      tile.copy %x, %Y[%r, %c0] : !f to !g
    }
    return
  }
}

// -----

// Asynchronous copies in a pipelined loop: chunks inside the tensor (with
// aligned rows) are whole 16-byte cp.async copies; chunks crossing its
// edge move element by element through registers, the padding where an
// element is outside, never a cp.async with a source size (which would
// fill with zero).

!g = memref<?x?xf16>
!s = memref<64x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf16, #tile.mem<fragment>>

// CHECK-LABEL: func.func @async_padding
// CHECK: scf.for
// The interior tile: unmasked cp.async.
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}[%{{.*}}], 8 {bypassL1}
// CHECK: } else {
// An edge tile: cp.async for whole chunks, registers for the rest.
// CHECK: scf.if
// CHECK-NEXT: nvgpu.device_async_copy %{{.*}}, %{{.*}}[%{{.*}}], 8 {bypassL1}
// CHECK-NEXT: } else {
// CHECK: scf.if %{{.*}} -> (f16) {
// CHECK: memref.load %{{.*}} : memref<?x?xf16>
// CHECK: } else {
// CHECK: %[[SEVEN:.*]] = arith.constant 7.000000e+00 : f16
// CHECK: scf.yield %[[SEVEN]] : f16
// CHECK: memref.store %{{.*}} : memref<8192xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.device_async_copy %{{.*}}, %{{.*}}[%{{.*}}], 8, %
// CHECK: nvvm.cp.async.commit.group
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @async_padding(%X: !g, %Y: !g, %r: index, %n: index) {
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %s = tile.alloc : !s
      %f = tile.alloc : !f
      scf.for %k = %c0 to %n step %c1 {
        %k0 = arith.muli %k, %c64 : index
        tile.copy %X[%r, %k0], %s padding(7.0 : f16) : !g to !s
        tile.copy %s, %f : !s to !f
        tile.copy %f, %Y[%r, %k0] : !f to !g
      } {tile.num_stages = 2 : i64}
    }
    return
  }
}

// -----

// A padding of +0.0 is the default: the edge path keeps cp.async's zero
// fill (a source size below 16 bytes).

!g = memref<?x?xf16>
!s = memref<64x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf16, #tile.mem<fragment>>

// CHECK-LABEL: func.func @zero_padding
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}[%{{.*}}], 8, %{{.*}} {bypassL1}
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @zero_padding(%X: !g, %Y: !g, %r: index, %n: index) {
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %s = tile.alloc : !s
      %f = tile.alloc : !f
      scf.for %k = %c0 to %n step %c1 {
        %k0 = arith.muli %k, %c64 : index
        tile.copy %X[%r, %k0], %s padding(0.0 : f16) : !g to !s
        tile.copy %s, %f : !s to !f
        tile.copy %f, %Y[%r, %k0] : !f to !g
      } {tile.num_stages = 2 : i64}
    }
    return
  }
}

// -----

// Targets without a copy engine (gfx942): the copy goes through registers,
// the padding where an element is outside.

!g = memref<?x?xf16>
!s = memref<64x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf16, #tile.mem<fragment>>

// CHECK-LABEL: func.func @amd_padding
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: vector.load %{{.*}} : memref<?x?xf16>, vector<8xf16>
// CHECK: %[[M1:.*]] = arith.constant -1.000000e+00 : f16
// CHECK: scf.yield %[[M1]] : f16
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @amd_padding(%X: !g, %Y: !g, %r: index, %n: index) {
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %s = tile.alloc : !s
      %f = tile.alloc : !f
      scf.for %k = %c0 to %n step %c1 {
        %k0 = arith.muli %k, %c64 : index
        tile.copy %X[%r, %k0], %s padding(-1.0 : f16) : !g to !s
        tile.copy %s, %f : !s to !f
        tile.copy %f, %Y[%r, %k0] : !f to !g
      } {tile.num_stages = 2 : i64}
    }
    return
  }
}
