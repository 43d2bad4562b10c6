// Compile the examples through the whole pipeline to PTX and assemble it with
// ptxas for sm_80 and sm_90a: no spills, and the tensor-core instructions
// are there.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/sm90_" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/sm90_gemm_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sm90_gemm_kernel_module.ptx -o %t/gemm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa pipeline=false" -tile-emit-binary="prefix=%t/sync_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SYNC < %t/sync_gemm_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sync_gemm_kernel_module.ptx -o %t/sync90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -tile-emit-binary="prefix=%t/sm80_" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sm80_gemm_kernel_module.ptx -o %t/gemm80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/flash_attention.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/sm90_" -o /dev/null
// RUN: %ptxas -arch=sm_90a -v %t/sm90_flash_attention_fwd_kernel_module.ptx -o %t/fa90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=bin" -tile-emit-binary="prefix=%t/bin_" -o /dev/null
// RUN: test -s %t/bin_gemm_kernel_module.cubin

// PTX: .visible .entry gemm_kernel(
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: cp.async.commit_group
// PTX-DAG: cp.async.wait_group 2
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// Without pipelining: the copies still use the copy engine but every
// iteration waits for all of them (wait_group 0) before computing.
// SYNC-NOT: cp.async.wait_group {{[1-9]}}
// SYNC: cp.async.cg.shared.global
// SYNC: cp.async.wait_group 0
// SYNC: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// PTXAS: 0 bytes spill stores, 0 bytes spill loads
