// The 2:4-sparse GEMM (tile.gemm ... sparse) through the whole pipeline:
// mma.sp m16n8k32 with sparsity selector 0 and its metadata registers
// packed from two 16-bit words (rows g and g + 8), on sm_80 and on sm_90a
// (where wgmma.sp is not lowered yet), assembled by ptxas without spills;
// gfx942 is diagnosed.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-nvvm="chip=sm_80 format=isa" -tile-emit-binary="prefix=%t/sm80_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SP < %t/sm80_gemm_sp_kernel_module.ptx
// RUN: %ptxas -arch=sm_80 -v %t/sm80_gemm_sp_kernel_module.ptx -o %t/sm80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/sm90_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SP < %t/sm90_gemm_sp_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/sm90_gemm_sp_kernel_module.ptx -o %t/sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-rocdl="chip=gfx942 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMD

// The metadata: 16-bit loads of rows g and g + 8, the second shifted into
// the high half.
// SP-LABEL: .entry gemm_sp_kernel
// SP: ld.shared.{{[bu]}}16
// SP: shl.b32 {{.*}}, 16;
// SP: mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {{.*}}, 0x0;
// SP-NOT: wgmma

// PTXAS-NOT: serialized
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// AMD: error: 'tile.gemm' op a 2:4-sparse A (sparse) has no instruction on gfx942: MLIR 22's ROCDL has no 2:4 sparse MFMA (CDNA3's smfmac)
