// tile-fuzz finding: crash
// signature: crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.proxy.alias @ llvm::SelectionDAGISel::SelectCodeCommon
// message: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.proxy.alias
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa features=+ptx70 opt-level=1 pipeline=false" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 1414, input 20972 (test/Conversion/vendor-ops-chip-errors.mlir#3; mutations vendor_op), 1 occurrence; minimized: no (0 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 20972, "kind": "crash", "message": "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.proxy.alias", "minimized": false, "mutations": ["vendor_op"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa features=+ptx70 opt-level=1 pipeline=false", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": true}, "seed": 1414, "signature": "crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.proxy.alias @ llvm::SelectionDAGISel::SelectCodeCommon", "source": "test/Conversion/vendor-ops-chip-errors.mlir#3"}

func.func @sm80_ops(%A: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(32) {
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
    %v = arith.constant 1 : i32
    %m = arith.constant -1 : i32
    %r = nvvm.redux.sync add %v, %m : i32 -> i32
    %fz409349 = nvvm.read.ptx.sreg.ctaid.x : i32
    memref.store %r, %A[%c0] : memref<?xi32>
  }
  return
}
