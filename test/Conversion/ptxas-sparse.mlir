// The 2:4-sparse GEMM (tile.gemm ... sparse) through the whole pipeline,
// each instruction with sparsity selector 0 and metadata registers packed
// from two 16-bit words (rows g and g + 8):
//  - sm_80: mma.sp m16n8k32;
//  - sm_90a (PTX ISA 8.4 by default): wgmma.sp, m64n128k32 for
//    test/Examples/Inputs/gemm_sparse.mlir (not warp-specialized: a barrier
//    orders the metadata reads before the MMAs) and m64n256k32 for
//    examples/gemm_sparse.mlir (warp-specialized: tensor copies of A, E and
//    B, no barrier between the metadata reads and the MMAs);
//  - sm_80 at +ptx70: diagnosed (mma.sp is PTX ISA 7.1's);
//  - sm_90a at +ptx80: selection falls back to mma.sp, a pinned wgmma is
//    diagnosed;
//  - gfx942: diagnosed.
// ptxas assembles them without serializing the wgmmas; without spills
// except in the example's tensor-copy kernel, whose producer warpgroup
// (40 registers) spills a few values computed before the role split.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-nvvm="chip=sm_80 format=isa" -tile-emit-binary="prefix=%t/sm80_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SP < %t/sm80_gemm_sp_kernel_module.ptx
// RUN: %ptxas -arch=sm_80 -v %t/sm80_gemm_sp_kernel_module.ptx -o %t/sm80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/wg_" -o /dev/null
// RUN: FileCheck %s --check-prefix=WG < %t/wg_gemm_sp_kernel_module.ptx
// RUN: FileCheck %s --check-prefix=WG < %t/wg_gemm_sp_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/wg_gemm_sp_kernel_tma_module.ptx -o %t/wg.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/wg_gemm_sp_kernel_module.ptx -o %t/wg2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/gemm_sparse.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/ex_" -o /dev/null
// RUN: FileCheck %s --check-prefix=WS < %t/ex_gemm_sp_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/ex_gemm_sp_kernel_tma_module.ptx -o %t/ex.cubin 2>&1 | FileCheck %s --check-prefix=ASM
// RUN: %ptxas -arch=sm_90a -v %t/ex_gemm_sp_kernel_module.ptx -o %t/ex2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: sed 's/threads(256) {/threads(256) attributes {tile.sparse_in_flight = true} {/' %examples/gemm_sparse.mlir > %t/inflight.mlir
// RUN: tile-opt %t/inflight.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/if_" -o /dev/null
// RUN: FileCheck %s --check-prefix=INFLIGHT < %t/if_gemm_sp_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/if_gemm_sp_kernel_tma_module.ptx -o %t/if.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: sed 's/f16/bf16/g' %examples/gemm_sparse.mlir > %t/bf16.mlir
// RUN: tile-opt %t/bf16.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/bf_" -o /dev/null
// RUN: FileCheck %s --check-prefix=BF16 < %t/bf_gemm_sp_kernel_tma_module.ptx
// RUN: tile-opt %t/bf16.mlir --tile-to-nvvm="chip=sm_80 format=isa" -tile-emit-binary="prefix=%t/bf80_" -o /dev/null
// RUN: FileCheck %s --check-prefix=BF16-SP < %t/bf80_gemm_sp_kernel_module.ptx
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-nvvm="chip=sm_90a features=+ptx80 format=isa" -tile-emit-binary="prefix=%t/p80_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SP < %t/p80_gemm_sp_kernel_module.ptx
// RUN: not tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse_wgmma.mlir --tile-to-nvvm="chip=sm_90a features=+ptx80 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX80
// RUN: tile-opt %examples/sparse_compress.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/cmp_" -o /dev/null
// RUN: FileCheck %s --check-prefix=CMP < %t/cmp_compress_2to4_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/cmp_compress_2to4_kernel_module.ptx -o %t/cmp.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX70
// RUN: not tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-rocdl="chip=gfx942 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMD

// The metadata: 16-bit loads of rows g and g + 8, the second shifted into
// the high half.
// SP-LABEL: .entry gemm_sp_kernel
// SP: ld.shared.{{[bu]}}16
// SP: shl.b32 {{.*}}, 16;
// SP: mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {{.*}}, 0x0;
// SP-NOT: wgmma

