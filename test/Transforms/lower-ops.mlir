// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics | FileCheck %s

// Global -> shared copies go through the asynchronous copy engine
// (cp.async, 16 bytes) and are waited for at once, which keeps them
// synchronous: one uniform test sends whole in-bounds, aligned tiles to the
// unmasked path; edge tiles zero-fill through cp.async's source size, or go
// element by element when rows are not 16-byte aligned. The shared store
// goes through the 64B swizzle.

!g = memref<?x?xf16>
!s = memref<64x32xf16, #gpu.address_space<workgroup>>
!b = memref<32x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @copy_and_gemm
// CHECK: tile.kernel @k {{.*}} attributes {tile.shared_memory_bytes = 8192 : i64}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[AS:.*]] = memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2048xf16, #gpu.address_space<workgroup>>
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<32xf32>
// CHECK: gpu.barrier
// The uniform test includes the data pointer's alignment (16 bytes).
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: arith.remui %[[BASE]], %c16
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[AS]][%{{.*}}], 8 {bypassL1} : memref<?x?xf16> to memref<2048xf16
// CHECK: } else {
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[AS]][%{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: } else {
// CHECK: memref.load %{{.*}} : memref<?x?xf16>
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK-COUNT-4: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK-COUNT-16: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: return
// mma.sync (sm_80); sm_90a is tested in lower-ops-sm90.mlir.
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @copy_and_gemm(%A: !g, %B: !g, %i: index) {
    tile.kernel @k blocks(%bx) in [4] threads(128) {
      %as = tile.alloc : !s
      %bs = tile.alloc : !b
      %acc = tile.alloc : !f
      tile.copy %A[%i, %i], %as : !g to !s
      tile.copy %B[%i, %i], %bs : !g to !b
      tile.gemm %as, %bs, %acc clear_accum : !s, !b, !f
    }
    return
  }
}

// -----

// Fragment -> global stores. One uniform test (the tile is in bounds, rows
// and offset are multiples of 2) selects unmasked stores of the registers
// holding consecutive elements of a row, as one vector each (2 here);
// otherwise one masked store per register. The f32 values are converted to
// f16.

!g = memref<?x?xf16>
!f = memref<16x16xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @store_fragment
// CHECK-SAME: (%[[C:.*]]: memref<?x?xf16>, %[[I:.*]]: index)
// CHECK: memref.alloca() : memref<2xf32>
// CHECK: memref.store {{.*}} : memref<2xf32>
// CHECK: %[[M:.*]] = memref.dim %[[C]], %c0
// CHECK: %[[N:.*]] = memref.dim %[[C]], %c1
// CHECK: %[[END0:.*]] = arith.addi %[[I]], %c16
// CHECK: arith.cmpi ule, %[[END0]], %[[M]]
// CHECK: arith.remui %[[N]], %c2
// CHECK: arith.remui %[[I]], %c2
// CHECK: scf.if
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[V:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK: vector.store %[[V]], %[[C]][%{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<?x?xf16>, vector<2xf16>
// CHECK-NEXT: } else {
// CHECK-COUNT-2: scf.if
// CHECK-NOT: vector.store
// CHECK: return
func.func @store_fragment(%C: !g, %i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %acc = tile.alloc : !f
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !f
    tile.copy %acc, %C[%i, %i] : !f to !g
  }
  return
}

// -----

// Runs of registers move as one vector only when every run starts at a
// multiple of its length: in %a, registers 0-3 hold 4 consecutive elements
// (vector<4xf16> stores on the interior path); in %b a lane bit also moves
// the column by 1, so runs may start at odd columns and every element is
// stored on its own, with no interior test.

!g = memref<?x?xf16>
!f = memref<2x64xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @register_runs
// CHECK: scf.if
// CHECK: vector.store %{{.*}} {alignment = 8 : i64} : memref<?x?xf16>, vector<4xf16>
// CHECK: } else {
// CHECK-COUNT-4: memref.store %{{.*}} : memref<?x?xf16>
// CHECK-NOT: vector.store
// CHECK: return
func.func @register_runs(%C: !g, %i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc {layout = #tile.linear<[2, 64], register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[0, 0], [0, 0]]>} : !f
    %b = tile.alloc {layout = #tile.linear<[2, 64], register = [[0, 1], [0, 2]], lane = [[0, 1], [0, 8], [0, 16], [0, 32], [1, 0]], warp = [[0, 4], [0, 0]]>} : !f
    %zero = arith.constant 0.0 : f32
    tile.fill %a, %zero : !f
    tile.fill %b, %zero : !f
    tile.copy %a, %C[%i, %i] : !f to !g
    tile.copy %b, %C[%i, %i] : !f to !g
  }
  return
}

// -----

// Wider stores through lane exchanges. In the mma.sync accumulator (%acc),
// a lane holds 2 consecutive columns of a row, its quad's lanes the next 6,
// and register bits 2 and 3 columns 8 and 16. Swapping those register bits
// with the quad's lane bits (a shuffle xor 1, then xor 2, per pair of
// 32-bit words, two f16 packed in each) leaves 8 consecutive columns in
// each lane: 16-byte stores when rows and offset are multiples of 8 and the
// pointer of 16 bytes, else the 4-byte stores, else one per element.
// f32 values (%wide) move as 64-bit words and need one swap for 4 columns.
// In %narrow the only register to trade moves the row: one swap, runs of 4.

!g = memref<?x?xf16>
!g32 = memref<?x?xf32>
!f = memref<64x64xf32, #tile.mem<fragment>>
!n = memref<16x8xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @lane_exchange
// CHECK: arith.remui %{{.*}}, %c8
// CHECK: arith.remui %{{.*}}, %c8
// CHECK: arith.remui %{{.*}}, %c16
// CHECK: scf.if
// CHECK-COUNT-16: vector.bitcast %{{.*}} : vector<2xf16> to vector<1xi32>
// CHECK-COUNT-8: gpu.shuffle  xor %{{[^,]*}}, %c1_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : i32
// CHECK-COUNT-8: gpu.shuffle  xor %{{[^,]*}}, %c2_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : i32
// CHECK-NOT: gpu.shuffle
// CHECK-COUNT-4: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK-NOT: vector.store
// CHECK: } else {
// CHECK: scf.if
// CHECK-COUNT-16: vector.store %{{.*}} {alignment = 4 : i64} : memref<?x?xf16>, vector<2xf16>
// CHECK: } else {
// CHECK-COUNT-32: memref.store %{{.*}} : memref<?x?xf16>
// CHECK: scf.if
// CHECK-COUNT-16: vector.bitcast %{{.*}} : vector<2xf32> to vector<2xi32>
// CHECK-COUNT-16: gpu.shuffle  xor %{{[^,]*}}, %c1_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : i32
// CHECK-NOT: gpu.shuffle
// CHECK-COUNT-8: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK: } else {
// CHECK: vector.store %{{.*}} {alignment = 8 : i64} : memref<?x?xf32>, vector<2xf32>
// CHECK: scf.if
// CHECK-COUNT-1: gpu.shuffle  xor %{{[^,]*}}, %c1_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : i32
// CHECK-NOT: gpu.shuffle
// CHECK: vector.store %{{.*}} {alignment = 8 : i64} : memref<?x?xf16>, vector<4xf16>
// CHECK: } else {
// CHECK: return
func.func @lane_exchange(%C: !g, %D: !g32, %i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %acc = tile.alloc {layout = #tile.linear<[64, 64], register = [[0, 1], [8, 0], [0, 8], [0, 16], [16, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[0, 32], [32, 0]]>} : !f
    %narrow = tile.alloc {layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[0, 0], [0, 0]]>} : !n
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !f
    tile.fill %narrow, %zero : !n
    tile.copy %acc, %C[%i, %i] : !f to !g
    tile.copy %acc, %D[%i, %i] : !f to !g32
    tile.copy %narrow, %C[%i, %i] : !n to !g
  }
  return
}

// -----

// `in_bounds` copies: no test at all, only the unmasked accesses (vector
// stores from fragments, cp.async of 16 bytes into shared memory).

!g = memref<?x?xf16>
!f = memref<16x16xf32, #tile.mem<fragment>>
!s = memref<64x32xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @in_bounds
// CHECK-NOT: scf.if
// CHECK-NOT: arith.cmpi
// CHECK: vector.store %{{.*}} : memref<?x?xf16>, vector<2xf16>
// CHECK-COUNT-2: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 {bypassL1}
// CHECK-NOT: nvgpu.device_async_copy
// CHECK-NOT: scf.if
// CHECK: return
func.func @in_bounds(%C: !g, %i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %acc = tile.alloc : !f
    %as = tile.alloc : !s
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !f
    tile.copy in_bounds %acc, %C[%i, %i] : !f to !g
    tile.copy async in_bounds %C[%i, %i], %as : !g to !s
    tile.async_commit
    tile.async_wait 0
  }
  return
}

// -----

// A row reduction of an mma accumulator with the warps split along N: the
// lanes of a quad combine by shuffles (2 lane bits), the two warps that
// share rows through shared memory.

!s = memref<64x32xf16, #gpu.address_space<workgroup>>
!b = memref<32x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>
!r = memref<64xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @reduce
// CHECK: tile.shared_memory_bytes = 10240
// CHECK: nvgpu.mma.sync
// CHECK-COUNT-2: gpu.shuffle  xor
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: arith.maxnumf
// mma.sync (sm_80); sm_90a is tested in lower-ops-sm90.mlir.
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @reduce() {
    tile.kernel @k blocks(%bx) in [1] threads(128) {
      %as = tile.alloc : !s
      %bs = tile.alloc : !b
      %acc = tile.alloc : !f
      %m = tile.alloc : !r
      tile.gemm %as, %bs, %acc clear_accum : !s, !b, !f
      tile.reduce <max> %acc, %m dim 1 clear : !f to !r
    }
    return
  }
}

// -----

// tile.parallel runs over each thread's own elements: the body is cloned
// once per register with the fragment accesses turned into register reads
// and writes.

!f = memref<128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @parallel
// CHECK: memref.alloca() : memref<1xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<1xf32>
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<1xf32>
// CHECK-NOT: tile.parallel
func.func @parallel(%in: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %x = tile.alloc : !f
    tile.copy %in[%c0], %x : memref<?xf32> to !f
    tile.parallel (%i) in [128] {
      %v = memref.load %x[%i] : !f
      %e = math.exp %v : f32
      memref.store %e, %x[%i] : !f
    }
    tile.copy %x, %in[%c0] : !f to memref<?xf32>
  }
  return
}

