// tile-fuzz finding: crash
// signature: crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.proxy.async.shared_cta @ llvm::SelectionDAGISel::SelectCodeCommon
// message: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.proxy.async.shared_cta
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 7, input 6121 (test/Conversion/vendor-ops-errors-rocdl.mlir#1; mutations vendor_op), 1 occurrence; minimized: yes (82 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 6121, "kind": "crash", "message": "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.proxy.async.shared_cta", "minimized": true, "mutations": ["vendor_op"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 7, "signature": "crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.proxy.async.shared_cta @ llvm::SelectionDAGISel::SelectCodeCommon", "source": "test/Conversion/vendor-ops-errors-rocdl.mlir#1"}

func.func @nvgpu_op() {
  tile.kernel @k blocks(%bx) in [1] threads(64) {
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  }
  return
}
