// RUN: tile-opt %s -split-input-file --tile-persistent-blocks="remarks=true" -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-persistent-blocks="blocks=64" 2>/dev/null | FileCheck %s --check-prefix=B64
// RUN: tile-opt %s -split-input-file --tile-persistent-blocks="decide=false" 2>/dev/null | FileCheck %s --check-prefix=OFF

// tile-persistent-blocks: Hopper kernels whose blocks share operand panels
// and pipeline a loop run on at most as many blocks as the chip has
// multiprocessors, each looping over the grid's tiles in the launch order.

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[GX:.*]]: index, %[[GY:.*]]: index, %{{.*}}: index)
// CHECK: %[[TILES:.*]] = arith.muli %[[GX]], %[[GY]] : index
// CHECK: %[[MOST:.*]] = arith.constant 132 : index
// CHECK: %[[GRID:.*]] = arith.minui %[[TILES]], %[[MOST]] : index
// CHECK: %[[ONE:.*]] = arith.maxui %[[GRID]], %{{.*}} : index
// CHECK: %[[WAVES:.*]] = arith.ceildivui %[[TILES]], %[[ONE]] : index
// CHECK: tile.kernel @gemm_kernel blocks(%[[PB:.*]]) in [%[[GRID]]] threads(256) {
// CHECK-NEXT: tile.alloc : memref<128x64xf16
// CHECK-NEXT: tile.alloc : memref<64x256xf16
// CHECK-NEXT: tile.alloc : memref<128x256xf32
// CHECK: scf.for %[[WAVE:.*]] = %{{.*}} to %[[WAVES]]
// CHECK: %[[START:.*]] = arith.muli %[[WAVE]], %[[GRID]] : index
// CHECK: %[[TILE:.*]] = arith.addi %[[START]], %[[PB]] : index
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %[[TILE]], %[[TILES]] : index
// CHECK: scf.if %[[VALID]] {
// The grouped order of 8 rows, on the tile id.
// CHECK: %[[G:.*]] = arith.constant 8 : index
// CHECK: %[[SIZE:.*]] = arith.muli %[[G]], %[[GX]]
// CHECK: arith.divui %[[TILE]], %[[SIZE]]
// CHECK: %[[ROW:.*]] = arith.addi
// CHECK: %[[COL:.*]] = arith.divui
// CHECK: tile.fill
// CHECK: arith.muli %[[ROW]], %{{.*}} : index
// CHECK: arith.muli %[[COL]], %{{.*}} : index
// CHECK: scf.for
// CHECK: tile.gemm
// CHECK: } {tile.num_stages = 4 : i64}
// CHECK: tile.copy
// CHECK-NOT: tile.launch_group
// CHECK: return
// Without decisions (tile-to-nvvm persistent=false) only the attribute
// counts: the grid stays, the user's count applies.
// OFF-LABEL: func.func @gemm(
// OFF: tile.kernel @gemm_kernel blocks(%{{.*}}, %{{.*}}) in
// OFF-LABEL: func.func @sm80
// OFF: tile.kernel @asked blocks(%{{.*}}) in
// B64: tile.kernel @gemm_kernel blocks
// B64-SAME: threads(256)
// B64: arith.constant 64 : index
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-remark @+1 {{persistent: at most 132 blocks loop over the grid's tiles}}
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

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// The user's choice: one block per tile.
// CHECK-LABEL: func.func @opted_out
// CHECK: tile.kernel @k blocks(%{{.*}}, %{{.*}}) in [%{{.*}}, %{{.*}}] threads(256) attributes {tile.persistent = 0 : i64}
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @opted_out(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @+1 {{one block per tile: tile.persistent = 0}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.persistent = 0 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
  }
  return
}
}

// -----

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// sm_80 has no tensor copies to run ahead: the default keeps the grid, a
// user-given count is applied anyway (row-major tile order: no group).
// CHECK-LABEL: func.func @sm80
// CHECK: tile.kernel @default_kernel blocks(%{{.*}}, %{{.*}}) in
// CHECK: tile.kernel @asked blocks(%[[PB:.*]]) in [%{{.*}}] threads(128) {
// CHECK: scf.if
// CHECK: %[[Y:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[X:.*]] = arith.remui %{{.*}}, %{{.*}} : index
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @sm80(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @+1 {{one block per tile: the target has no tensor copies to load the next tile's stages ahead}}
  tile.kernel @default_kernel blocks(%bx, %by) in [%gx, %gy] threads(128) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  // expected-remark @+1 {{persistent: at most 16 blocks loop over the grid's tiles}}
  tile.kernel @asked blocks(%bx, %by) in [%gx, %gy] threads(128)
      attributes {tile.persistent = 16 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  return
}
}

// -----

!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<256x64xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// A batched GEMM: tiles of the x-y grid for each z, z slowest.
// CHECK-LABEL: func.func @batched
// CHECK-SAME: %[[GX:[^:]*]]: index, %[[GY:[^:]*]]: index, %[[NB:[^:]*]]: index, %{{[^:]*}}: index)
// CHECK: %[[PLANE:.*]] = arith.muli %[[GX]], %[[GY]] : index
// CHECK: %[[TILES:.*]] = arith.muli %[[PLANE]], %[[NB]] : index
// CHECK: tile.kernel @bmm blocks(%{{.*}}) in [%{{.*}}] threads(256)
// CHECK: scf.if
// CHECK: %[[Z:.*]] = arith.divui %{{.*}}, %[[PLANE]] : index
// CHECK: arith.remui %{{.*}}, %[[PLANE]] : index
// CHECK: tile.copy %{{.*}}[%[[Z]],
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @batched(%A: memref<?x?x?xbf16>, %B: memref<?x?x?xbf16>, %gx: index, %gy: index, %nb: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-remark @+1 {{persistent: at most 132 blocks}}
  tile.kernel @bmm blocks(%bx, %by, %bz) in [%gx, %gy, %nb] threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%bz, %m0, %k0], %As : memref<?x?x?xbf16> to !sA
      tile.copy %B[%bz, %n0, %k0], %Bs : memref<?x?x?xbf16> to !sB
      tile.gemm %As, %Bs, %acc transpose_b : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
  }
  return
}
}

