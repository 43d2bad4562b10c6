// RUN: tile-opt %s -split-input-file --tile-rotate-loops -verify-diagnostics

// tile-rotate-loops: a loop asked to rotate (tile.rotate = true) that cannot
// be is reported at the loop, with the reason.

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// A loop with one gemm.
func.func @one_gemm(%K: !g, %V: !g, %n: index) {
  tile.kernel @one_gemm_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): it has no two gemms in its body, the second reading a register tile the loop computes}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// A loop with results.
func.func @results(%K: !g, %V: !g, %n: index) {
  tile.kernel @results_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): it has results}}
    %r = scf.for %kb = %c0 to %n step %c1 iter_args(%a = %c0) -> (index) {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
      scf.yield %a : index
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// The second gemm clears its accumulator.
func.func @clears(%K: !g, %V: !g, %n: index) {
  tile.kernel @clears_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): its second gemm does not accumulate a product of a register tile}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O clear_accum policy <full_row> : !fP, !sQ, !fO
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// P is computed outside the loop.
func.func @p_elsewhere(%K: !g, %V: !g, %n: index) {
  tile.kernel @p_elsewhere_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): its second gemm's register operand is not computed between the two gemms}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// The loop writes global memory.
func.func @global_write(%K: !g, %V: !g, %n: index) {
  tile.kernel @global_write_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): it writes global memory}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
      tile.copy %O, %V[%kb, %c0] : !fO to !g
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// An op whose effects the pass cannot follow.
func.func @barrier(%K: !g, %V: !g, %n: index) {
  tile.kernel @barrier_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): 'tile.barrier' in its body has effects the pass cannot follow}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.barrier
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// Another op reads the second gemm's B tile.
func.func @b_tile_used(%K: !g, %V: !g, %n: index) {
  tile.kernel @b_tile_used_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): its second gemm's B tile is used by other ops than its copies}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
      tile.copy %Vs, %Ks : !sQ to !sQ
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// An op after the second gemm reads its accumulator.
func.func @after_second(%K: !g, %V: !g, %n: index) {
  tile.kernel @after_second_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): an op after its second gemm uses the gemm's tiles}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
      tile.parallel (%i, %j) in [128, 64] {
        %o = memref.load %O[%i, %j] : !fO
        memref.store %o, %O[%i, %j] : !fO
      }
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// An op before the first gemm writes the accumulator.
func.func @before_first(%K: !g, %V: !g, %n: index) {
  tile.kernel @before_first_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): an op before its first gemm uses the second gemm's tiles}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.fill %O, %zero : !fO
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// The second gemm's copies take their rows from memory.
func.func @loaded_index(%K: !g, %V: !g, %n: index, %rows: memref<?xindex>) {
  tile.kernel @loaded_index_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): the copies into its second gemm's B tile take their position from memory the loop reads}}
    scf.for %kb = %c0 to %n step %c1 {
      %row = memref.load %rows[%kb] : memref<?xindex>
      tile.copy %V[%row, %c0], %Vs : !g to !sQ
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
    } {tile.rotate = true}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// Nothing between the gemms can overlap the second.
func.func @nothing(%K: !g, %V: !g, %n: index) {
  tile.kernel @nothing_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-error @below {{cannot rotate this loop (tile.rotate = true): no op between its gemms can run while the second computes: every one uses the second gemm's tiles or depends on one that does}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %h = arith.truncf %s : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
    } {tile.rotate = true}
  }
  return
}
