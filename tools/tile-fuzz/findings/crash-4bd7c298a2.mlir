// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ mlir::tile::getCopyVectorWidth
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading --tile-specialize-bounds --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops --canonicalize -o /dev/null
// found: seed 2, input 531 (examples/flash_attention.mlir; mutations elemtype, shape), 1 occurrence; minimized: yes (400 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 531, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["elemtype", "shape"], "pipeline": {"args": ["--tile-specialize-bounds", "--tile-layout-inference", "--tile-insert-barriers", "--tile-plan-pipes", "--tile-allocate-scratch", "--tile-allocate-shared", "--tile-lower-ops", "--canonicalize"], "chip": null, "emits_binary": false, "format": null, "name": "bounds-lower", "odd_options": false}, "seed": 2, "signature": "crash: SIGSEGV @ mlir::tile::getCopyVectorWidth", "source": "examples/flash_attention.mlir"}

!gQKV = memref<?x?x128xindex>
!sKV = memref<17x128xf16, #gpu.address_space<workgroup>>
func.func @flash_attention_fwd(%Q: !gQKV, %K: !gQKV) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 0 : index
  %c64 = arith.constant 0 : index
  %c128 = arith.constant 0 : index
  %BH = memref.dim %Q, %c0 : !gQKV
  %S = memref.dim %Q, %c1 : !gQKV
  %num_q_blocks = arith.ceildivui %S, %c128 : index
  %num_kv_blocks = arith.ceildivui %S, %c64 : index
  tile.kernel @flash_attention_fwd_kernel blocks(%bx, %bh)
      in [%num_q_blocks, %BH] threads(1) {
    %Ks = tile.alloc : !sKV
    scf.for %kb = %c0 to %num_kv_blocks step %c1 {
      %k0 = arith.muli %kb, %c64 : index
      tile.copy %K[%bh, %k0, %c0], %Ks : !gQKV to !sKV
    } {tile.num_stages = 0 : i64}
  }
  return
}
