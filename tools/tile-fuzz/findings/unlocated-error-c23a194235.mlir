// tile-fuzz finding: unlocated-error
// signature: unlocated-error: error: conversion of memref memory space #tile.mem<local> to integer address space failed. Consider adding memory space conversions.
// message: <unknown>:0: error: conversion of memref memory space #tile.mem<local> to integer address space failed. Consider adding memory space conversions.
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-convert-gpu-to-rocdl -o /dev/null
// found: seed 15, input 43684 (test/Runtime/Inputs/mgpu_kernel.mlir; mutations memspace, int, int, target), 1 occurrence; minimized: no (0 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 43684, "kind": "unlocated-error", "message": "<unknown>:0: error: conversion of memref memory space #tile.mem<local> to integer address space failed. Consider adding memory space conversions.", "minimized": false, "mutations": ["memspace", "int", "int", "target"], "pipeline": {"args": ["--tile-convert-gpu-to-rocdl"], "chip": null, "emits_binary": false, "format": null, "name": "tile-convert-gpu-to-rocdl", "odd_options": false}, "seed": 15, "signature": "unlocated-error: error: conversion of memref memory space #tile.mem<local> to integer address space failed. Consider adding memory space conversions.", "source": "test/Runtime/Inputs/mgpu_kernel.mlir"}

module attributes {gpu.container_module, tile.target = #tile.target<"gfx942">} {
  gpu.module @kernels {
    gpu.func @fill(%out: memref<?xi32, #tile.mem<local>>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = arith.index_cast %i : index to i32
      %three = arith.constant 22000 : i32
      %w = arith.muli %v, %three : i32
      memref.store %w, %out[%i] : memref<?xi32, #tile.mem<local>>
      gpu.return
    }
  }
  func.func @run(%out: memref<?xi32, #tile.mem<local>>, %blocks: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 98304 : i32
    gpu.launch_func @kernels::@fill blocks in (%blocks, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %smem args(%out : memref<?xi32, #tile.mem<local>>)
    return
  }
}
