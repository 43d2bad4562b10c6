// The FP8 GEMMs through the whole pipeline, assembled by ptxas: wgmma k32 on
// sm_90a (SS and RS forms) with partial sums promoted every 128 of K,
// mma.sync m16n8k32 on sm_89, no spills; tensor maps of 8-bit floats
// describe bytes; gfx942's FP8 MFMA in the ISA; the C header of an FP8
// library.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %examples/fp8_gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/sm90_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SM90 < %t/sm90_fp8_gemm_tensor_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefix=BLOCK < %t/sm90_fp8_gemm_blockwise_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefix=FALLBACK < %t/sm90_fp8_gemm_rowwise_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sm90_fp8_gemm_tensor_kernel_tma_module.ptx -o %t/t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/sm90_fp8_gemm_rowwise_kernel_tma_module.ptx -o %t/r.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/sm90_fp8_gemm_blockwise_kernel_tma_module.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/sm90_fp8_gemm_blockwise_kernel_module.ptx -o %t/bf.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_128x128.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/narrow_" -o /dev/null
// RUN: FileCheck %s --check-prefix=DEFER < %t/narrow_fp8_gemm_tensor_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/narrow_fp8_gemm_tensor_kernel_tma_module.ptx -o %t/n.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: sed 's/num_stages = 4/num_stages = 6/' %tile_src_root/test/Examples/Inputs/fp8_gemm_128x128.mlir > %t/six.mlir
// RUN: tile-opt %t/six.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/six_" -o /dev/null
// RUN: FileCheck %s --check-prefix=DEFER6 < %t/six_fp8_gemm_tensor_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/six_fp8_gemm_tensor_kernel_tma_module.ptx -o %t/six.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/fp8_gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa" | FileCheck %s --check-prefix=MAP
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_rs.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/rs_" -o /dev/null
// RUN: FileCheck %s --check-prefix=RS < %t/rs_fp8_rs_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/rs_fp8_rs_kernel_module.ptx -o %t/rs.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_128x256.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/wide_" -o /dev/null
// RUN: FileCheck %s --check-prefix=WIDE < %t/wide_fp8_gemm_fast_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/wide_fp8_gemm_fast_kernel_tma_module.ptx -o %t/wide.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=TMA < %t/wide_fp8_gemm_tensor_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/wide_fp8_gemm_tensor_kernel_tma_module.ptx -o %t/widep.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_blockwise_128x256.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/fused_" -o /dev/null
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused_fp8_gemm_blockwise_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/fused_fp8_gemm_blockwise_kernel_tma_module.ptx -o %t/fused.cubin 2>&1 | FileCheck %s --check-prefix=FUSEDPTXAS
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_blockwise_128x256.mlir --tile-to-nvvm="chip=sm_89 format=isa" -tile-emit-binary="prefix=%t/fused89_" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=FUSED89 < %t/fused89_fp8_gemm_blockwise_kernel_module.ptx
// RUN: tile-opt %examples/fp8_gemm.mlir --tile-to-nvvm="chip=sm_89 format=isa" -tile-emit-binary="prefix=%t/sm89_" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=SM89 < %t/sm89_fp8_gemm_tensor_kernel_module.ptx
// RUN: %ptxas -arch=sm_89 -v %t/sm89_fp8_gemm_tensor_kernel_module.ptx -o %t/sm89.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_89 -v %t/sm89_fp8_gemm_blockwise_kernel_module.ptx -o %t/sm89b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: sed -e 's/f8E4M3FN/f8E4M3FNUZ/g' %examples/fp8_gemm.mlir > %t/fnuz.mlir
// RUN: tile-opt %t/fnuz.mlir --tile-to-rocdl="chip=gfx942 format=isa" -tile-emit-binary="prefix=%t/gfx942_" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=GFX942 < %t/gfx942_fp8_gemm_tensor_kernel_module.s
// RUN: tile-opt %examples/fp8_quantize.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/q_" -o /dev/null
// RUN: FileCheck %s --check-prefix=QUANT < %t/q_fp8_quantize_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/q_fp8_quantize_kernel_module.ptx -o %t/q.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not tile-opt %examples/fp8_quantize.mlir --tile-to-nvvm="chip=sm_80 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUANT80
// RUN: sed -e 's/f8E4M3FN/f8E4M3FNUZ/g' %examples/fp8_quantize.mlir > %t/q-fnuz.mlir
// RUN: tile-opt %t/q-fnuz.mlir --tile-to-rocdl="chip=gfx942 format=isa" -tile-emit-binary="prefix=%t/gfx942_" -o /dev/null
// RUN: FileCheck %s --check-prefix=QUANT942 < %t/gfx942_fp8_quantize_kernel_module.s
// RUN: sed 's/threads(256) {/threads(256) attributes {tile.epilogue_late = true} {/' %examples/fp8_gemm.mlir > %t/late.mlir
// RUN: tile-opt %t/late.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/late_" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=LATE < %t/late_fp8_gemm_tensor_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/late_fp8_gemm_tensor_kernel_tma_module.ptx -o %t/late.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/late_fp8_gemm_rowwise_kernel_tma_module.ptx -o %t/later.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: sed -e 's/\${BN}/144/g' -e 's/\${STAGES}/5/g' -e 's/\${[A-Z]*:-\([^}]*\)}/\1/g' %examples/fp8_gemm_tunable.mlir > %t/n144.mlir
// RUN: tile-opt %t/n144.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/n144_" -o /dev/null
// RUN: FileCheck %s --check-prefix=N144 < %t/n144_fp8_gemm_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/n144_fp8_gemm_kernel_tma_module.ptx -o %t/n144.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-compile %examples/fp8_gemm.mlir -o %t/libfp8.so --header %t/fp8.h --chip sm_90a --format isa
// RUN: FileCheck %s --check-prefix=HEADER < %t/fp8.h

