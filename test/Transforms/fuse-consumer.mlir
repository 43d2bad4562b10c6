// RUN: tile-opt %tile_src_root/test/Examples/Inputs/fp8_gemm_blockwise_128x256.mlir --tile-attach-target=chip=sm_90a --tile-fuse-consumer | FileCheck %s --check-prefix=WIDE
// RUN: tile-opt %s -split-input-file --tile-attach-target=chip=sm_90a --tile-fuse-consumer="remarks=true" -verify-diagnostics | FileCheck %s

// The block-scaled GEMM at 128 x 256: the K block's product goes to the
// scaling tile.parallel in halves of 128 columns; the scale copy and loads
// between them now run before the gemm.
// WIDE-LABEL: tile.kernel @fp8_gemm_blockwise_kernel
// WIDE: scf.for
// WIDE: tile.copy %{{.*}} to memref<128xf32, #tile.mem<fragment>>
// WIDE: memref.load %arg3
// WIDE: memref.load %arg3
// WIDE-NEXT: tile.gemm {{.*}} clear_accum {consumer_chunk = 128 : i64}
// WIDE-NEXT: tile.parallel

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<256x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
!fR = memref<128xf32, #tile.mem<fragment>>
!gS = memref<?xf32>

// 128 registers a thread of product, read element by element: fused, the
// load between them moved before the gemm.
// CHECK-LABEL: func.func @fused
// CHECK: %[[S:.*]] = memref.load
// CHECK-NEXT: tile.gemm {{.*}} clear_accum {consumer_chunk = 128 : i64}
// CHECK-NEXT: tile.parallel
func.func @fused(%s: !gS) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product consumed 128 columns at a time by the tile.parallel that follows}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    %scale = memref.load %s[%c0] : !gS
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = math.fma %p, %scale, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<128x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// 64 registers a thread: held at once, as written (not in a loop, so not
// consumed late either).
// CHECK-LABEL: func.func @small
// CHECK-NOT: consumer_chunk
// CHECK-NOT: tile.consumer_late
func.func @small() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product consumed in place: it is not in a loop}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    tile.parallel (%i, %j) in [128, 128] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<256x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// The consumer reads the product at another element (a transpose): every
// chunk would need the others.
// CHECK-LABEL: func.func @other_element
// CHECK-NOT: consumer_chunk
func.func @other_element() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product not consumed in chunks: the tile.parallel reads the accumulator at other elements than its own}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    tile.parallel (%i, %j) in [128, 256] {
      %c0 = arith.constant 0 : index
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %c0] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<256x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
!gC = memref<?x?xf32>

// The product is also stored: not the consumer's alone.
// CHECK-LABEL: func.func @other_user
// CHECK-NOT: consumer_chunk
func.func @other_user(%C: !gC) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product not consumed in chunks: its accumulator has users other than one tile.parallel's loads}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
    tile.copy %part, %C[%c0, %c0] : !fC to !gC
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<256x32xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
!gA = memref<?x?xf16>

// A copy into the gemm's own operand sits between them: it cannot run
// before the gemm.
// CHECK-LABEL: func.func @blocked
// CHECK-NOT: consumer_chunk
func.func @blocked(%A: !gA) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-remark @below {{product not consumed in chunks: 'tile.copy' between them cannot move before the gemm}}
    tile.gemm %a, %b, %part transpose_b clear_accum : !sA, !sB, !fC
    tile.copy %A[%c0, %c0], %a : !gA to !sA
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sE = memref<128x4xi16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// A 2:4-sparse gemm (sparse) of the fused case's size: left as written.
// CHECK-LABEL: func.func @sparse
// CHECK-NOT: consumer_chunk
func.func @sparse() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %e = tile.alloc : !sE
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    tile.gemm %a, %b, %part sparse(%e : !sE) clear_accum : !sA, !sB, !fC
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
!fS = memref<128xf32, #tile.mem<fragment>>
!gA = memref<?x?xf8E4M3FN>
!gS = memref<?x?xf32>
!gCol = memref<?xf32, strided<[?], offset: ?>>

