// tile-fuzz finding: unlocated-error
// signature: unlocated-error: error: conversion of memref memory space #gpu.address_space<global> to integer address space failed. Consider adding memory space conversions.
// message: <unknown>:0: error: conversion of memref memory space #gpu.address_space<global> to integer address space failed. Consider adding memory space conversions.
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_90a format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 5, input 545 (test/Transforms/lower-ops.mlir#9; mutations memspace), 1 occurrence; minimized: yes (85 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 545, "kind": "unlocated-error", "message": "<unknown>:0: error: conversion of memref memory space #gpu.address_space<global> to integer address space failed. Consider adding memory space conversions.", "minimized": true, "mutations": ["memspace"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_90a format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_90a", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 5, "signature": "unlocated-error: error: conversion of memref memory space #gpu.address_space<global> to integer address space failed. Consider adding memory space conversions.", "source": "test/Transforms/lower-ops.mlir#9"}

func.func @converting_copy(%A: memref<?x?xf32, #gpu.address_space<global>>, %i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.copy %A[%i, %i], %s : memref<?x?xf32, #gpu.address_space<global>> to memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  return
}
