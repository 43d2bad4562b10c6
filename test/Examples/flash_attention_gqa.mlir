// The grouped-query FlashAttention example: K and V are read at the query
// head divided by the group (4), the host function checks that Q has four
// times K's heads, and the kernel compiles for sm_90a (tensor copies,
// producer warpgroup) without spills.
//
// RUN: tile-opt %examples/flash_attention_gqa.mlir | FileCheck %s
// RUN: tile-opt %examples/flash_attention_gqa.mlir --tile-to-nvvm="chip=sm_90a format=isa" \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %examples/flash_attention_gqa.mlir --tile-to-nvvm="chip=sm_90a format=isa" \
// RUN:   -tile-emit-binary="prefix=%t/" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/flash_attention_gqa_fwd_kernel_tma_module.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/flash_attention_gqa_fwd_kernel_tma_module.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK-LABEL: func.func @flash_attention_gqa_fwd(
// CHECK-SAME:    %[[Q:[^:]*]]: memref<?x?x128xf16> {tile.shape = ["4*BHKV", "S", "128"]}, %[[K:[^:]*]]: memref<?x?x128xf16> {tile.shape = ["BHKV", "S", "128"]}, %[[V:[^:]*]]: memref<?x?x128xf16> {tile.shape = ["BHKV", "S", "128"]}, %[[O:[^:]*]]: memref<?x?x128xf16> {tile.shape = ["4*BHKV", "S", "128"]})
// CHECK:         %[[G:.*]] = arith.constant 4 : index
// CHECK:         tile.kernel @flash_attention_gqa_fwd_kernel blocks(%{{.*}}, %[[BH:.*]]) in
// CHECK:           tile.copy %[[Q]][%[[BH]], %{{.*}}, %{{.*}}]
// CHECK:           %[[BKV:.*]] = arith.divui %[[BH]], %[[G]] : index
// CHECK:           scf.for
// CHECK:             tile.copy %[[K]][%[[BKV]], %{{.*}}, %{{.*}}]
// CHECK:             tile.copy %[[V]][%[[BKV]], %{{.*}}, %{{.*}}]
// CHECK:           tile.copy %{{.*}}, %[[O]][%[[BH]], %{{.*}}, %{{.*}}]

// HOST: llvm.mlir.global internal constant @{{.*}}("argument #0 dimension 0 must be 4*BHKV = 4*(argument #1 dimension 0), got \00")

// The kernel of the tensor-copy version loads Q, K and V by TMA.
// PTX: .entry flash_attention_gqa_fwd_kernel
// PTX: cp.async.bulk.tensor.3d

// PTXAS: 0 bytes spill stores, 0 bytes spill loads
