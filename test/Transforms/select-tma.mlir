// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// A pipelined K loop on sm_90a: the kernel is versioned. The host tests, for
// each tensor the pipe's copies read, the facts only the call knows (first
// element 16-byte aligned, unit inner stride, rows 16-byte multiples apart,
// extents a tensor map describes) and launches the TMA version, whose
// copies are `tma`, or else the original kernel, unchanged.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @versioned
// CHECK: memref.extract_strided_metadata %arg0
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: arith.remui %{{.*}}, %c16
// CHECK: memref.extract_strided_metadata %arg1
// CHECK: scf.if
// CHECK: tile.kernel @k_tma
// CHECK: tile.pipe.produce_acquire
// CHECK: tile.copy async tma %arg0
// CHECK: tile.copy async tma %arg1
// The pipe's barriers order the tensor copies: no copy-engine wait is left.
// CHECK-NOT: tile.async_wait
// CHECK: } else {
// CHECK: tile.kernel @k
// CHECK-NOT: tma
// CHECK: tile.async_wait 0
// CHECK: return
func.func @versioned(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// 2-D tiles of a 3-D tensor (FlashAttention's [B*H, S, D]): tensor copies
// with a box of one along the leading dimension. The host's test covers
// every stride: the innermost is 1, the others 16-byte multiples, each at
// least the next dimension's extent times its stride.
!g3 = memref<?x?x128xf16>
!sK = memref<64x128xf16, #gpu.address_space<workgroup>>
!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @rank3
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:3, %[[STRIDES:.*]]:3 = memref.extract_strided_metadata %arg0
// CHECK: arith.cmpi eq, %[[STRIDES]]#2, %c1
// CHECK: arith.muli %[[STRIDES]]#1, %c2
// CHECK: arith.muli %[[STRIDES]]#2, %[[SIZES]]#2
// CHECK: arith.cmpi slt, %[[STRIDES]]#1, %c549755813888
// CHECK: arith.muli %[[STRIDES]]#0, %c2
// CHECK: arith.muli %[[STRIDES]]#1, %[[SIZES]]#1
// CHECK: scf.if
// CHECK: tile.kernel @k_tma
// CHECK: tile.copy async tma %arg0[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} : memref<?x?x128xf16> to
// CHECK: } else {
func.func @rank3(%K: !g3, %bh: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %qs = tile.alloc : !sQ
    %ks = tile.alloc : !sK
    %s = tile.alloc : !fS
    scf.for %j = %c0 to %n step %c1 {
      %k0 = arith.muli %j, %c64 : index
      tile.copy %K[%bh, %k0, %c0], %ks : !g3 to !sK
      tile.gemm %qs, %ks, %s transpose_b clear_accum : !sQ, !sK, !fS
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// A tensor whose rows are 33 f16 = 66 bytes apart can never be read by
// tensor copies: its copy keeps cp.async, with a remark saying why, beside
// B's tensor copy in the versioned kernel (its threads arrive on the
// slot's barrier when their copies land).

!gOdd = memref<256x33xf16>
!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @odd_rows
// CHECK: scf.if
// CHECK: tile.kernel @k_tma
// CHECK: tile.copy async %{{.*}} : memref<256x33xf16> to
// CHECK: tile.copy async tma %{{.*}} : memref<?x?xf16> to
// CHECK: } else {
// CHECK: tile.kernel @k
// CHECK-NOT: tma
// CHECK: return
func.func @odd_rows(%A: !gOdd, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      // expected-remark @below {{not a tensor copy (TMA): the tensor's row stride is 66 bytes, not a multiple of 16}}
      tile.copy %A[%c0, %k0], %as : !gOdd to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// A static row stride beyond what a tensor map encodes (2^62 f16, whose
// byte count does not fit in 64 bits): cp.async, with a remark, beside B's
// tensor copy.

!gHuge = memref<?x4611686018427387904xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @huge_stride
// CHECK: tile.kernel @k_tma
// CHECK: tile.copy async %{{.*}} : memref<?x4611686018427387904xf16> to
// CHECK: tile.copy async tma %{{.*}} : memref<?x?xf16> to
func.func @huge_stride(%A: !gHuge, %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      // expected-remark @below {{not a tensor copy (TMA): the tensor's stride of 9223372036854775808 bytes exceeds the 1099511627776 bytes a tensor map encodes}}
      tile.copy %A[%c0, %k0], %as : !gHuge to !sA
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64}
  }
  return
}

// -----

// sm_80 has no tensor copies: nothing changes.
!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @sm80
// CHECK-NOT: tma
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @sm80(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2 : i64}
  }
  return
}
}

// -----

