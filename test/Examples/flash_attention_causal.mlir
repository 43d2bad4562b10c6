// The causal FlashAttention example parses, verifies, round-trips and fits
// the on-chip budget; on sm_90a its masking branch survives pipelining and
// warp specialization where a user wrote it: the producer warpgroup keeps
// the key loop (bounded at the diagonal) with the tensor copies and no
// softmax, the consumers keep Q K^T, then the `scf.if` over the blocks that
// cross the diagonal around the masking `tile.parallel`, then the softmax.
//
// RUN: tile-opt %examples/flash_attention_causal.mlir | FileCheck %s
// RUN: tile-opt %examples/flash_attention_causal.mlir | tile-opt | FileCheck %s
// RUN: tile-opt %examples/flash_attention_causal.mlir --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %examples/flash_attention_causal.mlir --tile-check-resources \
// RUN:   | FileCheck %s --check-prefix=RES
// RUN: tile-opt %examples/flash_attention_causal.mlir --tile-to-nvvm="chip=sm_90a format=isa" \
// RUN:   --mlir-print-ir-after=tile-warp-specialize -o /dev/null 2>&1 | FileCheck %s --check-prefix=WS
//
// scripts/fa-variant.py: BN = 128 moves the constants marked BN and BN - 1
// and the bounds over the scores; a source that is not a FlashAttention
// example is an error.
// RUN: %python %tile_src_root/scripts/fa-variant.py --causal --block-n 128 %t.bn128.mlir
// RUN: tile-opt %t.bn128.mlir | FileCheck %s --check-prefix=BN128
// RUN: not %python %tile_src_root/scripts/fa-variant.py --input %examples/gemm.mlir %t.bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD

// BN128-DAG: arith.constant 127 : index
// BN128-DAG: tile.alloc : memref<128x128xf16, #gpu.address_space<workgroup>>
// BN128-DAG: tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
// BN128-DAG: tile.alloc : memref<128x128xf16, #tile.mem<fragment>>
// BN128: tile.parallel (%{{.*}}, %{{.*}}) in [128, 128]
// BN128-NOT: in [128, 64]
// BAD: fa-variant.py: error: the source has no '!sKV = memref<BNxDx...>' and '!sQ = memref<BMxDx...>' (the example changed?)

// CHECK-LABEL: func.func @flash_attention_causal_fwd(
// CHECK:         tile.kernel @flash_attention_causal_fwd_kernel blocks(%[[BX:.*]], %[[BH:.*]]) in [%{{.*}}, %{{.*}}] threads(256) {
// CHECK:           %[[Q0:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK:           %[[QEND:.*]] = arith.addi %[[Q0]], %{{.*}} : index
// CHECK:           %[[DIAG:.*]] = arith.ceildivui %[[QEND]], %{{.*}} : index
// CHECK:           %[[N:.*]] = arith.minui %{{.*}}, %[[DIAG]] : index
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[N]] step
// CHECK:             tile.gemm {{.*}} transpose_b clear_accum policy <full_row>
// CHECK:             %[[ON:.*]] = arith.cmpi ugt, %{{.*}}, %[[Q0]] : index
// CHECK-NEXT:        scf.if %[[ON]] {
// CHECK-NEXT:          tile.parallel (%{{.*}}, %{{.*}}) in [128, 64] {
// CHECK:                 arith.cmpi ule
// CHECK:                 arith.select
// CHECK:             tile.reduce <max>
// CHECK:           } {tile.num_stages = 2 : i64}

// RES: tile.kernel @flash_attention_causal_fwd_kernel {{.*}}tile.fragment_registers = 115 : i64, tile.shared_memory_bytes = 65536 : i64

// WS: tile.kernel @flash_attention_causal_fwd_kernel_tma {{.*}} threads(384)
// WS: tile.ws [2] registers(40) {
// WS: arith.minui
// WS: scf.for
// WS: tile.pipe.produce_acquire
// WS: tile.copy async tma
// WS: tile.copy async tma
// WS: tile.pipe.produce_commit
// WS-NOT: tile.parallel
// WS-NOT: tile.gemm
// WS: tile.ws [0, 1] registers(232) {
// WS: scf.for
// WS: tile.pipe.consume_wait
// WS: tile.gemm {{.*}} transpose_b clear_accum
// WS: arith.cmpi ugt
// WS-NEXT: scf.if
// WS-NEXT: tile.parallel {{.*}} in [128, 64]
// WS: arith.cmpi ule
// WS: arith.select
// WS: tile.reduce <max>
// WS: tile.gemm
// WS: tile.pipe.consume_release
