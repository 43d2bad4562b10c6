// tile-fuzz finding: crash
// signature: crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.dec.sync.aligned.uN @ llvm::SelectionDAGISel::SelectCodeCommon
// message: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.dec.sync.aligned.uN
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_86 format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 7, input 5520 (test/Conversion/kernel-target.mlir; mutations int, target, vendor_op, int), 1 occurrence; minimized: yes (88 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 5520, "kind": "crash", "message": "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.dec.sync.aligned.uN", "minimized": true, "mutations": ["int", "target", "vendor_op", "int"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_86 format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_86", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 7, "signature": "crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.dec.sync.aligned.uN @ llvm::SelectionDAGISel::SelectCodeCommon", "source": "test/Conversion/kernel-target.mlir"}

func.func @own_target() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    nvvm.setmaxregister decrease 40
  }
  return
}