// The example's per-tensor kernel (128 x 128 tiles, 5 stages): the consumer
// warpgroups do not take turns (they did before each stored its own rows:
// docs/perf.md run 199): each waits for its K block's stage, waits for its
// previous block's MMAs, issues its four m64n128k32 MMAs and adds the
// previous block's partial sums while they run, no named barrier in the
// loop; after it each warpgroup stores its own rows behind a barrier of
// 128 threads (store_barrier).
// SM90-NOT: bar.arrive
// SM90-NOT: bar.sync {{.*}}, 256;
// SM90: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// SM90: mbarrier.try_wait.parity.shared.b64
// SM90-NOT: bar.sync
// SM90: wgmma.wait_group.sync.aligned 0;
// SM90-NEXT: wgmma.fence.sync.aligned;
// SM90-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// SM90: wgmma.commit_group.sync.aligned;
// SM90-NOT: bar.sync
// SM90: add.rn.f32
// SM90-NOT: bar.arrive
// SM90-NOT: bar.sync {{.*}}, 256;
// SM90: bar.sync %r{{[0-9]+}}, 128;
// SM90-NOT: bar.sync {{.*}}, 256;
// SM90: cp.async.bulk.tensor.2d.global.shared::cta

// Asked for (`tile.epilogue_late = true`), a tile's epilogue runs one tile
// late: at the next tile's first K block, once that block's four MMAs are in
// flight, each warpgroup scales the previous tile's sums and stores its rows
// (no wait for MMAs in between); ptxas keeps every register (no spill) and
// the MMAs asynchronous.
// LATE: wgmma.fence.sync.aligned;
// LATE-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// LATE: wgmma.commit_group.sync.aligned;
// LATE-NOT: wgmma.wait_group
// LATE: mul.f32
// LATE-NOT: wgmma.wait_group
// LATE: bar.sync %r{{[0-9]+}}, 128;
// LATE-NOT: wgmma.wait_group
// LATE: stmatrix.sync.aligned.m8n8.x4.shared.b16
// LATE-NOT: wgmma.wait_group
// LATE: cp.async.bulk.tensor.2d.global.shared::cta

// 128 x 256 tiles (test/Examples/Inputs/fp8_gemm_128x256.mlir's
// @fp8_gemm_tensor, the example's until run 162): TMA copies of the 8-bit
// tiles, wgmma k32 on e4m3 with m64n128 instructions, two per 64-row slab
// and k step (tile-select-mma narrows them: m64n256's partial sums beside
// the slab's accumulator would not fit), each column half promoted in
// place: four MMAs and their wait, twice per K block, and 64 additions per
// half (LLVM places them).
// TMA: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMA: mbarrier.try_wait.parity.shared.b64
// TMA-NOT: m64n256k32
// TMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// TMA: wgmma.commit_group.sync.aligned;
// TMA-NEXT: wgmma.wait_group.sync.aligned 0;
// TMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// TMA: wgmma.commit_group.sync.aligned;
// TMA-NEXT: wgmma.wait_group.sync.aligned 0;
// TMA-COUNT-128: add.rn.f32
// TMA-NOT: m64n256k32

