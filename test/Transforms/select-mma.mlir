// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=sm_80 --tile-select-mma | FileCheck %s --check-prefix=GEMM
// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=sm_90a --tile-select-mma | FileCheck %s --check-prefix=GEMM90
// RUN: tile-opt %examples/flash_attention.mlir --tile-attach-target=chip=sm_80 --tile-select-mma | FileCheck %s --check-prefix=FA
// RUN: tile-opt %examples/flash_attention.mlir --tile-attach-target=chip=sm_90a --tile-select-mma | FileCheck %s --check-prefix=FA90
// RUN: tile-opt %s -split-input-file --tile-select-mma | FileCheck %s

// The instruction of each gemm of the examples. sm_80: mma.sync m16n8k16
// with the warp partition of the gemm's policy (8 warps in both). sm_90a: wgmma m64nNk16 for gemms whose B operand is in
// shared memory, split along M over the warpgroups; FlashAttention's P * V
// reads P from registers (the RS form of wgmma).
// GEMM: tile.gemm {{.*}} {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [2, 4]>}
// GEMM90: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 256, 16], warps = [8, 1]>}
// FA: tile.gemm {{.*}} transpose_b clear_accum policy <full_row> {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [8, 1]>}
// FA: tile.gemm {{.*}} policy <full_row> {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [8, 1]>}
// FA90: tile.gemm {{.*}} transpose_b clear_accum policy <full_row> {mma = #tile.mma<wgmma, shape = [64, 64, 16], warps = [8, 1]>}
// FA90: tile.gemm {{.*}} policy <full_row> {mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [8, 1]>}

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// A user-pinned choice that the target can compute is kept, even when the
// policy would pick another partition; layout inference then follows it.
// CHECK-LABEL: func.func @pinned
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [1, 4]>}
func.func @pinned() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [1, 4]>} : !sA, !sB, !fC
  }
  return
}

// -----

// bf16 on a tile.ws region of two warpgroups (sm_90a, the default): wgmma
// over its 8 warps, each warpgroup owning 64 rows.
!sA = memref<128x32xbf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
// CHECK-LABEL: func.func @ws_bf16
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [8, 1]>}
func.func @ws_bf16() {
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.ws [1, 2] {
      tile.gemm %a, %b, %c : !sA, !sB, !fC
    }
  }
  return
}

// -----

// A register (fragment) A operand with B in shared memory on sm_90a: the RS
// form of wgmma, split along M over the 2 warpgroups like the SS form.
!fA = memref<128x64xbf16, #tile.mem<fragment>>
!sB = memref<64x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
// CHECK-LABEL: func.func @register_a
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [8, 1]>}
func.func @register_a() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !fA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !fA, !sB, !fC
  }
  return
}

// -----

// A register A operand that wgmma cannot take falls back to mma.sync: here
// 64 threads are not a whole warpgroup. (A transposed register A operand,
// which wgmma could not read either, is rejected by the op verifier.)
!fA = memref<64x32xf16, #tile.mem<fragment>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
// CHECK-LABEL: func.func @register_a_fallback
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [2, 1]>}
func.func @register_a_fallback() {
  tile.kernel @k blocks(%bx) in [1] threads(64) {
    %a = tile.alloc : !fA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !fA, !sB, !fC
  }
  return
}

// -----

// A shared B tile whose layout the kernel fixes to padded rows: wgmma's
// descriptors cannot address it, so the gemm falls back to mma.sync
// (ldmatrix reads padded rows).
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
// CHECK-LABEL: func.func @padded_b_fallback
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [2, 2]>}
func.func @padded_b_fallback() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc {layout = #tile.shared<pad = 16>} : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}

// -----

// A 128 x 192 accumulator: one m64n192 instruction, its register layout
// over the tile padded to 256 columns (the registers past column 192 hold
// no element). mma.sync, whose layouts need power-of-two tiles, is refused
// on sm_80 (select-mma-errors.mlir).
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x192xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x192xf32, #tile.mem<fragment>>
// CHECK-LABEL: func.func @n192
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<wgmma, shape = [64, 192, 16], warps = [8, 1]>}
func.func @n192() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