// -----

// Nothing pipelined: one block per tile.
// CHECK-LABEL: func.func @not_pipelined
// CHECK: tile.kernel @k blocks(%{{.*}}, %{{.*}}) in
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @not_pipelined(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{one block per tile: it pipelines no loop}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(128) {
    %As = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc : memref<64x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    tile.copy %A[%by, %c0], %As : memref<?x?xf16> to memref<128x64xf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %bx], %Bs : memref<?x?xf16> to memref<64x128xf16, #gpu.address_space<workgroup>>
    tile.gemm %As, %Bs, %acc : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}
}

// -----

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// Hand-written warp specialization: the regions and pipes are the user's,
// set up once per block; the grid stays, even when asked for.
// CHECK-LABEL: func.func @manual_ws
// CHECK: tile.kernel @k blocks(%{{.*}}, %{{.*}}) in [%{{.*}}, %{{.*}}] threads(384) {
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @manual_ws(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @+2 {{tile.persistent ignored: it has hand-written 'tile.ws'}}
  // expected-remark @+1 {{one block per tile: it has hand-written 'tile.ws'}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(384)
      attributes {tile.persistent = 132 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    tile.ws [0, 1] {
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c64 : index
        tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
        tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
        tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
      } {tile.num_stages = 1 : i64}
    }
  }
  return
}
}

// -----

!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!g3 = memref<?x?x128xf16>

