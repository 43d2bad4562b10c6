// tile-fuzz finding: hang
// signature: hang @ anon::GpuModuleToBinaryPass::runOnOperation
// message: timeout after 65s
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa pipeline=false" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 17, input 48286 (test/Conversion/vendor-ops-errors-rocdl.mlir#1; mutations shape, vendor_op), 1 occurrence; minimized: no (0 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 48286, "kind": "hang", "message": "timeout after 65s", "minimized": false, "mutations": ["shape", "vendor_op"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa pipeline=false", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 17, "signature": "hang @ anon::GpuModuleToBinaryPass::runOnOperation", "source": "test/Conversion/vendor-ops-errors-rocdl.mlir#1"}

func.func @nvgpu_op(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(64) {
    nvvm.cp.async.wait.group 0
    %v = vector.load %A[%c0] : memref<?xf32>, vector<65536xf32>
    %r = nvgpu.rcp %v {rounding = approx, ftz} : vector<65536xf32>
    vector.store %r, %A[%c0] : memref<?xf32>, vector<65536xf32>
  }
  return
}
