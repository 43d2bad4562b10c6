// tile-fuzz finding: hang
// signature: hang @ anon::ConvertTileToGPUPass::runOnOperation
// message: timeout after 25s
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_90a format=fatbin" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 6, input 49 (test/Regression/memref-dim.mlir#0; mutations shape), 1 occurrence; minimized: yes
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 49, "kind": "hang", "message": "timeout after 25s", "minimized": true, "mutations": ["shape"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_90a format=fatbin", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_90a", "emits_binary": true, "format": "fatbin", "name": "tile-to-nvvm", "odd_options": false}, "seed": 6, "signature": "hang @ anon::ConvertTileToGPUPass::runOnOperation", "source": "test/Regression/memref-dim.mlir#0"}

func.func @negative(%A: memref<?x?xf16>, %C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant 0 : index
  %n = memref.dim %A, %cm1 : memref<?x?xf16>
  tile.kernel @k blocks(%bx) in [%n] threads(128) {
    %f = tile.alloc : memref<4096x4096xf16, #tile.mem<fragment>>
    tile.copy %f, %C[%c0, %c0] : memref<4096x4096xf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}
