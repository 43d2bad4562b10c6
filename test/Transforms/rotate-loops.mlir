// RUN: tile-opt %s -split-input-file --tile-rotate-loops="remarks=true" -verify-diagnostics | FileCheck %s

// tile-rotate-loops: a loop whose second gemm accumulates the product of a
// register tile computed from the first gemm's (FlashAttention's key loop)
// runs that gemm one iteration behind the first, so that the ops between
// them run while it computes.

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>

// The key loop of FlashAttention at 128 keys a block on sm_90a: Q K^T of
// block kb and P V of block kb - 1 are issued together, the row maximum,
// exponentials and row sums run while P V computes, the P written with the
// exponentials is split off after the wait, and the rescale of O follows it.
// Block 0's stage A comes first and the last P V after the loop, both only
// if the loop runs, with shared tiles of their own for their copies, which
// come first: their loads overlap (the last block is lb where the loop does
// not run).
// CHECK-LABEL: func.func @attention(
// CHECK-SAME:    %[[K:[a-z0-9]+]]: memref<?x?xf16>, %[[V:[a-z0-9]+]]: memref<?x?xf16>, %[[N:[a-z0-9]+]]: index
// CHECK:         %[[Q:.*]] = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[KS:.*]] = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[EDGE:.*]] = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[VS:.*]] = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[EDGEV:.*]] = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[S:.*]] = tile.alloc : memref<128x128xf32
// CHECK-NEXT:    %[[P:.*]] = tile.alloc : memref<128x128xf16
// CHECK-NEXT:    %[[O:.*]] = tile.alloc : memref<128x64xf32
// CHECK:         %[[RUNS:.*]] = arith.cmpi slt, %[[LB:.*]], %[[N]] : index
// CHECK:         tile.copy %[[K]][%{{.*}}, %{{.*}}], %[[EDGE]]
// CHECK:         %[[LASTB:.*]] = arith.select %[[RUNS]], %{{.*}}, %[[LB]] : index
// CHECK-NEXT:    %[[VL:.*]] = arith.muli %[[LASTB]], %{{.*}} : index
// CHECK-NEXT:    tile.copy %[[V]][%[[VL]], %{{.*}}], %[[EDGEV]]
// CHECK-NEXT:    scf.if %[[RUNS]] {
// CHECK-NOT:       tile.copy %[[K]]
// CHECK:           tile.gemm %[[Q]], %[[EDGE]], %[[S]] transpose_b clear_accum policy <full_row> :
// CHECK:           tile.reduce <max> %[[S]]
// CHECK:           memref.store %{{.*}}, %[[P]]
// CHECK:           tile.reduce <sum> %[[S]]
// CHECK:           memref.store %{{.*}}, %[[O]]
// CHECK:         }
// CHECK:         %[[FROM:.*]] = arith.addi %[[LB]], %[[STEP:.*]] : index
// CHECK-NEXT:    scf.for %[[KB:.*]] = %[[FROM]] to %[[N]] step %[[STEP]] {
// CHECK-NEXT:      %[[PREV:.*]] = arith.subi %[[KB]], %[[STEP]] : index
// CHECK-NEXT:      %[[K0:.*]] = arith.muli %[[KB]], %{{.*}} : index
// CHECK-NEXT:      tile.copy %[[K]][%[[K0]], %{{.*}}], %[[KS]]
// CHECK-NEXT:      %[[V0:.*]] = arith.muli %[[PREV]], %{{.*}} : index
// CHECK-NEXT:      tile.copy %[[V]][%[[V0]], %{{.*}}], %[[VS]]
// CHECK-NEXT:      tile.gemm %[[Q]], %[[KS]], %[[S]] transpose_b clear_accum policy <full_row> {mma_groups_in_flight = 1 : i64}
// CHECK-NEXT:      tile.gemm %[[P]], %[[VS]], %[[O]] policy <full_row> {mma_groups_in_flight = 1 : i64}
// CHECK-NEXT:      tile.copy %{{.*}}, %{{.*}} : memref<128xf32
// CHECK-NEXT:      tile.reduce <max> %[[S]]
// CHECK-NEXT:      tile.parallel (%{{.*}}) in [128] {
// CHECK:           tile.parallel (%[[I:.*]], %[[J:.*]]) in [128, 128] {
// CHECK:             %[[E:.*]] = math.exp2
// CHECK-NEXT:        memref.store %[[E]], %[[S]][%[[I]], %[[J]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      tile.reduce <sum> %[[S]]
// CHECK-NEXT:      tile.parallel (%{{.*}}) in [128] {
// CHECK-NOT:         %[[P]]
// CHECK-NOT:         %[[O]]
// CHECK:           tile.mma_wait 0
// CHECK-NEXT:      tile.parallel (%[[I2:.*]], %[[J2:.*]]) in [128, 128] {
// CHECK-NEXT:        %[[BACK:.*]] = memref.load %[[S]][%[[I2]], %[[J2]]]
// CHECK-NEXT:        %[[H:.*]] = arith.truncf %[[BACK]] : f32 to f16
// CHECK-NEXT:        memref.store %[[H]], %[[P]][%[[I2]], %[[J2]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      tile.parallel (%{{.*}}, %{{.*}}) in [128, 64] {
// CHECK:             memref.store %{{.*}}, %[[O]]
// CHECK:         } {tile.num_stages = 2 : i64, tile.rotate = true}
// CHECK-NEXT:    scf.if %[[RUNS]] {
// CHECK-NEXT:      tile.gemm %[[P]], %[[EDGEV]], %[[O]] policy <full_row> :
// CHECK-NEXT:    }
func.func @attention(%Qg: !g, %K: !g, %V: !g, %n: index) {
  tile.kernel @attention_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %neg_inf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.125 : f32
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    %m_prev = tile.alloc : !fRow
    %m_new = tile.alloc : !fRow
    %l = tile.alloc : !fRow
    %corr = tile.alloc : !fRow
    %sum = tile.alloc : !fRow
    // expected-remark @below {{loop rotated: the previous iteration's second gemm computes while 6 ops of this one run}}
    scf.for %kb = %c0 to %n step %c1 {
      %k0 = arith.muli %kb, %c128 : index
      tile.copy %K[%k0, %c0], %Ks : !g to !sQ
      tile.copy %V[%k0, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.copy %m_new, %m_prev : !fRow to !fRow
      tile.reduce <max> %S, %m_new dim 1 : !fS to !fRow
      tile.parallel (%i) in [128] {
        %a = memref.load %m_prev[%i] : !fRow
        %b = memref.load %m_new[%i] : !fRow
        %d = arith.subf %a, %b : f32
        %e = math.exp2 %d : f32
        memref.store %e, %corr[%i] : !fRow
      }
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %m = memref.load %m_new[%i] : !fRow
        %x = arith.subf %s, %m : f32
        %y = arith.mulf %x, %scale : f32
        %p = math.exp2 %y : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.reduce <sum> %S, %sum dim 1 clear : !fS to !fRow
      tile.parallel (%i) in [128] {
        %a = memref.load %l[%i] : !fRow
        %b = memref.load %corr[%i] : !fRow
        %c = memref.load %sum[%i] : !fRow
        %d = arith.mulf %a, %b : f32
        %e = arith.addf %d, %c : f32
        memref.store %e, %l[%i] : !fRow
      }
      tile.parallel (%i, %j) in [128, 64] {
        %o = memref.load %O[%i, %j] : !fO
        %c = memref.load %corr[%i] : !fRow
        %r = arith.mulf %o, %c : f32
        memref.store %r, %O[%i, %j] : !fO
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sK = memref<64x64xf16, #gpu.address_space<workgroup>>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fP = memref<128x64xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// A 64-key block is rotated too (the shipped examples' block).
// CHECK-LABEL: func.func @narrow(
// CHECK:         scf.for
// CHECK:           tile.gemm {{.*}} {mma_groups_in_flight = 1 : i64}
// CHECK-NEXT:      tile.gemm {{.*}} {mma_groups_in_flight = 1 : i64}
// CHECK-NEXT:      tile.parallel
// CHECK:           tile.mma_wait 0
// CHECK-NEXT:      tile.parallel
// CHECK:         } {tile.rotate = true}
func.func @narrow(%K: !g, %V: !g, %n: index) {
  tile.kernel @narrow_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sK
    %Vs = tile.alloc : !sK
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-remark @below {{loop rotated: the previous iteration's second gemm computes while 1 op of this one run}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sK
      tile.copy %V[%kb, %c0], %Vs : !g to !sK
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sK, !fS
      tile.parallel (%i, %j) in [128, 64] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sK, !fO
    }
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>

// On sm_80 the MMAs complete when issued: kept. Asked for (tile.rotate =
// true), the loop is rotated there too, with the step and bounds it has;
// the epilogue runs the last iteration, lb + (ceil((ub - lb) / step) - 1)
// step (lb where the loop does not run, for its copy). An op after the
// second gemm that uses none of its tiles (the row maximum saved for the
// next block) joins stage A.
// CHECK-LABEL: func.func @synchronous(
// CHECK:         scf.for
// CHECK:         } {tile.rotate = false}
// CHECK-LABEL: func.func @asked(
// CHECK-SAME:    %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[LB:[a-z0-9]+]]: index, %[[UB:[a-z0-9]+]]: index
// CHECK:         %[[STEP:.*]] = arith.constant 2 : index
// CHECK:         %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : index
// CHECK-NEXT:    tile.copy %{{.*}}[%[[LB]], %{{.*}}], %{{.*}} :
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.ceildivui %[[SPAN]], %[[STEP]] : index
// CHECK-NEXT:    %[[BEFORE:.*]] = arith.subi %[[COUNT]], %[[ONE]] : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[BEFORE]], %[[STEP]] : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.addi %[[LB]], %[[OFF]] : index
// CHECK-NEXT:    %[[LASTB:.*]] = arith.select %[[RUNS]], %[[LAST]], %[[LB]] : index
// CHECK-NEXT:    tile.copy %{{.*}}[%[[LASTB]], %{{.*}}], %{{.*}} :
// CHECK-NEXT:    scf.if %[[RUNS]] {
// CHECK-NEXT:      tile.gemm
// CHECK:           tile.copy %[[MNEW:.*]], %[[MPREV:.*]] : memref<128xf32
// CHECK:         }
// CHECK:         scf.for %[[KB:.*]] = %{{.*}} to %[[UB]] step %[[STEP]] {
// CHECK-NEXT:      %[[PREV:.*]] = arith.subi %[[KB]], %[[STEP]] : index
// CHECK-NEXT:      tile.copy %{{.*}}[%[[KB]], %{{.*}}], %{{.*}} :
// CHECK-NEXT:      tile.copy %{{.*}}[%[[PREV]], %{{.*}}], %{{.*}} :
// CHECK-NEXT:      tile.gemm {{.*}} {mma_groups_in_flight = 1 : i64}
// CHECK-NEXT:      tile.gemm {{.*}} {mma_groups_in_flight = 1 : i64}
// CHECK-NEXT:      tile.reduce <max>
// CHECK-NEXT:      tile.copy %[[MNEW]], %[[MPREV]]
// CHECK-NEXT:      tile.mma_wait 0
// CHECK-NEXT:      tile.parallel
// CHECK:         } {tile.rotate = true}
// CHECK-NEXT:    scf.if %[[RUNS]] {
// CHECK-NEXT:      tile.gemm
// CHECK-NEXT:    }
func.func @synchronous(%K: !g, %V: !g, %n: index) {
  tile.kernel @synchronous_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_80">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-remark @below {{loop not rotated: the target's MMAs for its gemms complete when issued, so nothing runs beside them}}
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
    }
  }
  return
}

func.func @asked(%K: !g, %V: !g, %lb: index, %ub: index) {
  tile.kernel @asked_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_80">} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    %m_prev = tile.alloc : !fRow
    %m_new = tile.alloc : !fRow
    // expected-remark @below {{loop rotated: the previous iteration's second gemm computes while 2 ops of this one run}}
    scf.for %kb = %lb to %ub step %c2 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.reduce <max> %S, %m_new dim 1 : !fS to !fRow
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
      tile.copy %m_new, %m_prev : !fRow to !fRow
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
!fRow = memref<128xf32, #tile.mem<fragment>>

// Loops kept as written: `tile.rotate = false`; a loop whose only op between
// the gemms computes P (nothing would overlap the second gemm); a loop whose
// gemms already leave MMAs in flight (rotated by hand), without a remark;
// a loop with one gemm, without a remark.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT:     tile.mma_wait
// CHECK:         } {tile.rotate = false}
// CHECK-NOT:     tile.mma_wait
// CHECK:         scf.for
// CHECK-NOT:     tile.rotate
// CHECK:         tile.mma_wait 0
// CHECK:         scf.for
// CHECK-NOT:     tile.rotate
// CHECK:         return
func.func @kept(%K: !g, %V: !g, %n: index) {
  tile.kernel @kept_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-remark @below {{loop not rotated: tile.rotate = false}}
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
    } {tile.rotate = false}
    // expected-remark @below {{loop not rotated: no op between its gemms can run while the second computes: every one uses the second gemm's tiles or depends on one that does}}
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
    }
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          {mma_groups_in_flight = 1 : i64} : !sQ, !sQ, !fS
      tile.gemm %P, %Vs, %O policy <full_row>
          {mma_groups_in_flight = 1 : i64} : !fP, !sQ, !fO
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%i, %j] : !fS
      }
      tile.mma_wait 0
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %h = arith.truncf %s : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
    }
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
    }
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>

