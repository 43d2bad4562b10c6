// The FlashAttention example compiled for sm_90a, assembled with ptxas: the
// host chooses between the fall-back kernel (cp.async, any view) and the
// tensor-copy kernel, which the example's tile.warp_specialize asks to
// split into a producer warpgroup (the K and V tensor copies: 3-D tensor
// maps, boxes of [1, 64, 64] per 128-byte swizzle panel) and the kernel's
// two warpgroups computing: Q K^T with both operands in shared memory
// (wgmma m64n64k16, two descriptors), P V with P from registers (m64n128k16,
// four registers of A and a descriptor of V), exp2 through ex2.approx.
// No spills, no local memory.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %examples/flash_attention.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// Without fp-contract the softmax's multiplies and subtracts stay apart.
// RUN: mkdir -p %t/nofma
// RUN: tile-opt %examples/flash_attention.mlir --tile-to-nvvm="chip=sm_90a format=isa fp-contract=false" -tile-emit-binary="prefix=%t/nofma/" -o /dev/null
// RUN: FileCheck %s --check-prefix=NOFMA < %t/nofma/flash_attention_fwd_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefix=TMA < %t/flash_attention_fwd_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefix=FALLBACK < %t/flash_attention_fwd_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/flash_attention_fwd_kernel_tma_module.ptx -o %t/tma.cubin > %t/tma.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-TMA < %t/tma.log
// RUN: %ptxas -arch=sm_90a -v %t/flash_attention_fwd_kernel_module.ptx -o %t/fallback.cubin > %t/fallback.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/fallback.log

// FILES: flash_attention_fwd_kernel_module.ptx
// FILES-NEXT: flash_attention_fwd_kernel_tma_module.ptx

// TMA: .maxntid 384, 1, 1
// TMA: mbarrier.init.shared.b64
// TMA: setmaxnreg.dec.sync.aligned.u32 40;
// TMA: mbarrier.try_wait.parity.shared.b64
// TMA: mbarrier.arrive.expect_tx.shared.b64
// TMA: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}]
// TMA: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMA: setmaxnreg.inc.sync.aligned.u32 232;
// TMA: mbarrier.try_wait.parity.shared.b64
// TMA: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// TMA: fma.rn.f32
// TMA: ex2.approx
// TMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}
// TMA: mbarrier.arrive.shared.b64
// TMA-NOT: cp.async.cg

// The fall-back kernel: 256 threads, cp.async, the same wgmmas.
// FALLBACK: .maxntid 256, 1, 1
// FALLBACK-NOT: setmaxnreg
// FALLBACK: cp.async.cg.shared.global
// FALLBACK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// FALLBACK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// FALLBACK-NOT: cp.async.bulk.tensor

// PTXAS-NOT: serialized
// PTXAS-TMA-NOT: ignored
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-TMA: Used 168 registers

// NOFMA-NOT: fma.rn.f32
// NOFMA: ex2.approx
// NOFMA-NOT: fma.rn.f32
// The normalization's exact quotients (Lowering/Division.cpp) are the only
// fused multiply-adds, after the reciprocal of the row sum.
// NOFMA: rcp.rn.f32
// NOFMA: fma.rn.f32