// -----

// tile.ws becomes a branch on the thread's warpgroup, with setmaxnreg: a
// block of 384 threads starts with 168 registers per thread, so 40 is a
// decrease and 232 an increase (40 x 128 + 232 x 256 fit in 168 x 384).

// The warpgroup is read from lane 0 of the warp (gpu.shuffle), so that the
// branch is uniform across each warp for the code generator.
// CHECK-LABEL: func.func @ws
// CHECK: %[[WARP:.*]] = arith.divui %thread_id_x, %c32 : index
// CHECK: %[[W32:.*]] = arith.index_castui %[[WARP]] : index to i32
// CHECK: %[[LANE0:.*]], %{{.*}} = gpu.shuffle  idx %[[W32]], %c0_i32, %c32_i32 : i32
// CHECK: %[[UNIFORM:.*]] = arith.index_castui %[[LANE0]] : i32 to index
// CHECK: %[[GROUP:.*]] = arith.divui %[[UNIFORM]], %c4 : index
// CHECK: %[[G0:.*]] = arith.subi %[[GROUP]], %{{.*}} : index
// CHECK: arith.cmpi ult, %[[G0]], %c1 : index
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister  decrease 40
// CHECK: %[[G1:.*]] = arith.subi %[[GROUP]], %{{.*}} : index
// CHECK: arith.cmpi ult, %[[G1]], %c2 : index
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister  increase 232
func.func @ws(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %x = tile.alloc : memref<256xf32, #tile.mem<fragment>>
    tile.ws [0] registers(40) {
    }
    tile.ws [1, 2] registers(232) {
      %one = arith.constant 1.0 : f32
      tile.fill %x, %one : memref<256xf32, #tile.mem<fragment>>
      tile.copy %x, %out[%c0] : memref<256xf32, #tile.mem<fragment>> to memref<?xf32>
    }
  }
  return
}

