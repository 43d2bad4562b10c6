// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// Round-trip tests of every tile op and attribute, with all optional syntax.

!gA = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fA = memref<128x32xf16, #tile.mem<fragment>>
!lA = memref<128x32xf16, #tile.mem<local>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @attributes()
// CHECK-SAME: kind = #tile.reduce_kind<abs_max>
// CHECK-SAME: local = #tile.mem<local>
// CHECK-SAME: mem = #tile.mem<fragment>
// CHECK-SAME: policy = #tile.warp_policy<full_row>
func.func @attributes() attributes {
    mem = #tile.mem<fragment>, local = #tile.mem<local>,
    policy = #tile.warp_policy<full_row>,
    kind = #tile.reduce_kind<abs_max>} {
  return
}

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @kernel_static_1d()
func.func @kernel_static_1d() {
  // CHECK: tile.kernel @k1d blocks(%{{.*}}) in [4] threads(32) {
  // CHECK-NEXT: }
  tile.kernel @k1d blocks(%bx) in [4] threads(32) {
  }
  return
}

// CHECK-LABEL: func.func @kernel_static_3d()
func.func @kernel_static_3d() {
  // CHECK: tile.kernel @k3d blocks(%{{.*}}, %{{.*}}, %{{.*}}) in [2, 3, 4] threads(1024) {
  tile.kernel @k3d blocks(%bx, %by, %bz) in [2, 3, 4] threads(1024) {
  }
  return
}

// CHECK-LABEL: func.func @kernel_dynamic(
// CHECK-SAME: %[[GX:[a-z0-9_]+]]: index, %[[GY:[a-z0-9_]+]]: index, %[[GZ:[a-z0-9_]+]]: index
func.func @kernel_dynamic(%gx: index, %gy: index, %gz: index) {
  // Mixed static and dynamic extents.
  // CHECK: tile.kernel @mixed blocks(%{{.*}}, %{{.*}}) in [%[[GX]], 8] threads(256) {
  tile.kernel @mixed blocks(%bx, %by) in [%gx, 8] threads(256) {
  }
  // CHECK: tile.kernel @dyn3d blocks(%{{.*}}, %{{.*}}, %{{.*}}) in [%[[GX]], %[[GY]], %[[GZ]]] threads(128) {
  tile.kernel @dyn3d blocks(%bx, %by, %bz) in [%gx, %gy, %gz] threads(128) {
  }
  // Attributes, including the resource annotations of tile-check-resources.
  // CHECK: tile.kernel @annotated blocks(%{{.*}}) in [1] threads(128) attributes {foo = "bar", tile.fragment_registers = 16 : i64, tile.shared_memory_bytes = 32768 : i64} {
  tile.kernel @annotated blocks(%bx) in [1] threads(128) attributes {
      foo = "bar", tile.shared_memory_bytes = 32768 : i64,
      tile.fragment_registers = 16 : i64} {
  }
  return
}

// The block indices are usable in the body.
// CHECK-LABEL: func.func @kernel_block_indices(
func.func @kernel_block_indices(%A: !gA) {
  // CHECK: tile.kernel @body blocks(%[[BX:.*]], %[[BY:.*]]) in [4, 4] threads(128) {
  tile.kernel @body blocks(%bx, %by) in [4, 4] threads(128) {
    // CHECK: %[[S:.*]] = tile.alloc
    %s = tile.alloc : !sA
    // CHECK: tile.copy %{{.*}}[%[[BY]], %[[BX]]], %[[S]]
    tile.copy %A[%by, %bx], %s : !gA to !sA
  }
  return
}

//===----------------------------------------------------------------------===//
// tile.ws
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @ws()
func.func @ws() {
  tile.kernel @ws blocks(%bx) in [1] threads(384) {
    // CHECK: tile.ws [0] registers(40) {
    tile.ws [0] registers(40) {
    }
    // CHECK: tile.ws [1, 2] registers(232) attributes {foo} {
    tile.ws [1, 2] registers(232) attributes {foo} {
    }
    // Warpgroups taking turns at the MMAs.
    // CHECK: tile.ws [1, 2] registers(232) pingpong {
    tile.ws [1, 2] registers(232) pingpong {
    }
    // CHECK: tile.ws [0, 1, 2] pingpong attributes {foo} {
    tile.ws [0, 1, 2] pingpong attributes {foo} {
    }
    // CHECK: tile.ws [0, 2] {
    // CHECK: %[[S:.*]] = tile.alloc
    // CHECK: tile.fill %[[S]]
    tile.ws [0, 2] {
      %s = tile.alloc : !sA
      %zero = arith.constant 0.0 : f16
      tile.fill %s, %zero : !sA
    }
    // Bounds of the register budget.
    // CHECK: tile.ws [1] registers(24) {
    tile.ws [1] registers(24) {
    }
    // CHECK: tile.ws [2] registers(256) {
    tile.ws [2] registers(256) {
    }
  }
  return
}

