// tile-fuzz finding: roundtrip-error
// signature: roundtrip-error: loc("-":N:N): error: constant too large for index
// message: loc("-":2:33): error: constant too large for index
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --verify-roundtrip -o /dev/null
// found: seed 15, input 2008 (test/Regression/deep-nesting.mlir; mutations int, int), 1 occurrence; minimized: no (0 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 2008, "kind": "roundtrip-error", "message": "loc(\"-\":2:33): error: constant too large for index", "minimized": false, "mutations": ["int", "int"], "pipeline": {"args": ["--verify-roundtrip"], "chip": null, "emits_binary": false, "format": null, "name": "roundtrip", "odd_options": false}, "seed": 15, "signature": "roundtrip-error: loc(\"-\":N:N): error: constant too large for index", "source": "test/Regression/deep-nesting.mlir"}

#map = affine_map<(d0) -> (d0 floordiv 15)>
#set = affine_set<(d0) : (d0 - 1 >= 9223372036854775807)>
func.func @fine() attributes {x.b = "((((((((", x.m = #map, x.s = #set} {
  return
}
