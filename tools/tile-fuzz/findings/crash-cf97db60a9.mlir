// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ anon::AttachGPUTargetPass::runOnOperation
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-attach-gpu-target -o /dev/null
// found: seed 4, input 6 (test/CAPI/Inputs/invalid_threads.mlir; mutations bounds, lines, int), 38 occurrences; minimized: yes (40 tests)
// tile-fuzz-json: {"count": 38, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 6, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["bounds", "lines", "int"], "pipeline": {"args": ["--tile-attach-gpu-target"], "chip": null, "emits_binary": false, "format": null, "name": "tile-attach-gpu-target", "odd_options": true}, "seed": 4, "signature": "crash: SIGSEGV @ anon::AttachGPUTargetPass::runOnOperation", "source": "test/CAPI/Inputs/invalid_threads.mlir"}

func.func @f() {
  tile.kernel @k blocks(%b) in [1] threads(1) {
  }
  return
}
