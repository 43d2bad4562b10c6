// The 2:4-sparse GEMM (tile.gemm ... sparse) through the whole pipeline:
// mma.sp m16n8k32 on sm_80 and sm_90a (what selection picks), wgmma.sp
// m64n128k32 on sm_90a where the gemm pins it (PTX ISA 8.2 at least: a
// diagnostic under sm_90a's default 8.0), each with sparsity selector 0 and metadata registers packed
// from two 16-bit words (rows g and g + 8), assembled by ptxas without
// spills; gfx942 is diagnosed.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-nvvm="chip=sm_80 format=isa" -tile-emit-binary="prefix=%t/sm80_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SP < %t/sm80_gemm_sp_kernel_module.ptx
// RUN: %ptxas -arch=sm_80 -v %t/sm80_gemm_sp_kernel_module.ptx -o %t/sm80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/sm90_" -o /dev/null
// RUN: FileCheck %s --check-prefix=SP < %t/sm90_gemm_sp_kernel_module.ptx
// RUN: tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse_wgmma.mlir --tile-to-nvvm="chip=sm_90a features=+ptx84 format=isa" -tile-emit-binary="prefix=%t/wg_" -o /dev/null
// RUN: not tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse_wgmma.mlir --tile-to-nvvm="chip=sm_90a format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX80
// RUN: FileCheck %s --check-prefix=WG < %t/wg_gemm_sp_kernel_module.ptx
// RUN: FileCheck %s --check-prefix=WG < %t/wg_gemm_sp_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/wg_gemm_sp_kernel_tma_module.ptx -o %t/wg.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/sm90_gemm_sp_kernel_module.ptx -o %t/sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not tile-opt %tile_src_root/test/Examples/Inputs/gemm_sparse.mlir --tile-to-rocdl="chip=gfx942 format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMD

// The metadata: 16-bit loads of rows g and g + 8, the second shifted into
// the high half.
// SP-LABEL: .entry gemm_sp_kernel
// SP: ld.shared.{{[bu]}}16
// SP: shl.b32 {{.*}}, 16;
// SP: mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {{.*}}, 0x0;
// SP-NOT: wgmma

// On sm_90a: the metadata words, a barrier (every thread has read its
// words before any MMA that releases the slot is issued), then wgmma.sp
// with the A descriptor, the B descriptor, the metadata and selector 0.
// WG: .version 8.4
// WG-LABEL: .entry gemm_sp_kernel
// WG: ld.shared.{{[bu]}}16
// WG: shl.b32 {{.*}}, 16;
// WG: bar.sync
// WG: wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, 0, p, 1, 1, 0, 1;

// PTXAS-NOT: serialized
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// PTX80: error: 'tile.gemm' op wgmma.sp (a 2:4-sparse A) needs PTX ISA 8.2, but sm_90a is compiled with +ptx80 here: compile with features=+ptx84

// AMD: error: 'tile.gemm' op a 2:4-sparse A (sparse) has no instruction on gfx942: MLIR 22's ROCDL has no 2:4 sparse MFMA (CDNA3's smfmac)
