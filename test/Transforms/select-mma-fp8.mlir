// RUN: tile-opt %examples/fp8_gemm.mlir --tile-attach-target=chip=sm_90a --tile-select-mma | FileCheck %s --check-prefix=EX90
// RUN: tile-opt %examples/fp8_gemm.mlir --tile-attach-target=chip=sm_89 --tile-select-mma | FileCheck %s --check-prefix=EX89
// RUN: tile-opt %s -split-input-file --tile-select-mma | FileCheck %s

// The FP8 example: wgmma k32 on sm_90a, whose gemms that sum their K block
// into a running accumulator promote every 128 of K, with m64n128 across
// the per-tensor and row-wise kernels' 128 x 128 tiles (128 x 256 ones are
// narrowed for the promotion: @wide_promoted below); the block-scaled gemm
// clears its own accumulator per K block of 128 and needs no promotion.
// sm_89: mma.sync m16n8k32, no promotion.
// EX90: tile.gemm {{.*}} transpose_b {mma = #tile.mma<wgmma, shape = [64, 128, 32], warps = [8, 1]>, promote_k = 128 : i64} : {{.*}}memref<128x128xf32
// EX90: tile.gemm {{.*}} transpose_b {mma = #tile.mma<wgmma, shape = [64, 128, 32], warps = [8, 1]>, promote_k = 128 : i64} : {{.*}}memref<128x128xf32
// EX90: tile.gemm {{.*}} transpose_b clear_accum {mma = #tile.mma<wgmma, shape = [64, 128, 32], warps = [8, 1]>} : {{.*}}memref<128x128xf32
// EX89: tile.gemm {{.*}} transpose_b {mma = #tile.mma<mma_sync, shape = [16, 8, 32], warps = [4, 2]>}
// EX89: tile.gemm {{.*}} transpose_b {mma = #tile.mma<mma_sync, shape = [16, 8, 32], warps = [4, 2]>}
// EX89: tile.gemm {{.*}} transpose_b clear_accum {mma = #tile.mma<mma_sync, shape = [16, 8, 32], warps = [4, 2]>}
// EX89-NOT: promote_k

!sA = memref<64x256xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x256xf8E5M2, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

// K = 256 summed into the accumulator: promoted every 128. Mixed e4m3 x
// e5m2 is one instruction.
// CHECK-LABEL: func.func @long_k
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 128, 32], warps = [4, 1]>, promote_k = 128 : i64}
func.func @long_k() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c transpose_b : !sA, !sB, !fC
  }
  return
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<256x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// A 256-wide promoting gemm: m64n128 instructions, two per row of the
// tile (one instruction's partial sums are what promotion holds: m64n256's
// 128 registers beside the 64 x 256 slab's 128 would not fit). Without
// promotion the instruction spans the tile.
// CHECK-LABEL: func.func @wide_promoted
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 128, 32], warps = [8, 1]>, promote_k = 128 : i64}
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 256, 32], warps = [8, 1]>, promote_k = 0 : i64}
func.func @wide_promoted() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c transpose_b : !sA, !sB, !fC
    tile.gemm %a, %b, %c transpose_b {promote_k = 0 : i64} : !sA, !sB, !fC
  }
  return
}

// -----

!sA = memref<64x192xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x192xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// K = 192 with clear_accum: the largest multiple of the instruction's K
// (32) of at most 128 that divides K.
// CHECK-LABEL: func.func @odd_span
// CHECK: tile.gemm {{.*}} clear_accum {mma = #tile.mma<wgmma, shape = [64, 64, 32], warps = [4, 1]>, promote_k = 96 : i64}
func.func @odd_span() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c transpose_b clear_accum : !sA, !sB, !fC
  }
  return
}

// -----

!sA = memref<64x256xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x256xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// The user's choice: no promotion (the tensor core's own accumulation).
// CHECK-LABEL: func.func @fast_accumulation
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 64, 32], warps = [4, 1]>, promote_k = 0 : i64}
func.func @fast_accumulation() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c transpose_b {promote_k = 0 : i64} : !sA, !sB, !fC
  }
  return
}

// -----

!fA = memref<64x64xf8E4M3FN, #tile.mem<fragment>>
!sB = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// A from registers (the RS form), B stored N x K.
// CHECK-LABEL: func.func @register_a
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 64, 32], warps = [4, 1]>, promote_k = 64 : i64}
func.func @register_a() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !fA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c transpose_b : !fA, !sB, !fC
  }
  return
}

// -----

!sA = memref<128x64xf8E4M3FNUZ, #gpu.address_space<workgroup>>
!sB = memref<128x64xf8E5M2FNUZ, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// gfx942: MFMA on the FNUZ flavours (fp8 x bf8 mixed).
// CHECK-LABEL: func.func @gfx942
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<mfma, shape = [32, 32, 16], warps = [2, 2]>}
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @gfx942() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c transpose_b : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB144 = memref<144x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC144 = memref<128x144xf32, #tile.mem<fragment>>
!sB192 = memref<192x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC192 = memref<128x192xf32, #tile.mem<fragment>>

// Tiles whose width is not a power of two (the accumulator's columns are
// padded to one). 144 columns keep one m64n144 instruction: its partial
// sums, twice, beside the slab are 3 x 72 registers a thread. 192 would
// take 288: narrowed to the widest instruction up to 128 dividing it, 96.
// CHECK-LABEL: func.func @n144_promoted
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 144, 32], warps = [8, 1]>, promote_k = 128 : i64}
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 96, 32], warps = [8, 1]>, promote_k = 128 : i64}
func.func @n144_promoted() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB144
    %c = tile.alloc : !fC144
    tile.gemm %a, %b, %c transpose_b : !sA, !sB144, !fC144
    %b2 = tile.alloc : !sB192
    %c2 = tile.alloc : !fC192
    tile.gemm %a, %b2, %c2 transpose_b : !sA, !sB192, !fC192
  }
  return
}