// The block-scaled FP8 K loop at 128 x 128, 5 stages: each K block's
// product (64 registers a thread) goes to its consumer one gemm late. The
// scales are read from global memory before the gemm, A's into a fragment
// of their own, which is copied into the consumer's after the gemm (the
// previous block's consumer, run in the gemm, still reads that one); their
// product with B's stays between the two.
// CHECK-LABEL: func.func @late
// CHECK: %[[EARLY:.*]] = tile.alloc : memref<128xf32, #tile.mem<fragment>>
// CHECK: %[[S:.*]] = tile.alloc : memref<128xf32, #tile.mem<fragment>>
// CHECK: scf.for
// CHECK: memref.subview
// CHECK-NEXT: tile.copy %{{.*}}[%{{.*}}], %[[EARLY]] :
// CHECK-NEXT: memref.load
// CHECK-NEXT: tile.gemm {{.*}} clear_accum {tile.consumer_late = true}
// CHECK-NEXT: tile.copy %[[EARLY]], %[[S]] :
// CHECK-NEXT: tile.parallel
// CHECK: tile.parallel
// CHECK: tile.num_stages = 5
func.func @late(%A: !gA, %B: !gA, %sa: !gS, %sb: !gS, %m: index,
                %kt: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    %s = tile.alloc : !fS
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c128 : index
      tile.copy %A[%c0, %k0], %as : !gA to !sA
      tile.copy %B[%c0, %k0], %bs : !gA to !sB
      // expected-remark @below {{product (64 registers a thread) consumed one gemm late by the tile.parallel that follows, while the next K block's MMAs run, its inputs from global memory read before the gemm}}
      tile.gemm %as, %bs, %part transpose_b clear_accum : !sA, !sB, !fC
      %col = memref.subview %sa[0, %k] [%m, 1] [1, 1] : !gS to !gCol
      tile.copy %col[%c0], %s : !gCol to !fS
      %b = memref.load %sb[%c0, %k] : !gS
      tile.parallel (%i) in [128] {
        %a = memref.load %s[%i] : !fS
        %ab = arith.mulf %a, %b : f32
        memref.store %ab, %s[%i] : !fS
      }
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %acc[%i, %j] : !fC
        %p = memref.load %part[%i, %j] : !fC
        %f = memref.load %s[%i] : !fS
        %y = math.fma %p, %f, %x : f32
        memref.store %y, %acc[%i, %j] : !fC
      }
    } {tile.num_stages = 5 : i64}
  }
  return
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
!gS = memref<?xf32>

// The consumer multiplies by a scale loaded in the loop, which would not
// exist at the next iteration's gemm: it reaches the consumer through a
// fragment of the consumer's rows, filled right before it (and is loaded
// before the gemm).
// CHECK-LABEL: func.func @loop_value
// CHECK: %[[F:.*]] = tile.alloc : memref<128xf32, #tile.mem<fragment>>
// CHECK: scf.for
// CHECK: %[[B:.*]] = memref.load
// CHECK-NEXT: tile.gemm {{.*}} {tile.consumer_late = true}
// CHECK-NEXT: tile.fill %[[F]], %[[B]] : memref<128xf32, #tile.mem<fragment>>
// CHECK-NEXT: tile.parallel (%[[I:.*]], %{{.*}}) in [128, 128]
// CHECK-NEXT: %[[R:.*]] = memref.load %[[F]][%[[I]]]
// CHECK: math.fma %{{.*}}, %[[R]], %{{.*}} : f32
func.func @loop_value(%sb: !gS, %kt: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      // expected-remark @below {{consumed one gemm late}}
      tile.gemm %as, %bs, %part transpose_b clear_accum : !sA, !sB, !fC
      %b = memref.load %sb[%k] : !gS
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %acc[%i, %j] : !fC
        %p = memref.load %part[%i, %j] : !fC
        %y = math.fma %p, %b, %x : f32
        memref.store %y, %acc[%i, %j] : !fC
      }
    } {tile.num_stages = 5 : i64}
  }
  return
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
!gS = memref<?xf32>

