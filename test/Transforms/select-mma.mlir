// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=sm_80 --tile-select-mma | FileCheck %s --check-prefix=GEMM
// RUN: tile-opt %examples/gemm.mlir --tile-attach-target=chip=sm_90a --tile-select-mma | FileCheck %s --check-prefix=GEMM
// RUN: tile-opt %examples/flash_attention.mlir --tile-attach-target=chip=sm_80 --tile-select-mma | FileCheck %s --check-prefix=FA
// RUN: tile-opt %examples/flash_attention.mlir --tile-attach-target=chip=sm_90a --tile-select-mma | FileCheck %s --check-prefix=FA
// RUN: tile-opt %s -split-input-file --tile-select-mma | FileCheck %s

// The instruction of each gemm of the examples: mma.sync m16n8k16 on both
// sm_80 and sm_90a (wgmma comes with the Hopper lowering), with the warp
// partition of the gemm's policy (4 warps in the GEMM, 8 in FlashAttention).
// GEMM: tile.gemm {{.*}} {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [2, 2]>}
// FA: tile.gemm {{.*}} transpose_b clear_accum policy <full_row> {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [8, 1]>}
// FA: tile.gemm {{.*}} policy <full_row> {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [8, 1]>}

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

// bf16 on a tile.ws region of two warpgroups: the partition is over its 8
// warps.
!sA = memref<128x32xbf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
// CHECK-LABEL: func.func @ws_bf16
// CHECK: tile.gemm {{.*}} {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [4, 2]>}
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
