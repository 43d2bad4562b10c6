// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=sm_80 -tile-layout-inference=remarks=true -verify-diagnostics | FileCheck %s

// The GEMM example: the accumulator gets the mma.sync layout with the 4 warps
// split 2 x 2 (square policy); the shared operands get the widest swizzle
// their rows allow (64 B rows of A -> 64B swizzle) and the alignment it
// needs; the 256 B rows of B get the 128B swizzle in two column panels of
// 128 B (conflict-free ldmatrix over 8 rows, whole 128 B rows per 8 threads
// for the copies).

!gA = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @gemm
// CHECK: tile.alloc {alignment = 512 : i64, layout = #tile.shared<swizzle = 64>} : memref<128x32xf16
// CHECK: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<32x128xf16
// CHECK: tile.alloc {layout = #tile.linear<[128, 128], register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [16, 0], [32, 0{{\]\]}}, lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0{{\]\]}}, warp = {{\[\[}}0, 64], [64, 0{{\]\]}}>} : memref<128x128xf32
func.func @gemm(%A: !gA, %B: !gA, %C: !gA, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @gemm blocks(%bx, %by) in [8, 8] threads(128) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%by, %k0], %As : !gA to !sA
      tile.copy %B[%k0, %bx], %Bs : !gA to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%by, %bx] : !fC to !gA
  }
  return
}

// -----

// Shared rows of 16 bytes fill no swizzle pattern (32 bytes at least): B gets
// 16 bytes of row padding instead; A's 32-byte rows get the 32B swizzle.
// CHECK-LABEL: func.func @narrow_rows
// CHECK: tile.alloc {alignment = 256 : i64, layout = #tile.shared<swizzle = 32>} : memref<64x16xf16
// CHECK: tile.alloc {alignment = 16 : i64, layout = #tile.shared<pad = 16>} : memref<16x8xf16
func.func @narrow_rows(%A: memref<?x?xf16>, %B: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : memref<64x16xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<16x8xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<64x8xf32, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %as : memref<?x?xf16> to memref<64x16xf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %c0], %bs : memref<?x?xf16> to memref<16x8xf16, #gpu.address_space<workgroup>>
    tile.gemm %as, %bs, %acc clear_accum : memref<64x16xf16, #gpu.address_space<workgroup>>, memref<16x8xf16, #gpu.address_space<workgroup>>, memref<64x8xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// FlashAttention forward (the core of examples/flash_attention.mlir): with
// warps along M (full_row), the accumulator of S = Q K^T, the softmax loops
// over it, and the register A operand P of P V all share one layout: no
// conversion. The row statistics get the accumulator's layout without the
// column dimension: each row is held by the 4 lanes of a quad (replication
// 4).

!g = memref<?x?xf16>
!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!sKV = memref<64x128xf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fP = memref<128x64xf16, #tile.mem<fragment>>
!fO = memref<128x128xf32, #tile.mem<fragment>>
!fRow = memref<128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @attention
// CHECK: tile.alloc {layout = [[O:#tile.linear<\[128, 128\].*>]]} : memref<128x128xf32
// CHECK: tile.alloc {layout = [[ACC:#tile.linear<\[128, 64\].*>]]} : memref<128x64xf32
// CHECK: tile.alloc {layout = [[ACC]]} : memref<128x64xf16
// CHECK: tile.alloc {layout = [[ROW:#tile.linear<\[128\], register = \[\[8\], \[16\]\], lane = \[\[0\], \[0\], \[1\], \[2\], \[4\]\], warp = \[\[32\], \[64\]\]>]]} : memref<128xf32
// CHECK: tile.alloc {layout = [[ROW]]} : memref<128xf32
// CHECK-NOT: tile.copy %{{.*}} : !fS to !fP
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [128, 64] attributes {layout = [[ACC]]}
// CHECK: tile.parallel (%{{.*}}) in [128] attributes {layout = [[ROW]]}
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [128, 128] attributes {layout = [[O]]}
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} policy <full_row> {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [4, 1]>} : memref<128x64xf16
func.func @attention(%Q: !g, %K: !g, %V: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @attention blocks(%bx) in [16] threads(128) {
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sKV
    %Vs = tile.alloc : !sKV
    %o = tile.alloc : !fO
    %s = tile.alloc : !fS
    %p = tile.alloc : !fP
    %m = tile.alloc : !fRow
    %scale = tile.alloc : !fRow
    tile.copy %Q[%bx, %c0], %Qs : !g to !sQ
    scf.for %kb = %c0 to %n step %c1 {
      tile.copy %K[%kb, %c0], %Ks : !g to !sKV
      tile.copy %V[%kb, %c0], %Vs : !g to !sKV
      tile.gemm %Qs, %Ks, %s transpose_b clear_accum policy <full_row>
          : !sQ, !sKV, !fS
      tile.reduce <max> %s, %m dim 1 : !fS to !fRow
      // expected-remark @below {{layout from fragment: replication 1, 64 iterations per thread, vector width 2}}
      tile.parallel (%i, %j) in [128, 64] {
        %x = memref.load %s[%i, %j] : !fS
        %mi = memref.load %m[%i] : !fRow
        %d = arith.subf %x, %mi : f32
        %e = math.exp2 %d : f32
        %h = arith.truncf %e : f32 to f16
        memref.store %h, %p[%i, %j] : !fP
      }
      // expected-remark @below {{layout from fragment: replication 4, 4 iterations per thread, vector width 1}}
      tile.parallel (%i) in [128] {
        %mi = memref.load %m[%i] : !fRow
        %e = math.exp2 %mi : f32
        memref.store %e, %scale[%i] : !fRow
      }
      // expected-remark @below {{layout from fragment: replication 1, 128 iterations per thread, vector width 2}}
      tile.parallel (%i, %j) in [128, 128] {
        %x = memref.load %o[%i, %j] : !fO
        %f = memref.load %scale[%i] : !fRow
        %y = arith.mulf %x, %f : f32
        memref.store %y, %o[%i, %j] : !fO
      }
      tile.gemm %p, %Vs, %o policy <full_row> : !fP, !sKV, !fO
    }
  }
  return
}