// 128 x 128 tiles (test/Examples/Inputs/fp8_gemm_128x128.mlir): one
// instruction spans the tile, and every 128 of K (one K block) the partial
// sums are added to the accumulator in f32 one K block late: a K block's
// gemm waits for the previous block's MMAs, adds their partial sums,
// issues its own into the same registers and leaves them in flight, then
// releases the previous block's slot (no wait between its MMAs and that
// release).
// DEFER: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// DEFER: mbarrier.try_wait.parity.shared.b64
// DEFER: wgmma.wait_group.sync.aligned 0
// DEFER: add.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r[[P:[0-9]+]];
// DEFER: wgmma.fence.sync.aligned
// DEFER-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%r[[P]],
// DEFER: wgmma.commit_group.sync.aligned
// DEFER-NOT: wgmma.wait_group
// DEFER: mbarrier.arrive.shared.b64
// DEFER-NOT: wgmma.wait_group.sync.aligned 1

// The same with 6 stages: the K loop
// runs two K blocks per pass (tile-unroll-loops), after a lone first block
// where the count is odd (its MMAs completed before the loop): each block's
// gemm waits for the previous block's MMAs, issues its own into registers
// of its own, then adds the previous block's partial sums while they run,
// and releases the previous block's slot (no wait between its MMAs and
// that release); the two blocks of a pass write two sets of registers, the
// second the one the lone block wrote (no copies between them).
// DEFER6: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// DEFER6: wgmma.wait_group.sync.aligned 0
// DEFER6-NEXT: wgmma.fence.sync.aligned
// DEFER6: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%r[[Y:[0-9]+]],
// DEFER6-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%r[[Y]],
// DEFER6: wgmma.commit_group.sync.aligned
// DEFER6: wgmma.wait_group.sync.aligned 0
// DEFER6: mbarrier.try_wait.parity.shared.b64
// DEFER6: wgmma.wait_group.sync.aligned 0
// DEFER6-NEXT: wgmma.fence.sync.aligned
// DEFER6-NOT: {%r[[Y]],
// DEFER6: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%r[[X:[0-9]+]],
// DEFER6-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%r[[X]],
// DEFER6: wgmma.commit_group.sync.aligned
// DEFER6-NOT: wgmma.wait_group
// DEFER6: add.rn.f32
// DEFER6-NOT: wgmma.wait_group
// DEFER6: mbarrier.arrive.shared.b64
// DEFER6: wgmma.wait_group.sync.aligned 0
// DEFER6-NEXT: wgmma.fence.sync.aligned
// DEFER6-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%r[[Y]],
// DEFER6: wgmma.commit_group.sync.aligned
// DEFER6-NOT: wgmma.wait_group
// DEFER6: mbarrier.arrive.shared.b64
// DEFER6-NOT: wgmma.wait_group.sync.aligned 1

// The block-scaled gemm clears its accumulator per K block: no promotion
// (one K block is one span), the user's tile.parallel adds it scaled, one
// gemm late (tile.consumer_late): after a lone first K block (an odd
// count), each K block of the loop, its turn taken, waits for the previous
// block's MMAs, issues its own, passes the turn and only then runs the
// previous block's consumer (64 FMAs a thread) while its MMAs run, before
// it releases the previous block's slot. The block's scales (A's two rows
// a thread, B's one) are read from global memory before its turn, a whole
// gemm before the consumer that uses them.
// BLOCK: wgmma.commit_group.sync.aligned
// BLOCK: wgmma.wait_group.sync.aligned 0
// BLOCK: mbarrier.try_wait.parity
// BLOCK-NOT: bar.sync
// BLOCK-COUNT-3: ld.global.b32
// BLOCK-NOT: wgmma.mma_async
// BLOCK: bar.sync {{%r[0-9]+}}, 256;
// BLOCK: wgmma.wait_group.sync.aligned 0
// BLOCK-NEXT: wgmma.fence.sync.aligned
// BLOCK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// BLOCK: wgmma.commit_group.sync.aligned
// BLOCK: bar.arrive
// BLOCK-NOT: wgmma.wait_group
// BLOCK-COUNT-64: fma.rn.f32
// BLOCK-NOT: wgmma.wait_group
// BLOCK: mbarrier.arrive.shared.b64