// A tile.parallel that writes P and another tile away from its indices is
// not split: it runs after the wait whole, and so does the reduce that
// reads what it wrote; the row maximum before it still overlaps.
// CHECK-LABEL: func.func @unsplit(
// CHECK:         scf.for
// CHECK:           tile.gemm {{.*}} {mma_groups_in_flight = 1 : i64}
// CHECK-NEXT:      tile.gemm {{.*}} {mma_groups_in_flight = 1 : i64}
// CHECK-NEXT:      tile.reduce <max>
// CHECK-NEXT:      tile.mma_wait 0
// CHECK-NEXT:      tile.parallel
// CHECK:           tile.reduce <sum>
// CHECK-NEXT:    } {tile.rotate = true}
func.func @unsplit(%K: !g, %V: !g, %n: index) {
  tile.kernel @unsplit_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    %m = tile.alloc : !fRow
    %sum = tile.alloc : !fRow
    // expected-remark @below {{loop rotated: the previous iteration's second gemm computes while 1 op of this one run}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy %V[%kb, %c0], %Vs : !g to !sQ
      tile.gemm %Qs, %Ks, %S transpose_b clear_accum policy <full_row>
          : !sQ, !sQ, !fS
      tile.reduce <max> %S, %m dim 1 : !fS to !fRow
      tile.parallel (%i, %j) in [128, 128] {
        %s = memref.load %S[%i, %j] : !fS
        %p = math.exp2 %s : f32
        memref.store %p, %S[%j, %i] : !fS
        %h = arith.truncf %p : f32 to f16
        memref.store %h, %P[%i, %j] : !fP
      }
      tile.reduce <sum> %S, %sum dim 1 clear : !fS to !fRow
      tile.gemm %P, %Vs, %O policy <full_row> : !fP, !sQ, !fO
    }
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x128xf32, #tile.mem<fragment>>

