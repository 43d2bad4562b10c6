// tile-to-nvvm options are checked when the pipeline starts, with an error
// at the module and a non-zero exit code. Before (issue 10), format=foo and
// a missing cuda-path printed an error from gpu-module-to-binary but
// tile-opt exited 0 and wrote its output; unknown chips are reported by
// tile-attach-target, not by an LLVM ERROR.
//
// RUN: rm -rf %t && mkdir -p %t
//
// RUN: not tile-opt %s --tile-to-nvvm="format=foo" --tile-emit-binary="prefix=%t/foo-" -o %t/foo.mlir 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not ls %t/foo.mlir
// RUN: not ls %t/foo-k_module.cubin
// FORMAT: pipeline-options.mlir:0:0: error: unknown format 'foo' for tile-to-nvvm: expected bin (cubin), isa (PTX) or fatbin
// FORMAT-NOT: error:
//
// RUN: not tile-opt %s --tile-to-nvvm="format=isa cuda-path=%t/no-cuda" -o %t/cuda.mlir 2>&1 | FileCheck %s --check-prefix=CUDA -DDIR=%t
// RUN: not ls %t/cuda.mlir
// CUDA: pipeline-options.mlir:0:0: error: the CUDA toolkit '[[DIR]]/no-cuda' (from the cuda-path option) does not exist or is not a directory
//
// RUN: not env CUDA_PATH=%t/no-cuda CUDA_ROOT= CUDA_HOME= tile-opt %s --tile-to-nvvm="format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUDA-ENV -DDIR=%t
// CUDA-ENV: error: the CUDA toolkit '[[DIR]]/no-cuda' (from $CUDA_PATH) does not exist or is not a directory
//
// A toolkit without ptxas is fine for PTX but not for cubins.
// RUN: mkdir -p %t/cuda/nvvm/libdevice %t/cuda/bin && touch %t/cuda/nvvm/libdevice/libdevice.10.bc
// RUN: not env PATH=%t/cuda/bin tile-opt %s --tile-to-nvvm="format=bin cuda-path=%t/cuda" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS -DDIR=%t
// PTXAS: error: format=bin needs ptxas, which is neither in [[DIR]]/cuda/bin nor on PATH
//
// RUN: not tile-opt %s --tile-to-nvvm="format=isa opt-level=9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: opt-level must be from 0 to 3, got 9
//
// RUN: not tile-opt %s --tile-to-nvvm="format=isa chip=sm_100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: pipeline-options.mlir:0:0: error: unknown or unsupported chip 'sm_100'
// CHIP-NOT: LLVM ERROR
// RUN: not tile-opt %s --tile-to-nvvm="format=isa chip=gfx90a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMD
// AMD: error: the target gfx90a is an AMD GPU: compile it with tile-to-rocdl, not tile-to-nvvm
// AMD-NOT: LLVM ERROR
// RUN: not tile-opt %s --tile-to-rocdl="format=isa chip=sm_90a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NV
// NV: error: the target sm_90a is an NVIDIA GPU: compile it with tile-to-nvvm, not tile-to-rocdl
// NV-NOT: LLVM ERROR
// RUN: not tile-opt %s --tile-to-rocdl="format=hsaco" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RFMT
// RFMT: error: unknown format 'hsaco' for tile-to-rocdl: expected bin (code object), isa (assembly) or llvm
// RUN: not tile-opt %s --tile-to-rocdl="format=bin rocm-path=%t.none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LLD -DDIR=%t.none
// LLD: error: format=bin links the code object with [[DIR]]/llvm/bin/ld.lld (ROCm folder from the rocm-path option), which does not exist: point rocm-path or $ROCM_PATH at a folder whose llvm/bin/ld.lld is LLVM 22's ld.lld (Debian's lld-22), or use format=isa
// A module that names no chip is compiled for gfx942 by tile-to-rocdl.
// RUN: tile-opt %s --tile-to-rocdl="format=isa" | FileCheck %s --check-prefix=ROK
// ROK: gpu.binary @k_module [#gpu.object<#rocdl.target<O = 3, chip = "gfx942">
//
// Valid options still compile.
// RUN: tile-opt %s --tile-to-nvvm="format=isa" | FileCheck %s --check-prefix=OK
// OK: gpu.binary @k_module

func.func @f(%A: memref<?x?xf16>, %C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<16x16xf16, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %f : memref<?x?xf16> to memref<16x16xf16, #tile.mem<fragment>>
    tile.copy %f, %C[%c0, %c0] : memref<16x16xf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}
