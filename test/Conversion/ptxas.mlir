// Compile the examples through the whole pipeline to PTX and assemble it with
// ptxas for sm_80 and sm_90a: no spills, and the tensor-core instructions
// are there. On sm_90a the GEMM has two kernels: gemm_kernel_tma (tensor
// copies completed on mbarriers, wgmma), launched when the tensors are
// aligned for TMA, and gemm_kernel (cp.async and wgmma) otherwise.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/sm90_" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/sm90_gemm_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sm90_gemm_kernel_module.ptx -o %t/gemm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=TMA < %t/sm90_gemm_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sm90_gemm_kernel_tma_module.ptx -o %t/gemmtma.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -tile-emit-binary="prefix=%t/sm80_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SM80 < %t/sm80_gemm_kernel_module.ptx
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa pipeline=false" -tile-emit-binary="prefix=%t/sync_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SYNC < %t/sync_gemm_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sync_gemm_kernel_module.ptx -o %t/sync90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sm80_gemm_kernel_module.ptx -o %t/gemm80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/flash_attention.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/sm90_" -o /dev/null
// RUN: FileCheck %s --check-prefix=FA90 < %t/sm90_flash_attention_fwd_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sm90_flash_attention_fwd_kernel_module.ptx -o %t/fa90.cubin > %t/fa90.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/fa90.log
// RUN: FileCheck %s --check-prefix=NOSERIAL < %t/fa90.log
// The RS form of wgmma (A from registers): the GPU check input.
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_rs.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/rs_" -o /dev/null
// RUN: FileCheck %s --check-prefix=RS < %t/rs_gemm_rs_kernel_module.ptx
// RUN: FileCheck %s --check-prefix=RS < %t/rs_gemm_rs_1wg_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/rs_gemm_rs_kernel_module.ptx -o %t/rs.cubin > %t/rs.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/rs.log
// RUN: FileCheck %s --check-prefix=NOSERIAL < %t/rs.log
// RUN: %ptxas -arch=sm_90a -v %t/rs_gemm_rs_1wg_kernel_module.ptx -o %t/rs1wg.cubin > %t/rs1wg.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/rs1wg.log
// RUN: FileCheck %s --check-prefix=NOSERIAL < %t/rs1wg.log
// RUN: FileCheck %s --check-prefix=RS < %t/rs_gemm_rs_pipelined_kernel_module.ptx
// RUN: FileCheck %s --check-prefix=RS < %t/rs_gemm_rs_pipelined_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/rs_gemm_rs_pipelined_kernel_module.ptx -o %t/rspipe.cubin > %t/rspipe.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/rspipe.log
// RUN: FileCheck %s --check-prefix=NOSERIAL < %t/rspipe.log
// RUN: %ptxas -arch=sm_90a -v %t/rs_gemm_rs_pipelined_kernel_tma_module.ptx -o %t/rstma.cubin > %t/rstma.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/rstma.log
// RUN: FileCheck %s --check-prefix=NOSERIAL < %t/rstma.log
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=bin" -tile-emit-binary="prefix=%t/bin_" -o /dev/null
// RUN: test -s %t/bin_gemm_kernel_module.cubin

// The fall-back kernel: cp.async groups and wgmma from the swizzled tiles
// in the 1024-byte aligned dynamic shared memory.
// PTX: .extern .shared .align 1024 .b8 __tile_dynamic_shared[];
// PTX: .visible .entry gemm_kernel(
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: cp.async.commit_group
// PTX-DAG: cp.async.wait_group 2
// PTX-DAG: wgmma.fence.sync.aligned
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// PTX-DAG: wgmma.commit_group.sync.aligned
// PTX-DAG: wgmma.wait_group.sync.aligned 0

// The TMA kernel: the tensor maps arrive as parameters; thread 0 initializes
// full and empty barriers per slot; tensor copies complete on the full
// barriers, consumers wait on them by phase parity and release slots on the
// empty ones.
// The example sets no attribute: warp specialization is the compiler's
// default where it keeps the consumer warpgroups per multiprocessor (here
// two warpgroups of 64 x 256 accumulators, one block either way): a
// producer warpgroup (384 threads) drops to 40 registers, the consumers
// rise to 232.
// TMA: .extern .shared .align 1024 .b8 __tile_dynamic_shared[];
// TMA: .visible .entry gemm_kernel_tma(
// TMA: .maxntid 384, 1, 1
// TMA: .minnctapersm 1
// TMA-DAG: setmaxnreg.dec.sync.aligned.u32 40
// TMA-DAG: setmaxnreg.inc.sync.aligned.u32 232
// TMA-DAG: mbarrier.init.shared.b64
// TMA-DAG: fence.mbarrier_init.release.cluster
// TMA-DAG: mbarrier.arrive.expect_tx.shared.b64
// TMA-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMA-DAG: mbarrier.try_wait.parity.shared.b64
// TMA-DAG: mbarrier.arrive.shared.b64
// TMA-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// TMA-NOT: cp.async.cg

// sm_80 keeps ldmatrix, mma.sync and cp.async (byte for byte: the golden
// test), with 3 of the 4 stages asked for: 4 need 192 KiB of its 163 KiB.
// SM80-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SM80-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// SM80-DAG: cp.async.wait_group 1
// SM80-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// Without pipelining: the copies still use the copy engine but every
// iteration waits for all of them (wait_group 0) before computing.
// SYNC-NOT: cp.async.wait_group {{[1-9]}}
// SYNC: cp.async.cg.shared.global
// SYNC: cp.async.wait_group 0
// SYNC: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16

// FlashAttention on sm_90a: S = Q K^T from shared memory (SS form), P V with
// P from registers (RS form: four b32 A registers).
// FA90-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{[{]}}%{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// FA90-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{[{]}}%{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;

// The RS gemm (gemm_rs.mlir): A's elements are packed in pairs (mov.b32
// from two 16-bit registers) before the fence; each k step is one wgmma
// with 4 A registers and B's descriptor; the group completes.
// RS: mov.b32 %r{{[0-9]+}}, {%rs{{[0-9]+}}, %rs{{[0-9]+}}};
// RS: wgmma.fence.sync.aligned
// RS-NOT: mov.b32 %r{{[0-9]+}}, {%rs
// RS: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{[{]}}%{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// RS: wgmma.commit_group.sync.aligned
// RS: wgmma.wait_group.sync.aligned 0

// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// ptxas would warn when it has to serialize the wgmmas (e.g. registers
// they read defined after the fence).
// NOSERIAL-NOT: serialized
