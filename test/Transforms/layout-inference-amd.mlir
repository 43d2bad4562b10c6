// RUN: tile-opt %s -split-input-file -tile-layout-inference=remarks=true -verify-diagnostics | FileCheck %s
//
// LDS layouts of MFMA operands on AMD CDNA: the target evaluates the
// 16-byte-chunk swizzle (the NVIDIA / ldmatrix one) and the swizzles of
// 8-byte units on its LDS bank model (lib/Target/AMD/LdsBanks.cpp) with the
// gemm's operand reads and a copy's 16-byte stores, and keeps the cheapest;
// the remark gives the LDS cycles (taken, minimum) of the choice and, when
// it is not the 16-byte-chunk swizzle, of that one.

// The GEMM example's tiles over 4 waves (2 x 2): A (M x K, 64-byte rows)
// is read along its contiguous k, 8 bytes per lane, which the 64-byte
// swizzle of 16-byte chunks serves in twice the minimum cycles; the 8-byte
// unit swizzle reaches the minimum (its period, 16 x 64 bytes, sets the
// alignment). B (K x N) is read element by element down its columns: the
// 128-byte swizzle is at the minimum already and stays.
// CHECK-LABEL: func.func @gemm
// CHECK: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 64, unit = 8>} : memref<128x32xf16
// CHECK: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<32x128xf16

!gA = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx942">} {
func.func @gemm(%A: !gA, %B: !gA) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-remark @below {{shared layout #tile.shared<swizzle = 64, unit = 8>: mfma operand reads 64 LDS cycles (minimum 64), copy stores 64 (minimum 64); #tile.shared<swizzle = 64> would take reads 128 LDS cycles (minimum 64), copy stores 64 (minimum 64)}}
    %a = tile.alloc : !sA
    // expected-remark @below {{shared layout #tile.shared<swizzle = 128>: mfma operand reads 128 LDS cycles (minimum 128), copy stores 64 (minimum 64)}}
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.copy %A[%c0, %c0], %a : !gA to !sA
    tile.copy %B[%c0, %c0], %b : !gA to !sB
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

// FlashAttention's S = Q K^T in bf16 on gfx90a: Q (M x K) and K (N x K,
// transpose_b) both run along k; their 256-byte rows are 128-byte column
// panels, one row per 128-byte line, so the 128-byte swizzle of 8-byte
// units gives the 16 rows of a read phase 16 different 8-byte slots.
// CHECK-LABEL: func.func @transposed_b
// CHECK: tile.alloc {alignment = 2048 : i64, layout = #tile.shared<swizzle = 128, unit = 8>} : memref<128x128xbf16
// CHECK: tile.alloc {alignment = 2048 : i64, layout = #tile.shared<swizzle = 128, unit = 8>} : memref<64x128xbf16

!sK = memref<64x128xbf16, #gpu.address_space<workgroup>>
!sQ = memref<128x128xbf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @transposed_b() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-remark @below {{shared layout #tile.shared<swizzle = 128, unit = 8>: mfma operand reads 256 LDS cycles (minimum 256), copy stores 256 (minimum 256); #tile.shared<swizzle = 128> would take reads 512 LDS cycles (minimum 256), copy stores 256 (minimum 256)}}
    %q = tile.alloc : !sQ
    // expected-remark @below {{shared layout #tile.shared<swizzle = 128, unit = 8>: mfma operand reads 128 LDS cycles (minimum 128), copy stores 128 (minimum 128); #tile.shared<swizzle = 128> would take reads 256 LDS cycles (minimum 128), copy stores 128 (minimum 128)}}
    %k = tile.alloc : !sK
    %s = tile.alloc : !fS
    tile.gemm %q, %k, %s transpose_b clear_accum policy <full_row> : !sQ, !sK, !fS
  }
  return
}
}

// -----

// Both operands transposed, one wave: A (K x M) is read element by element
// and keeps the 128-byte swizzle of 16-byte chunks; B (N x K) runs along k
// and gets the 64-byte swizzle of 8-byte units.
// CHECK-LABEL: func.func @transposed_a
// CHECK: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<32x64xf16
// CHECK: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 64, unit = 8>} : memref<64x32xf16

!sAT = memref<32x64xf16, #gpu.address_space<workgroup>>
!sBT = memref<64x32xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx942">} {
func.func @transposed_a() {
  tile.kernel @k blocks(%bx) in [1] threads(64) {
    // expected-remark @below {{shared layout #tile.shared<swizzle = 128>: mfma operand reads 64 LDS cycles (minimum 64), copy stores 32 (minimum 32)}}
    %a = tile.alloc : !sAT
    // expected-remark @below {{shared layout #tile.shared<swizzle = 64, unit = 8>: mfma operand reads 32 LDS cycles (minimum 32), copy stores 32 (minimum 32); #tile.shared<swizzle = 64> would take reads 64 LDS cycles (minimum 32), copy stores 32 (minimum 32)}}
    %b = tile.alloc : !sBT
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c transpose_a transpose_b : !sAT, !sBT, !fC
  }
  return
}
}

// -----

// A layout the kernel fixes is kept, even where it costs conflicts.
// CHECK-LABEL: func.func @fixed
// CHECK: tile.alloc {alignment = 512 : i64, layout = #tile.shared<swizzle = 64>} : memref<128x32xf16

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx942">} {
func.func @fixed() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc {layout = #tile.shared<swizzle = 64>, alignment = 512 : i64} : !sA
    // expected-remark @below {{shared layout #tile.shared<swizzle = 128>}}
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}
