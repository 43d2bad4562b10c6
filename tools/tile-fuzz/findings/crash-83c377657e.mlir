// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ anon::KernelLowering::copyGlobalShared
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops -o /dev/null
// found: seed 1, input 169 (test/Conversion/tile-to-gpu.mlir#0; mutations elemtype), 3 occurrences; minimized: yes (153 tests)
// tile-fuzz-json: {"count": 3, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 169, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["elemtype"], "pipeline": {"args": ["--tile-layout-inference", "--tile-insert-barriers", "--tile-plan-pipes", "--tile-allocate-scratch", "--tile-allocate-shared", "--tile-lower-ops"], "chip": null, "emits_binary": false, "format": null, "name": "tile-chain-gpu", "odd_options": false}, "seed": 1, "signature": "crash: SIGSEGV @ anon::KernelLowering::copyGlobalShared", "source": "test/Conversion/tile-to-gpu.mlir#0"}

func.func @host(%A: memref<?x?xindex>, %C: memref<?x?xindex>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 0 : index
  %M = memref.dim %A, %c0 : memref<?x?xindex>
  %gx = arith.ceildivui %M, %c64 : index
  tile.kernel @gemm blocks(%bx) in [%gx] threads(128) {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %m0 = arith.muli %bx, %c64 : index
    tile.copy %s, %C[%m0, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<?x?xindex>
  }
  return
}
