// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ mlir::tile::getTargetAttr
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-attach-gpu-target -o /dev/null
// found: seed 4, input 71 (test/Runtime/Inputs/launch_kernel.mlir; mutations ssa, int), 5 occurrences; minimized: yes (3 tests)
// tile-fuzz-json: {"count": 5, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 71, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["ssa", "int"], "pipeline": {"args": ["--tile-attach-gpu-target"], "chip": null, "emits_binary": false, "format": null, "name": "tile-attach-gpu-target", "odd_options": false}, "seed": 4, "signature": "crash: SIGSEGV @ mlir::tile::getTargetAttr", "source": "test/Runtime/Inputs/launch_kernel.mlir"}


