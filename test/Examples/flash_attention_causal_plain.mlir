// Causal FlashAttention with the mask on every key block
// (Inputs/flash_attention_causal_plain.mlir): tile-specialize-masks puts the
// masking tile.parallel under a test on the key block, below the first
// block that crosses the diagonal (q0 + 1 - 64 over 64, rounded down, plus
// one), which is the test the hand-written example has; the kernel then
// compiles for sm_90a as the example does.
//
// RUN: tile-opt %S/Inputs/flash_attention_causal_plain.mlir --tile-specialize-masks | FileCheck %s
// RUN: tile-opt %S/Inputs/flash_attention_causal_plain.mlir --tile-to-nvvm="chip=sm_90a format=isa remarks=true" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @flash_attention_causal_fwd(
// CHECK: %[[Q0:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: arith.floordivsi
// CHECK: %[[SPLIT:.*]] = arith.minsi
// CHECK: scf.for %[[KB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: tile.gemm
// CHECK: %[[BELOW:.*]] = arith.cmpi slt, %[[KB]], %[[SPLIT]] : index
// CHECK: scf.if %[[BELOW]] {
// CHECK-NEXT: } else {
// CHECK-NEXT: tile.parallel (%{{.*}}, %{{.*}}) in [128, 64] {
// CHECK: arith.select
// CHECK: tile.reduce <max>

// REMARK: remark: mask applied only from the first iteration where a tile may fail it (computed before the loop); the iterations before it skip the tile.parallel
// REMARK-NOT: error
