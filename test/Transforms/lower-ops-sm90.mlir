// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference | FileCheck %s --check-prefix=ALIGN
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics | FileCheck %s

// The sm_90a lowering of a pipelined K loop (the default target).
//
// Stage buffers: both operands get a 128-byte swizzle (B's 256-byte rows as
// two 128-byte panels) and their versions are 1024-byte aligned, the period
// of the pattern that tensor copies write and wgmma reads.
// ALIGN-LABEL: func.func @tma_wgmma
// ALIGN: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<3x128x64xf16
// ALIGN: tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : memref<3x64x128xf16
//
// The TMA version: the host makes one tensor map per tensor and box (A:
// 128x64, B: one 64-column panel) before the launch. In the kernel, thread
// 0 initializes 3 full barriers (2 arrivals: one per copy) and 3 empty ones
// (4 arrivals: one per warp), then the block synchronizes. Per iteration,
// consumers first (wgmma is asynchronous): they wait on the full barrier of
// their hand-off; wgmma computes from the swizzled tiles (8 = 4 k steps x 2
// slabs of 64 rows; the first k step of each slab through inline asm, its
// scale-d false on the first iteration since the zero fill moved after the
// loop) and stays in flight (wait for all groups but 1); each warp then
// releases the slot of the previous hand-off, whose wgmma is done. The
// producer thread then waits on the empty barrier of its slot, arrives on
// the full one with the bytes of each copy (16 KiB) and issues one tensor
// copy per panel (1 for A, 2 for B). After the loop: a wait for all wgmma
// groups, then the fill for loops that ran no iteration.
// CHECK-LABEL: func.func @tma_wgmma
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: tile.kernel @k_tma
// CHECK: memref.view %{{.*}} to memref<6xi64, #gpu.address_space<workgroup>>
// CHECK: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK-NEXT: arith.constant
// CHECK: nvvm.mbarrier.init %{{.*}}, %c4_i32
// CHECK-COUNT-4: nvvm.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK-NOT: memref.store
// CHECK: scf.for %[[IT:.*]] = %[[LB:.*]] to
// CHECK: %[[FIRST:.*]] = arith.addi %[[LB]], %{{.*}} : index
// CHECK: %[[ACCUMULATE:.*]] = arith.cmpi ne, %[[IT]], %[[FIRST]] : index
// The descriptors' low words: the buffer's start field (address & 0x3FFFF)
// >> 4 with the LBO bits, plus the slot's byte offset / 16 (B's first, then
// A's). The buffer's address is the dynamic shared memory's, made anew next
// to the gemm from its name (so that ptxas keeps the descriptors in uniform
// registers), plus the buffer's place in it.
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: %[[DYN:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[DYN32:.*]] = arith.index_castui %[[DYN]] : index to i32
// CHECK-NEXT: %[[SYMA:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.u32 $0, __tile_dynamic_shared;", "=r,r" %[[DYN32]] : (i32) -> i32
// CHECK-NEXT: %[[BASEA:.*]] = arith.index_castui %[[SYMA]] : i32 to index
// CHECK-NEXT: %[[STARTA:.*]] = arith.addi %[[BASEA]], %c{{[0-9_]+}} : index
// CHECK-NEXT: %[[START32A:.*]] = arith.index_cast %[[STARTA]] : index to i32
// CHECK: %[[FIELDA:.*]] = arith.andi %[[START32A]], %c262143_i32
// CHECK-NEXT: %[[SHIFTA:.*]] = arith.shrui %[[FIELDA]]
// CHECK-NEXT: %[[WORDA:.*]] = arith.ori %[[SHIFTA]], %c65536_i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.u32 $0, __tile_dynamic_shared;"
// CHECK: arith.andi %{{.*}}, %c262143_i32
// CHECK-NEXT: arith.shrui
// CHECK-NEXT: %[[WORDB:.*]] = arith.ori %{{.*}}, %c33554432_i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[OFFB:.*]] = arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.addi %[[WORDB]], %[[OFFB]] : i32
// CHECK: %[[OFFA:.*]] = arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.addi %[[WORDA]], %[[OFFA]] : i32
// CHECK: %[[SCALE:.*]] = arith.extui %[[ACCUMULATE]] : i1 to i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}setp.ne.b32 p, $130, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;{{.*}}%[[SCALE]]
// CHECK-COUNT-6: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: } {tile.pipeline_stage = 2 : i64}
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL:.*]], %c16384_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[FULL]], box
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL2:.*]], %c16384_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[FULL2]], box
// CHECK: } {tile.pipeline_stage = 0 : i64}
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: scf.if
// CHECK-COUNT-128: memref.store %cst
// The fall-back kernel keeps cp.async groups.
// CHECK: tile.kernel @k blocks
// CHECK-NOT: nvvm.mbarrier
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.wgmma.mma_async
// CHECK: return
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
func.func @tma_wgmma(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
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

// A tensor copy outside a pipe has no barrier to complete on.
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
func.func @tma_without_pipe(%A: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : !sA
    // expected-error @below {{a tensor copy (tma) must fill a pipe slot: expected a tile.pipe.produce_acquire before it}}
    tile.copy async tma %A[%c0, %c0], %as : !g to !sA
  }
  return
}

