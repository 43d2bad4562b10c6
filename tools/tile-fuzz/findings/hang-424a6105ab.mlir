// tile-fuzz finding: hang
// signature: hang @ anon::LowerOpsPass::runOnOperation
// message: timeout after 25s
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 2, input 48 (test/Transforms/lower-ops.mlir#6; mutations shape, int), 1 occurrence; minimized: yes
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 48, "kind": "hang", "message": "timeout after 25s", "minimized": true, "mutations": ["shape", "int"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 2, "signature": "hang @ anon::LowerOpsPass::runOnOperation", "source": "test/Transforms/lower-ops.mlir#6"}

func.func @ws(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %x = tile.alloc : memref<1099511627776xf32, #tile.mem<fragment>>
    tile.ws [0, 1]  {
      tile.copy %x, %out[%c0] : memref<1099511627776xf32, #tile.mem<fragment>> to memref<?xf32>
    }
  }
  return
}