// Three stages of 32 KiB K and V tiles leave no room for two edge tiles
// (sm_90a: 227 KiB a block): the epilogue reuses the prologue's and copies
// after the loop.
// CHECK-LABEL: func.func @tight(
// CHECK:         tile.alloc : memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[KS:.*]] = tile.alloc : memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[EDGE:.*]] = tile.alloc : memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[VS:.*]] = tile.alloc : memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    tile.alloc : memref<128x128xf32
// CHECK:         tile.copy %{{.*}}, %[[EDGE]]
// CHECK-NEXT:    scf.if
// CHECK:         } {tile.num_stages = 3 : i64, tile.rotate = true}
// CHECK-NEXT:    scf.if
// CHECK:           tile.copy %{{.*}}, %[[EDGE]]
// CHECK-NEXT:      tile.gemm %{{.*}}, %[[EDGE]], %{{.*}} policy <full_row> :
// CHECK-NEXT:    }
func.func @tight(%K: !g, %V: !g, %n: index) {
  tile.kernel @tight_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-remark @below {{loop rotated: the previous iteration's second gemm computes while 1 op of this one run}}
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
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

!g = memref<?x?xf16>
!sQ = memref<128x64xf16, #gpu.address_space<workgroup>>
!fS = memref<128x128xf32, #tile.mem<fragment>>
!fP = memref<128x128xf16, #tile.mem<fragment>>
!fO = memref<128x64xf32, #tile.mem<fragment>>

// Copies the kernel says are in bounds stay under the tests that the loop
// runs: out of the tests they would read at the first iteration where the
// loop does not run.
// CHECK-LABEL: func.func @in_bounds(
// CHECK:         %[[RUNS:.*]] = arith.cmpi slt
// CHECK-NEXT:    scf.if %[[RUNS]] {
// CHECK-NEXT:      tile.copy in_bounds
// CHECK-NEXT:      tile.gemm
// CHECK:         } {tile.rotate = true}
// CHECK-NEXT:    scf.if %[[RUNS]] {
// CHECK:           tile.copy in_bounds
// CHECK-NEXT:      tile.gemm
// CHECK-NEXT:    }
func.func @in_bounds(%K: !g, %V: !g, %n: index) {
  tile.kernel @in_bounds_kernel blocks(%bx) in [4] threads(256)
      attributes {tile.target = #tile.target<"sm_90a">} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sQ
    %Vs = tile.alloc : !sQ
    %S = tile.alloc : !fS
    %P = tile.alloc : !fP
    %O = tile.alloc : !fO
    // expected-remark @below {{loop rotated: the previous iteration's second gemm computes while 1 op of this one run}}
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy in_bounds %K[%kb, %c0], %Ks : !g to !sQ
      tile.copy in_bounds %V[%kb, %c0], %Vs : !g to !sQ
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
    }
  }
  return
}