// -----

// The same attention step with the square policy: the first gemm's
// accumulator splits the warps 2 x 2, but the register A operand of the
// second gemm needs whole rows per warp pair. The softmax loop keeps the
// accumulator's layout (no replication) and writes P through one explicit
// conversion: the only one needed.

!g = memref<?x?xf16>
!sQ = memref<128x128xf16, #gpu.address_space<workgroup>>
!sKV = memref<64x128xf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fP = memref<128x64xf16, #tile.mem<fragment>>
!fO = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @attention_square
// CHECK: %[[S:.*]] = tile.alloc {layout = [[ACC:#tile.linear<\[128, 64\].*>]]} : memref<128x64xf32
// CHECK: %[[P:.*]] = tile.alloc {layout = [[A:#tile.linear<\[128, 64\].*>]]} : memref<128x64xf16
// CHECK: %[[TMP:.*]] = tile.alloc {layout = [[ACC]]} : memref<128x64xf16
// CHECK: tile.parallel
// CHECK: memref.store %{{.*}}, %[[TMP]]
// CHECK: tile.copy %[[TMP]], %[[P]]
// CHECK: tile.gemm %[[P]]
func.func @attention_square(%Q: !g, %K: !g, %V: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @attention blocks(%bx) in [16] threads(128) {
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sKV
    %Vs = tile.alloc : !sKV
    %o = tile.alloc : !fO
    %s = tile.alloc : !fS
    %p = tile.alloc : !fP
    tile.gemm %Qs, %Ks, %s transpose_b clear_accum : !sQ, !sKV, !fS
    // expected-remark @below {{inserted a layout conversion of a fragment: copied back after this op}}
    // expected-remark @below {{layout from fragment: replication 1, 64 iterations per thread, vector width 2}}
    tile.parallel (%i, %j) in [128, 64] {
      %x = memref.load %s[%i, %j] : !fS
      %h = arith.truncf %x : f32 to f16
      memref.store %h, %p[%i, %j] : !fP
    }
    tile.gemm %p, %Vs, %o : !fP, !sKV, !fO
  }
  return
}

// -----

// Deriving the loop's layout from the fragment it reads would replicate
// every iteration 4 times (each warp holds the whole row vector). The plain
// partition runs each iteration once and its threads still hold what they
// read, so it is chosen; the written fragment follows it.

!fV = memref<128xf32, #tile.mem<fragment>>
#replicated = #tile.linear<[128], register = [[32], [64]], lane = [[1], [2], [4], [8], [16]], warp = [[0], [0]]>

// CHECK-LABEL: func.func @less_replication
// CHECK: tile.alloc {layout = #tile.linear<[128], register = [], lane = {{\[\[}}1], [2], [4], [8], [16{{\]\]}}, warp = {{\[\[}}32], [64{{\]\]}}>} : memref<128xf32
// CHECK: tile.parallel (%{{.*}}) in [128] attributes {layout = #tile.linear<[128], register = [], lane = {{\[\[}}1], [2], [4], [8], [16{{\]\]}}, warp = {{\[\[}}32], [64{{\]\]}}>}
func.func @less_replication(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %x = tile.alloc {layout = #replicated} : !fV
    %y = tile.alloc : !fV
    %one = arith.constant 1.0 : f32
    tile.fill %x, %one : !fV
    // expected-remark @below {{layout from partition: replication 1, 1 iterations per thread, vector width 1}}
    tile.parallel (%i) in [128] {
      %v = memref.load %x[%i] : !fV
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%i] : !fV
    }
    tile.copy %y, %out[%c0] : !fV to memref<?xf32>
  }
  return
}

