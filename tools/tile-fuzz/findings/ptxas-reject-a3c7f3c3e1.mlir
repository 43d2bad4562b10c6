// tile-fuzz finding: ptxas-reject
// signature: ptxas-reject: ptxas fatal : (CN) setmaxnreg.dec has register count (N) which is larger than the largest temporal register count in the program (N)
// message: ptxas application ptx input, line 226; fatal : (C7406) setmaxnreg.dec has register count (232) which is larger than the largest temporal register count in the program (168)
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_90a format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// then: ptxas -arch=sm_90a %t/<kernel>_module.ptx -o /dev/null
// found: seed 7, input 4171 (test/Transforms/lower-ops-tma-store.mlir#1; mutations num_stages, kernel_flags), 1 occurrence; minimized: yes (283 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 4171, "kind": "ptxas-reject", "message": "ptxas application ptx input, line 226; fatal   : (C7406) setmaxnreg.dec has register count (232) which is larger than the largest temporal register count in the program (168)", "minimized": true, "mutations": ["num_stages", "kernel_flags"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_90a format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_90a", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 7, "signature": "ptxas-reject: ptxas fatal : (CN) setmaxnreg.dec has register count (N) which is larger than the largest temporal register count in the program (N)", "source": "test/Transforms/lower-ops-tma-store.mlir#1"}

!g = memref<?x?xf16>
!sA = memref<256x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<256x128xf32, #tile.mem<fragment>>
func.func @one_buffer( %B: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 0 : index
  %c64 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(256) attributes {tile.blocks_per_sm = 9223372036854775807 : i64} {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 64 : i64}
  }
  return
}
