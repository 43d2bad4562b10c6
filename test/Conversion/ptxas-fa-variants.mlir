// The FlashAttention variants compiled for sm_90a and assembled with
// ptxas: the causal example (examples/flash_attention_causal.mlir) and,
// written by scripts/fa-variant.py, head dimension 64, 256 and bf16
// versions.
// The D = 128 tensor-copy kernels are warp-specialized as the non-causal
// example is (test/Conversion/ptxas-fa.mlir): a producer warpgroup issuing the K and V
// tensor copies of the 3-D tensors, setmaxnreg, Q K^T with both operands
// in shared memory (wgmma m64nBNk16) and P V with P from registers
// (m64nDk16), in the variant's element type; `.minnctapersm 1` makes ptxas
// allocate the 168 registers per thread the budgets are relative to (with
// D = 64 it would allocate the 109 the code uses and ignore setmaxnreg).
// No spills. The causal
// example also compiles for sm_80 (mma.sync).
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/causal %t/d64 %t/d256 %t/bf16 %t/causal-bf16-d64 %t/sm80
// RUN: %python %tile_src_root/scripts/fa-variant.py --head-dim 64 %t/d64.mlir
// RUN: %python %tile_src_root/scripts/fa-variant.py --head-dim 256 %t/d256.mlir
// RUN: %python %tile_src_root/scripts/fa-variant.py --dtype bf16 %t/bf16.mlir
// RUN: %python %tile_src_root/scripts/fa-variant.py --causal --dtype bf16 --head-dim 64 %t/causal-bf16-d64.mlir

// The variants' IR: types, bounds and the softmax constant follow D.
// RUN: tile-opt %t/d64.mlir | FileCheck %s --check-prefix=D64-IR --implicit-check-not=x128xf16
// D64-IR: func.func @flash_attention_fwd(%{{.*}}: memref<?x?x64xf16> {tile.shape = ["BH", "S", "64"]}
// D64-IR: arith.constant 0.180336878 : f32
// D64-IR: tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
// D64-IR: tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
// D64-IR: tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
// D64-IR: tile.parallel (%{{.*}}, %{{.*}}) in [128, 64]
// RUN: tile-opt %t/d256.mlir | FileCheck %s --check-prefix=D256-IR --implicit-check-not=x128xf16
// D256-IR: func.func @flash_attention_fwd(%{{.*}}: memref<?x?x256xf16> {tile.shape = ["BH", "S", "256"]}
// D256-IR: arith.constant 0.0901684388 : f32
// D256-IR: tile.alloc : memref<128x256xf16, #gpu.address_space<workgroup>>
// D256-IR: tile.alloc : memref<64x256xf16, #gpu.address_space<workgroup>>
// D256-IR: tile.alloc : memref<128x256xf32, #tile.mem<fragment>>
// D256-IR: tile.parallel (%{{.*}}, %{{.*}}) in [128, 256]
// RUN: tile-opt %t/causal-bf16-d64.mlir | FileCheck %s --check-prefix=CAUSAL-IR --implicit-check-not=xf16 --implicit-check-not='to f16'
// CAUSAL-IR: func.func @flash_attention_causal_fwd(%{{.*}}: memref<?x?x64xbf16>
// CAUSAL-IR: arith.minui
// CAUSAL-IR: scf.for
// CAUSAL-IR: tile.gemm
// CAUSAL-IR: scf.if
// CAUSAL-IR-NEXT: tile.parallel
// CAUSAL-IR: arith.cmpi ule
// CAUSAL-IR: tile.reduce <max>
// CAUSAL-IR: arith.truncf %{{.*}} : f32 to bf16

// RUN: tile-opt %examples/flash_attention_causal.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/causal/" -o /dev/null
// RUN: ls %t/causal | FileCheck %s --check-prefix=CAUSAL-FILES
// CAUSAL-FILES: flash_attention_causal_fwd_kernel_module.ptx
// CAUSAL-FILES-NEXT: flash_attention_causal_fwd_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefixes=TMA,F16-D128 < %t/causal/flash_attention_causal_fwd_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefixes=FALLBACK,FALLBACK-F16 < %t/causal/flash_attention_causal_fwd_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/causal/flash_attention_causal_fwd_kernel_tma_module.ptx -o %t/causal/tma.cubin > %t/causal/tma.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-TMA < %t/causal/tma.log
// RUN: %ptxas -arch=sm_90a -v %t/causal/flash_attention_causal_fwd_kernel_module.ptx -o %t/causal/fallback.cubin > %t/causal/fallback.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/causal/fallback.log

// RUN: tile-opt %t/d64.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/d64/" -o /dev/null
// RUN: FileCheck %s --check-prefixes=TMA-UNSPEC,F16-D64 < %t/d64/flash_attention_fwd_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefixes=FALLBACK,FALLBACK-F16 < %t/d64/flash_attention_fwd_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d64/flash_attention_fwd_kernel_tma_module.ptx -o %t/d64/tma.cubin > %t/d64/tma.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/d64/tma.log

