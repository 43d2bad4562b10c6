// The GEMM example parses, verifies and round-trips through the custom and
// the generic syntax, and fits the on-chip budget.
//
// RUN: tile-opt %examples/gemm.mlir | FileCheck %s
// RUN: tile-opt %examples/gemm.mlir | tile-opt | FileCheck %s
// RUN: tile-opt %examples/gemm.mlir --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %examples/gemm.mlir --mlir-print-op-generic \
// RUN:   | FileCheck %s --check-prefix=GENERIC
//
// Printing is a fixed point: custom -> custom and generic -> custom agree.
// RUN: tile-opt %examples/gemm.mlir > %t.custom.mlir
// RUN: tile-opt %t.custom.mlir > %t.again.mlir
// RUN: diff %t.custom.mlir %t.again.mlir
// RUN: tile-opt %examples/gemm.mlir --mlir-print-op-generic | tile-opt > %t.generic.mlir
// RUN: diff %t.custom.mlir %t.generic.mlir
//
// RUN: tile-opt %examples/gemm.mlir --tile-check-resources \
// RUN:   | FileCheck %s --check-prefix=RES

// CHECK-LABEL: func.func @gemm(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf16> {tile.shape = ["M", "K"]}, %[[B:.*]]: memref<?x?xf16> {tile.shape = ["K", "N"]}, %[[C:.*]]: memref<?x?xf16> {tile.shape = ["M", "N"]})
// CHECK:         tile.kernel @gemm_kernel blocks(%[[BX:.*]], %[[BY:.*]]) in [%{{.*}}, %{{.*}}] threads(128) {
// CHECK-DAG:       %[[AS:.*]] = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:       %[[BS:.*]] = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:       %[[ACC:.*]] = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
// CHECK:           tile.fill %[[ACC]], %{{.*}} : memref<128x128xf32, #tile.mem<fragment>>
// CHECK:           scf.for
// CHECK:             tile.copy %[[A]][%{{.*}}, %{{.*}}], %[[AS]] : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
// CHECK:             tile.copy %[[B]][%{{.*}}, %{{.*}}], %[[BS]] : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
// CHECK:             tile.gemm %[[AS]], %[[BS]], %[[ACC]] : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
// CHECK:           } {tile.num_stages = 4 : i64}
// CHECK:           tile.copy %[[ACC]], %[[C]][%{{.*}}, %{{.*}}] : memref<128x128xf32, #tile.mem<fragment>> to memref<?x?xf16>
// CHECK:         }
// CHECK:         return

// GENERIC:     "tile.kernel"(
// GENERIC-SAME:  static_grid = array<i64: -9223372036854775808, -9223372036854775808>
// GENERIC-SAME:  sym_name = "gemm_kernel"
// GENERIC-SAME:  threads = 128 : i64
// GENERIC:     "tile.alloc"() : () -> memref<128x32xf16, #gpu.address_space<workgroup>>
// GENERIC:     "tile.fill"(
// GENERIC:     "scf.for"(
// GENERIC:     "tile.copy"(
// GENERIC-SAME:  operandSegmentSizes = array<i32: 1, 2, 1, 0>
// GENERIC:     "tile.gemm"(
// GENERIC-SAME:  policy = #tile.warp_policy<square>
// GENERIC:     {tile.num_stages = 4 : i64}
// GENERIC:     "tile.copy"(
// GENERIC-SAME:  operandSegmentSizes = array<i32: 1, 0, 1, 2>
// GENERIC:     "tile.yield"() : () -> ()

// RES: tile.kernel @gemm_kernel
// RES-SAME: tile.fragment_registers = 128 : i64
// RES-SAME: tile.shared_memory_bytes = 16384 : i64