// Attention-like kernels: the blocks of a head (y) share its key panel
// along x. The key loop of query block x runs to its diagonal, x + 1
// blocks, so the blocks take the longest tiles first: sections of planes
// across x (ceil(8 * grid / gx) heads), each walked from the last x down
// with its heads fastest, the rounds' tiles in alternating directions.
// CHECK-LABEL: func.func @causal(
// CHECK-SAME: %[[GX:[^:]*]]: index, %[[GY:[^:]*]]: index)
// CHECK: %[[TILES:.*]] = arith.muli %[[GX]], %[[GY]] : index
// CHECK: %[[GRID:.*]] = arith.minui %[[TILES]], %{{.*}} : index
// CHECK: tile.kernel @causal_kernel blocks(%[[PB:.*]]) in [%[[GRID]]] threads(256) attributes {tile.tile_order = "x-descending"}
// CHECK: scf.for %[[ROUND:.*]] = %{{.*}} to
// CHECK: %[[ODD:.*]] = arith.andi %[[ROUND]], %{{.*}} : index
// CHECK: %[[ISODD:.*]] = arith.cmpi ne, %[[ODD]], %{{.*}} : index
// CHECK: %[[LAST:.*]] = arith.subi %[[GRID]], %{{.*}} overflow<nuw> : index
// CHECK: %[[MIRROR:.*]] = arith.subi %[[LAST]], %[[PB]] overflow<nuw> : index
// CHECK: %[[LANE:.*]] = arith.select %[[ISODD]], %[[MIRROR]], %[[PB]] : index
// CHECK: %[[START:.*]] = arith.muli %[[ROUND]], %[[GRID]] : index
// CHECK: %[[TILE:.*]] = arith.addi %[[START]], %[[LANE]] : index
// CHECK: arith.cmpi ult, %[[TILE]], %[[TILES]] : index
// CHECK: scf.if
// CHECK: %[[WAVES8:.*]] = arith.muli %[[GRID]], %c8{{.*}} : index
// CHECK: %[[PER:.*]] = arith.ceildivui %[[WAVES8]], %[[GX]] : index
// CHECK: arith.maxui %{{.*}}, %[[PER]] : index
// CHECK: %[[COUNT:.*]] = arith.minui
// CHECK-NEXT: %[[STEP:.*]] = arith.divui %{{.*}}, %[[COUNT]] : index
// CHECK-NEXT: arith.remui
// CHECK-NEXT: %[[PLANE:.*]] = arith.addi
// CHECK: %[[XLAST:.*]] = arith.subi %[[GX]], %{{.*}} overflow<nuw> : index
// CHECK: %[[X:.*]] = arith.subi %[[XLAST]], %[[STEP]] overflow<nuw> : index
// CHECK: %[[Y:.*]] = arith.remui %[[PLANE]], %[[GY]] : index
// CHECK: arith.muli %[[X]], %c128{{.*}} : index
// CHECK: tile.copy %{{.*}}[%[[Y]], %{{.*}}, %{{.*}}]
// Asked for, the launch order.
// CHECK-LABEL: func.func @causal_launch_order(
// CHECK: tile.kernel @causal_kernel blocks(%[[PB:.*]]) in {{.*}} attributes {tile.tile_order = "launch"}
// CHECK-NOT: arith.select
// CHECK: return
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @causal(%Q: !g3, %K: !g3, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  // expected-remark @+2 {{persistent: at most 132 blocks loop over the grid's tiles}}
  // expected-remark @+1 {{tiles longest first (x-descending): the trip counts of its pipelined loops follow the grid position along x}}
  tile.kernel @causal_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %s = tile.alloc : !fS
    %q0 = arith.muli %bx, %c128 : index
    tile.copy %Q[%by, %q0, %c0], %Qs : !g3 to !sQ
    %diag = arith.addi %bx, %c1 : index
    scf.for %kb = %c0 to %diag step %c1 {
      %k0 = arith.muli %kb, %c128 : index
      tile.copy %K[%by, %k0, %c0], %Ks : !g3 to !sQ
      tile.gemm %Qs, %Ks, %s transpose_b : !sQ, !sQ, !fS
    } {tile.num_stages = 2 : i64}
  }
  return
}
func.func @causal_launch_order(%Q: !g3, %K: !g3, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  // expected-remark @+1 {{persistent: at most 132 blocks loop over the grid's tiles}}
  tile.kernel @causal_kernel blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.tile_order = "launch"} {
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %s = tile.alloc : !fS
    %q0 = arith.muli %bx, %c128 : index
    tile.copy %Q[%by, %q0, %c0], %Qs : !g3 to !sQ
    %diag = arith.addi %bx, %c1 : index
    scf.for %kb = %c0 to %diag step %c1 {
      %k0 = arith.muli %kb, %c128 : index
      tile.copy %K[%by, %k0, %c0], %Ks : !g3 to !sQ
      tile.gemm %Qs, %Ks, %s transpose_b : !sQ, !sQ, !fS
    } {tile.num_stages = 2 : i64}
  }
  return
}
}

// -----

!sQ = memref<128x256xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!g3 = memref<?x?x256xf16>
!o3 = memref<?x?x128xf32>

// An attention-like kernel whose register tiles leave the tile loop no
// room keeps one block per tile.
// CHECK-LABEL: func.func @wide_rows(
// CHECK: tile.kernel @wide_kernel blocks(%{{.*}}, %{{.*}}) in
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @wide_rows(%Q: !g3, %K: !g3, %O: !o3, %gx: index, %gy: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  // expected-remark-re @+1 {{one block per tile: its registers (about {{[0-9]+}} a thread) leave the tile loop's state no room}}
  tile.kernel @wide_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %s = tile.alloc : !fS
    %o1 = tile.alloc : !fS
    %o2 = tile.alloc : !fS
    %o3 = tile.alloc : !fS
    %q0 = arith.muli %bx, %c128 : index
    tile.copy %Q[%by, %q0, %c0], %Qs : !g3 to !sQ
    scf.for %kb = %c0 to %n step %c1 {
      %k0 = arith.muli %kb, %c128 : index
      tile.copy %K[%by, %k0, %c0], %Ks : !g3 to !sQ
      tile.gemm %Qs, %Ks, %s transpose_b : !sQ, !sQ, !fS
      tile.gemm %Qs, %Ks, %o1 transpose_b : !sQ, !sQ, !fS
      tile.gemm %Qs, %Ks, %o2 transpose_b : !sQ, !sQ, !fS
      tile.gemm %Qs, %Ks, %o3 transpose_b : !sQ, !sQ, !fS
    } {tile.num_stages = 2 : i64}
    tile.copy %s, %O[%by, %q0, %c0] : !fS to !o3
    tile.copy %o1, %O[%by, %q0, %c0] : !fS to !o3
    tile.copy %o2, %O[%by, %q0, %c0] : !fS to !o3
    tile.copy %o3, %O[%by, %q0, %c0] : !fS to !o3
  }
  return
}
}