// Head dimension 256 (Q 64 KiB, K and V 32 KiB a stage): warp-specialized,
// P V as m64n256k16, no spills.
// RUN: tile-opt %t/d256.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/d256/" -o /dev/null
// RUN: FileCheck %s --check-prefixes=TMA,F16-D256 < %t/d256/flash_attention_fwd_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d256/flash_attention_fwd_kernel_tma_module.ptx -o %t/d256/tma.cubin > %t/d256/tma.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-TMA < %t/d256/tma.log

// RUN: tile-opt %t/bf16.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/bf16/" -o /dev/null
// RUN: FileCheck %s --check-prefixes=TMA,BF16-D128 < %t/bf16/flash_attention_fwd_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefixes=FALLBACK,FALLBACK-BF16 < %t/bf16/flash_attention_fwd_kernel_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/bf16/flash_attention_fwd_kernel_tma_module.ptx -o %t/bf16/tma.cubin > %t/bf16/tma.log 2>&1
// RUN: FileCheck %s --check-prefixes=PTXAS,PTXAS-TMA < %t/bf16/tma.log

// RUN: tile-opt %t/causal-bf16-d64.mlir --tile-to-nvvm="chip=sm_90a format=isa" -tile-emit-binary="prefix=%t/causal-bf16-d64/" -o /dev/null
// RUN: FileCheck %s --check-prefixes=TMA-UNSPEC,BF16-D64 < %t/causal-bf16-d64/flash_attention_causal_fwd_kernel_tma_module.ptx
// RUN: %ptxas -arch=sm_90a -v %t/causal-bf16-d64/flash_attention_causal_fwd_kernel_tma_module.ptx -o %t/causal-bf16-d64/tma.cubin > %t/causal-bf16-d64/tma.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/causal-bf16-d64/tma.log

// The fall-back chip: the causal example on sm_80 (mma.sync, cp.async).
// RUN: tile-opt %examples/flash_attention_causal.mlir --tile-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -tile-emit-binary="prefix=%t/sm80/" -o /dev/null
// RUN: FileCheck %s --check-prefix=SM80 < %t/sm80/flash_attention_causal_fwd_kernel_module.ptx
// RUN: %ptxas -arch=sm_80 -v %t/sm80/flash_attention_causal_fwd_kernel_module.ptx -o %t/sm80/k.cubin > %t/sm80/k.log 2>&1
// RUN: FileCheck %s --check-prefix=PTXAS < %t/sm80/k.log

// With D = 64 and BN = 64 the register tiles are small enough for two
// blocks a multiprocessor: a producer warpgroup would halve the consumer
// warpgroups resident, so the compiler leaves these kernels unspecialized
// (docs/design.md 3.1): the kernel's own threads issue the tensor copies.
// TMA-UNSPEC: .maxntid 256, 1, 1
// TMA-UNSPEC-NOT: setmaxnreg
// TMA-UNSPEC: mbarrier.init.shared.b64
// TMA-UNSPEC: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMA-UNSPEC: mbarrier.try_wait.parity.shared.b64
// TMA-UNSPEC-NOT: setmaxnreg
// TMA: .maxntid 384, 1, 1
// TMA-NEXT: .minnctapersm 1
// TMA: mbarrier.init.shared.b64
// TMA: setmaxnreg.dec.sync.aligned.u32 40;
// TMA: mbarrier.try_wait.parity.shared.b64
// TMA: mbarrier.arrive.expect_tx.shared.b64
// TMA: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}]
// TMA: setmaxnreg.inc.sync.aligned.u32 232;
// TMA: mbarrier.try_wait.parity.shared.b64
// Q K^T (SS, N = BN = 64), exp2, P V (RS, N = D); then the release.
// F16-D128: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// F16-D128: ex2.approx
// F16-D128: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}
// F16-D64: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// F16-D64: ex2.approx
// F16-D64: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}
// F16-D256: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// F16-D256: ex2.approx
// F16-D256: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}
// BF16-D128: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// BF16-D128: ex2.approx
// BF16-D128: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}
// BF16-D64: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// BF16-D64: ex2.approx
// BF16-D64: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}
// TMA: mbarrier.arrive.shared.b64
// TMA-NOT: cp.async.cg
// F16-D128-NOT: bf16
// F16-D64-NOT: bf16
// BF16-D128-NOT: .f16.f16
// BF16-D64-NOT: .f16.f16

// FALLBACK: .maxntid 256, 1, 1
// FALLBACK-NOT: setmaxnreg
// FALLBACK: cp.async.cg.shared.global
// FALLBACK-F16: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// FALLBACK-BF16: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// FALLBACK-NOT: cp.async.bulk.tensor

// SM80: .maxntid 256, 1, 1
// SM80: cp.async.cg.shared.global
// SM80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM80: ex2.approx
// SM80-NOT: wgmma

// PTXAS-NOT: serialized
// PTXAS-TMA-NOT: ignored
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-TMA: Used 168 registers
