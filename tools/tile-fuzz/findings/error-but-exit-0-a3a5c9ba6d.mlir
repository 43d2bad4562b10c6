// tile-fuzz finding: error-but-exit-0
// signature: error-but-exit-0: error: expected '"' in string literal
// message: input.mlir:4:6: error: expected '"' in string literal
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading -o /dev/null
// found: seed 0, input 0 (tile-capi-fuzzer (libFuzzer) crash-3b319ba7ce, reduced by hand; mutations none), 1 occurrence; minimized: yes (0 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 0, "kind": "error-but-exit-0", "message": "input.mlir:4:6: error: expected '\"' in string literal", "minimized": true, "mutations": [], "pipeline": {"args": [], "chip": null, "emits_binary": false, "format": null, "name": "parse", "odd_options": false}, "seed": 0, "signature": "error-but-exit-0: error: expected '\"' in string literal", "source": "tile-capi-fuzzer (libFuzzer) crash-3b319ba7ce, reduced by hand"}

func.func @f(%i: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %p = tile.pipe.create : !tile.pipe<2>
  " x
  }
  return
}
