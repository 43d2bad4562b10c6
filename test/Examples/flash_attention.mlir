// The FlashAttention example parses, verifies and round-trips through the
// custom and the generic syntax, and fits the on-chip budget.
//
// RUN: tile-opt %examples/flash_attention.mlir | FileCheck %s
// RUN: tile-opt %examples/flash_attention.mlir | tile-opt | FileCheck %s
// RUN: tile-opt %examples/flash_attention.mlir --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %examples/flash_attention.mlir --mlir-print-op-generic \
// RUN:   | FileCheck %s --check-prefix=GENERIC
//
// Printing is a fixed point: custom -> custom and generic -> custom agree.
// RUN: tile-opt %examples/flash_attention.mlir > %t.custom.mlir
// RUN: tile-opt %t.custom.mlir > %t.again.mlir
// RUN: diff %t.custom.mlir %t.again.mlir
// RUN: tile-opt %examples/flash_attention.mlir --mlir-print-op-generic | tile-opt > %t.generic.mlir
// RUN: diff %t.custom.mlir %t.generic.mlir
//
// RUN: tile-opt %examples/flash_attention.mlir --tile-check-resources \
// RUN:   | FileCheck %s --check-prefix=RES

// CHECK-LABEL: func.func @flash_attention_fwd(
// CHECK-SAME:    %[[Q:[^:]*]]: memref<?x?x128xf16> {tile.shape = ["BH", "S", "128"]}, %[[K:[^:]*]]: memref<?x?x128xf16> {tile.shape = ["BH", "S", "128"]}, %[[V:[^:]*]]: memref<?x?x128xf16> {tile.shape = ["BH", "S", "128"]}, %[[O:[^:]*]]: memref<?x?x128xf16> {tile.shape = ["BH", "S", "128"]})
// CHECK:         tile.kernel @flash_attention_fwd_kernel blocks(%[[BX:.*]], %[[BH:.*]]) in [%{{.*}}, %{{.*}}] threads(256) {
// CHECK-DAG:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:       %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:       %[[QS:.*]] = tile.alloc : memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:       %[[ACC:.*]] = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
// CHECK-DAG:       %[[SCORES:.*]] = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
// CHECK-DAG:       %[[P:.*]] = tile.alloc : memref<128x64xf16, #tile.mem<fragment>>
// CHECK:           tile.copy %[[Q]][%[[BH]], %{{.*}}, %{{.*}}], %[[QS]] : memref<?x?x128xf16> to memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK:           tile.fill %[[ACC]], %[[ZERO]] : memref<128x128xf32, #tile.mem<fragment>>
// CHECK:           tile.fill %{{.*}}, %[[ZERO]] : memref<128xf32, #tile.mem<fragment>>
// CHECK:           tile.fill %[[M_NEW:.*]], %[[NEG_INF]] : memref<128xf32, #tile.mem<fragment>>
// CHECK:           scf.for
// CHECK:             tile.copy %[[K]][%[[BH]], %{{.*}}, %{{.*}}], %[[KS:.*]] : memref<?x?x128xf16> to memref<64x128xf16, #gpu.address_space<workgroup>>
// CHECK:             tile.copy %[[V]][%[[BH]], %{{.*}}, %{{.*}}], %[[VS:.*]] : memref<?x?x128xf16> to memref<64x128xf16, #gpu.address_space<workgroup>>
// CHECK:             tile.gemm %[[QS]], %[[KS]], %[[SCORES]] transpose_b clear_accum policy <full_row>
// CHECK:             %[[PAST:.*]] = arith.cmpi ugt, %{{.*}}, %{{.*}} : index
// CHECK:             scf.if %[[PAST]] {
// CHECK:               tile.parallel (%{{.*}}, %{{.*}}) in [128, 64] {
// CHECK:                 arith.select
// CHECK:               }
// CHECK:             }
// CHECK:             tile.copy %[[M_NEW]], %[[M_PREV:.*]] : memref<128xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
// CHECK:             tile.reduce <max> %[[SCORES]], %[[M_NEW]] dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
// CHECK:             tile.parallel (%{{.*}}) in [128] {
// CHECK:               math.exp2
// CHECK:             }
// CHECK:             tile.parallel (%{{.*}}, %{{.*}}) in [128, 64] {
// CHECK:               math.exp2
// CHECK:               arith.truncf %{{.*}} : f32 to f16
// CHECK:               memref.store %{{.*}}, %[[P]]
// CHECK:             }
// CHECK:             tile.reduce <sum> %[[SCORES]], %{{.*}} dim 1 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
// CHECK:             tile.parallel (%{{.*}}) in [128] {
// CHECK:             tile.parallel (%{{.*}}, %{{.*}}) in [128, 128] {
// CHECK:             tile.gemm %[[P]], %[[VS]], %[[ACC]] policy <full_row> : memref<128x64xf16, #tile.mem<fragment>>, memref<64x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
// CHECK:           } {tile.num_stages = 2 : i64}
// CHECK:           tile.parallel (%{{.*}}, %{{.*}}) in [128, 128] {
// CHECK:             arith.divf
// CHECK:           }
// CHECK:           tile.copy %[[ACC]], %[[O]][%[[BH]], %{{.*}}, %{{.*}}] : memref<128x128xf32, #tile.mem<fragment>> to memref<?x?x128xf16>
// CHECK:         }
// CHECK:         return

// GENERIC:     "tile.kernel"(
// GENERIC-SAME:  sym_name = "flash_attention_fwd_kernel"
// GENERIC-SAME:  threads = 256 : i64
// GENERIC:     "tile.gemm"(
// GENERIC-SAME:  clear_accum
// GENERIC-SAME:  policy = #tile.warp_policy<full_row>
// GENERIC-SAME:  transpose_b
// GENERIC:     "tile.parallel"() <{extents = array<i64: 128, 64>}>
// GENERIC:     "tile.reduce"(
// GENERIC-SAME:  dim = 1 : i64
// GENERIC-SAME:  kind = #tile.reduce_kind<max>
// GENERIC:     "tile.reduce"(
// GENERIC-SAME:  clear
// GENERIC-SAME:  kind = #tile.reduce_kind<sum>
// GENERIC:     {tile.num_stages = 2 : i64}

// RES: tile.kernel @flash_attention_fwd_kernel
// RES-SAME: tile.fragment_registers = 115 : i64
// RES-SAME: tile.shared_memory_bytes = 65536 : i64
