// tile-fuzz finding: hang
// signature: hang @ anon::PipelinePlanningPass::runOnOperation
// message: timeout after 25s
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-pipeline-planning -o /dev/null
// found: seed 6, input 27 (test/Regression/num-stages.mlir#2; mutations num_stages), 1 occurrence; minimized: yes
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 27, "kind": "hang", "message": "timeout after 25s", "minimized": true, "mutations": ["num_stages"], "pipeline": {"args": ["--tile-pipeline-planning"], "chip": null, "emits_binary": false, "format": null, "name": "tile-chain", "odd_options": false}, "seed": 6, "signature": "hang @ anon::PipelinePlanningPass::runOnOperation", "source": "test/Regression/num-stages.mlir#2"}

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
func.func @at_max( %B: memref<?x?xf16>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 0 : index
  %c32 = arith.constant 0 : index
  tile.kernel @gemm blocks(%bx) in [1] threads(1) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %B[%k0, %c0], %bs : memref<?x?xf16> to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 2147483648 : i64}
  }
  return
}
