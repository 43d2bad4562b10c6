// tile-fuzz finding: crash
// signature: crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.mbarrier_init.release.cluster @ llvm::SelectionDAGISel::SelectCodeCommon
// message: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.mbarrier_init.release.cluster
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 7, input 11693 (test/Transforms/check-handoffs.mlir#2; mutations vendor_op), 1 occurrence; minimized: yes (218 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 11693, "kind": "crash", "message": "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.mbarrier_init.release.cluster", "minimized": true, "mutations": ["vendor_op"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 7, "signature": "crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.mbarrier_init.release.cluster @ llvm::SelectionDAGISel::SelectCodeCommon", "source": "test/Transforms/check-handoffs.mlir#2"}

func.func @predicated(%kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %ub = arith.addi %kt, %c2 : index
    scf.for %it = %c0 to %ub step %c1 {
      nvvm.fence.mbarrier.init
    }
  }
  return
}
