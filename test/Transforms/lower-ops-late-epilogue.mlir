// RUN: sed 's/threads(256) {/threads(256) attributes {tile.epilogue_late = true} {/' %tile_src_root/test/Examples/Inputs/fp8_gemm_128x128.mlir | tile-opt --tile-attach-target=chip=sm_90a --tile-launch-order --tile-persistent-blocks --tile-specialize-bounds --tile-pipeline-planning --tile-inject-pipeline --tile-register-prefetch --tile-layout-inference --tile-select-tma --tile-warp-specialize --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops | FileCheck %s

// A gemm marked `tile.epilogue_late` (tile-plan-pipes, where the kernel
// asks for it) has its tile's
// epilogue lowered one tile late (Lowering/LateEpilogue.cpp): the
// accumulator is filled once before the consumers' tile loop; at each
// tile's first K block, after the gemm has issued that block's MMAs into
// its partial sums, the previous tile's epilogue runs if a tile ran before
// (one-element allocas carry its coordinates), then the fill; where the K
// loop runs no block, the same after it; each tile saves its coordinates
// where its epilogue was; after the tile loop the block's last epilogue.
// The epilogue's per-thread arithmetic starts from an opaque copy of the
// thread id made in it, so that LLVM does not hoist it out of the K loop,
// and its branch is expected not taken, so that LLVM places its code out
// of the loop's body.
// CHECK-LABEL: tile.kernel @fp8_gemm_tensor_kernel_tma
// CHECK: %[[PREV:.*]] = memref.alloca() : memref<1xi1>
// CHECK: %[[M0:.*]] = memref.alloca() : memref<1xindex>
// CHECK: %[[N0:.*]] = memref.alloca() : memref<1xindex>
// CHECK: memref.store %false, %[[PREV]]
// CHECK: memref.store %cst, %[[ACC:.*]][%c63] : memref<64xf32>
// CHECK-NEXT: scf.for
// CHECK: scf.for %[[K:[^ ]*]] =
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: %[[TEST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
// CHECK: %[[FIRST:.*]] = llvm.intr.expect %[[TEST]], %false{{.*}} : i1
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[RAN:.*]] = memref.load %[[PREV]]
// CHECK-NEXT: scf.if %[[RAN]] {
// CHECK-NEXT: arith.index_castui %thread_id_x
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;"
// CHECK: memref.load %[[M0]]
// CHECK: memref.load %[[N0]]
// CHECK: nvvm.stmatrix
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: memref.store %{{.*}}, %[[ACC]][%{{.*}}] : memref<64xf32>
// CHECK: } {tile.pipeline_drain
// CHECK: arith.cmpi sge
// CHECK-NEXT: scf.if
// CHECK-NEXT: memref.load %[[PREV]]
// CHECK: memref.store %{{.*}}, %[[M0]]
// CHECK-NEXT: memref.store %{{.*}}, %[[N0]]
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: memref.store %[[TRUE]], %[[PREV]]
// CHECK: } {tile.tile_loop}
// CHECK-NEXT: %[[LAST:.*]] = memref.load %[[PREV]]
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-LABEL: tile.kernel @fp8_gemm_tensor_kernel blocks
// CHECK-NOT: memref<1xi1>
