// The hand-written warp-specialized GEMMs (test/Examples/Inputs/
// gemm_ws_{merged,split}.mlir, the GPU check inputs) through the whole
// pipeline to PTX, assembled with ptxas for sm_90a: no spills and no local
// memory, ptxas honours the register budgets (168 registers at launch for
// 384 threads), and neither kernel is versioned (their tensor copies are
// written by hand) besides the host's own fall-back kernel.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_ws_merged.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/merged_" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=MERGED-FILES
// RUN: FileCheck %s --check-prefixes=WS,MERGED < %t/merged_gemm_ws_merged_kernel_module.ptx
// RUN: FileCheck %s --check-prefix=PRODUCER < %t/merged_gemm_ws_merged_kernel_module.ptx
// RUN: FileCheck %s --check-prefix=CONSUMER < %t/merged_gemm_ws_merged_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/merged_gemm_ws_merged_kernel_module.ptx -o %t/merged.cubin > %t/merged.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-WS < %t/merged.log
// RUN: %ptxas -arch=sm_90a -v %t/merged_gemm_ws_merged_fallback_module.ptx -o %t/merged-fb.cubin > %t/merged-fb.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/merged-fb.log
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_ws_split.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/split_" -o /dev/null
// RUN: FileCheck %s --check-prefixes=WS,SPLIT < %t/split_gemm_ws_split_kernel_module.ptx
// RUN: FileCheck %s --check-prefix=PRODUCER < %t/split_gemm_ws_split_kernel_module.ptx
// RUN: FileCheck %s --check-prefix=CONSUMER < %t/split_gemm_ws_split_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/split_gemm_ws_split_kernel_module.ptx -o %t/split.cubin > %t/split.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-WS < %t/split.log
// RUN: %ptxas -arch=sm_90a -v %t/split_gemm_ws_split_fallback_module.ptx -o %t/split-fb.cubin > %t/split-fb.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/split-fb.log
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_alternate.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/alt_" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=ALT < %t/alt_gemm_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefix=ALT0 < %t/alt_gemm_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefix=ALT1 < %t/alt_gemm_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/alt_gemm_kernel_tma_module.ptx -o %t/alt.cubin > %t/alt.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-WS < %t/alt.log
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_two_gemms.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/two_" -o /dev/null
// RUN: FileCheck %s --check-prefix=TWO < %t/two_gemm_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/two_gemm_kernel_tma_module.ptx -o %t/two.cubin > %t/two.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-TWO < %t/two.log
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_mixed_copies.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/mixed_" -o /dev/null
// RUN: FileCheck %s --check-prefix=MIXED < %t/mixed_gemm_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/mixed_gemm_kernel_tma_module.ptx -o %t/mixed.cubin > %t/mixed.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-TWO < %t/mixed.log

// Two kernels per file: the warp-specialized one and the fall-back (which
// has the split-K pair of tile-split-k beside it).
// MERGED-FILES: merged_gemm_ws_merged_fallback_module.ptx
// MERGED-FILES-NEXT: merged_gemm_ws_merged_fallback_reduce_module.ptx
// MERGED-FILES-NEXT: merged_gemm_ws_merged_fallback_split_module.ptx
// MERGED-FILES-NEXT: merged_gemm_ws_merged_kernel_module.ptx
// MERGED-FILES-NOT: _tma

// The producer (warpgroup 0) lowers its budget and issues the tensor
// copies; the consumers raise theirs, wait on the full barriers, run
// m64n128k16 wgmmas and release the slots on the empty barriers. The
// roles branch on the warp index read from lane 0 (shfl), so that ptxas
// sees a branch uniform across each warp; LLVM may place either role
// first.
// WS: .maxntid 384, 1, 1
// WS: shfl.sync.idx.b32
// WS: mbarrier.init.shared.b64
// PRODUCER: setmaxnreg.dec.sync.aligned.u32 40;
// PRODUCER: mbarrier.try_wait.parity.shared.b64
// PRODUCER: mbarrier.arrive.expect_tx.shared.b64
// PRODUCER: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CONSUMER: setmaxnreg.inc.sync.aligned.u32 232;
// CONSUMER: mbarrier.try_wait.parity.shared.b64
// CONSUMER: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CONSUMER: wgmma.wait_group.sync.aligned 0;
// CONSUMER: mbarrier.arrive.shared.b64
// The merged consumer is one region; the split form has two.
// MERGED: setmaxnreg.inc.sync.aligned.u32 232;
// MERGED-NOT: setmaxnreg.inc
// SPLIT-COUNT-2: setmaxnreg.inc.sync.aligned.u32 232;
// SPLIT-NOT: setmaxnreg.inc

