// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_blockwise_128x256.mlir --tile-attach-target=chip=sm_90a --tile-fuse-consumer | FileCheck %s --check-prefix=WIDE
// RUN: tile-opt %s -split-input-file --tile-attach-target=chip=sm_90a --tile-fuse-consumer="remarks=true" -verify-diagnostics | FileCheck %s

// The block-scaled GEMM at 128 x 256: the K block's product goes to the
// scaling tile.parallel in halves of 128 columns; the scale copy and loads
// between them now run before the gemm.
// WIDE-LABEL: tile.kernel @fp8_gemm_blockwise_kernel
// WIDE: scf.for
// WIDE: tile.copy %{{.*}} to memref<128xf32, #tile.mem<fragment>>
// WIDE: memref.load %arg3
// WIDE: memref.load %arg3
// WIDE-NEXT: tile.gemm {{.*}} clear_accum {consumer_chunk = 128 : i64}
// WIDE-NEXT: tile.parallel

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<256x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
!fR = memref<128xf32, #tile.mem<fragment>>
!gS = memref<?xf32>

// 128 registers a thread of product, read element by element: fused, the
// load between them moved before the gemm.
// CHECK-LABEL: func.func @fused
// CHECK: %[[S:.*]] = memref.load
// CHECK-NEXT: tile.gemm {{.*}} clear_accum {consumer_chunk = 128 : i64}
// CHECK-NEXT: tile.parallel
func.func @fused(%s: !gS) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product consumed 128 columns at a time by the tile.parallel that follows}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    %scale = memref.load %s[%c0] : !gS
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = math.fma %p, %scale, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<128x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// 64 registers a thread: held at once, as written.
// CHECK-LABEL: func.func @small
// CHECK-NOT: consumer_chunk
func.func @small() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product not consumed in chunks: its product takes 64 registers a thread, few enough to hold at once}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    tile.parallel (%i, %j) in [128, 128] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<256x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// The consumer reads the product at another element (a transpose): every
// chunk would need the others.
// CHECK-LABEL: func.func @other_element
// CHECK-NOT: consumer_chunk
func.func @other_element() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product not consumed in chunks: the tile.parallel reads the accumulator at other elements than its own}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    tile.parallel (%i, %j) in [128, 256] {
      %c0 = arith.constant 0 : index
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %c0] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<256x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
!gC = memref<?x?xf32>

// The product is also stored: not the consumer's alone.
// CHECK-LABEL: func.func @other_user
// CHECK-NOT: consumer_chunk
func.func @other_user(%C: !gC) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product not consumed in chunks: its accumulator has users other than one tile.parallel's loads}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
    tile.copy %part, %C[%c0, %c0] : !fC to !gC
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<256x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
!gA = memref<?x?xf16>

// A copy into the gemm's own operand sits between them: it cannot run
// before the gemm.
// CHECK-LABEL: func.func @blocked
// CHECK-NOT: consumer_chunk
func.func @blocked(%A: !gA) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product not consumed in chunks: 'tile.copy' between them cannot move before the gemm}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    tile.copy %A[%c0, %c0], %a : !gA to !sA
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sE = memref<128x4xi16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// A 2:4-sparse gemm (sparse) of the fused case's size: left as written.
// CHECK-LABEL: func.func @sparse
// CHECK-NOT: consumer_chunk
func.func @sparse() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %e = tile.alloc : !sE
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    tile.gemm %a, %b, %part sparse(%e : !sE) clear_accum : !sA, !sB, !fC
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}
