// RUN: tile-opt %s -split-input-file --tile-persistent-blocks --tile-split-tail="remarks=true" -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-persistent-blocks --tile-split-tail="splits=4 min-iterations=0 min-share=0" 2>/dev/null | FileCheck %s --check-prefix=S4
// RUN: tile-opt %s -split-input-file --tile-persistent-blocks --tile-split-tail="decide=false" 2>/dev/null | FileCheck %s --check-prefix=OFF

// tile-split-tail: the K loops of the tiles of a persistent kernel's last,
// partial wave split into parts computed by more blocks at once; the count
// is picked on the host, at run time.

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// The choice: W full waves, R tiles left, s = min(4, P / R) parts of
// ceil(I / s) iterations, where W, R > 0, s >= 2, I - c >= 32 and
// (I - c) 16 >= (W + 1) I.
// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[C:.*]]: memref<?x?xf16>, %[[GX:.*]]: index, %[[GY:.*]]: index, %[[KT:.*]]: index)
// CHECK: %[[TILES:.*]] = arith.muli %[[GX]], %[[GY]] : index
// CHECK: %[[GRID:.*]] = arith.minui %[[TILES]], %{{.*}} : index
// CHECK: %[[SPAN:.*]] = arith.maxsi
// CHECK: %[[TRIPS:.*]] = arith.ceildivui %[[SPAN]], %{{.*}} : index
// CHECK: %[[P:.*]] = arith.maxui %[[GRID]], %{{.*}} : index
// CHECK: %[[FULL:.*]] = arith.divui %[[TILES]], %[[P]] : index
// CHECK: %[[DONE:.*]] = arith.muli %[[FULL]], %[[GRID]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[TILES]], %[[DONE]] : index
// CHECK: %[[MOST:.*]] = arith.constant 8 : index
// CHECK: %[[R:.*]] = arith.maxui %[[LEFT]], %{{.*}} : index
// CHECK: %[[FIT:.*]] = arith.divui %[[P]], %[[R]] : index
// CHECK: %[[S:.*]] = arith.minui %[[FIT]], %[[MOST]] : index
// CHECK: %[[S1:.*]] = arith.maxui %[[S]], %{{.*}} : index
// CHECK: %[[CHUNK:.*]] = arith.ceildivui %[[TRIPS]], %[[S1]] : index
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[LEAST:.*]] = arith.constant 32 : index
// CHECK: %[[SAVED:.*]] = arith.subi %[[TRIPS]], %[[CHUNK]] : index
// CHECK: %[[HASLEFT:.*]] = arith.cmpi ugt, %[[LEFT]]
// CHECK: %[[HASFULL:.*]] = arith.cmpi ugt, %[[FULL]]
// CHECK: %[[SPLIT:.*]] = arith.cmpi uge, %[[S]], %[[TWO]] : index
// CHECK: %[[PAYS:.*]] = arith.cmpi sge, %[[SAVED]], %[[LEAST]] : index
// CHECK: %[[P1:.*]] = arith.andi %[[HASLEFT]], %[[HASFULL]] : i1
// CHECK: %[[P2:.*]] = arith.andi %[[P1]], %[[SPLIT]] : i1
// CHECK: %[[P3:.*]] = arith.andi %[[P2]], %[[PAYS]] : i1
// The saving is at least 1/16 of a block's run, (W + 1) I iterations.
// CHECK: %[[SHARE:.*]] = arith.constant 16 : index
// CHECK: %[[WEIGHED:.*]] = arith.muli %[[SAVED]], %[[SHARE]] : index
// CHECK: %[[WAVES:.*]] = arith.addi %[[FULL]], %{{.*}} : index
// CHECK: %[[TOTAL:.*]] = arith.muli %[[WAVES]], %[[TRIPS]] : index
// CHECK: %[[WORTH:.*]] = arith.cmpi sge, %[[WEIGHED]], %[[TOTAL]] : index
// CHECK: %[[PICK:.*]] = arith.andi %[[P3]], %[[WORTH]] : i1
// CHECK: scf.if %[[PICK]] {
// The workspace: R x s tiles of 128 rows, 256 columns.
// CHECK: %[[RS:.*]] = arith.muli %[[LEFT]], %[[S]] : index
// CHECK: %[[ROWS:.*]] = arith.muli %[[RS]], %{{.*}} : index
// CHECK: %[[WS:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[ROWS]], %{{.*}}) : memref<?x?xf32>
// CHECK: scf.if
// The full waves, then one round more: block b's part b mod s of tile
// left b / s, where it has iterations; its workspace tile is b's.
// CHECK: %[[UNITS:.*]] = arith.addi %[[FULL]], %{{.*}} : index
// CHECK: tile.kernel @gemm_kernel_tail blocks(%[[B:.*]]) in [%[[GRID]]] threads(256) attributes {tile.split_tail = 1 : i64} {
// CHECK: %[[ACC:.*]] = tile.alloc : memref<128x256xf32, #tile.mem<fragment>>
// CHECK: scf.for %[[W:.*]] = %{{.*}} to %[[UNITS]] step
// CHECK: %[[START:.*]] = arith.muli %[[W]], %[[GRID]] : index
// CHECK: %[[TILE:.*]] = arith.addi %[[START]], %[[B]] : index
// CHECK: %[[WHOLE:.*]] = arith.cmpi ult, %[[W]], %[[FULL]] : index
// CHECK: %[[T:.*]] = arith.divui %[[B]], %[[S]] : index
// CHECK: %[[PART:.*]] = arith.remui %[[B]], %[[S]] : index
// CHECK: %[[FROM:.*]] = arith.muli %[[PART]], %[[CHUNK]] : index
// CHECK: %[[END:.*]] = arith.addi %[[FROM]], %[[CHUNK]] : index
// CHECK: %[[TO:.*]] = arith.minui %[[END]], %[[TRIPS]] : index
// CHECK: %[[OURS:.*]] = arith.cmpi ult, %[[T]], %[[LEFT]] : index
// CHECK: %[[ANY:.*]] = arith.cmpi ult, %[[FROM]], %[[TO]] : index
// CHECK: %[[SOME:.*]] = arith.andi %[[OURS]], %[[ANY]] : i1
// CHECK: %[[LEFTTILE:.*]] = arith.addi %[[DONE]], %[[T]] : index
// CHECK: %[[UNIT:.*]] = arith.select %[[WHOLE]], %[[TILE]], %[[LEFTTILE]] : index
// CHECK: %[[VALID:.*]] = arith.ori %[[WHOLE]], %[[SOME]] : i1
// CHECK: %[[FIRST:.*]] = arith.select %[[WHOLE]], %{{.*}}, %[[FROM]] : index
// CHECK: %[[LAST:.*]] = arith.select %[[WHOLE]], %[[TRIPS]], %[[TO]] : index
// CHECK: scf.if %[[VALID]] {
// CHECK: arith.divui %[[UNIT]], %[[GX]] : index
// CHECK: arith.remui %[[UNIT]], %[[GX]] : index
// CHECK: tile.fill %[[ACC]]
// CHECK: %[[LO:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[HI0:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[HI:.*]] = arith.minsi %[[HI0]], %[[KT]] : index
// CHECK: scf.for %{{.*}} = %[[LO]] to %[[HI]] step
// CHECK: tile.gemm
// CHECK: } {tile.num_stages = 4 : i64}
// The epilogue for whole tiles, the part's sums to its workspace tile.
// CHECK: scf.if %[[WHOLE]] {
// CHECK: tile.parallel
// CHECK: tile.copy %[[ACC]], %[[C]][
// CHECK: } else {
// CHECK: %[[ROW:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK: tile.copy %[[ACC]], %[[WS]][%[[ROW]], %{{.*}}] : memref<128x256xf32, #tile.mem<fragment>> to memref<?x?xf32>
// CHECK: }
// CHECK: } {tile.tile_loop}
// One block per tile left and 16 of its 128 rows (8 slices, the grid's y):
// the parts with iterations added in order, then the epilogue, on 16 x 256
// tiles moved 16 y rows down; the operand tiles are gone.
// CHECK: tile.kernel @gemm_kernel_tail_reduce blocks(%[[RB:.*]], %[[RQ:.*]]) in [%[[LEFT]], 8] threads(256) attributes {tile.split_tail = 1 : i64} {
// CHECK: %[[SLICE:.*]] = arith.muli %[[RQ]], %{{.*}} : index
// CHECK-NOT: xf16, #gpu.address_space<workgroup>
// CHECK: %[[RACC:.*]] = tile.alloc : memref<16x256xf32, #tile.mem<fragment>>
// CHECK: %[[RTILE:.*]] = arith.addi %[[DONE]], %[[RB]] : index
// CHECK: arith.divui %[[RTILE]], %[[GX]] : index
// CHECK: tile.fill %[[RACC]]
// CHECK: %[[RM0:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[COUNT:.*]] = arith.ceildivui %[[TRIPS]], %[[CHUNK]] : index
// CHECK: %[[BASE:.*]] = arith.muli %[[RB]], %[[S]] : index
// CHECK: %[[SUMTILE:.*]] = tile.alloc : memref<16x256xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[COUNT]] step
// CHECK: %[[RSLOT:.*]] = arith.addi %[[BASE]], %[[J]] : index
// CHECK: %[[RROW:.*]] = arith.muli %[[RSLOT]], %{{.*}} : index
// CHECK: %[[SROW:.*]] = arith.addi %[[RROW]], %[[SLICE]] : index
// CHECK: tile.copy %[[WS]][%[[SROW]], %{{.*}}], %[[SUMTILE]]
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [16, 256]
// CHECK: arith.addf
// CHECK: }
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [16, 256]
// CHECK: arith.maximumf
// CHECK: %[[CROW:.*]] = arith.addi %[[RM0]], %[[SLICE]] : index
// CHECK: tile.copy %[[RACC]], %[[C]][%[[CROW]], %{{.*}}] : memref<16x256xf32, #tile.mem<fragment>> to memref<?x?xf16>
// CHECK: gpu.dealloc async [%{{.*}}] %[[WS]]
// CHECK: } else {
// The persistent kernel as it was.
// CHECK: tile.kernel @gemm_kernel blocks(%{{.*}}) in [%[[GRID]]] threads(256) attributes {tile.split_tail = 1 : i64} {
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KT]] step