// The fall-back kernel (views not aligned for tensor copies): cp.async of
// 16 bytes, the same wgmmas. (ptxas spills in the 128 x 256 ones, where
// every thread also addresses copies, before and after the K loop: only
// the block-scaled one, 128 x 128, is checked without spills.)
// FALLBACK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// FALLBACK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3

// ptxas warns before the properties when it serializes the wgmmas (an
// instruction other than a wgmma touching registers one has in flight).
// The block-scaled gemm at 128 x 256 (tile-fuse-consumer): each column
// half's m64n128k32 MMAs are issued and completed before the other half's
// are issued, and the scaling (fma) reads one half at a time (LLVM sinks
// the first half's below the second issue in the PTX; ptxas places them
// between, as the lowering emitted them). Its kernel spills a few bytes
// outside the K loop (the example keeps 128 x 128 tiles).
// FUSED: fma.rn.f32
// FUSED-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// FUSED: wgmma.commit_group.sync.aligned
// FUSED-NEXT: wgmma.wait_group.sync.aligned 0
// FUSED: wgmma.fence.sync.aligned
// FUSED-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// FUSED: wgmma.commit_group.sync.aligned
// FUSED-NEXT: wgmma.wait_group.sync.aligned 0
// FUSEDPTXAS-NOT: serialized
// FUSEDPTXAS: Used 168 registers
// On sm_89 the product comes in two parts of each warp's n tiles.
// FUSED89: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// FUSED89: fma.rn.f32
// FUSED89: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// FUSED89: fma.rn.f32

// PTXAS-NOT: serialized
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// The host's tensor maps of the 8-bit operands describe unsigned bytes (the
// map's data type follows the element type).
// MAP-LABEL: llvm.func @fp8_gemm_tensor(
// MAP-DAG: %[[U8:[0-9]+]] = llvm.mlir.constant(0 : i32) : i64
// MAP-DAG: %[[SW128:[0-9]+]] = llvm.mlir.constant(3 : i32) : i64
// MAP: llvm.call @mgpuTensorMapEncodeTiledMemref(%{{[0-9]+}}, %{{[0-9]+}}, %[[U8]], %{{[0-9]+}}, %[[SW128]],

// RS: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1;

// WIDE: wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3
// WIDE-NOT: add.rn.f32

// The tunable per-tensor kernel at 128 x 144 tiles (a width that is not a
// power of two: cuBLASLt's at 8192^3): one m64n144k32 instruction a K step
// (its 72 partial sums a thread, twice, beside the slab's 72), promoted
// every 128 of K; each warpgroup stores its 64 rows of 288 bytes as nine
// panels of 32 bytes (the registers of the layout's padded columns store
// nothing), and ptxas spills nothing (PTXAS).
// N144: wgmma.mma_async.sync.aligned.m64n144k32.f32.e4m3.e4m3
// N144: add.rn.f32
// N144-COUNT-9: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// N144-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// SM89: .version 8.4
// SM89: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SM89: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32

// GFX942: v_mfma_f32_32x32x16_fp8_fp8

// The quantization kernel: rounding to e4m3 is cvt.rn.satfinite (sm_89 on),
// which sm_80 does not have.
// QUANT: max.f32
// QUANT: div.rn.f32
// QUANT: cvt.rn.satfinite.e4m3x2.f32
// On gfx942 (its FNUZ format) it is v_cvt_pk_fp8_f32.
// QUANT942: v_cvt_pk_fp8_f32
// QUANT80: fp8_quantize.mlir:{{[0-9]+}}:{{[0-9]+}}: error: rounding to 'f8E4M3FN' needs an 8-bit float conversion, which sm_80 does not have (sm_89 and later convert to f8E4M3FN and f8E5M2)

// HEADER: /* func.func @fp8_gemm_tensor
// HEADER-NEXT:  *   A: memref<?x?xf8E4M3FN> [M, K]
// HEADER-NEXT:  *   B: memref<?x?xf8E4M3FN> [N, K]
// HEADER: void fp8_gemm_tensor(tile_memref_2d *A, tile_memref_2d *B, tile_memref_1d *sa, tile_memref_1d *sb, tile_memref_2d *C);
