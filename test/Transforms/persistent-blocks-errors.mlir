// RUN: tile-opt %s -split-input-file --tile-persistent-blocks -verify-diagnostics

// tile.tile_order names an order the pass knows.

!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!g3 = memref<?x?x128xf16>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @misspelled(%Q: !g3, %gx: index, %gy: index) {
  // expected-error @+1 {{'tile.tile_order' must be "launch" or "<x|y|z>-<descending|ascending>"}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.tile_order = "longest_first"} {
  }
  return
}
}

// -----

!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!g3 = memref<?x?x128xf16>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @no_such_dimension(%Q: !g3, %K: !g3, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{tile.tile_order must be 'launch' or '<dimension of the grid>-<descending|ascending>' (x, y, z), got 'z-descending'}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.tile_order = "z-descending"} {
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

!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!g3 = memref<?x?x128xf16>

// One block per tile: the order is the hardware's.
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @not_persistent(%Q: !g3, %K: !g3, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  // expected-warning @+1 {{tile.tile_order ignored: only single blocks of a persistent grid take their tiles in another order than the launch order}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(256)
      attributes {tile.persistent = 0 : i64, tile.tile_order = "x-descending"} {
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