// S4: %[[MOST:.*]] = arith.constant 4 : index
// S4: arith.minui %{{.*}}, %[[MOST]] : index
// S4: arith.constant 2 : index
// S4-NEXT: %[[LEAST:.*]] = arith.constant 0 : index
// S4-NEXT: %[[SAVED:.*]] = arith.subi
// S4: %[[PAYS:.*]] = arith.cmpi sge, %[[SAVED]], %[[LEAST]] : index
// S4: %[[PICK:.*]] = arith.andi %{{.*}}, %[[PAYS]] : i1
// S4-NEXT: scf.if %[[PICK]] {
// S4: tile.kernel @gemm_kernel_tail

// OFF-LABEL: func.func @gemm(
// OFF-NOT: _tail blocks
// OFF-LABEL: func.func @asked(
// OFF: tile.kernel @asked_tail
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-remark @below {{last wave split: up to 8 parts of the K loops of the tiles left after the full waves, where that saves at least 32 iterations and 1/16 of a block's (picked at run time)}}
  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
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
    tile.parallel (%i, %j) in [128, 256] {
      %v = memref.load %acc[%i, %j] : !fC
      %r = arith.maximumf %v, %zero : f32
      memref.store %r, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
!fR = memref<128xf32, #tile.mem<fragment>>

// An epilogue that indexes a row vector by the row keeps the reduction at
// one block per tile left, on the whole tile.
// CHECK-LABEL: func.func @row_scaled(
// CHECK: tile.kernel @row_scaled_kernel_tail_reduce blocks(%{{.*}}) in [%{{.*}}] threads(256)
// CHECK: tile.alloc : memref<128x256xf32, #tile.mem<fragment>>
// CHECK: tile.alloc : memref<128x256xf32, #gpu.address_space<workgroup>>
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [128, 256]
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @row_scaled(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %S: memref<?xf32>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-remark @below {{last wave split: up to 8 parts}}
  tile.kernel @row_scaled_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %scale = tile.alloc : !fR
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
    tile.copy %S[%m0], %scale : memref<?xf32> to !fR
    tile.parallel (%i, %j) in [128, 256] {
      %v = memref.load %acc[%i, %j] : !fC
      %s = memref.load %scale[%i] : !fR
      %r = arith.mulf %v, %s : f32
      memref.store %r, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// The user's count applies, with decide=false too.
// CHECK-LABEL: func.func @asked(
// CHECK: %[[MOST:.*]] = arith.constant 2 : index
// CHECK: arith.minui %{{.*}}, %[[MOST]] : index
// CHECK: tile.kernel @asked_tail
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @asked(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{last wave split: up to 2 parts}}
  tile.kernel @asked blocks(%bx, %by) in [%gx, %gy] threads(256) attributes {tile.split_tail = 2 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%by, %bx] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// Kept whole: the user's opt-out, one block per tile, clusters, an
// accumulator the loop does not start from zero.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: _tail blocks
// CHECK: return
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @kept(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{last wave kept whole: tile.split_tail = 1}}
  tile.kernel @opted_out blocks(%bx, %by) in [%gx, %gy] threads(256) attributes {tile.split_tail = 1 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%by, %bx] : !fC to memref<?x?xf16>
  }
  // expected-remark @below {{last wave kept whole: it is not persistent}}
  tile.kernel @per_tile blocks(%bx, %by) in [%gx, %gy] threads(256) attributes {tile.persistent = 0 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%by, %bx] : !fC to memref<?x?xf16>
  }
  // expected-remark @below {{last wave kept whole: its tiles are paired in clusters}}
  tile.kernel @paired blocks(%bx, %by) in [%gx, %gy] threads(256) attributes {tile.cluster = 2 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%bx, %by] : !fC to memref<?x?xf16>
  }
  // expected-remark @below {{last wave kept whole: its accumulator is written before the loop other than by a zero fill}}
  tile.kernel @biased blocks(%bx, %by) in [%gx, %gy] threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %one = arith.constant 1.0 : f32
    tile.fill %acc, %one : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%by, %bx] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// A persistent kernel for an AMD chip: no workspace from the CUDA runtime.
// CHECK-LABEL: func.func @amd(
// CHECK-NOT: _tail blocks
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @amd(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{last wave kept whole: its target is not an NVIDIA chip}}
  tile.kernel @amd_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) attributes {tile.persistent = 64 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64}
    tile.copy %acc, %C[%by, %bx] : !fC to memref<?x?xf16>
  }
  return
}
}
