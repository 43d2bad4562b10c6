// tile-fuzz finding: crash
// signature: crash: SIGSEGV @ mlir::tile::checkPrinterHazards
// message: SIGSEGV in mlir::tile::checkPrinterHazards (an operand the parser left null)
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading -o /dev/null
// found: seed 16, input 13688 (test/Transforms/warp-specialize.mlir#7), 1 occurrence; minimized: no (0 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 13688, "kind": "crash", "message": "Stack dump: SIGSEGV in mlir::tile::checkPrinterHazards", "minimized": false, "mutations": [], "pipeline": {"args": [], "chip": null, "emits_binary": false, "format": null, "name": "parse", "odd_options": false}, "seed": 16, "signature": "crash: SIGSEGV @ mlir::tile::checkPrinterHazards", "source": "test/Transforms/warp-specialize.mlir#7"}

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @persistent(%A: !g, %B: !g, %C: !g, %kt: index, %tiles_n: index,
                      %tiles: index, %grid: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.kernel @k blocks(%bx) in [%m0] threads(256) attributes {tile.warp_specialize = true} {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    %waves = arith.ceildivui %tiles, %grid : index
    scf.for %w = %c0 to %waves step %c1 {
      %t0 = arith.muli %w, %grid : index
      %t = arith.addi %t0, %bx : index
      %valid = arith.cmpi ult, %t, %tiles : index
      scf.if %valid {
        %tm = arith.divui %t, %tiles_n : index
        %tn = arith.remui %t, %tiles_n : index
        %m0 = arith.muli %tm, %c128 : index
        %n0 = arith.muli %tn, %c128 : index
        tile.fill %acc, %zero : !fC
        scf.for %k = %c0 to %kt step %c1 {
          %k0 = arith.muli %k, %c64 : index
          tile.copy %A[%m0, %k0], %as : !g to !sA
          tile.copy %B[%k0, %n0], %bs : !g to !sB
          tile.gemm %as, %bs, %acc : !sA, !sB, !fC
        } {tile.num_stages = 3 : i64}
        tile.copy %acc, %C[%m0, %n0] : !fC to !g
      }
    }
  }
  return
}
