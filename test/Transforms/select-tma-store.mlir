// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// The tensor-copy version of a kernel writes its accumulator through tensor
// stores (tile.tma_store = staging buffers): the host's test then covers C
// too. The original kernel, launched when a tensor does not allow tensor
// copies, keeps the register path.

!g = memref<?x?xbf16>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @epilogue
// CHECK: memref.extract_strided_metadata %arg0
// CHECK: memref.extract_strided_metadata %arg1
// CHECK: memref.extract_strided_metadata %arg2
// CHECK: scf.if
// CHECK: tile.kernel @k_tma
// CHECK: tile.copy %{{.*}}, %arg2[%{{.*}}, %{{.*}}] {tile.tma_store = 4 : i64, tile.tma_store_panel = 64 : i64}
// CHECK: } else {
// CHECK: tile.kernel @k
// CHECK-NOT: tma_store
// CHECK: return
// REMARK: remark: tensor store (TMA) through 4 staging buffers of 64-byte panel rows when the tensor allows it at run time
func.func @epilogue(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

// `tile.tma_store = 0` keeps the register path; a count written by hand is
// the pass's to decide (dropped from the original kernel, which has no
// tensor map of C).

!g = memref<?x?xbf16>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @override
// CHECK: tile.kernel @k_tma
// CHECK: tile.copy %{{.*}}, %arg2[{{.*}}] {tile.tma_store = 0 : i64}
// CHECK: tile.kernel @k
// CHECK: tile.copy %{{.*}}, %arg2[{{.*}}] {tile.tma_store = 0 : i64}
// CHECK-LABEL: func.func @by_hand
// CHECK: tile.kernel @k2_tma
// CHECK: tile.copy %{{.*}}, %arg2[{{.*}}] {tile.tma_store = 4 : i64, tile.tma_store_panel = 64 : i64}
// CHECK: tile.kernel @k2
// CHECK-NOT: tma_store
// CHECK: return
func.func @override(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store = 0} : !fC to !g
  }
  return
}
func.func @by_hand(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k2 blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store = 1} : !fC to !g
  }
  return
}

// -----

// Staging buffers fit beside the pipeline's buffers: a 256-row tile's
// 128-byte panel is 32 KiB, and four stages of 48 KiB leave room for one,
// or for two 64-byte ones, which are preferred.

!g = memref<?x?xf16>
!sA = memref<256x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<256x128xf32, #tile.mem<fragment>>
!gC = memref<?x?xf32>

// CHECK-LABEL: func.func @staging_beside_stages
// CHECK: tile.kernel @k_tma
// CHECK: tile.copy %{{.*}}, %arg2[{{.*}}] {tile.tma_store = 2 : i64, tile.tma_store_panel = 64 : i64}
// REMARK: remark: tensor store (TMA) through 2 staging buffers of 64-byte panel rows when
func.func @staging_beside_stages(%A: !g, %B: !g, %C: !gC, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !gC
  }
  return
}

// -----

// Where nothing is left for staging, or the tile is not whole 64-byte (or
// 128-byte) panels, the register path stays (with remarks=true, the
// reason).

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!sN = memref<64x16xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
!fN = memref<128x16xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @register_path
// CHECK: tile.kernel @full_tma
// CHECK-NOT: tma_store
// CHECK: tile.kernel @narrow_tma
// CHECK-NOT: tma_store
// CHECK: return
// REMARK: remark: not a tensor store (TMA): its staging buffer does not fit beside the kernel's shared memory
// REMARK: remark: not a tensor store (TMA): the tile is not whole panels (at most 64) of at most 256 rows x 128 bytes
func.func @register_path(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @full blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 7 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  tile.kernel @narrow blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sN
    %acc = tile.alloc : !fN
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sN
      tile.gemm %as, %bs, %acc : !sA, !sN, !fN
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fN to !g
  }
  return
}

// -----

// Scratch tiles: a copy between fragments of one layout moves registers and
// needs none, so the kernel keeps its tensor store; a kernel with a
// reduction (here across warps, whose scratch would compete with the staging
// buffers) keeps the register path.
// The 128-column bf16 tile's rows (256 bytes) fit two 128-byte buffers,
// taken before four 64-byte ones: no panel of a tile waits for another's
// store, and there are half as many panels.

!g = memref<?x?xbf16>
!gS = memref<?xf32>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
!fS = memref<128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @same_layout_copy
// CHECK: tile.kernel @k_tma
// CHECK: tile.copy %{{.*}}, %{{.*}} : memref<128xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
// CHECK: tile.copy %{{.*}}, %arg3[%{{.*}}, %{{.*}}] {tile.tma_store = 2 : i64, tile.tma_store_panel = 128 : i64}
// REMARK: remark: tensor store (TMA) through 2 staging buffers of 128-byte panel rows when the tensor allows it at run time
func.func @same_layout_copy(%A: !g, %B: !g, %S: !gS, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %s0 = tile.alloc : !fS
    %s1 = tile.alloc : !fS
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %S[%c0], %s0 : !gS to !fS
    tile.copy %s0, %s1 : !fS to !fS
    tile.parallel (%i, %j) in [128, 128] {
      %x = memref.load %acc[%i, %j] : !fC
      %s = memref.load %s1[%i] : !fS
      %y = arith.mulf %x, %s : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

!g = memref<?x?xbf16>
!gS = memref<?xf32>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
!fS = memref<128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @cross_warp_reduce
// CHECK: tile.kernel @k
// CHECK-NOT: tma_store
// CHECK: return
// REMARK: remark: not a tensor store (TMA): the kernel's lowering adds scratch tiles to its shared memory
func.func @cross_warp_reduce(%A: !g, %B: !g, %S: !gS, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %col = tile.alloc : !fS
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.reduce <sum> %acc, %col dim 0 clear : !fC to !fS
    tile.copy %col, %S[%c0] : !fS to !gS
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

// A 128 x 144 accumulator (wgmma m64n144, its layout padded to 256
// columns): bf16 rows of 288 bytes are whole panels of 32 bytes only, held
// in 8 staging buffers (as much as two 128-byte ones).

!g = memref<?x?xbf16>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x144xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x144xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @n144
// CHECK: tile.kernel @k_tma
// CHECK: tile.copy %{{.*}}, %arg2[%{{.*}}, %{{.*}}] {tile.tma_store = 8 : i64, tile.tma_store_panel = 32 : i64}
// REMARK: remark: tensor store (TMA) through 8 staging buffers of 32-byte panel rows when the tensor allows it at run time
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @n144(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc {mma = #tile.mma<wgmma, shape = [64, 144, 16], warps = [8, 1]>} : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}
}
