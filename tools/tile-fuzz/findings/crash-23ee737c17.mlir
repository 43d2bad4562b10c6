// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ mlir::FloatType::getWidth
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading -o /dev/null
// found: seed 7, input 5584 (test/Runtime/Inputs/mgpu_host.mlir; mutations elemtype, elemtype, lines), 1 occurrence; minimized: yes (173 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 5584, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["elemtype", "elemtype", "lines"], "pipeline": {"args": [], "chip": null, "emits_binary": false, "format": null, "name": "parse", "odd_options": false}, "seed": 7, "signature": "crash: SIGSEGV @ mlir::FloatType::getWidth", "source": "test/Runtime/Inputs/mgpu_host.mlir"}

!desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xvector<4xf16>, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
module {
  func.func @memory() {
    %c64 = arith.constant 0 : index
    %tile = memref.alloc() : memref<64x128xf16>
    %tileUnranked = memref.cast %tile : memref<64x128xf16> to memref<*xf16>
    %d = nvgpu.tma.create.descriptor %tileUnranked box[%c64, %c64] : memref<*xf16> -> !desc
  }
}