// -----

// Fragments whose size is not a multiple of the thread count: 48 elements
// over 128 threads (the tile is padded to 64; threads 64..127 replicate
// threads 0..63) and 200 elements (padded to 256: 2 consecutive elements
// per thread, one 8-byte vector).

// CHECK-LABEL: func.func @odd_widths
// CHECK: tile.alloc {layout = #tile.linear<[64], register = [], lane = {{\[\[}}1], [2], [4], [8], [16{{\]\]}}, warp = {{\[\[}}32], [0{{\]\]}}>} : memref<48xf32
// CHECK: tile.alloc {layout = #tile.linear<[256], register = {{\[\[}}1{{\]\]}}, lane = {{\[\[}}2], [4], [8], [16], [32{{\]\]}}, warp = {{\[\[}}64], [128{{\]\]}}>} : memref<200xf32
func.func @odd_widths(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<48xf32, #tile.mem<fragment>>
    %b = tile.alloc : memref<200xf32, #tile.mem<fragment>>
    tile.copy %in[%c0], %a : memref<?xf32> to memref<48xf32, #tile.mem<fragment>>
    // expected-remark @below {{layout from partition: replication 2, 1 iterations per thread, vector width 1}}
    tile.parallel (%i) in [48] {
      %v = memref.load %a[%i] : memref<48xf32, #tile.mem<fragment>>
      %w = math.exp %v : f32
      memref.store %w, %a[%i] : memref<48xf32, #tile.mem<fragment>>
    }
    tile.copy %a, %out[%c0] : memref<48xf32, #tile.mem<fragment>> to memref<?xf32>
    tile.copy %in[%c0], %b : memref<?xf32> to memref<200xf32, #tile.mem<fragment>>
    tile.copy %b, %out[%c0] : memref<200xf32, #tile.mem<fragment>> to memref<?xf32>
  }
  return
}

// -----

// A multi-versioned shared buffer (3 stages): the swizzle applies to each
// stage's 128 x 64 matrix; the stage dimension stacks them.

!sA3 = memref<3x128x64xf16, #gpu.address_space<workgroup>>
!sA = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @multi_versioned
// CHECK: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<3x128x64xf16
func.func @multi_versioned(%stage: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %buf = tile.alloc : !sA3
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %a = memref.subview %buf[%stage, 0, 0] [1, 128, 64] [1, 1, 1] : !sA3 to !sA
    tile.gemm %a, %b, %acc : !sA, !sB, !fC
  }
  return
}

// -----

// Warp specialization: a gemm under tile.ws [1, 2] is distributed over the
// 8 warps of both consumer warpgroups (3 warp bits), not over the block.

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @warp_specialized
// CHECK: tile.alloc {layout = #tile.linear<[128, 256], {{.*}} warp = {{\[\[}}0, 64], [0, 128], [64, 0{{\]\]}}>}
func.func @warp_specialized() {
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    tile.ws [1, 2] {
      tile.gemm %a, %b, %acc : !sA, !sB, !fC
    }
  }
  return
}

// -----

// A real conflict: one accumulator written by two gemms that partition the
// warps differently. Converting would lose the accumulation, so it is an
// error naming both gemms.

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

func.func @conflict() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    // expected-note @below {{but this use requires}}
    tile.gemm %a, %b, %acc policy <full_row> : !sA, !sB, !fC
    // expected-error @below {{conflicting layouts for a fragment: the accumulator of this gemm needs}}
    tile.gemm %a, %b, %acc policy <full_col> : !sA, !sB, !fC
  }
  return
}

// -----

// A user-given layout that contradicts the accumulator layout of a gemm.

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
#blocked = #tile.linear<[64, 64], register = [[0, 1], [0, 2], [0, 4], [0, 8], [16, 0], [32, 0]], lane = [[0, 16], [0, 32], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [0, 0]]>

func.func @user_conflict() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    // expected-note @below {{but this use requires}}
    %acc = tile.alloc {layout = #blocked} : !fC
    // expected-error @below {{conflicting layouts for a fragment}}
    tile.gemm %a, %b, %acc : !sA, !sB, !fC
  }
  return
}

// -----

// Gemm tiles that mma.sync cannot cover are diagnosed.

!sA = memref<24x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<24x64xf32, #tile.mem<fragment>>

func.func @bad_gemm_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %acc = tile.alloc : !fC
    // expected-error @below {{mma.sync needs M to be a power of two and a multiple of 16, got 24}}
    tile.gemm %a, %b, %acc : !sA, !sB, !fC
  }
  return
}

