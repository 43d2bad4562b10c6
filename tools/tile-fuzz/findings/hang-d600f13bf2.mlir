// tile-fuzz finding: hang
// signature: hang @ anon::GpuModuleToBinaryPass::runOnOperation
// message: timeout after 25s
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 6, input 126 (test/Regression/resource-limits.mlir#6; mutations layout), 1 occurrence; minimized: yes
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 126, "kind": "hang", "message": "timeout after 25s", "minimized": true, "mutations": ["layout"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 6, "signature": "hang @ anon::GpuModuleToBinaryPass::runOnOperation", "source": "test/Regression/resource-limits.mlir#6"}

func.func @parallel_ws(%A: memref<?x?xf32, strided<[64, 2], offset: ?>>) {
  tile.kernel @parallel_ws blocks(%bx) in [1] threads(256) {
    tile.ws [0] {
      tile.parallel (%i, %j) in [512, 1000] {
        %x = memref.load %A[%i, %j] : memref<?x?xf32, strided<[64, 2], offset: ?>>
        memref.store %x, %A[%j, %i] : memref<?x?xf32, strided<[64, 2], offset: ?>>
      }
    }
  }
  return
}