// -----

// Unsupported input types are diagnosed, not miscompiled.

!s = memref<64x32xf32, #gpu.address_space<workgroup>>
!b = memref<32x64xf32, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>

func.func @tf32() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !s
    %bs = tile.alloc : !b
    %acc = tile.alloc : !f
    // expected-error @below {{mma.sync on sm_90a supports f16 and bf16 inputs, got 'f32'}}
    tile.gemm %as, %bs, %acc : !s, !b, !f
  }
  return
}

// -----

// A shared-memory write inside tile.ws synchronizes the region's threads
// only: its barriers (and the async wait's) are the named barrier 1 over the
// 128 threads of warpgroup 1, never the block-wide one the other warpgroup
// does not reach. A user tile.barrier and a cross-warp reduction (the gemm
// pinned to mma.sync with 2 x 2 warps) in a second region use barrier 2 over
// that region's 128 threads.

// CHECK-LABEL: func.func @ws_shared
// CHECK-NOT: gpu.barrier
// CHECK: %[[ID:.*]] = arith.constant 1 : i32
// CHECK: %[[N:.*]] = arith.constant 128 : i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NOT: gpu.barrier
// CHECK: %[[ID2:.*]] = arith.constant 2 : i32
// CHECK: %[[N2:.*]] = arith.constant 128 : i32
// CHECK: nvvm.barrier id = %[[ID2]] number_of_threads = %[[N2]]
// CHECK: nvgpu.mma.sync
// CHECK: gpu.shuffle  xor
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NOT: gpu.barrier
// CHECK: return
func.func @ws_shared(%in: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %as = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    %bs = tile.alloc : memref<32x64xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %m = tile.alloc : memref<64xf32, #tile.mem<fragment>>
    tile.ws [1] {
      tile.copy %in[%c0, %c0], %s : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    }
    tile.ws [0] {
      tile.barrier
      tile.gemm %as, %bs, %acc clear_accum {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [2, 2]>} : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
      tile.reduce <max> %acc, %m dim 1 clear : memref<64x64xf32, #tile.mem<fragment>> to memref<64xf32, #tile.mem<fragment>>
    }
  }
  return
}

