// tile-fuzz finding: error-but-exit-0
// signature: error-but-exit-0: error: conversion of memref memory space #tile.mem<local> to integer address space failed. Consider adding memory space conversions.
// message: <unknown>:0: error: conversion of memref memory space #tile.mem<local> to integer address space failed. Consider adding memory space conversions.
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 5, input 346 (test/Transforms/lower-ops.mlir#5; mutations lines, memspace, shape, int), 1 occurrence; minimized: yes (27 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 346, "kind": "error-but-exit-0", "message": "<unknown>:0: error: conversion of memref memory space #tile.mem<local> to integer address space failed. Consider adding memory space conversions.", "minimized": true, "mutations": ["lines", "memspace", "shape", "int"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "", "name": "tile-to-nvvm", "odd_options": true}, "seed": 5, "signature": "error-but-exit-0: error: conversion of memref memory space #tile.mem<local> to integer address space failed. Consider adding memory space conversions.", "source": "test/Transforms/lower-ops.mlir#5"}

func.func @parallel(%in: memref<?xf32, #tile.mem<local>>) {
  return
}
