// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops | FileCheck %s
//
// The AMD CDNA lowering at IR level: MFMA gemms reading their operands from
// LDS (8-byte runs along k where k is contiguous, element by element
// otherwise) into the MFMA accumulator layout, row reductions over 64-lane
// waves, and stage hand-offs without a copy engine (synchronous copies into
// multi-buffered LDS, block barriers).

// f16 on gfx942, 2 waves (2x1): each wave owns 32 x 64 of the accumulator
// (one m tile, two n tiles), K = 32 is 4 k steps of 32x32x8. A (M x K) is
// read with one 8-byte load per atom and k step; B (K x N) element by
// element (k runs down a column).
// CHECK-LABEL: func.func @gemm_mfma
// CHECK: tile.kernel
// CHECK-NOT: nvvm.
// CHECK-NOT: nvgpu.
// CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c63
// CHECK: %[[WAVE:.*]] = arith.shrui %{{.*}}, %c6
// CHECK-COUNT-4: vector.load %{{.*}} {alignment = 8 : i64} : memref<2048xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK-NOT: vector.load
// CHECK-COUNT-32: memref.load %{{.*}} : memref<2048xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-8: amdgpu.mfma 32x32x8 {{.*}} : vector<4xf16>, vector<4xf16>, vector<16xf32>
// CHECK-NOT: amdgpu.mfma
// CHECK: memref.store %{{.*}}, %{{.*}}[%c31{{.*}}] : memref<32xf32>

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx942">} {
func.func @gemm_mfma() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

// bf16 on gfx90a with N = 16: 16x16x16 over 4 waves along M. With
// transpose_b, B is stored N x K and both operands are 8-byte loads; the
// cleared accumulator starts from zeros.
// CHECK-LABEL: func.func @gemm_mfma16_transposed
// CHECK: memref.alloca() : memref<4xf32>
// CHECK-COUNT-2: vector.load %{{.*}} {alignment = 8 : i64} : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK-COUNT-2: vector.load %{{.*}} {alignment = 8 : i64} : memref<512xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK: %[[P:.*]] = amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %[[Z]] {{.*}} : vector<4xbf16>, vector<4xbf16>, vector<4xf32>
// CHECK: amdgpu.mfma 16x16x16 %{{.*}} * %{{.*}} + %[[P]]

!sA = memref<64x32xbf16, #gpu.address_space<workgroup>>
!sB = memref<16x32xbf16, #gpu.address_space<workgroup>>
!fC = memref<64x16xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @gemm_mfma16_transposed() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c transpose_b clear_accum : !sA, !sB, !fC
  }
  return
}
}

// -----

// LDS layouts of MFMA operands: A (64 x 32 f16, k contiguous) gets the
// 64-byte swizzle of 8-byte units (layout-inference-amd.mlir), so its
// addresses XOR the 8-byte unit index (byte bits 3..5) with the 128-byte
// line index (bits 7..9): shrui 7, andi 7, shli 3. A copy's 16-byte vector
// then lands in one aligned 16-byte slot with its halves exchanged on odd
// lines, which for this tile is bit 3 of the thread id (chunk = tid + 128 i,
// 4 chunks a row, 2 rows a line): the vector is swapped in registers and
// stored whole. B (K x N, read element by element) keeps the 128-byte
// swizzle of 16-byte chunks (shli 4) and plain 16-byte stores. The MFMA
// reads of A are 8-byte loads at swizzled addresses.
// CHECK-LABEL: func.func @gemm_lds_swizzle
// CHECK: %[[AB:.*]] = arith.shrui %[[AL:.*]], %c7
// CHECK: %[[AR:.*]] = arith.andi %[[AB]], %c7
// CHECK: %[[AF:.*]] = arith.shli %[[AR]], %c3
// CHECK: arith.xori %[[AL]], %[[AF]]
// CHECK: %[[T:.*]] = arith.shrui %thread_id_x, %c3
// CHECK: %[[TB:.*]] = arith.andi %[[T]], %c1
// CHECK: %[[SW:.*]] = arith.cmpi ne, %[[TB]], %c0
// CHECK: %[[V:.*]] = vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK: %[[LOW:.*]] = arith.andi %[[I:.*]], %c4
// CHECK: %[[AT:.*]] = arith.subi %[[I]], %[[LOW]]
// CHECK-NEXT: %[[X:.*]] = vector.shuffle %[[V]], %[[V]] [4, 5, 6, 7, 0, 1, 2, 3] : vector<8xf16>, vector<8xf16>
// CHECK-NEXT: %[[S:.*]] = arith.select %[[SW]], %[[X]], %[[V]] : vector<8xf16>
// CHECK-NEXT: vector.store %[[S]], %[[VA:.*]][%[[AT]]] {alignment = 16 : i64} : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: arith.shli %{{.*}}, %c4
// CHECK: %[[BV:.*]] = vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK-NEXT: vector.store %[[BV]], %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: arith.shli %{{.*}}, %c3
// CHECK: arith.xori
// CHECK: vector.load %[[VA]][%{{.*}}] {alignment = 8 : i64} : memref<2048xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK: amdgpu.mfma 32x32x8