// -----

// sm_80 has no tensor copies.
!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @tma_on_sm80(%A: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc {alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>} : !sA
    // expected-error @below {{is a tensor copy (tma), which needs a chip with tensor copies; sm_80 has none}}
    tile.copy async tma %A[%c0, %c0], %as : !g to !sA
  }
  return
}
}

// -----

// The RS form of wgmma: A is a bf16 register fragment loaded from global
// memory, B a shared tile. Layout inference gives A the wgmma register A
// layout (the first RUN line: a0..a7 of warp w at rows 16w + lane/4 (+8),
// columns 2 (lane%4) (+1, +8), the 16 columns of k step s in registers
// 8s..8s+7).
// The lowering packs each k step's 8 elements into 4 x i32 before the
// fence, then issues one inline-asm wgmma per k step (2) with the 32
// accumulator registers tied ($0..$31 out, $32..$63 in), the 4 A registers
// ($64..$67), B's descriptor ($68) and scale-d ($69): the immediate 0 on
// the first k step (clear_accum), then 1. B is MN-major: tnsp-b = 1.
// ALIGN-LABEL: func.func @rs_wgmma
// ALIGN: tile.alloc {layout = #tile.linear<[64, 32], register = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16{{\]\]}}, lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0{{\]\]}}, warp = {{\[\[}}16, 0], [32, 0{{\]\]}}>} : memref<64x32xbf16
// CHECK-LABEL: func.func @rs_wgmma
// CHECK-COUNT-8: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK-NOT: vector.bitcast
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: vector.bitcast
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $69, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,r,r,r,r,l,n" {{.*}}, %[[ZERO]] : ({{.*}}) -> !llvm.struct<({{(f32, )+}}f32)>
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, %[[ONE]] :
// CHECK-NOT: llvm.inline_asm
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
!g = memref<?x?xbf16>
!fA = memref<64x32xbf16, #tile.mem<fragment>>
!sB = memref<32x64xbf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @rs_wgmma(%A: !g, %B: !g, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %af = tile.alloc : !fA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    tile.copy %A[%c0, %c0], %af : !g to !fA
    tile.copy %B[%c0, %c0], %bs : !g to !sB
    tile.gemm %af, %bs, %acc clear_accum : !fA, !sB, !fC
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}

// -----

