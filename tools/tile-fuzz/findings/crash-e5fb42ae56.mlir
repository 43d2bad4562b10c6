// tile-fuzz finding: crash
// signature: crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.inc.sync.aligned.uN @ llvm::SelectionDAGISel::SelectCodeCommon
// message: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.inc.sync.aligned.uN
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 4, input 199 (test/Transforms/lower-ops.mlir#6; mutations int), 1 occurrence; minimized: yes (75 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 199, "kind": "crash", "message": "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.inc.sync.aligned.uN", "minimized": true, "mutations": ["int"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 4, "signature": "crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.inc.sync.aligned.uN @ llvm::SelectionDAGISel::SelectCodeCommon", "source": "test/Transforms/lower-ops.mlir#6"}

func.func @ws() {
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    tile.ws [1, 2] registers(232) {
    }
  }
  return
}
