// tile-fuzz finding: error-but-exit-0
// signature: error-but-exit-0: error: conversion of memref memory space #tile.mem<fragment> to integer address space failed. Consider adding memory space conversions.
// message: <unknown>:0: error: conversion of memref memory space #tile.mem<fragment> to integer address space failed. Consider adding memory space conversions.
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_90a format=llvm" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 9, input 202 (test/Regression/element-types.mlir#13; mutations lines, memspace, int), 1 occurrence; minimized: yes (30 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 202, "kind": "error-but-exit-0", "message": "<unknown>:0: error: conversion of memref memory space #tile.mem<fragment> to integer address space failed. Consider adding memory space conversions.", "minimized": true, "mutations": ["lines", "memspace", "int"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_90a format=llvm", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_90a", "emits_binary": true, "format": "llvm", "name": "tile-to-nvvm", "odd_options": true}, "seed": 9, "signature": "error-but-exit-0: error: conversion of memref memory space #tile.mem<fragment> to integer address space failed. Consider adding memory space conversions.", "source": "test/Regression/element-types.mlir#13"}

func.func @index_reduce(%s: memref<32x32xindex, #tile.mem<fragment>>) {
  return
}
