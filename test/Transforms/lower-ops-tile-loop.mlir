// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops | FileCheck %s

// Inside a persistent kernel's loop over tiles (`tile.tile_loop`), ops
// read the thread id through a copy made at the start of each tile, which
// the code generator cannot see through or hoist: what they compute from it
// per register (coordinates, masks, addresses) stays in the tile instead of
// being hoisted out of the tile loop and kept live across every tile.
// Outside the tile loop, and on targets without such copies, ops read the
// kernel's thread id.

!f = memref<32x32xf32, #tile.mem<fragment>>
!g = memref<?x?xf32>

// CHECK-LABEL: func.func @masked_tiles
// CHECK: %[[TID:.*]] = gpu.thread_id x
// The fill before the loop uses the kernel's thread id.
// CHECK: scf.for
// CHECK-NEXT: %[[TID32:.*]] = arith.index_castui %[[TID]] : index to i32
// CHECK-NEXT: %[[COPY:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $1;", "=r,r" %[[TID32]] : (i32) -> i32
// CHECK-NEXT: %[[LOCAL:.*]] = arith.index_castui %[[COPY]] : i32 to index
// CHECK-NOT: gpu.thread_id
// CHECK: arith.andi %[[LOCAL]]
// CHECK: } {tile.tile_loop}
// CHECK-NOT: llvm.inline_asm
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @masked_tiles(%A: !g, %O: !g, %tiles: index, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %acc = tile.alloc : !f
      %zero = arith.constant 0.0 : f32
      tile.fill %acc, %zero : !f
      scf.for %t = %c0 to %tiles step %c1 {
        %row = arith.muli %t, %c32 : index
        tile.copy %A[%row, %c0], %acc : !g to !f
        tile.parallel (%i, %j) in [32, 32] {
          %col = arith.addi %row, %j : index
          %in = arith.cmpi ult, %col, %n : index
          %v = memref.load %acc[%i, %j] : !f
          %z = arith.constant 0.0 : f32
          %m = arith.select %in, %v, %z : f32
          memref.store %m, %acc[%i, %j] : !f
        }
        tile.copy %acc, %O[%row, %c0] : !f to !g
      } {tile.tile_loop}
    }
    return
  }
}

// -----

!f = memref<32x32xf32, #tile.mem<fragment>>
!g = memref<?x?xf32>

// An ordinary loop: the kernel's thread id.
// CHECK-LABEL: func.func @ordinary_loop
// CHECK-NOT: llvm.inline_asm
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @ordinary_loop(%A: !g, %O: !g, %tiles: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %acc = tile.alloc : !f
      scf.for %t = %c0 to %tiles step %c1 {
        %row = arith.muli %t, %c32 : index
        tile.copy %A[%row, %c0], %acc : !g to !f
        tile.copy %acc, %O[%row, %c0] : !f to !g
      }
    }
    return
  }
}

// -----

!f = memref<32x32xf32, #tile.mem<fragment>>
!g = memref<?x?xf32>

// AMD: no opaque copies; the kernel's thread id.
// CHECK-LABEL: func.func @amd_tiles
// CHECK-NOT: llvm.inline_asm
// CHECK: } {tile.tile_loop}
// CHECK: return
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @amd_tiles(%A: !g, %O: !g, %tiles: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    tile.kernel @k blocks(%bx) in [4] threads(256) {
      %acc = tile.alloc : !f
      scf.for %t = %c0 to %tiles step %c1 {
        %row = arith.muli %t, %c32 : index
        tile.copy %A[%row, %c0], %acc : !g to !f
        tile.copy %acc, %O[%row, %c0] : !f to !g
      } {tile.tile_loop}
    }
    return
  }
}
