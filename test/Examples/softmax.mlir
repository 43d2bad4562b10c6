// The softmax example (a copy padding with -inf) and a pipelined copy
// padding with 7.0 compile from one source for sm_80, sm_90a and gfx942:
// the PTX assembles without spills, the padding is in the code, and the
// library's function table carries the bound on N.
//
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %examples/softmax.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/sm90_" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/sm90_softmax_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sm90_softmax_kernel_module.ptx -o %t/sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/softmax.mlir --tile-to-nvvm="chip=sm_80 format=isa" -tile-emit-binary="prefix=%t/sm80_" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sm80_softmax_kernel_module.ptx -o %t/sm80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %examples/softmax.mlir --tile-to-rocdl="chip=gfx942 format=isa" -o %t/softmax.gfx942.s
// RUN: FileCheck %s --check-prefix=GCN < %t/softmax.gfx942.s
//
// RUN: tile-opt %tile_src_root/test/Runtime/Inputs/pad_copy.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/pad_" -o /dev/null
// RUN: FileCheck %s --check-prefix=PAD < %t/pad_pad_copy_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/pad_pad_copy_kernel_module.ptx -o %t/pad.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
//
// RUN: tile-compile %examples/softmax.mlir --chip sm_80,sm_90a --header %t/softmax.h -o %t/libsoftmax.so
// RUN: FileCheck %s --check-prefix=HDR < %t/softmax.h

// -inf (0xff800000) where the masked loads read nothing.
// PTX: .entry softmax_kernel
// PTX: 0fFF800000
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// GCN: softmax_kernel:
// GCN: 0xff800000
// 7.0 in f16 (0x4700) beside the cp.async copies.
// PAD: cp.async.cg.shared.global
// PAD: 0x4700
// HDR: X: memref<?x?xf16> [R, N<=1024]
// HDR: void softmax(tile_memref_2d *X, tile_memref_2d *Y);
