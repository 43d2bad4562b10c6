// tile-fuzz finding: unlocated-error
// signature: unlocated-error: error: example
// message: <unknown>:0: error: example
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading -o /dev/null
// found: a fixture for test/Fuzz/fuzz-smoke.test (now a located parse error)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 0, "kind": "unlocated-error", "message": "<unknown>:0: error: example", "minimized": true, "mutations": [], "pipeline": {"args": [], "chip": null, "emits_binary": false, "format": null, "name": "parse", "odd_options": false}, "seed": 0, "signature": "unlocated-error: error: example", "source": "fixture"}

func.func @f() {
  %x = arith.addi %undefined, %undefined : index
  return
}