// A pipelined loop inside another loop numbers its hand-offs from the
// pipe's base (tile-inject-pipeline): barrier phases continue across the
// outer iterations, so its copies become tensor copies.
!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @nested_loop
// CHECK: tile.kernel @k_tma
// CHECK: tile.pipe.base
// CHECK: tile.copy async tma
// CHECK: tile.copy async tma
// CHECK: tile.pipe.advance
func.func @nested_loop(%A: !g, %B: !g, %kt: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %t = %c0 to %n step %c1 {
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c32 : index
        tile.copy %A[%c0, %k0], %as : !g to !sA
        tile.copy %B[%k0, %c0], %bs : !g to !sB
        tile.gemm %as, %bs, %acc : !sA, !sB, !fC
      } {tile.num_stages = 2 : i64}
    }
  }
  return
}

// -----

// Hand-written hand-offs in a loop inside another loop, numbered from 0 in
// every outer iteration (no tile.pipe.base): barrier phases would restart
// while the barriers' do not, so the copies stay cp.async (remarks=true
// says why).
!g = memref<?x?xf16>

// CHECK-LABEL: func.func @nested_manual
// CHECK-NOT: tma
// CHECK: return
func.func @nested_manual(%A: !g, %kt: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<1>
    %as = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 64>} : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %t = %c0 to %n step %c1 {
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c32 : index
        tile.pipe.produce_acquire %p[%k] : !tile.pipe<1>
        // REMARK: [[@LINE+1]]:9: remark: not a tensor copy (TMA): the pipelined loop is inside another loop and its hand-offs are not numbered from the pipe's base
        tile.copy async %A[%c0, %k0], %as : !g to memref<128x32xf16, #gpu.address_space<workgroup>>
        tile.pipe.produce_commit %p[%k] : !tile.pipe<1>
        tile.pipe.consume_wait %p[%k] in_flight(0) : !tile.pipe<1>
        tile.pipe.consume_release %p[%k] : !tile.pipe<1>
      }
    }
  }
  return
}

// -----

// A user schedule copying in stage 1: hand-off numbers count the loop's
// iterations, not those of the copies, so its barriers would wait for
// copies that never run; it keeps cp.async.
!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @copies_in_stage_1
// CHECK-NOT: tma
// CHECK: return
func.func @copies_in_stage_1(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      // REMARK: [[@LINE+1]]:7: remark: not a tensor copy (TMA): the copy runs in pipeline stage 1, not 0
      tile.copy %A[%c0, %k0], %as : !g to !sA
      // REMARK: [[@LINE+1]]:7: remark: not a tensor copy (TMA): the copy runs in pipeline stage 1, not 0
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64, tile.stage = array<i64: 1, 1, 1, 2>, tile.order = array<i64: 0, 1, 2, 3>}
  }
  return
}

// -----

// A copy padding with a value other than zero (tensor copies fill with
// zero) keeps its whole pipe on cp.async, its neighbour included.
!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @nonzero_padding
// CHECK-NOT: tma
// CHECK: tile.copy async %arg0{{.*}} padding(1.000000e+00 : f16)
// CHECK-NOT: tma
// CHECK: return
func.func @nonzero_padding(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      // REMARK: [[@LINE+1]]:7: remark: not a tensor copy (TMA): the copy's padding is not zero (tensor copies fill with zero)
      tile.copy %A[%c0, %k0], %as padding(1.0 : f16) : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// Tensor copies written by hand (a producer warpgroup, tile.ws, with its own
// pipe ops): the caller vouches for the tensors, so the kernel is not
// versioned (a producer on other warps than its consumers has no cp.async
// fall-back).
!g = memref<?x?xf16>
!sA = memref<2x128x64xf16, #gpu.address_space<workgroup>>
!vA = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @hand_written
// CHECK-NOT: scf.if
// CHECK-NOT: _tma
// CHECK: tile.kernel @k blocks
// CHECK: tile.copy async tma
// CHECK-NOT: scf.if
// CHECK: return
func.func @hand_written(%A: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %pipe = tile.pipe.create : <2>
    %as = tile.alloc : !sA
    tile.ws [0] {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.produce_acquire %pipe[%k] : <2>
        %s = arith.remui %k, %c2 : index
        %a = memref.subview %as[%s, 0, 0] [1, 128, 64] [1, 1, 1] : !sA to !vA
        %k0 = arith.muli %k, %c64 : index
        tile.copy async tma %A[%c0, %k0], %a : !g to !vA
        tile.pipe.produce_commit %pipe[%k] : <2>
      }
    }
    tile.ws [1] {
      scf.for %k = %c0 to %kt step %c1 {
        tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
        tile.pipe.consume_release %pipe[%k] : <2>
      }
    }
  }
  return
}
