// RUN: tile-opt %s -split-input-file --tile-persistent-blocks="remarks=true clusters=true" -verify-diagnostics | FileCheck %s
// RUN: not tile-opt %s -split-input-file --tile-persistent-blocks 2>/dev/null | FileCheck %s --check-prefix=OFF

// tile-persistent-blocks on sm_90 with clusters=true: persistent kernels
// whose blocks share operand panels run in clusters of two blocks that take
// tiles of adjacent grid rows in one column (tile.cluster = 2). By default
// (clusters=false) only kernels that ask for it do.

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %[[GX:[^:]*]]: index, %[[GY:[^:]*]]: index, %{{.*}}: index)
// Pairs of rows: ceil(gy / 2) pair rows, two tiles a pair.
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[PAIRROWS:.*]] = arith.ceildivui %[[GY]], %[[TWO]] : index
// CHECK: %[[PAIRS:.*]] = arith.muli %[[GX]], %[[PAIRROWS]] : index
// CHECK: %[[TILES:.*]] = arith.muli %[[PAIRS]], %{{.*}} : index
// CHECK: %[[MOST:.*]] = arith.constant 132 : index
// CHECK: %[[GRID:.*]] = arith.minui %[[TILES]], %[[MOST]] : index
// CHECK: tile.kernel @gemm_kernel blocks(%[[PB:.*]]) in [%[[GRID]]] threads(256) attributes {tile.cluster = 2 : i64} {
// CHECK: %[[TILE:.*]] = arith.addi %{{.*}}, %[[PB]] : index
// CHECK: scf.if
// CHECK: %[[PAIR:.*]] = arith.divui %[[TILE]], %{{.*}} : index
// The launch order's group of 8 rows is 4 pair rows.
// CHECK: %[[G:.*]] = arith.constant 4 : index
// CHECK: arith.muli %[[G]], %[[GX]]
// CHECK: arith.divui %[[PAIR]]
// CHECK: %[[PROW:.*]] = arith.addi
// CHECK: %[[COL:.*]] = arith.divui
// CHECK: %[[RANK:.*]] = gpu.cluster_block_id x
// CHECK: %[[R2:.*]] = arith.muli %[[PROW]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.addi %[[R2]], %[[RANK]] : index
// CHECK: arith.muli %[[ROW]], %{{.*}} : index
// CHECK: arith.muli %[[COL]], %{{.*}} : index
// CHECK: tile.gemm
// OFF-LABEL: func.func @gemm(
// OFF-NOT: tile.cluster
// OFF-NOT: gpu.cluster_block_id
// OFF: return
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-remark @+2 {{persistent: at most 132 blocks loop over the grid's tiles}}
  // expected-remark @+1 {{clusters of 2 blocks compute tiles of adjacent grid rows: the operand panel of their column is loaded once for both}}
  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.launch_group = 8 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %n0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

// The user's tile.cluster = 1 keeps single blocks.

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @single(
// CHECK: tile.kernel @single_kernel blocks(%{{.*}}) in [%{{.*}}] threads(256) {
// CHECK-NOT: gpu.cluster_block_id
// CHECK: return
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @single(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-remark @+1 {{persistent: at most 132 blocks loop over the grid's tiles}}
  tile.kernel @single_kernel blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.cluster = 1 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %n0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

// A pipelined loop that runs in some grid rows only would make the two
// blocks of a cluster hand off different numbers of stages: no clusters.

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @triangular(
// CHECK-NOT: gpu.cluster_block_id
// CHECK: return
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @triangular(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-remark @+3 {{persistent: at most 132 blocks loop over the grid's tiles}}
  // expected-remark @+2 {{no clusters: whether or how often a pipelined loop runs may depend on the block's grid row}}
  // expected-remark @+1 {{tiles in the launch order: its loops' trip counts vary with the grid position in ways not followed}}
  tile.kernel @triangular_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    %odd = arith.remui %by, %c64 : index
    %run = arith.cmpi eq, %odd, %c0 : index
    scf.if %run {
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c64 : index
        tile.copy %A[%m0, %k0], %As : memref<?x?xf16> to !sA
        tile.copy %B[%k0, %n0], %Bs : memref<?x?xf16> to !sB
        tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
      } {tile.num_stages = 4 : i64}
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

// Asking for clusters there is an error.

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @asked(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-error @+2 {{tile.cluster = 2 cannot pair the kernel's tiles: whether or how often a pipelined loop runs may depend on the block's grid row}}
  // expected-remark @+1 {{persistent: at most 132 blocks loop over the grid's tiles}}
  tile.kernel @asked_kernel blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.cluster = 2 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    %odd = arith.remui %by, %c64 : index
    %run = arith.cmpi eq, %odd, %c0 : index
    scf.if %run {
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c64 : index
        tile.copy %A[%m0, %k0], %As : memref<?x?xf16> to !sA
        tile.copy %B[%k0, %n0], %Bs : memref<?x?xf16> to !sB
        tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
      } {tile.num_stages = 4 : i64}
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

// Clusters pair the tiles of persistent grids: a kernel that keeps one
// block per tile (no tensor copies on sm_80) ignores tile.cluster.

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @sm80(
// CHECK: tile.kernel @sm80_kernel blocks(%{{.*}}, %{{.*}}) in
// CHECK-NOT: tile.cluster
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @sm80(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-remark @+2 {{one block per tile: the target has no tensor copies to load the next tile's stages ahead}}
  // expected-warning @+1 {{tile.cluster ignored: clusters pair the tiles of a persistent grid, and this kernel has one block per tile}}
  tile.kernel @sm80_kernel blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.cluster = 2 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %n0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf16>
  }
  return
}
}
