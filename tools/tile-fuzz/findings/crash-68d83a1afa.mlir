// tile-fuzz finding: crash
// signature: crash: runtime error: signed integer overflow: N * N cannot be represented in type 'long int' (TargetInfo.cpp)
// message: runtime error: signed integer overflow: N * N cannot be represented in type 'long int' (TargetInfo.cpp)
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-layout-inference -o /dev/null
// found: seed 1, input 710 (test/Transforms/check-resources-registers.mlir#2; mutations int, int), 2 occurrences; minimized: no (0 tests)
// tile-fuzz-json: {"count": 2, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 710, "kind": "crash", "message": "runtime error: signed integer overflow: N * N cannot be represented in type 'long int' (TargetInfo.cpp)", "minimized": false, "mutations": ["int", "int"], "pipeline": {"args": ["--tile-layout-inference"], "chip": null, "emits_binary": false, "format": null, "name": "tile-layout-inference", "odd_options": false}, "seed": 1, "signature": "crash: runtime error: signed integer overflow: N * N cannot be represented in type 'long int' (TargetInfo.cpp)", "source": "test/Transforms/check-resources-registers.mlir#2"}

!sA = memref<256x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<256x128xf32, #tile.mem<fragment>>
func.func @blocks_per_sm() {
  tile.kernel @blocks_per_sm blocks(%bx) in [1024] threads(512) attributes {tile.blocks_per_sm = 9223372036854775807 : i64} {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