// A pipelined K loop whose gemm reads A from registers (RS form) and B
// through TMA: the A copy runs in the gemm's stage (a fragment has no stage
// buffers), and the gemm is not left in flight: the next iteration would
// redefine the A registers the wgmma may still read. So every wgmma has a
// constant scale-d, the group completes in the iteration (wait_group 0)
// and the slot is released right after it; the zero fill stays before the
// loop.
// CHECK-LABEL: func.func @tma_rs_wgmma
// CHECK: tile.kernel @k_tma
// CHECK: scf.for
// CHECK-NOT: arith.extui
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.inline_asm {{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, {$128, $129, $130, $131}, $132, p, 1, 1, 1;
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: } {tile.pipeline_stage = 2 : i64}
// CHECK: nvvm.mbarrier.arrive
// CHECK: } {tile.pipeline_stage = 0 : i64}
// CHECK: tile.kernel @k blocks
!g = memref<?x?xbf16>
!fA = memref<128x64xbf16, #tile.mem<fragment>>
!sB = memref<64x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
func.func @tma_rs_wgmma(%A: !g, %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %af = tile.alloc : !fA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %af : !g to !fA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %af, %bs, %acc : !fA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  return
}

// -----

// An instruction narrower than the tile (a pinned m64n128 on a 64 x 256
// accumulator): per k step, one wgmma per column half, each on its own
// contiguous half of the accumulator registers; the second half's B
// descriptor starts 128 columns on (two 64-column panels of 32 rows of
// 128 bytes).
// CHECK-LABEL: func.func @narrow_wgmma
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK: %[[MN:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[PANEL:.*]] = arith.constant 4096 : index
// CHECK-NEXT: %[[COLS:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[PANELS:.*]] = arith.divui %[[MN]], %[[COLS]] : index
// CHECK-NEXT: arith.muli %[[PANELS]], %[[PANEL]] : index
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
!g = memref<?x?xbf16>
!sA = memref<64x32xbf16, #gpu.address_space<workgroup>>
!sB = memref<32x256xbf16, #gpu.address_space<workgroup>>
!fC = memref<64x256xf32, #tile.mem<fragment>>
func.func @narrow_wgmma(%A: !g, %B: !g, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    tile.copy %A[%c0, %c0], %as : !g to !sA
    tile.copy %B[%c0, %c0], %bs : !g to !sB
    tile.gemm %as, %bs, %acc clear_accum {mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [4, 1]>} : !sA, !sB, !fC
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}

// -----

// tile.mma_wait on sm_90a: wgmma.wait_group with its count.
// CHECK-LABEL: func.func @mma_wait_sm90
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: tile.mma_wait
// CHECK: return
func.func @mma_wait_sm90() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    tile.mma_wait 1
    tile.mma_wait 0
  }
  return
}

// -----

// A row maximum of a 64 x 144 wgmma accumulator, whose layout covers 256
// columns: the 56 registers a thread of the padded columns 144-255 are left
// out, the other 72 combine into the two rows a thread holds (70 maxima),
// then across the 4 lanes of a row (2 shuffles each): no element of the
// padding, which holds no value, enters the maximum.
!sA = memref<64x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x144xbf16, #gpu.address_space<workgroup>>
!fC = memref<64x144xf32, #tile.mem<fragment>>
!fR = memref<64xf32, #tile.mem<fragment>>
// CHECK-LABEL: func.func @reduce_padded_wgmma
// CHECK: wgmma.mma_async{{.*}}n = 144
// CHECK-NOT: arith.select
// CHECK-COUNT-74: arith.maxnumf
// CHECK-NOT: arith.maxnumf
// CHECK: return
func.func @reduce_padded_wgmma() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %m = tile.alloc : !fR
    tile.gemm %as, %bs, %acc clear_accum {mma = #tile.mma<wgmma, shape = [64, 144, 16], warps = [4, 1]>} : !sA, !sB, !fC
    tile.reduce <max> %acc, %m dim 1 clear : !fC to !fR
  }
  return
}

// -----

// A row maximum of a 16 x 48 fragment in a blocked layout over 32 lanes:
// the padded columns 48-63 share registers with columns 16-31 in other
// lanes, so those registers count as -inf (0xFF800000) where a thread's
// element lies past column 48.
!fX = memref<16x48xf32, #tile.mem<fragment>>
!fM = memref<16xf32, #tile.mem<fragment>>
// CHECK-LABEL: func.func @reduce_padded_blocked
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.select
// CHECK: arith.maxnumf
// CHECK: return
func.func @reduce_padded_blocked() {
  tile.kernel @k blocks(%bx) in [1] threads(32) {
    %x = tile.alloc : !fX
    %m = tile.alloc : !fM
    %one = arith.constant -1.0 : f32
    tile.fill %x, %one : !fX
    tile.reduce <max> %x, %m dim 1 clear : !fX to !fM
  }
  return
}
