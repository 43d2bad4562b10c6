// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics | FileCheck %s

// A 128 x 256 accumulator (bf16 C) leaves through four staging buffers of
// 128 x 32 elements (64-byte rows, swizzled) in eight panels. First thread 0
// waits until at most three of its stores still read (the one that last
// read buffer 0, of the tile before, is done) and a barrier; then per panel
// the threads write their elements, fence them for the copy engine, thread
// 0 waits until at most two of its stores still read their buffers (the one
// of three panels earlier, whose buffer the next panel fills, is done), a
// barrier, then thread 0 stores the panel and commits it. The last panel
// does not wait: its tile's stores drain while the next tile computes.
// Thread 0 waits for its stores before the kernel ends. The host makes C's
// tensor map (128 x 32 boxes, 64-byte swizzle).

!g = memref<?x?xbf16>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @epilogue
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<128x32xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_64b
// CHECK: tile.kernel @k_tma
// CHECK-SAME: tile.shared_memory_bytes = 229440
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.cp.async.bulk.wait_group 3 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// The accumulator's registers are stmatrix's 8x8 blocks of 16-bit values:
// a thread's 16 registers of a panel leave in two stores of four blocks
// each (the lanes of each eight give the rows' addresses), with no element
// stores.
// CHECK-COUNT-2: nvvm.stmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-NOT: vector.store
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.cp.async.bulk.wait_group 2 {read}
// CHECK: gpu.barrier
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-COUNT-6: nvvm.cp.async.bulk.wait_group 2 {read}
// CHECK-NOT: nvvm.cp.async.bulk.wait_group {{[0-9]}} {read}
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NOT: nvvm.cp.async.bulk.wait_group {{[0-9]}} {read}
// CHECK: nvvm.cp.async.bulk.wait_group 0{{$}}
// CHECK-NEXT: }
// CHECK: } else {
// CHECK: tile.kernel @k
// CHECK-NOT: nvvm.cp.async.bulk
// CHECK: return
func.func @epilogue(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

// 128-byte panels asked for: two buffers of 128 x 64 elements in four
// panels; the copy starts with thread 0 waiting until at most one store
// still reads (the other buffer's) and a barrier; before each panel's
// barrier but the last, thread 0 waits until its earlier stores have read
// their buffers (the next panel fills the buffer of the store just
// before).

!g = memref<?x?xbf16>
!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @wide_panels
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: tile.kernel @k_tma
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: nvvm.stmatrix
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: gpu.barrier
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// The next panel goes to the other buffer at once.
// CHECK-NOT: nvvm.cp.async.bulk.wait_group
// CHECK: nvvm.stmatrix
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: nvvm.cp.async.bulk.wait_group 0{{$}}
func.func @wide_panels(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store_panel = 128 : i64} : !fC to !g
  }
  return
}

// -----

// One staging buffer (a 256-row f32 tile with 128-byte panels asked for:
// 32 KiB a panel): the copy starts
// with thread 0's wait for the reads of its earlier stores and a barrier
// (the last copy's store may still read the buffer), and so does every
// later panel (the store of the panel before does).

!g = memref<?x?xf16>
!sA = memref<256x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<256x128xf32, #tile.mem<fragment>>
!gC = memref<?x?xf32>

// CHECK-LABEL: func.func @one_buffer
// CHECK: tile.kernel @k_tma
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// 32-bit values keep element stores (stmatrix stores 16-bit ones); the
// element 8 rows below a thread's first lies 256 elements further in every
// thread: its index is the first's plus that constant (the store's
// immediate offset), with no arithmetic of its own on the thread id.
// CHECK: vector.store %{{.*}}, %[[STAGE:.*]][%[[FIRST:.*]]] {alignment = 8 : i64} : memref<8192xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NEXT: %[[ROWS8:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[FIRST]], %[[ROWS8]] : index
// CHECK-NOT: thread_id
// CHECK: vector.store %{{.*}}, %[[STAGE]][%[[NEXT]]]
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NOT: vector.store
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: vector.store
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: } else {
func.func @one_buffer(%A: !g, %B: !g, %C: !gC, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store_panel = 128 : i64} : !fC to !gC
  }
  return
}