// -----

// sm_90a (the nested module's target; the rest of this file is sm_80): the
// attention step with both gemms on wgmma, P * V in the RS form (P from
// registers). P gets the wgmma register A layout of a 128 x 64 tile over
// one warpgroup (two 64-row slabs: register bit 5 is row 64), which is the
// layout of the S = Q K^T accumulator: the softmax loop takes it from both
// fragments and no conversion is inserted (FlashAttention-3's observation:
// the accumulator converted element-wise is an A operand).

!g = memref<?x?xbf16>
!sQ = memref<128x128xbf16, #gpu.address_space<workgroup>>
!sKV = memref<64x128xbf16, #gpu.address_space<workgroup>>
!fS = memref<128x64xf32, #tile.mem<fragment>>
!fP = memref<128x64xbf16, #tile.mem<fragment>>
!fO = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @attention_rs_wgmma
// CHECK: %[[S:.*]] = tile.alloc {layout = #tile.linear<[128, 64], register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [64, 0{{\]\]}}, lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0{{\]\]}}, warp = {{\[\[}}16, 0], [32, 0{{\]\]}}>} : memref<128x64xf32
// CHECK-NEXT: %[[P:.*]] = tile.alloc {layout = #tile.linear<[128, 64], register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [64, 0{{\]\]}}, lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0{{\]\]}}, warp = {{\[\[}}16, 0], [32, 0{{\]\]}}>} : memref<128x64xbf16
// CHECK-NOT: tile.copy
// CHECK: tile.gemm %[[P]], %{{.*}}, %{{.*}} {mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [4, 1]>}
module {
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @attention_rs_wgmma(%Q: !g, %K: !g, %V: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @attention blocks(%bx) in [16] threads(128) {
    %Qs = tile.alloc : !sQ
    %Ks = tile.alloc : !sKV
    %Vs = tile.alloc : !sKV
    %o = tile.alloc : !fO
    %s = tile.alloc : !fS
    %p = tile.alloc : !fP
    tile.gemm %Qs, %Ks, %s transpose_b clear_accum : !sQ, !sKV, !fS
    // expected-remark @below {{layout from fragment: replication 1, 64 iterations per thread, vector width 2}}
    tile.parallel (%i, %j) in [128, 64] {
      %x = memref.load %s[%i, %j] : !fS
      %e = math.exp2 %x : f32
      %h = arith.truncf %e : f32 to bf16
      memref.store %h, %p[%i, %j] : !fP
    }
    tile.gemm %p, %Vs, %o : !fP, !sKV, !fO
  }
  return
}
}
}

// -----

// sm_90a: a gemm's partial sums in flight (`partials`, promotion one K block
// late) get the accumulator's wgmma layout: the lowering adds them to the
// accumulator register by register.

!sA8 = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC8 = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @fp8_partials
// CHECK: %[[ACC:.*]] = tile.alloc {layout = #tile.linear<[128, 128], [[LAYOUT:.*]]>} : memref<128x128xf32, #tile.mem<fragment>>
// CHECK-NEXT: %[[PART:.*]] = tile.alloc {layout = #tile.linear<[128, 128], [[LAYOUT]]>} : memref<128x128xf32, #tile.mem<fragment>>
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %[[ACC]] partials(%[[PART]] :
module {
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @fp8_partials() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA8
    %b = tile.alloc : !sA8
    %acc = tile.alloc : !fC8
    %p = tile.alloc : !fC8
    tile.gemm %a, %b, %acc partials(%p : !fC8) transpose_b {promote_k = 128 : i64, mma_groups_in_flight = 1 : i64} : !sA8, !sA8, !fC8
  }
  return
}
}
}

// -----

// sm_90a: a 128 x 144 accumulator (m64n144): the wgmma layout of the tile
// padded to 256 columns. A slab's registers run along the columns (register
// bit 2 is column 8, ..., bit 6 column 128), so m64n144's 72 a thread are
// registers 0-71 and 72-127 hold columns past the tile.

!sA8 = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB8 = memref<144x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC8 = memref<128x144xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @fp8_n144
// CHECK: tile.alloc {layout = #tile.linear<[128, 256], register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128{{\]\]}}, lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0{{\]\]}}, warp = {{\[\[}}16, 0], [32, 0], [64, 0{{\]\]}}>} : memref<128x144xf32, #tile.mem<fragment>>
module {
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @fp8_n144() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA8
    %b = tile.alloc : !sB8
    %acc = tile.alloc : !fC8
    tile.gemm %a, %b, %acc transpose_b {mma = #tile.mma<wgmma, shape = [64, 144, 32], warps = [8, 1]>, promote_k = 128 : i64} : !sA8, !sB8, !fC8
  }
  return
}
}
}