// Not warp-specialized: the metadata words, a barrier (every thread has
// read its words before any MMA that releases the slot is issued), then
// wgmma.sp with the A descriptor, the B descriptor, the metadata and
// selector 0; every MMA completes before the slot is released (wgmma.sp
// reads its metadata register as it runs: no group left in flight).
// WG: .version 8.4
// WG-LABEL: .entry gemm_sp_kernel
// WG: ld.shared.{{[bu]}}16
// WG: shl.b32 {{.*}}, 16;
// WG: bar.sync
// WG: wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0, p, 1, 1, 0, 1;
// WG: wgmma.commit_group.sync.aligned;
// WG-NEXT: wgmma.wait_group.sync.aligned 0;

// The example, warp-specialized: A, E (rows of 16 bytes) and B by tensor
// copies; the consumers read the words and issue wgmma.sp with no barrier
// between (the producer refills a slot only after every consumer warp has
// released it).
// WS-LABEL: .entry gemm_sp_kernel_tma
// WS: setmaxnreg.dec.sync.aligned.u32 40;
// WS-COUNT-3: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// WS: setmaxnreg.inc.sync.aligned.u32 232;
// WS: mbarrier.try_wait.parity
// WS-NOT: bar.sync
// WS: ld.shared.{{[bu]}}16
// WS-NOT: bar.sync
// WS: wgmma.fence.sync.aligned;
// WS-NEXT: add
// WS: wgmma.mma_async.sp.sync.aligned.m64n256k32.f32.f16.f16
// WS-COUNT-3: wgmma.mma_async.sp.sync.aligned.m64n256k32.f32.f16.f16
// WS: wgmma.wait_group.sync.aligned 0;

// The compressor (examples/sparse_compress.mlir): clamped loads of A, the
// words summed across the four lanes of a word's nibbles, 16-bit stores of
// the values and the words, 32-bit ones of the violation counts.
// CMP-LABEL: .entry compress_2to4_kernel
// CMP: min.u64
// CMP: ld.global.{{[bu]}}16
// CMP: shfl.sync.bfly
// CMP: st.global.{{[bu]}}16
// CMP: st.global.{{[bu]}}32

// The example with `tile.sparse_in_flight = true`: each K step leaves its
// MMAs in flight (wait for all but the latest group), then keeps the other
// step's metadata registers in use (a store ptxas cannot drop, predicated
// on an invalid metadata word) until that wait has completed their MMAs.
// INFLIGHT-LABEL: .entry gemm_sp_kernel_tma
// INFLIGHT-COUNT-4: wgmma.mma_async.sp.sync.aligned.m64n256k32.f32.f16.f16
// INFLIGHT: wgmma.commit_group.sync.aligned;
// INFLIGHT-NEXT: wgmma.wait_group.sync.aligned 1;
// INFLIGHT-NEXT: // begin inline asm
// INFLIGHT-NEXT: {
// INFLIGHT-NEXT: .reg .pred kp;
// INFLIGHT-NEXT: .shared .align 4 .b32 keep;
// INFLIGHT-NEXT: setp.eq.u32 kp, %r{{[0-9]+}}, 0x7fffffff;
// INFLIGHT-COUNT-4: @kp st.shared.b32 [keep], %r{{[0-9]+}};

// bf16 (the example with its element type replaced): wgmma.sp and mma.sp
// on bf16, selector 0.
// BF16: wgmma.mma_async.sp.sync.aligned.m64n256k32.f32.bf16.bf16 {{.*}}, %r{{[0-9]+}}, 0, p, 1, 1, 0, 1;
// BF16-SP: mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {{.*}}, 0x0;

// PTXAS-NOT: serialized
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// ASM-NOT: serialized
// ASM: Used {{[0-9]+}} registers

// PTX80: error: 'tile.gemm' op wgmma.sp (a 2:4-sparse A) needs PTX ISA 8.2, but sm_90a is compiled with +ptx80 here: compile with features=+ptx84

// PTX70: error: 'tile.gemm' op mma.sp (a 2:4-sparse A) needs PTX ISA 7.1, but sm_80 is compiled with +ptx70 here (the target's features)

// AMD: error: 'tile.gemm' op a 2:4-sparse A (sparse) has no instruction on gfx942: MLIR 22's ROCDL has no 2:4 sparse MFMA (CDNA3's smfmac)