// ptxas warns before the function's properties when it serializes the
// wgmmas or ignores setmaxnreg (it cannot tell the registers at entry).
// PTXAS-NOT: serialized
// PTXAS-WS-NOT: ignored
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: serialized
// PTXAS-WS: Used 168 registers

// Two gemms into one accumulator per K step (gemm_two_gemms.mlir, warp
// specialized by the pass): only the first gemm's first k-step of each
// 64-row slab takes the first-iteration flag (scale-d 0 on the loop's first
// iteration); every wgmma of the second gemm adds (scale-d 1).
// One consumer warpgroup, but four multi-buffered tiles (128 KiB): one
// block a multiprocessor, so the compiler makes it persistent (a loop over
// the C tiles) and the launch's 255 registers per thread are more than any
// budget would give the consumers: no setmaxnreg, no `.minnctapersm`.
// TWO: .maxntid 256, 1, 1
// TWO-NOT: .minnctapersm
// TWO-NOT: setmaxnreg
// The K loop is there twice (interior and edge tiles).
// TWO-COUNT-2: setp.ne.b32 p, %r{{[0-9]+}}, 0;
// TWO-NOT: setp.ne.b32 p, %r
// TWO: wgmma.wait_group.sync.aligned 1;
// TWO-COUNT-2: setp.ne.b32 p, %r{{[0-9]+}}, 0;
// TWO-NOT: setp.ne.b32 p, %r
// TWO: wgmma.wait_group.sync.aligned 1;
// TWO-NOT: setp.ne.b32 p, %r
// PTXAS-TWO-NOT: ignored
// PTXAS-TWO: Used {{1[0-9][0-9]|2[0-4][0-9]|25[0-5]}} registers

// A producer mixing tensor copies (A) and cp.async (B, padded rows) in one
// hand-off (gemm_mixed_copies.mlir): the full barriers count the tensor
// copy and the producer's 128 threads; each producer thread waits for the
// slot, then A's tensor copy and B's cp.async copies are issued and every
// producer thread arrives once its copies land; the consumers wait on the
// full barrier and compute with mma.sync.
// MIXED: .maxntid 256, 1, 1
// MIXED: mov.b32 [[FULL:%r[0-9]+]], 129;
// MIXED-NEXT: mbarrier.init.shared.b64 {{.*}}, [[FULL]];
// MIXED: setmaxnreg.dec.sync.aligned.u32 40;
// MIXED: mbarrier.try_wait.parity.shared.b64
// MIXED: mbarrier.arrive.expect_tx.shared.b64
// MIXED: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// MIXED: cp.async.cg.shared.global
// MIXED: cp.async.mbarrier.arrive.noinc.shared.b64
// MIXED: setmaxnreg.inc.sync.aligned.u32 216;
// MIXED: mbarrier.try_wait.parity.shared.b64
// MIXED: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MIXED-NOT: cp.async.wait_group

// Two consumer warpgroups taking the tiles in turn (gemm_alternate.mlir):
// three warpgroups, the producer's budget lowered and each consumer's
// raised; region 0 waits for its turn at barrier 2 (256 threads: both
// regions) and passes at region 1's; each region stores through barriers
// of its own 128 threads. No spills (PTXAS).
// (LLVM may place either region first.)
// ALT: .maxntid 384, 1, 1
// ALT: setmaxnreg.dec.sync.aligned.u32 40;
// ALT-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// ALT-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// ALT0: bar.sync 2, 256;
// ALT0: bar.arrive
// ALT0: bar.sync 1, 128;
// ALT1: bar.sync 4, 256;
// ALT1: bar.arrive
// ALT1: bar.sync 3, 128;
