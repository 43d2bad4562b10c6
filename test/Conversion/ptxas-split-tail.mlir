// examples/gemm.mlir through the whole pipeline for sm_90a: besides its
// persistent kernel (and the split-K pair) it has the pair of
// tile-split-tail, the kernel whose last wave is split along K (tensor-copy
// and cp.async versions) and the kernel that adds the parts. The split
// kernel keeps the warp-specialized roles and register budgets of the
// persistent one, and ptxas assembles it and the reduction without spills.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %tile_src_root/examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/g_" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=TAIL < %t/g_gemm_kernel_tail_tma_module.ptx
// RUN: FileCheck %s --check-prefix=STORES --implicit-check-not=st.global < %t/g_gemm_kernel_tail_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/g_gemm_kernel_tail_tma_module.ptx -o %t/tail.cubin > %t/tail.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-WS < %t/tail.log
// RUN: %ptxas -arch=sm_90a -v %t/g_gemm_kernel_tail_reduce_module.ptx -o %t/reduce.cubin > %t/reduce.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/reduce.log
// RUN: tile-opt %tile_src_root/examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa split-tail=false" -tile-emit-binary="prefix=%t/off_" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=OFF

// FILES: g_gemm_kernel_module.ptx
// FILES: g_gemm_kernel_tail_module.ptx
// FILES-NEXT: g_gemm_kernel_tail_reduce_module.ptx
// FILES-NEXT: g_gemm_kernel_tail_tma_module.ptx
// FILES-NEXT: g_gemm_kernel_tma_module.ptx

// The producer and consumer warpgroups with their budgets.
// TAIL: .entry gemm_kernel_tail_tma
// TAIL: .maxntid 384, 1, 1
// TAIL-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// TAIL-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// TAIL-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// TAIL-DAG: cp.async.bulk.tensor.2d.global.shared::cta

// The parts' sums leave as f32 through tensor stores too, their staging
// buffers at the offset of the whole tiles' (tile-allocate-shared: the
// two stores lie in the branches of one scf.if), so each store's first
// panel waits for all earlier stores' reads; no register stores.
// STORES: .entry gemm_kernel_tail_tma
// STORES-COUNT-2: cp.async.bulk.wait_group.read 0;

// PTXAS-NOT: serialized
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-WS: Used 168 registers

// OFF-NOT: off_gemm_kernel_tail
