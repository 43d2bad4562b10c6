// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ anon::SimplifyDimOfAllocOp::matchAndRewrite
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 5, input 221 (examples/gemm.mlir; mutations int, elemtype), 1 occurrence; minimized: yes (213 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 221, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["int", "elemtype"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 5, "signature": "crash: SIGSEGV @ anon::SimplifyDimOfAllocOp::matchAndRewrite", "source": "examples/gemm.mlir"}

!gA = memref<?x?xi1>
func.func @gemm(%A: !gA) {
  %c0 = arith.constant -2147483648 : index
  %c128 = arith.constant 0 : index
  %M = memref.dim %A, %c0 : !gA
  %gy = arith.ceildivui %M, %c128 : index
  return
}