// Global memory written between the gemm and its consumer (which may be
// the memory the scale is read from): the scale stays read after the write.
// CHECK-LABEL: func.func @write_between
// CHECK: tile.gemm {{.*}} {tile.consumer_late = true}
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.load
// CHECK-NEXT: tile.fill
func.func @write_between(%sb: !gS, %log: !gS, %kt: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f32
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      // expected-remark-re @below {{product (64 registers a thread) consumed one gemm late by the tile.parallel that follows, while the next K block's MMAs run{{$}}}}
      tile.gemm %as, %bs, %part transpose_b clear_accum : !sA, !sB, !fC
      memref.store %one, %log[%k] : !gS
      %b = memref.load %sb[%k] : !gS
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %acc[%i, %j] : !fC
        %p = memref.load %part[%i, %j] : !fC
        %y = math.fma %p, %b, %x : f32
        memref.store %y, %acc[%i, %j] : !fC
      }
    } {tile.num_stages = 5 : i64}
  }
  return
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// The consumer uses the loop's induction variable, an index: no fragment
// carries it, so the consumer runs in place.
// CHECK-LABEL: func.func @loop_index
// CHECK-NOT: tile.consumer_late
func.func @loop_index(%kt: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      // expected-remark @below {{product consumed in place: its consumer uses a value of the loop other than a float computed before it in its block}}
      tile.gemm %as, %bs, %part transpose_b clear_accum : !sA, !sB, !fC
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %acc[%i, %j] : !fC
        %p = memref.load %part[%i, %j] : !fC
        %ki = arith.index_cast %k : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        %y = math.fma %p, %kf, %x : f32
        memref.store %y, %acc[%i, %j] : !fC
      }
    } {tile.num_stages = 5 : i64}
  }
  return
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// A pipeline of 4 stages: the consumers could not hold a slot one gemm
// longer without starving the producer.
// CHECK-LABEL: func.func @shallow
// CHECK-NOT: tile.consumer_late
func.func @shallow(%kt: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      // expected-remark @below {{product consumed in place: its loop is not pipelined with 5 stages or more}}
      tile.gemm %as, %bs, %part transpose_b clear_accum : !sA, !sB, !fC
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %acc[%i, %j] : !fC
        %p = memref.load %part[%i, %j] : !fC
        %y = arith.addf %p, %x : f32
        memref.store %y, %acc[%i, %j] : !fC
      }
    } {tile.num_stages = 4 : i64}
  }
  return
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
!fS = memref<128xf32, #tile.mem<fragment>>
!gS = memref<?xf32>

// The consumer's scales are copied before the gemm: run one gemm late, the
// consumer would read the next K block's.
// CHECK-LABEL: func.func @scales_before
// CHECK-NOT: tile.consumer_late
func.func @scales_before(%sa: !gS, %kt: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    %s = tile.alloc : !fS
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %sa[%c0], %s : !gS to !fS
      // expected-remark @below {{product consumed in place: ops of its loop outside the gemm and its consumer use the tiles the consumer reads or writes}}
      tile.gemm %as, %bs, %part transpose_b clear_accum : !sA, !sB, !fC
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %acc[%i, %j] : !fC
        %p = memref.load %part[%i, %j] : !fC
        %f = memref.load %s[%i] : !fS
        %y = math.fma %p, %f, %x : f32
        memref.store %y, %acc[%i, %j] : !fC
      }
    } {tile.num_stages = 5 : i64}
  }
  return
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// The user's override keeps the consumer in place.
// CHECK-LABEL: func.func @opt_out
// CHECK: tile.gemm {{.*}} {tile.consumer_late = false}
func.func @opt_out(%kt: index) {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      // expected-remark @below {{product consumed in place: tile.consumer_late = false}}
      tile.gemm %as, %bs, %part transpose_b clear_accum {tile.consumer_late = false} : !sA, !sB, !fC
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %acc[%i, %j] : !fC
        %p = memref.load %part[%i, %j] : !fC
        %y = arith.addf %p, %x : f32
        memref.store %y, %acc[%i, %j] : !fC
      }
    } {tile.num_stages = 5 : i64}
  }
  return
}

// -----

!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// Asked for where it cannot be: an error at the gemm.
func.func @forced() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %part = tile.alloc : !fC
    // expected-error @below {{cannot consume its product one gemm late (tile.consumer_late): it is not in a loop}}
    tile.gemm %as, %bs, %part transpose_b clear_accum {tile.consumer_late = true} : !sA, !sB, !fC
    tile.parallel (%i, %j) in [128, 128] {
      %x = memref.load %acc[%i, %j] : !fC
      %p = memref.load %part[%i, %j] : !fC
      %y = arith.addf %p, %x : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
  }
  return
}
