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
//
// One source for every target: the compiler's decisions, written in the IR.
// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=sm_90a \
// RUN:   --tile-launch-order --tile-pipeline-planning --tile-inject-pipeline \
// RUN:   --tile-layout-inference --tile-select-tma --tile-warp-specialize \
// RUN:   | FileCheck %s --check-prefix=SM90
// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=sm_80 \
// RUN:   --tile-pipeline-planning --mlir-print-op-on-diagnostic=false 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=gfx942 \
// RUN:   --tile-pipeline-planning --mlir-print-op-on-diagnostic=false 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GFX942
// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=gfx942 \
// RUN:   --tile-pipeline-planning --tile-register-prefetch 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=GFX942-PREFETCH
// An exact count is still an error where it does not fit.
// RUN: sed 's/{tile.num_stages = 4 : i64}/{tile.exact_stages, tile.num_stages = 4 : i64}/' %examples/gemm.mlir \
// RUN:   | not tile-opt --tile-attach-target=chip=sm_80 --tile-pipeline-planning \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXACT
// The overrides: no launch groups, no producer warpgroup.
// RUN: sed 's/threads(256) {/threads(256) attributes {tile.launch_group = 1 : i64, tile.warp_specialize = false} {/' %examples/gemm.mlir \
// RUN:   | tile-opt --tile-attach-target=chip=sm_90a --tile-launch-order \
// RUN:   --tile-pipeline-planning --tile-inject-pipeline --tile-layout-inference \
// RUN:   --tile-select-tma --tile-warp-specialize 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OVERRIDE

// CHECK-LABEL: func.func @gemm(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf16> {tile.shape = ["M", "K"]}, %[[B:.*]]: memref<?x?xf16> {tile.shape = ["K", "N"]}, %[[C:.*]]: memref<?x?xf16> {tile.shape = ["M", "N"]})
// CHECK:         tile.kernel @gemm_kernel blocks(%[[BX:.*]], %[[BY:.*]]) in [%{{.*}}, %{{.*}}] threads(256) {
// CHECK-DAG:       %[[AS:.*]] = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:       %[[BS:.*]] = tile.alloc : memref<64x256xf16, #gpu.address_space<workgroup>>
// CHECK-DAG:       %[[ACC:.*]] = tile.alloc : memref<128x256xf32, #tile.mem<fragment>>
// CHECK:           tile.fill %[[ACC]], %{{.*}} : memref<128x256xf32, #tile.mem<fragment>>
// CHECK:           scf.for
// CHECK:             tile.copy %[[A]][%{{.*}}, %{{.*}}], %[[AS]] : memref<?x?xf16> to memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK:             tile.copy %[[B]][%{{.*}}, %{{.*}}], %[[BS]] : memref<?x?xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
// CHECK:             tile.gemm %[[AS]], %[[BS]], %[[ACC]] : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<128x256xf32, #tile.mem<fragment>>
// CHECK:           } {tile.num_stages = 4 : i64}
// CHECK:           tile.copy %[[ACC]], %[[C]][%{{.*}}, %{{.*}}] : memref<128x256xf32, #tile.mem<fragment>> to memref<?x?xf16>
// CHECK:         }
// CHECK:         return

// GENERIC:     "tile.kernel"(
// GENERIC-SAME:  static_grid = array<i64: -9223372036854775808, -9223372036854775808>
// GENERIC-SAME:  sym_name = "gemm_kernel"
// GENERIC-SAME:  threads = 256 : i64
// GENERIC:     "tile.alloc"() : () -> memref<128x64xf16, #gpu.address_space<workgroup>>
// GENERIC:     "tile.fill"(
// GENERIC:     "scf.for"(
// GENERIC:     "tile.copy"(
// GENERIC-SAME:  operandSegmentSizes = array<i32: 1, 2, 1, 0, 0>
// GENERIC:     "tile.gemm"(
// GENERIC-SAME:  policy = #tile.warp_policy<square>
// GENERIC:     {tile.num_stages = 4 : i64}
// GENERIC:     "tile.copy"(
// GENERIC-SAME:  operandSegmentSizes = array<i32: 1, 0, 1, 2, 0>
// GENERIC:     "tile.yield"() : () -> ()

// RES: tile.kernel @gemm_kernel
// RES-SAME: tile.fragment_registers = 128 : i64
// RES-SAME: tile.shared_memory_bytes = 49152 : i64

// sm_90a: launched in groups of 8 grid rows, 4 stages, and the TMA version
// of the kernel split into a producer warpgroup and two consumers.
// SM90: tile.kernel @gemm_kernel_tma {{.*}} threads(384) attributes {tile.launch_group = 8 : i64} {
// SM90: tile.pipe.create : <4>
// SM90: tile.ws [2] registers(40) {
// SM90: tile.ws [0, 1] registers(232) {

// sm_80: 163 KiB of shared memory hold 3 of the 4 stages asked for.
// SM80: warning: num_stages = 4 needs 196608 bytes of shared memory but at most 166912 are available: lowered with num_stages = 3, the largest count that fits (tile.exact_stages makes this an error)
// SM80-NOT: warning
// SM80: tile.num_stages = 3 : i64

// CDNA's 64 KiB of LDS hold one stage of these tiles; the next iteration's
// tiles (48 KiB: 192 bytes per thread) wait in registers instead, loaded
// while the current one computes.
// GFX942: warning: num_stages = 4 needs 196608 bytes of shared memory but at most 65536 are available: lowered with one buffer (num_stages = 1), the next iteration's tiles loaded ahead into registers (tile.register_prefetch)
// GFX942-NOT: warning
// GFX942: tile.num_stages = 1 : i64, tile.register_prefetch = true
// GFX942-PREFETCH: %[[AR:.*]] = tile.alloc : memref<128x64xf16, #tile.mem<fragment>>
// GFX942-PREFETCH: %[[BR:.*]] = tile.alloc : memref<64x256xf16, #tile.mem<fragment>>
// GFX942-PREFETCH: scf.if
// GFX942-PREFETCH: tile.copy %{{.*}}[%{{.*}}, %{{.*}}], %[[AR]]
// GFX942-PREFETCH: tile.copy %{{.*}}[%{{.*}}, %{{.*}}], %[[BR]]
// GFX942-PREFETCH: scf.for %[[K:.*]] = 
// GFX942-PREFETCH: tile.copy %[[AR]], %
// GFX942-PREFETCH: tile.copy %[[BR]], %
// GFX942-PREFETCH: %[[NEXT:.*]] = arith.addi %[[K]], %{{.*}} : index
// GFX942-PREFETCH: scf.if
// GFX942-PREFETCH: tile.copy %{{.*}}[%{{.*}}, %{{.*}}], %[[AR]]
// GFX942-PREFETCH: tile.copy %{{.*}}[%{{.*}}, %{{.*}}], %[[BR]]
// GFX942-PREFETCH: tile.gemm
// GFX942-PREFETCH-NOT: tile.num_stages

// EXACT: error: pipelining with num_stages = 4 needs 196608 bytes of shared memory but at most 166912 are available; num_stages = 3 would fit

// OVERRIDE: remark: not warp-specialized: disabled by tile.warp_specialize = false
// OVERRIDE: tile.kernel @gemm_kernel_tma {{.*}} threads(256) attributes {tile.launch_group = 1 : i64, tile.warp_specialize = false} {
// OVERRIDE-NOT: tile.ws
