// tile-fuzz finding: crash
// signature: crash: LLVM ERROR: Empty parameter types are not supported @ llvm::SelectionDAGISel::LowerArguments
// message: LLVM ERROR: Empty parameter types are not supported
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 1, input 1372 (test/Conversion/convert-exp2-to-nvvm.mlir; mutations shape, shape), 1 occurrence; minimized: no (0 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 1372, "kind": "crash", "message": "LLVM ERROR: Empty parameter types are not supported", "minimized": false, "mutations": ["shape", "shape"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 1, "signature": "crash: LLVM ERROR: Empty parameter types are not supported @ llvm::SelectionDAGISel::LowerArguments", "source": "test/Conversion/convert-exp2-to-nvvm.mlir"}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @softmax(%x: f32, %h: f16, %v: vector<4611686018427387904xf32>) kernel {
      %e = math.exp2 %x : f32
      %eh = math.exp2 %h : f16
      %ev = math.exp2 %v : vector<4611686018427387904xf32>
      %s = arith.addf %e, %e : f32
      gpu.return
    }
  }
  func.func @host(%x: f32) -> f32 {
    %e = math.exp2 %x : f32
    return %e : f32
  }
}
