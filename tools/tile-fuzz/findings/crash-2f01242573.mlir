// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ mlir::detail::walk<>
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-rocdl=chip=gfx90a format=isa pipeline=false" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 7, input 11182 (test/Regression/pipeline-options.mlir; mutations tma_store), 1 occurrence; minimized: yes (103 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 11182, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["tma_store"], "pipeline": {"args": ["--tile-to-rocdl=chip=gfx90a format=isa pipeline=false", "--tile-emit-binary=prefix=@WORK@/"], "chip": "gfx90a", "emits_binary": true, "format": "isa", "name": "tile-to-rocdl", "odd_options": false}, "seed": 7, "signature": "crash: SIGSEGV @ mlir::detail::walk<>", "source": "test/Regression/pipeline-options.mlir"}

func.func @f( %C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<16x16xf16, #tile.mem<fragment>>
    tile.copy %f, %C[%c0, %c0] {tile.tma_store = 1} : memref<16x16xf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}
