// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80 format=isa host-runtime=false" -verify-diagnostics | FileCheck %s --check-prefix=PTX

// The cp.async lowering of tile.pipe.consume_wait (sm_80): in_flight(k)
// becomes cp.async.wait_group k only where k later hand-offs are provably
// committed by the same threads when the wait runs; otherwise the count is
// lowered to what is proved (0 when nothing is), so the waited group never
// stays in flight. tile-check-handoffs, early in tile-to-nvvm, reports such
// kernels (second RUN line); the first runs the lowering alone.

// Hand-off 0 is the last group committed: in_flight(1) would leave it in
// flight while the slot is read (issue 26). It waits for every group.
// CHECK-LABEL: func.func @no_later_commit
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvvm.cp.async.wait.group 1
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NOT: nvvm.cp.async.wait.group 1
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @no_later_commit(%A: memref<?x?xf16>, %C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    %s = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
    tile.copy async in_bounds %A[%c0, %c0], %s : memref<?x?xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
    // expected-error @+1 {{in_flight(1), but at most 0 later hand-offs of the pipe are committed when it executes}}
    tile.pipe.consume_wait %p[%c0] in_flight(1) : !tile.pipe<2>
    tile.copy %s, %C[%c0, %c0] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
    tile.pipe.consume_release %p[%c0] : !tile.pipe<2>
  }
  return
}
}

// -----

// Hand-off k + 1 is committed before the wait for k: in_flight(1) holds
// and stays cp.async.wait_group 1.
// CHECK-LABEL: func.func @one_later_commit
// CHECK: scf.for
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: return
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group \091;
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @one_later_commit(%A: memref<?x?xf16>, %C: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
    %s = tile.alloc : memref<2x64x32xf16, #gpu.address_space<workgroup>>
    %s0 = memref.subview %s[0, 0, 0] [1, 64, 32] [1, 1, 1] : memref<2x64x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.pipe.produce_acquire %p[%c0] : !tile.pipe<2>
    tile.copy async in_bounds %A[%c0, %c0], %s0 : memref<?x?xf16> to memref<64x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.pipe.produce_commit %p[%c0] : !tile.pipe<2>
    scf.for %k = %c0 to %kt step %c1 {
      %next = arith.addi %k, %c1 : index
      %vn = arith.remui %next, %c2 : index
      %sn = memref.subview %s[%vn, 0, 0] [1, 64, 32] [1, 1, 1] : memref<2x64x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.pipe.produce_acquire %p[%next] : !tile.pipe<2>
      tile.copy async in_bounds %A[%c0, %next], %sn : memref<?x?xf16> to memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.pipe.produce_commit %p[%next] : !tile.pipe<2>
      tile.pipe.consume_wait %p[%k] in_flight(1) : !tile.pipe<2>
      %vk = arith.remui %k, %c2 : index
      %sk = memref.subview %s[%vk, 0, 0] [1, 64, 32] [1, 1, 1] : memref<2x64x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.copy %sk, %C[%c0, %k] : memref<64x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<?x?xf16>
      tile.pipe.consume_release %p[%k] : !tile.pipe<2>
    }
  }
  return
}
}