// -----

// A copy that converts element types cannot use the copy engine: 16-byte
// vectors of the wider type, converted in registers, for in-bounds aligned
// tiles.

// CHECK-LABEL: func.func @converting_copy
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.store %{{.*}} {alignment = 8 : i64} : memref<2048xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK-NOT: nvgpu.device_async_copy
func.func @converting_copy(%A: memref<?x?xf32>, %i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<64x32xf16, #tile.mem<fragment>>
    tile.copy %A[%i, %i], %s : memref<?x?xf32> to memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.copy %s, %f : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// A shared -> fragment copy into the mma.sync A operand layout (register bit
// 0 and the lanes inside 8x8 matrices, the other bits moving whole matrices)
// is an ldmatrix: 32 halves (replicated over the 2 warps sharing rows), 16
// matrices per thread, four x4 loads. (sm_80: on sm_90a this gemm is a
// wgmma reading A from registers, next case.)

!s = memref<64x32xf16, #gpu.address_space<workgroup>>
!fa = memref<64x32xf16, #tile.mem<fragment>>
!b = memref<32x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @ldmatrix_copy
// CHECK: %[[A:.*]] = memref.alloca() : memref<32xf16>
// CHECK-COUNT-4: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<2048xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}] : memref<32xf16>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @ldmatrix_copy() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !s
    %af = tile.alloc : !fa
    %bs = tile.alloc : !b
    %acc = tile.alloc : !f
    tile.copy %as, %af : !s to !fa
    tile.gemm %af, %bs, %acc clear_accum : !fa, !b, !f
  }
  return
}
}

// -----

// The same copy on sm_90a, where the gemm is the RS form of wgmma: the
// fragment gets the wgmma register A layout (warp w holds rows 16w..16w+15
// of each k step as mma.sync's A fragment, no replication), which is also
// an ldmatrix: 16 halves, 8 matrices per thread, two x4 loads. The gemm
// then reads the registers: 2 k steps, one inline-asm wgmma each.

!s = memref<64x32xf16, #gpu.address_space<workgroup>>
!fa = memref<64x32xf16, #tile.mem<fragment>>
!b = memref<32x64xf16, #gpu.address_space<workgroup>>
!f = memref<64x64xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @ldmatrix_copy_rs_wgmma
// CHECK: %[[A:.*]] = memref.alloca() : memref<16xf16>
// CHECK-COUNT-2: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<2048xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: llvm.inline_asm {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;
func.func @ldmatrix_copy_rs_wgmma() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !s
    %af = tile.alloc : !fa
    %bs = tile.alloc : !b
    %acc = tile.alloc : !f
    tile.copy %as, %af : !s to !fa
    tile.gemm %af, %bs, %acc clear_accum : !fa, !b, !f
  }
  return
}

// -----

// The stage hand-off on sm_80 (the cp.async engine): the consumers' wait is
// cp.async.wait_group in_flight and a block barrier, the producers' commit
// closes the group, and taking or releasing a slot needs no barrier of its
// own: the wait's barrier already precedes the slot's copies. No later
// hand-off is committed when this wait runs (it even precedes its own
// commit), so in_flight(1) becomes a wait for every group (0): the waited
// group never stays in flight (tile-check-handoffs reports the kernel).

// CHECK-LABEL: func.func @pipe_sm80
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: tile.pipe
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @pipe_sm80(%A: memref<?x?xf16>, %i: index) {
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

// tile.mma_wait on chips whose MMAs are synchronous (mma.sync): the gemms
// are complete when they return, so the wait lowers to nothing.
// CHECK-LABEL: func.func @mma_wait_sm80
// CHECK-NOT: tile.mma_wait
// CHECK-NOT: nvvm.wgmma
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @mma_wait_sm80() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    tile.mma_wait 0
  }
  return
}
}
