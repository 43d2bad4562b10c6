// tile-fuzz finding: crash
// signature: crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.inc.sync.aligned.uN @ llvm::SelectionDAGISel::SelectCodeCommon
// message: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.inc.sync.aligned.uN
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=bin" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 7, input 578 (test/Examples/Inputs/gemm_f32_out.mlir; mutations vendor_op), 2 occurrences; minimized: yes (259 tests)
// tile-fuzz-json: {"count": 2, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 578, "kind": "crash", "message": "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.inc.sync.aligned.uN", "minimized": true, "mutations": ["vendor_op"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=bin", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "bin", "name": "tile-to-nvvm", "odd_options": false}, "seed": 7, "signature": "crash: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.setmaxnreg.inc.sync.aligned.uN @ llvm::SelectionDAGISel::SelectCodeCommon", "source": "test/Examples/Inputs/gemm_f32_out.mlir"}

!gA = memref<?x?xbf16>
!gB = memref<?x?xbf16>
func.func @gemm_f32(%A: !gA {tile.shape = ["M", "K"]},
                    %B: !gB {tile.shape = ["K", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 0 : index
  %BN = arith.constant 0 : index
  %BK = arith.constant 1 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @gemm_f32_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
    scf.for %k = %c0 to %kt step %c1 {
      nvvm.setmaxregister increase 232
    } {tile.num_stages = 0 : i64}
  }
  return
}