//===----------------------------------------------------------------------===//
// tile.alloc
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @alloc()
func.func @alloc() {
  tile.kernel @alloc blocks(%bx) in [1] threads(128) {
    // CHECK: tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %s = tile.alloc : !sA
    // CHECK: tile.alloc {alignment = 128 : i64} : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %s2 = tile.alloc {alignment = 128 : i64} : memref<64x64xbf16, #gpu.address_space<workgroup>>
    // CHECK: tile.alloc {alignment = 1 : i64} : memref<3x128x32xf8E4M3FN, #gpu.address_space<workgroup>>
    %s3 = tile.alloc {alignment = 1 : i64} : memref<3x128x32xf8E4M3FN, #gpu.address_space<workgroup>>
    // CHECK: tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    %f = tile.alloc : !fC
    // CHECK: tile.alloc : memref<128xi32, #tile.mem<fragment>>
    %f1 = tile.alloc : memref<128xi32, #tile.mem<fragment>>
    // CHECK: tile.alloc : memref<8xf32, #tile.mem<local>>
    %l = tile.alloc : memref<8xf32, #tile.mem<local>>
    // `#gpu.address_space<private>` is a local tile too.
    // CHECK: tile.alloc : memref<8xi8, #gpu.address_space<private>>
    %p = tile.alloc : memref<8xi8, #gpu.address_space<private>>
    // CHECK: tile.alloc {foo} : memref<16xi1, #tile.mem<local>>
    %b = tile.alloc {foo} : memref<16xi1, #tile.mem<local>>
  }
  return
}

