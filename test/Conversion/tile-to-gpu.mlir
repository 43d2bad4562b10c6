// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -convert-tile-to-gpu -verify-diagnostics | FileCheck %s

// The kernel is outlined into gpu.func @gemm in gpu.module @gemm_module. Its
// parameters are the enclosing function's arguments it uses, in order (%A,
// %C; %unused is not passed); sizes computed from them above the kernel are
// recomputed inside. The launch carries the grid, the threads and the
// dynamic shared memory.

// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf16>, %[[UNUSED:.*]]: memref<?xf32>, %[[C:.*]]: memref<?x?xf16>)
// CHECK: %[[GX:.*]] = arith.ceildivui
// CHECK: gpu.launch_func @gemm_module::@gemm blocks in (%[[GX]], %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %c8192_i32 args(%[[A]] : memref<?x?xf16>, %[[C]] : memref<?x?xf16>)
// CHECK: gpu.module @gemm_module
// CHECK: gpu.func @gemm(%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: gpu.block_id x
// CHECK: memref.dim
// CHECK: gpu.return
func.func @host(%A: memref<?x?xf16>, %unused: memref<?xf32>, %C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %M = memref.dim %A, %c0 : memref<?x?xf16>
  %gx = arith.ceildivui %M, %c64 : index
  tile.kernel @gemm blocks(%bx) in [%gx] threads(128) {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %m0 = arith.muli %bx, %c64 : index
    tile.copy %A[%m0, %c0], %s : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %s, %C[%m0, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
  }
  return
}

// -----

// Values produced by ops with side effects cannot be recomputed on the
// device: diagnosed.

func.func @impure(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %A[%c0] : memref<?xf32>
  // expected-error @below {{uses a value computed outside the kernel by an op with side effects: memref.load}}
  tile.kernel @k blocks(%bx) in [1] threads(32) {
    %f = tile.alloc : memref<32xf32, #tile.mem<fragment>>
    tile.fill %f, %x : memref<32xf32, #tile.mem<fragment>>
    tile.copy %f, %A[%c0] : memref<32xf32, #tile.mem<fragment>> to memref<?xf32>
  }
  return
}

// -----

// Register budgets are relative to the registers every warp starts with
// (TargetInfo::getEntryRegisters, 168 for 384 threads): the kernel function
// asks ptxas for them with `.minnctapersm` (nvvm.minctasm), one block per
// multiprocessor unless tile.blocks_per_sm says otherwise. Without it ptxas
// allocates what the code uses when that is less, and ignores setmaxnreg.

// CHECK-LABEL: func.func @budgets
// CHECK: gpu.func @budgets() kernel attributes {{.*}}nvvm.minctasm = 1 : i32}
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: nvvm.setmaxregister  increase 232
func.func @budgets() {
  tile.kernel @budgets blocks(%bx) in [1] threads(384) {
    tile.ws [0] registers(40) {
    }
    tile.ws [1, 2] registers(232) {
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @budgets_two_blocks
// CHECK: gpu.func @budgets_two_blocks() kernel attributes {{.*}}nvvm.minctasm = 2 : i32}
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: nvvm.setmaxregister  increase 96
func.func @budgets_two_blocks() {
  tile.kernel @budgets_two_blocks blocks(%bx) in [1] threads(384)
      attributes {tile.blocks_per_sm = 2} {
    tile.ws [0] registers(40) {
    }
    tile.ws [1, 2] registers(96) {
    }
  }
  return
}

// -----

// Regions without budgets keep the launch's count: no `.minnctapersm`.
// CHECK-LABEL: func.func @no_budgets
// CHECK: gpu.func @no_budgets() kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
// CHECK-NOT: nvvm.setmaxregister
func.func @no_budgets() {
  tile.kernel @no_budgets blocks(%bx) in [1] threads(384) {
    tile.ws [0] {
    }
    tile.ws [1, 2] {
    }
  }
  return
}

// -----

// tile.launch_group = 8: the kernel's block indices are the grouped order's
// grid position of the hardware's linear block id y * gx + x: groups of 8
// grid rows (fewer in the last group), walked down a column at a time. The
// extents are the kernel's grid operands, passed in like any captured value.
// CHECK-LABEL: gpu.func @grouped
// CHECK-SAME: (%{{.*}}: memref<?x?xf16>, %[[GX:.*]]: index, %[[GY:.*]]: index)
// CHECK-DAG: %[[X:.*]] = gpu.block_id x
// CHECK-DAG: %[[Y:.*]] = gpu.block_id y
// CHECK: %[[YGX:.*]] = arith.muli %[[Y]], %[[GX]]
// CHECK: %[[PID:.*]] = arith.addi %[[YGX]], %[[X]]
// CHECK: %[[G:.*]] = arith.constant 8 : index
// CHECK: %[[SIZE:.*]] = arith.muli %[[G]], %[[GX]]
// CHECK: %[[GID:.*]] = arith.divui %[[PID]], %[[SIZE]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[GID]], %[[G]]
// CHECK: %[[LEFT:.*]] = arith.subi %[[GY]], %[[FIRST]]
// CHECK: %[[ROWS:.*]] = arith.minui %[[LEFT]], %[[G]]
// CHECK: %[[IN:.*]] = arith.remui %[[PID]], %[[SIZE]]
// CHECK: %[[R:.*]] = arith.remui %[[IN]], %[[ROWS]]
// CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[R]]
// CHECK: %[[COL:.*]] = arith.divui %[[IN]], %[[ROWS]]
// CHECK: arith.muli %[[ROW]]
// CHECK: arith.muli %[[COL]]
func.func @grouped_host(%A: memref<?x?xf16>, %gx: index, %gy: index) {
  %c64 = arith.constant 64 : index
  tile.kernel @grouped blocks(%bx, %by) in [%gx, %gy] threads(128)
      attributes {tile.launch_group = 8 : i64} {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %m0 = arith.muli %by, %c64 : index
    %n0 = arith.muli %bx, %c64 : index
    tile.copy %A[%m0, %n0], %s : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %s, %A[%m0, %n0] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
  }
  return
}

// -----

// tile.launch_group = 1: the hardware's order, block ids as they are.
// CHECK-LABEL: gpu.func @row_major
// CHECK: %[[X:.*]] = gpu.block_id x
// CHECK: %[[Y:.*]] = gpu.block_id y
// CHECK-NOT: arith.minui
// CHECK: arith.muli %[[Y]], %c64
// CHECK: arith.muli %[[X]], %c64
func.func @row_major_host(%A: memref<?x?xf16>, %gx: index, %gy: index) {
  %c64 = arith.constant 64 : index
  tile.kernel @row_major blocks(%bx, %by) in [%gx, %gy] threads(128)
      attributes {tile.launch_group = 1 : i64} {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %m0 = arith.muli %by, %c64 : index
    %n0 = arith.muli %bx, %c64 : index
    tile.copy %A[%m0, %n0], %s : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %s, %A[%m0, %n0] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
  }
  return
}

// -----

// A kernel launched as a programmatic dependent (tile.dependent_launch =
// true, sm_90+) starts with the wait for the kernel before, before anything
// else, and ends with the signal that the next may launch; its module
// defines the global the runtime launches it by. With false (or without
// the attribute) none of them.

// CHECK-LABEL: gpu.module @dependent_module
// CHECK-NEXT: llvm.mlir.global external constant @__tile_dependent_launch(1 : i32) {addr_space = 1 : i32, alignment = 4 : i64} : i32
// CHECK: gpu.func @dependent(
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: gpu.block_id x
// CHECK: memref.store
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: gpu.return
// CHECK-LABEL: gpu.module @independent_module
// CHECK-NOT: __tile_dependent_launch
// CHECK-NOT: nvvm.griddepcontrol
// CHECK: gpu.return
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @dependent_host(%A: memref<?xf32>, %n: index) {
  tile.kernel @dependent blocks(%bx) in [%n] threads(128)
      attributes {tile.dependent_launch = true} {
    %v = arith.constant 1.0 : f32
    memref.store %v, %A[%bx] : memref<?xf32>
  }
  tile.kernel @independent blocks(%bx) in [%n] threads(128)
      attributes {tile.dependent_launch = false} {
    %v = arith.constant 2.0 : f32
    memref.store %v, %A[%bx] : memref<?xf32>
  }
  return
}
}
