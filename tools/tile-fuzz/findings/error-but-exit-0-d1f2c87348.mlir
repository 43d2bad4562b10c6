// tile-fuzz finding: error-but-exit-0
// signature: error-but-exit-0: error: Invalid format specified.
// message: input.mlir:0:0: error: Invalid format specified.
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=foo" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 4, input 287 (test/Transforms/inject-pipeline.mlir#3; mutations shape), 7 occurrences; minimized: yes (4 tests)
// tile-fuzz-json: {"count": 7, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 287, "kind": "error-but-exit-0", "message": "input.mlir:0:0: error: Invalid format specified.", "minimized": true, "mutations": ["shape"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=foo", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "foo", "name": "tile-to-nvvm", "odd_options": true}, "seed": 4, "signature": "error-but-exit-0: error: Invalid format specified.", "source": "test/Transforms/inject-pipeline.mlir#3"}


