// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics
//
// What AMD CDNA chips cannot do is diagnosed at the op, naming the chip:
// warp specialization and register budgets (no warpgroups, no setmaxnreg),
// tensor copies (no TMA), NVIDIA MMA instructions (wgmma, mma.sync), fp8 on
// gfx90a, and MFMA shapes and types the chips do not have.

module attributes {tile.target = #tile.target<"gfx942">} {
func.func @ws() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op needs warpgroups, which gfx942 does not have: warp specialization is not supported there}}
    tile.ws [0] {
    }
  }
  return
}
}

// -----

module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @setmaxnreg() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op sets a register budget, which needs setmaxnreg (sm_90a); the target is gfx90a}}
    tile.ws [0] registers(40) {
    }
  }
  return
}
}

// -----

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @tma(%A: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : !sA
    // expected-error @below {{is a tensor copy (tma), which needs a chip with tensor copies; gfx942 has none}}
    tile.copy async tma %A[%c0, %c0], %as : !g to !sA
  }
  return
}
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @wgmma() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma is an NVIDIA instruction; the target is gfx942}}
    tile.gemm %a, %b, %c {mma = #tile.mma<wgmma, shape = [64, 64, 16], warps = [1, 1]>} : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @mma_sync() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mma_sync is an NVIDIA instruction; the target is gfx90a}}
    tile.gemm %a, %b, %c {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [2, 1]>} : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @fp8_gfx90a() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{fp8 inputs need fp8 matrix cores, which gfx90a does not have (they start with gfx942)}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x64xf8E5M2, #gpu.address_space<workgroup>>
!sB = memref<64x64xf8E5M2, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @fp8_gfx942() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{fp8 MFMA on gfx942 reads the FNUZ flavours (f8E4M3FNUZ, f8E5M2FNUZ), got 'f8E5M2'}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf16, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @f16_accumulator() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mfma on gfx942 accumulates in f32, got 'f16'}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x32xi8, #gpu.address_space<workgroup>>
!sB = memref<32x64xi8, #gpu.address_space<workgroup>>
!fC = memref<64x64xi32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @i8() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mfma on gfx942 supports f16 and bf16 inputs, got 'i8'}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @pinned_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mfma on gfx942 has the shapes 32x32x8 and 16x16x16 for 'f16' inputs, got 32x32x16}}
    tile.gemm %a, %b, %c {mma = #tile.mma<mfma, shape = [32, 32, 16], warps = [2, 1]>} : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @pinned_waves() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{the mma choice partitions the gemm over 2x2 waves, but it is executed by 2 waves of 64 lanes}}
    tile.gemm %a, %b, %c {mma = #tile.mma<mfma, shape = [32, 32, 8], warps = [2, 2]>} : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @pinned_split() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mfma 32x32x8 over 4x1 waves needs M to be a power of two and a multiple of 128, got 64}}
    tile.gemm %a, %b, %c {mma = #tile.mma<mfma, shape = [32, 32, 8], warps = [4, 1]>} : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<16x16xf16, #gpu.address_space<workgroup>>
!sB = memref<16x16xf16, #gpu.address_space<workgroup>>
!fC = memref<16x16xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @too_small() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{cannot compute a 16x16x16 gemm over 2 waves with the 'square' policy and mfma 32x32x8 or 16x16x16 atoms (M, N and K must be powers of two that the atoms tile)}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}


