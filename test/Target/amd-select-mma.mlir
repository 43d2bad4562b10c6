// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=gfx942 --tile-select-mma | FileCheck %s --check-prefix=GEMM
// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=gfx90a --tile-select-mma | FileCheck %s --check-prefix=GEMM
// RUN: tile-opt %examples/flash_attention.mlir --tile-attach-target=chip=gfx942 --tile-select-mma | FileCheck %s --check-prefix=FA
// RUN: tile-opt %examples/flash_attention.mlir --tile-attach-target=chip=gfx90a --tile-select-mma | FileCheck %s --check-prefix=FA
// RUN: tile-opt %s -split-input-file --tile-select-mma | FileCheck %s

// The MFMA of each gemm of the examples on CDNA: 64-lane waves (2 in the
// GEMM's and FlashAttention's 256 threads), 32x32x8 atoms, the
// partition of the gemm's policy.
// GEMM: tile.gemm {{.*}} {mma = #tile.mma<mfma, shape = [32, 32, 8], warps = [2, 2]>}
// FA: tile.gemm {{.*}} transpose_b clear_accum policy <full_row> {mma = #tile.mma<mfma, shape = [32, 32, 8], warps = [4, 1]>}
// FA: tile.gemm {{.*}} policy <full_row> {mma = #tile.mma<mfma, shape = [32, 32, 8], warps = [4, 1]>}

!sA = memref<64x16xbf16, #gpu.address_space<workgroup>>
!sB = memref<16x16xbf16, #gpu.address_space<workgroup>>
!fC = memref<64x16xf32, #tile.mem<fragment>>

// N = 16 does not hold a 32x32 atom: 16x16x16, the four waves along M.
// CHECK-LABEL: func.func @mfma16
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<mfma, shape = [16, 16, 16], warps = [4, 1]>}
module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @mfma16() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x8xf16, #gpu.address_space<workgroup>>
!sB = memref<8x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

// K = 8 only fits the 32x32x8 atom; the square policy puts the two waves
// along N (64 x 64 each).
// CHECK-LABEL: func.func @square
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<mfma, shape = [32, 32, 8], warps = [1, 2]>}
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @square() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// A pinned 16x16x16 choice the chip has is kept.
// CHECK-LABEL: func.func @pinned
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<mfma, shape = [16, 16, 16], warps = [1, 2]>}
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @pinned() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c {mma = #tile.mma<mfma, shape = [16, 16, 16], warps = [1, 2]>} : !sA, !sB, !fC
  }
  return
}
}