// Explicit layouts: memory layouts on shared tiles, distributed layouts on
// fragments.
// CHECK-LABEL: func.func @alloc_layouts()
func.func @alloc_layouts() {
  tile.kernel @alloc_layouts blocks(%bx) in [1] threads(128) {
    // CHECK: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<128x64xf16, #gpu.address_space<workgroup>>
    %sw = tile.alloc {layout = #tile.shared<swizzle = 128>, alignment = 1024 : i64}
        : memref<128x64xf16, #gpu.address_space<workgroup>>
    // A swizzle of 8-byte units repeats every 16 x 64 bytes.
    // CHECK: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 64, unit = 8>} : memref<128x32xf16, #gpu.address_space<workgroup>>
    %sw8 = tile.alloc {layout = #tile.shared<swizzle = 64, unit = 8>, alignment = 1024 : i64}
        : memref<128x32xf16, #gpu.address_space<workgroup>>
    // The default 16-byte alignment suffices for a padded layout.
    // CHECK: tile.alloc {layout = #tile.shared<pad = 16>} : memref<128x32xf16, #gpu.address_space<workgroup>>
    %pad = tile.alloc {layout = #tile.shared<pad = 16>}
        : memref<128x32xf16, #gpu.address_space<workgroup>>
    // CHECK: tile.alloc {layout = #tile.linear<[16, 8], register = {{\[}}[0, 1], [8, 0]], lane = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} : memref<16x8xf32, #tile.mem<fragment>>
    %frag = tile.alloc {layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]],
                          lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>}
        : memref<16x8xf32, #tile.mem<fragment>>
  }
  return
}

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @copy_directions(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<?x?xf16>, %[[G:[a-z0-9_]+]]: memref<128x32xf16>, %[[M:[a-z0-9_]+]]: index, %[[K:[a-z0-9_]+]]: index
func.func @copy_directions(%A: !gA, %G: memref<128x32xf16>, %m: index, %k: index) {
  tile.kernel @copy blocks(%bx) in [1] threads(128) {
    // CHECK: %[[S:.*]] = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // CHECK: %[[F:.*]] = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // CHECK: %[[L:.*]] = tile.alloc : memref<128x32xf16, #tile.mem<local>>
    %s = tile.alloc : !sA
    %f = tile.alloc : !fA
    %l = tile.alloc : !lA

    // Global <-> on chip, with offsets on the global side.
    // CHECK: tile.copy %[[A]][%[[M]], %[[K]]], %[[S]] : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %A[%m, %k], %s : !gA to !sA
    // CHECK: tile.copy %[[S]], %[[A]][%[[M]], %[[K]]] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
    tile.copy %s, %A[%m, %k] : !sA to !gA
    // CHECK: tile.copy %[[A]][%[[M]], %[[K]]], %[[F]] : memref<?x?xf16> to memref<128x32xf16, #tile.mem<fragment>>
    tile.copy %A[%m, %k], %f : !gA to !fA
    // CHECK: tile.copy %[[F]], %[[A]][%[[M]], %[[K]]] : memref<128x32xf16, #tile.mem<fragment>> to memref<?x?xf16>
    tile.copy %f, %A[%m, %k] : !fA to !gA
    // CHECK: tile.copy %[[A]][%[[M]], %[[K]]], %[[L]] : memref<?x?xf16> to memref<128x32xf16, #tile.mem<local>>
    tile.copy %A[%m, %k], %l : !gA to !lA
    // CHECK: tile.copy %[[L]], %[[A]][%[[M]], %[[K]]] : memref<128x32xf16, #tile.mem<local>> to memref<?x?xf16>
    tile.copy %l, %A[%m, %k] : !lA to !gA

    // Out-of-bounds elements read as the padding (-inf, 1.5 in f16).
    // CHECK: tile.copy %[[A]][%[[M]], %[[K]]], %[[F]] padding(0xFC00 : f16) : memref<?x?xf16> to memref<128x32xf16, #tile.mem<fragment>>
    tile.copy %A[%m, %k], %f padding(0xFC00 : f16) : !gA to !fA
    // CHECK: tile.copy async %[[A]][%[[M]], %[[K]]], %[[S]] padding(1.500000e+00 : f16) : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy async %A[%m, %k], %s padding(1.5 : f16) : !gA to !sA

    // Global <-> on chip without offsets: same static shape.
    // CHECK: tile.copy %[[G]], %[[S]] : memref<128x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %G, %s : memref<128x32xf16> to !sA
    // CHECK: tile.copy %[[F]], %[[G]] : memref<128x32xf16, #tile.mem<fragment>> to memref<128x32xf16>
    tile.copy %f, %G : !fA to memref<128x32xf16>

    // On chip <-> on chip.
    // CHECK: tile.copy %[[S]], %[[F]] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    tile.copy %s, %f : !sA to !fA
    // CHECK: tile.copy %[[F]], %[[S]] : memref<128x32xf16, #tile.mem<fragment>> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %f, %s : !fA to !sA
    // CHECK: tile.copy %[[S]], %[[L]] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<local>>
    tile.copy %s, %l : !sA to !lA
    // CHECK: tile.copy %[[L]], %[[S]] : memref<128x32xf16, #tile.mem<local>> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %l, %s : !lA to !sA
    // CHECK: tile.copy %[[F]], %[[L]] : memref<128x32xf16, #tile.mem<fragment>> to memref<128x32xf16, #tile.mem<local>>
    tile.copy %f, %l : !fA to !lA
    // CHECK: tile.copy %[[L]], %[[F]] : memref<128x32xf16, #tile.mem<local>> to memref<128x32xf16, #tile.mem<fragment>>
    tile.copy %l, %f : !lA to !fA
    // CHECK: tile.copy %[[S]], %[[S]] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %s, %s : !sA to !sA
  }
  return
}

// CHECK-LABEL: func.func @copy_rank_and_type(
// CHECK-SAME: %[[A3:[a-z0-9_]+]]: memref<?x?x?xf16>, %[[AG:[a-z0-9_]+]]: memref<?x?xf32, #gpu.address_space<global>>, %[[I:[a-z0-9_]+]]: memref<?x?xi8>, %[[B:[a-z0-9_]+]]: index, %[[M:[a-z0-9_]+]]: index, %[[K:[a-z0-9_]+]]: index
func.func @copy_rank_and_type(%A3: memref<?x?x?xf16>,
                              %AG: memref<?x?xf32, #gpu.address_space<global>>,
                              %I: memref<?x?xi8>, %b: index, %m: index,
                              %k: index) {
  tile.kernel @copy2 blocks(%bx) in [1] threads(128) {
    // CHECK: %[[S:.*]] = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // CHECK: %[[F:.*]] = tile.alloc : memref<128x32xf32, #tile.mem<fragment>>
    // CHECK: %[[L:.*]] = tile.alloc : memref<32xf16, #tile.mem<local>>
    %s = tile.alloc : !sA
    %f = tile.alloc : memref<128x32xf32, #tile.mem<fragment>>
    %l = tile.alloc : memref<32xf16, #tile.mem<local>>

    // Rank-changing copies: a 1x128x32 region of a 3-D tensor.
    // CHECK: tile.copy %[[A3]][%[[B]], %[[M]], %[[K]]], %[[S]] : memref<?x?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %A3[%b, %m, %k], %s : memref<?x?x?xf16> to !sA
    // CHECK: tile.copy %[[S]], %[[A3]][%[[B]], %[[M]], %[[K]]] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<?x?x?xf16>
    tile.copy %s, %A3[%b, %m, %k] : !sA to memref<?x?x?xf16>
    // A 1x1x32 region into a rank-1 local array.
    // CHECK: tile.copy %[[A3]][%[[B]], %[[M]], %[[K]]], %[[L]] : memref<?x?x?xf16> to memref<32xf16, #tile.mem<local>>
    tile.copy %A3[%b, %m, %k], %l : memref<?x?x?xf16> to memref<32xf16, #tile.mem<local>>

    // Element type conversions (f32 -> f16, i8 -> f32, f16 -> f32).
    // CHECK: tile.copy %[[F]], %[[A3]][%[[B]], %[[M]], %[[K]]] : memref<128x32xf32, #tile.mem<fragment>> to memref<?x?x?xf16>
    tile.copy %f, %A3[%b, %m, %k] : memref<128x32xf32, #tile.mem<fragment>> to memref<?x?x?xf16>
    // CHECK: tile.copy %[[I]][%[[M]], %[[K]]], %[[F]] : memref<?x?xi8> to memref<128x32xf32, #tile.mem<fragment>>
    tile.copy %I[%m, %k], %f : memref<?x?xi8> to memref<128x32xf32, #tile.mem<fragment>>
    // CHECK: tile.copy %[[S]], %[[F]] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf32, #tile.mem<fragment>>
    tile.copy %s, %f : !sA to memref<128x32xf32, #tile.mem<fragment>>

    // An explicit global memory space, and a discardable attribute.
    // CHECK: tile.copy %[[F]], %[[AG]][%[[M]], %[[K]]] {foo} : memref<128x32xf32, #tile.mem<fragment>> to memref<?x?xf32, #gpu.address_space<global>>
    tile.copy %f, %AG[%m, %k] {foo} : memref<128x32xf32, #tile.mem<fragment>> to memref<?x?xf32, #gpu.address_space<global>>
  }
  return
}

// Operands that are subviews of a multi-buffered shared tile.
// CHECK-LABEL: func.func @copy_subview(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<?x?xf16>, %[[M:[a-z0-9_]+]]: index, %[[K:[a-z0-9_]+]]: index, %[[I:[a-z0-9_]+]]: index
func.func @copy_subview(%A: !gA, %m: index, %k: index, %i: index) {
  tile.kernel @copy3 blocks(%bx) in [1] threads(128) {
    // CHECK: %[[ST:.*]] = tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
    // CHECK: %[[F:.*]] = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    %st = tile.alloc : memref<3x128x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc : !fA
    // CHECK: %[[SV:.*]] = memref.subview %[[ST]][%[[I]], 0, 0] [1, 128, 32] [1, 1, 1]
    %sv = memref.subview %st[%i, 0, 0] [1, 128, 32] [1, 1, 1]
        : memref<3x128x32xf16, #gpu.address_space<workgroup>>
          to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    // CHECK: tile.copy %[[A]][%[[M]], %[[K]]], %[[SV]] : memref<?x?xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %A[%m, %k], %sv
        : !gA to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    // CHECK: tile.copy %[[SV]], %[[F]] : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
    tile.copy %sv, %f
        : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to !fA
  }
  return
}

//===----------------------------------------------------------------------===//
// tile.gemm
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @gemm_f16()
func.func @gemm_f16() {
  tile.kernel @gemm blocks(%bx) in [1] threads(128) {
    // CHECK: %[[A:.*]] = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // CHECK: %[[B:.*]] = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    // CHECK: %[[C:.*]] = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // CHECK: %[[C16:.*]] = tile.alloc : memref<128x128xf16, #tile.mem<fragment>>
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    %c16 = tile.alloc : memref<128x128xf16, #tile.mem<fragment>>

    // The default policy (square) is elided.
    // CHECK: tile.gemm %[[A]], %[[B]], %[[C]] : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %a, %b, %c : !sA, !sB, !fC
    // CHECK: tile.gemm %[[A]], %[[B]], %[[C]] : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %a, %b, %c policy <square> : !sA, !sB, !fC
    // CHECK: tile.gemm %[[A]], %[[B]], %[[C]] policy <full_row> : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %a, %b, %c policy <full_row> : !sA, !sB, !fC
    // CHECK: tile.gemm %[[A]], %[[B]], %[[C]] policy <full_col> : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %a, %b, %c policy <full_col> : !sA, !sB, !fC
    // CHECK: tile.gemm %[[A]], %[[B]], %[[C]] clear_accum : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %a, %b, %c clear_accum : !sA, !sB, !fC
    // A conversion's scratch tile.
    // CHECK: %[[S:.*]] = tile.alloc : memref<128x128xf32, #gpu.address_space<workgroup>>
    // CHECK: tile.copy %[[C]], %[[C]] scratch(%[[S]] : memref<128x128xf32, #gpu.address_space<workgroup>>) : memref<128x128xf32, #tile.mem<fragment>> to memref<128x128xf32, #tile.mem<fragment>>
    %scratch = tile.alloc : memref<128x128xf32, #gpu.address_space<workgroup>>
    tile.copy %c, %c scratch(%scratch : memref<128x128xf32, #gpu.address_space<workgroup>>) : !fC to !fC
    // Accumulation on a condition, with MMA groups left in flight.
    // CHECK: %[[P:.*]] = arith.constant true
    // CHECK: tile.gemm %[[A]], %[[B]], %[[C]] accumulate(%[[P]]) {mma_groups_in_flight = 1 : i64} : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    %accumulate = arith.constant true
    tile.gemm %a, %b, %c accumulate(%accumulate) {mma_groups_in_flight = 1 : i64} : !sA, !sB, !fC
    // Promotion deferred by one gemm: partial sums kept in flight.
    // CHECK: %[[PART:.*]] = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // CHECK: tile.gemm %[[A]], %[[B]], %[[C]] accumulate(%[[P]]) partials(%[[PART]] : memref<128x128xf32, #tile.mem<fragment>>) {mma_groups_in_flight = 1 : i64, promote_k = 32 : i64} : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    %partials = tile.alloc : !fC
    tile.gemm %a, %b, %c accumulate(%accumulate) partials(%partials : !fC) {mma_groups_in_flight = 1 : i64, promote_k = 32 : i64} : !sA, !sB, !fC
    // An f16 accumulator.
    // CHECK: tile.gemm %[[A]], %[[B]], %[[C16]] {foo} : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf16, #tile.mem<fragment>>
    tile.gemm %a, %b, %c16 {foo} : !sA, !sB, memref<128x128xf16, #tile.mem<fragment>>

    // Transposed operands: A is K x M, B is N x K.
    // CHECK: tile.gemm %[[B]], %[[B]], %[[C]] transpose_a : memref<32x128xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %b, %b, %c transpose_a : !sB, !sB, !fC
    // CHECK: tile.gemm %[[A]], %[[A]], %[[C]] transpose_b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<128x32xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %a, %a, %c transpose_b : !sA, !sA, !fC
    // CHECK: tile.gemm %[[B]], %[[A]], %[[C]] transpose_a transpose_b clear_accum policy <full_col> : memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x32xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %b, %a, %c transpose_a transpose_b clear_accum policy <full_col>
        : !sB, !sA, !fC
  }
  return
}

// CHECK-LABEL: func.func @gemm_fragment_operands()
func.func @gemm_fragment_operands() {
  tile.kernel @gemm_frag blocks(%bx) in [1] threads(256) {
    // CHECK: %[[AF:.*]] = tile.alloc : memref<64x64xf16, #tile.mem<fragment>>
    // CHECK: %[[BS:.*]] = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    // CHECK: %[[BF:.*]] = tile.alloc : memref<64x64xf16, #tile.mem<fragment>>
    // CHECK: %[[C:.*]] = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %af = tile.alloc : memref<64x64xf16, #tile.mem<fragment>>
    %bs = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %bf = tile.alloc : memref<64x64xf16, #tile.mem<fragment>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // A fragment A operand with a (transposed) shared B operand.
    // CHECK: tile.gemm %[[AF]], %[[BS]], %[[C]] transpose_b clear_accum : memref<64x64xf16, #tile.mem<fragment>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
    tile.gemm %af, %bs, %c transpose_b clear_accum
        : memref<64x64xf16, #tile.mem<fragment>>,
          memref<64x64xf16, #gpu.address_space<workgroup>>,
          memref<64x64xf32, #tile.mem<fragment>>
    // Both operands in fragments.
    // CHECK: tile.gemm %[[AF]], %[[BF]], %[[C]] : memref<64x64xf16, #tile.mem<fragment>>, memref<64x64xf16, #tile.mem<fragment>>, memref<64x64xf32, #tile.mem<fragment>>
    tile.gemm %af, %bf, %c
        : memref<64x64xf16, #tile.mem<fragment>>,
          memref<64x64xf16, #tile.mem<fragment>>,
          memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// CHECK-LABEL: func.func @gemm_element_types()
func.func @gemm_element_types() {
  tile.kernel @gemm_types blocks(%bx) in [1] threads(128) {
    %bf16 = tile.alloc : memref<64x32xbf16, #gpu.address_space<workgroup>>
    %f32 = tile.alloc : memref<64x32xf32, #gpu.address_space<workgroup>>
    %i8 = tile.alloc : memref<64x32xi8, #gpu.address_space<workgroup>>
    %e4m3 = tile.alloc : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>
    %e5m2 = tile.alloc : memref<64x32xf8E5M2, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %acci = tile.alloc : memref<64x64xi32, #tile.mem<fragment>>
    // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} transpose_b : memref<64x32xbf16, #gpu.address_space<workgroup>>, memref<64x32xbf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
    tile.gemm %bf16, %bf16, %acc transpose_b
        : memref<64x32xbf16, #gpu.address_space<workgroup>>,
          memref<64x32xbf16, #gpu.address_space<workgroup>>,
          memref<64x64xf32, #tile.mem<fragment>>
    // f32 inputs (computed as tf32).
    // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} transpose_b : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
    tile.gemm %f32, %f32, %acc transpose_b
        : memref<64x32xf32, #gpu.address_space<workgroup>>,
          memref<64x32xf32, #gpu.address_space<workgroup>>,
          memref<64x64xf32, #tile.mem<fragment>>
    // i8 inputs, i32 accumulator.
    // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} transpose_b : memref<64x32xi8, #gpu.address_space<workgroup>>, memref<64x32xi8, #gpu.address_space<workgroup>>, memref<64x64xi32, #tile.mem<fragment>>
    tile.gemm %i8, %i8, %acci transpose_b
        : memref<64x32xi8, #gpu.address_space<workgroup>>,
          memref<64x32xi8, #gpu.address_space<workgroup>>,
          memref<64x64xi32, #tile.mem<fragment>>
    // fp8 inputs, including mixed e4m3 x e5m2.
    // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} transpose_b : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
    tile.gemm %e4m3, %e4m3, %acc transpose_b
        : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>,
          memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>,
          memref<64x64xf32, #tile.mem<fragment>>
    // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} transpose_b policy <full_row> : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x32xf8E5M2, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
    tile.gemm %e4m3, %e5m2, %acc transpose_b policy <full_row>
        : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>,
          memref<64x32xf8E5M2, #gpu.address_space<workgroup>>,
          memref<64x64xf32, #tile.mem<fragment>>
    // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} transpose_b : memref<64x32xf8E5M2, #gpu.address_space<workgroup>>, memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
    tile.gemm %e5m2, %e4m3, %acc transpose_b
        : memref<64x32xf8E5M2, #gpu.address_space<workgroup>>,
          memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>,
          memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// Gemm operands that are stages of multi-buffered shared tiles.
// CHECK-LABEL: func.func @gemm_subview(
func.func @gemm_subview(%i: index) {
  tile.kernel @gemm_sv blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<2x32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : !fC
    %a = memref.subview %as[%i, 0, 0] [1, 128, 32] [1, 1, 1]
        : memref<2x128x32xf16, #gpu.address_space<workgroup>>
          to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %b = memref.subview %bs[%i, 0, 0] [1, 32, 128] [1, 1, 1]
        : memref<2x32x128xf16, #gpu.address_space<workgroup>>
          to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
    // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %a, %b, %c
        : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>,
          memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>,
          !fC
  }
  return
}

//===----------------------------------------------------------------------===//
// tile.fill
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @fill()
func.func @fill() {
  tile.kernel @fill blocks(%bx) in [1] threads(128) {
    // CHECK: %[[S:.*]] = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // CHECK: %[[F:.*]] = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // CHECK: %[[L:.*]] = tile.alloc : memref<4xi32, #tile.mem<local>>
    %s = tile.alloc : !sA
    %f = tile.alloc : !fC
    %l = tile.alloc : memref<4xi32, #tile.mem<local>>
    // CHECK: %[[H:.*]] = arith.constant 0.000000e+00 : f16
    // CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
    // CHECK: %[[NEG:.*]] = arith.constant -1 : i32
    %h = arith.constant 0.0 : f16
    %z = arith.constant 0.0 : f32
    %neg = arith.constant -1 : i32
    // CHECK: tile.fill %[[S]], %[[H]] : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.fill %s, %h : !sA
    // CHECK: tile.fill %[[F]], %[[Z]] {foo} : memref<128x128xf32, #tile.mem<fragment>>
    tile.fill %f, %z {foo} : !fC
    // CHECK: tile.fill %[[L]], %[[NEG]] : memref<4xi32, #tile.mem<local>>
    tile.fill %l, %neg : memref<4xi32, #tile.mem<local>>
  }
  return
}

//===----------------------------------------------------------------------===//
// tile.parallel
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @parallel()
func.func @parallel() {
  tile.kernel @par blocks(%bx) in [1] threads(128) {
    // CHECK: %[[S:.*]] = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    // CHECK: %[[M:.*]] = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %m = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    // CHECK: tile.parallel (%[[I:.*]]) in [128] {
    // CHECK-NEXT: }
    tile.parallel (%i) in [128] {
    }
    // CHECK: tile.parallel (%[[I:.*]], %[[J:.*]]) in [128, 64] {
    // CHECK-NEXT: %[[V:.*]] = memref.load %[[S]][%[[I]], %[[J]]] : memref<128x64xf32, #tile.mem<fragment>>
    // CHECK-NEXT: %[[MX:.*]] = memref.load %[[M]][%[[I]]] : memref<128xf32, #tile.mem<fragment>>
    // CHECK-NEXT: %[[D:.*]] = arith.subf %[[V]], %[[MX]] : f32
    // CHECK-NEXT: %[[E:.*]] = math.exp2 %[[D]] : f32
    // CHECK-NEXT: memref.store %[[E]], %[[S]][%[[I]], %[[J]]] : memref<128x64xf32, #tile.mem<fragment>>
    // CHECK-NEXT: }
    tile.parallel (%i, %j) in [128, 64] {
      %v = memref.load %s[%i, %j] : memref<128x64xf32, #tile.mem<fragment>>
      %mx = memref.load %m[%i] : memref<128xf32, #tile.mem<fragment>>
      %d = arith.subf %v, %mx : f32
      %e = math.exp2 %d : f32
      memref.store %e, %s[%i, %j] : memref<128x64xf32, #tile.mem<fragment>>
    }
    // CHECK: tile.parallel (%{{.*}}, %{{.*}}, %{{.*}}) in [2, 4, 8] attributes {foo} {
    tile.parallel (%i, %j, %k) in [2, 4, 8] attributes {foo} {
    }
    // A distributed layout of the iteration space (padded to powers of two).
    // CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [16, 6] attributes {layout = #tile.linear<[16, 8], register = {{\[}}[0, 1], [8, 0]], lane = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} {
    tile.parallel (%i, %j) in [16, 6] attributes {
        layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]],
                              lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} {
    }
  }
  return
}

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce()
func.func @reduce() {
  tile.kernel @red blocks(%bx) in [1] threads(128) {
    // CHECK: %[[S:.*]] = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    // CHECK: %[[R:.*]] = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    // CHECK: %[[C:.*]] = tile.alloc : memref<64xf32, #tile.mem<fragment>>
    // CHECK: %[[K:.*]] = tile.alloc : memref<128x1xf32, #tile.mem<fragment>>
    // CHECK: %[[L:.*]] = tile.alloc : memref<128xf32, #tile.mem<local>>
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    %c = tile.alloc : memref<64xf32, #tile.mem<fragment>>
    %k = tile.alloc : memref<128x1xf32, #tile.mem<fragment>>
    %l = tile.alloc : memref<128xf32, #tile.mem<local>>
    // Every kind, with and without `clear`.
    // CHECK: tile.reduce <sum> %[[S]], %[[R]] dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    tile.reduce <sum> %s, %r dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    // CHECK: tile.reduce <max> %[[S]], %[[R]] dim 1 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    tile.reduce <max> %s, %r dim 1 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    // CHECK: tile.reduce <min> %[[S]], %[[R]] dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    tile.reduce <min> %s, %r dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    // CHECK: tile.reduce <abs_sum> %[[S]], %[[R]] dim 1 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    tile.reduce <abs_sum> %s, %r dim 1 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    // CHECK: tile.reduce <abs_max> %[[S]], %[[R]] dim 1 {foo} : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    tile.reduce <abs_max> %s, %r dim 1 {foo} : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
    // Along dimension 0.
    // CHECK: tile.reduce <sum> %[[S]], %[[C]] dim 0 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<64xf32, #tile.mem<fragment>>
    tile.reduce <sum> %s, %c dim 0 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<64xf32, #tile.mem<fragment>>
    // Keeping the reduced dimension with size 1.
    // CHECK: tile.reduce <max> %[[S]], %[[K]] dim 1 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<128x1xf32, #tile.mem<fragment>>
    tile.reduce <max> %s, %k dim 1 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<128x1xf32, #tile.mem<fragment>>
    // Into a local array.
    // CHECK: tile.reduce <sum> %[[S]], %[[L]] dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<local>>
    tile.reduce <sum> %s, %l dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<local>>
  }
  return
}

// CHECK-LABEL: func.func @reduce_to_scalar()
func.func @reduce_to_scalar() {
  tile.kernel @red_scalar blocks(%bx) in [1] threads(128) {
    %v = tile.alloc : memref<32xi32, #tile.mem<local>>
    %one = tile.alloc : memref<1xi32, #tile.mem<local>>
    %scalar = memref.alloca() : memref<i32, #tile.mem<local>>
    // A rank-1 source reduces into a [1] tile or a rank-0 buffer.
    // CHECK: tile.reduce <max> %{{.*}}, %{{.*}} dim 0 clear : memref<32xi32, #tile.mem<local>> to memref<1xi32, #tile.mem<local>>
    tile.reduce <max> %v, %one dim 0 clear : memref<32xi32, #tile.mem<local>> to memref<1xi32, #tile.mem<local>>
    // CHECK: tile.reduce <abs_sum> %{{.*}}, %{{.*}} dim 0 : memref<32xi32, #tile.mem<local>> to memref<i32, #tile.mem<local>>
    tile.reduce <abs_sum> %v, %scalar dim 0 : memref<32xi32, #tile.mem<local>> to memref<i32, #tile.mem<local>>
  }
  return
}

//===----------------------------------------------------------------------===//
// Pipelined scf.for loops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @pipelined_loop(
func.func @pipelined_loop(%A: !gA, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @pipe blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    // Only the number of stages.
    // CHECK: scf.for
    // CHECK: } {tile.num_stages = 3 : i64}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : !gA to !sA
      tile.copy %B[%k0, %c0], %bs : !gA to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    // An explicit schedule: stage and emission order of each body op.
    // CHECK: scf.for
    // CHECK: } {tile.num_stages = 2 : i64, tile.order = array<i64: 1, 0, 2, 3>, tile.stage = array<i64: 0, 0, 0, 1>}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : !gA to !sA
      tile.copy %B[%k0, %c0], %bs : !gA to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64, tile.stage = array<i64: 0, 0, 0, 1>,
       tile.order = array<i64: 1, 0, 2, 3>}
    // No pipelining (0 stages); stages are then all 0.
    // CHECK: scf.for
    // CHECK: } {tile.num_stages = 0 : i64, tile.stage = array<i64: 0>}
    scf.for %k = %c0 to %kt step %c1 {
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 0 : i64, tile.stage = array<i64: 0>}
  }
  return
}

//===----------------------------------------------------------------------===//
// Asynchronous MMAs: tile.gemm {mma_groups_in_flight}, tile.mma_wait
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @mma_wait(
func.func @mma_wait() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // CHECK: tile.mma_wait 1{{$}}
    tile.mma_wait 1
    // CHECK-NEXT: tile.mma_wait 0 {foo}
    tile.mma_wait 0 {foo}
  }
  return
}

//===----------------------------------------------------------------------===//
// Asynchronous copies: tile.copy async, tile.async_commit, tile.async_wait
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @async_copies(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<?x?xf16>, %[[M:[a-z0-9_]+]]: index, %[[K:[a-z0-9_]+]]: index
func.func @async_copies(%A: !gA, %m: index, %k: index) {
  tile.kernel @async blocks(%bx) in [1] threads(128) {
    // CHECK: %[[S:.*]] = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %s = tile.alloc : !sA
    // CHECK-NEXT: tile.copy async %[[A]][%[[M]], %[[K]]], %[[S]] : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy async %A[%m, %k], %s : !gA to !sA
    // CHECK-NEXT: tile.copy async in_bounds %[[A]][%[[M]], %[[K]]], %[[S]] : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy async in_bounds %A[%m, %k], %s : !gA to !sA
    // CHECK-NEXT: tile.copy in_bounds %[[S]], %[[A]][%[[M]], %[[K]]] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
    tile.copy in_bounds %s, %A[%m, %k] : !sA to !gA
    // CHECK-NEXT: tile.async_commit{{$}}
    tile.async_commit
    // CHECK-NEXT: tile.async_wait 2{{$}}
    tile.async_wait 2
    // CHECK-NEXT: tile.async_wait 0 {foo}
    tile.async_wait 0 {foo}
  }
  return
}

//===----------------------------------------------------------------------===//
// Synchronization: tile.barrier, the stage hand-off (tile.pipe.*), targets
// and MMA choices
//===----------------------------------------------------------------------===//

// CHECK-LABEL: module attributes {tile.target = #tile.target<"sm_80", "+ptx70">}
module attributes {tile.target = #tile.target<"sm_80", "+ptx70">} {
// CHECK-LABEL: func.func @sync(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<?x?xf16>, %[[I:[a-z0-9_]+]]: index
func.func @sync(%A: !gA, %i: index) {
  // CHECK: tile.kernel @sync {{.*}} attributes {tile.target = #tile.target<"sm_90a">}
  tile.kernel @sync blocks(%bx) in [1] threads(256) attributes {tile.target = #tile.target<"sm_90a">} {
    // The pipe type prints without its dialect prefix on tile ops.
    // CHECK: %[[P:.*]] = tile.pipe.create : <3>
    %p = tile.pipe.create : !tile.pipe<3>
    // A plan for the barriers of a pipe of tensor copies; defaults elided.
    // CHECK: tile.pipe.create plan <full = 2, empty = 8> : <3>
    // CHECK: tile.pipe.create plan <full = 129, empty = 256, engine_threads = 128, per_thread, deferred, cluster> : <2>
    %planned = tile.pipe.create plan <full = 2, empty = 8> : !tile.pipe<3>
    %all = tile.pipe.create plan <full = 129, empty = 256, cluster, engine_threads = 128, deferred, per_thread> : !tile.pipe<2>
    %s = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // CHECK: tile.barrier{{$}}
    tile.barrier
    // CHECK-NEXT: tile.pipe.produce_acquire %[[P]][%[[I]]] : <3>
    tile.pipe.produce_acquire %p[%i] : !tile.pipe<3>
    // CHECK-NEXT: tile.copy async
    tile.copy async %A[%i, %i], %s : !gA to !sA
    // CHECK-NEXT: tile.pipe.produce_commit %[[P]][%[[I]]] : <3>
    tile.pipe.produce_commit %p[%i] : !tile.pipe<3>
    // CHECK-NEXT: tile.pipe.consume_wait %[[P]][%[[I]]] in_flight(2) : <3>
    tile.pipe.consume_wait %p[%i] in_flight(2) : !tile.pipe<3>
    // CHECK-NEXT: tile.gemm {{.*}} {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [4, 2]>}
    tile.gemm %s, %b, %c {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [4, 2]>} : !sA, !sB, !fC
    // CHECK-NEXT: tile.pipe.consume_release %[[P]][%[[I]]] : <3>
    tile.pipe.consume_release %p[%i] : !tile.pipe<3>
    // CHECK-NEXT: %[[BASE:.*]] = tile.pipe.base %[[P]] : <3>
    %base = tile.pipe.base %p : !tile.pipe<3>
    // CHECK-NEXT: tile.pipe.advance %[[P]] by %[[BASE]] : <3>
    tile.pipe.advance %p by %base : !tile.pipe<3>
    // CHECK-NEXT: %{{.*}}, %{{.*}} = tile.ring_position %[[I]] from %[[BASE]] mod 3
    %slot, %wraps = tile.ring_position %i from %base mod 3
    // CHECK-NEXT: %{{.*}}, %{{.*}} = tile.ring_position %[[I]] mod 5
    %slot2, %wraps2 = tile.ring_position %i mod 5
    tile.ws [1] {
      // CHECK: tile.barrier {foo}
      tile.barrier {foo}
    }
  }
  return
}
}
