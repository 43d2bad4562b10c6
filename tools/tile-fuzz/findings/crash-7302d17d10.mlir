// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ mlir::tile::KernelOp::parse
// message: SIGSEGV
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading -o /dev/null
// found: seed 2, input 482 (test/Dialect/ops.mlir; mutations scalartype, float), 1 occurrence; minimized: yes (284 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 482, "kind": "crash", "message": "SIGSEGV", "minimized": true, "mutations": ["scalartype", "float"], "pipeline": {"args": [], "chip": null, "emits_binary": false, "format": null, "name": "parse", "odd_options": false}, "seed": 2, "signature": "crash: SIGSEGV @ mlir::tile::KernelOp::parse", "source": "test/Dialect/ops.mlir"}

  tile.kernel @pipe blocks(%bx) in [0] threads(0) {
    scf.for %k = %c0 to %kt step %c1 {
    } {tile.num_stages = 0 : i64, tile.stage = array<index: 