!gA = memref<?x?xf16>
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx942">} {
func.func @gemm_lds_swizzle(%A: !gA, %B: !gA) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.copy in_bounds %A[%c0, %c0], %a : !gA to !sA
    tile.copy in_bounds %B[%c0, %c0], %b : !gA to !sB
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

// A row maximum of a 32x32 MFMA accumulator: in each wave the 64 columns
// are 2 n tiles of registers and 32 lanes, so after combining registers the
// lanes exchange over xor 1, 2, 4, 8 and 16 within the 64-lane wave; the
// full_row policy keeps rows inside a wave (no cross-wave step).
// CHECK-LABEL: func.func @reduce_wave64
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32{{.*}}, %c64_i32{{.*}} : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32{{.*}}, %c64_i32{{.*}} : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c4_i32{{.*}}, %c64_i32{{.*}} : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c8_i32{{.*}}, %c64_i32{{.*}} : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32{{.*}}, %c64_i32{{.*}} : f32
// CHECK-NOT: gpu.shuffle  xor %{{.*}}, %c32_i32
// CHECK-NOT: gpu.barrier
// CHECK: return

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fS = memref<64x64xf32, #tile.mem<fragment>>
!fR = memref<64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @reduce_wave64() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %s = tile.alloc : !fS
    %r = tile.alloc : !fR
    tile.gemm %a, %b, %s clear_accum policy <full_row> : !sA, !sB, !fS
    tile.reduce <max> %s, %r dim 1 clear : !fS to !fR
  }
  return
}
}

// -----

// Hand-offs without a copy engine: the slot's copy moves 16-byte vectors
// through registers; only the wait synchronizes (a block barrier, s_barrier
// on the chip); commit, acquire and release emit nothing.
// CHECK-LABEL: func.func @pipe_amd
// CHECK: gpu.barrier
// CHECK-NOT: nvvm.
// CHECK: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<2048xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NOT: gpu.barrier
// CHECK-NOT: nvvm.
// CHECK: return

module attributes {tile.target = #tile.target<"gfx942">} {
func.func @pipe_amd(%A: memref<?x?xf16>, %i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    %s = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.pipe.consume_wait %p[%i] in_flight(1) : !tile.pipe<2>
    tile.pipe.produce_acquire %p[%i] : !tile.pipe<2>
    tile.copy async in_bounds %A[%i, %i], %s : memref<?x?xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.pipe.produce_commit %p[%i] : !tile.pipe<2>
    tile.pipe.consume_release %p[%i] : !tile.pipe<2>
  }
  return
}
}
// -----

// A 3-stage pipelined loop on gfx90a: three LDS slots per tile (3 x 8 KiB),
// each iteration starts with the hand-off's barrier, copies the tiles of
// iteration k + 2 through registers and multiplies those of iteration k;
// no cp.async, no async groups.
// CHECK-LABEL: func.func @pipelined
// CHECK: tile.kernel {{.*}} attributes {tile.shared_memory_bytes = 24576 : i64}
// CHECK: scf.for
// CHECK-NOT: vector.load
// CHECK: gpu.barrier
// CHECK: vector.load %arg0
// CHECK: vector.store %{{.*}} : memref<6144xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-COUNT-8: amdgpu.mfma 32x32x8
// CHECK-NOT: nvvm.
// CHECK: } {tile.pipeline_stage = 2 : i64}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: return
!g = memref<?x?xf16>
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @pipelined(%A: !g, %B: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %n step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
  }
  return
}
}
