// Findings of the mutation fuzzer (seed 1, tools/tile-fuzz) on the corpus
// of issue 25's tests:
//  * a host function with a memref whose layout is not strided failed in
//    the LLVM lowering of memrefs without a location ("conversion to
//    strided form failed"): now reported at the function;
//  * a tensor copy outside any pipe hand-off next to a pipe crashed
//    tile-select-tma (SIGSEGV): now reported at the copy.
//
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_90a format=isa" --mlir-print-op-on-diagnostic=false -verify-diagnostics -o /dev/null

#folded = affine_map<(d0, d1) -> (d0 floordiv 2 + d1)>
module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // expected-error @+1 {{'func.func' op argument #0 has type 'memref<4x4xi64, affine_map<(d0, d1) -> (d0 floordiv 2 + d1)>>', whose layout is not strided, which tile-to-nvvm cannot compile: use an identity or strided<...> layout}}
  func.func @layouts(%E: memref<4x4xi64, #folded>) {
    %c1 = arith.constant 1 : index
    %v = memref.load %E[%c1, %c1] : memref<4x4xi64, #folded>
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return
  }
}

// -----

func.func @stray_tensor_copy(%A: memref<?x?xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-remark @+2 {{not warp-specialized: a producer warpgroup would leave 2 consumer warpgroups resident per multiprocessor instead of 12}}
  // expected-remark @+1 {{not warp-specialized: it also hands off copies without tensor copies (cp.async)}}
  tile.kernel @k blocks(%bx) in [33] threads(128) {
    %p = tile.pipe.create : <2>
    %As = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %Bs = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %n step %c1 {
      %k0 = arith.muli %k, %c32 : index
      // expected-error @+1 {{'tile.copy' op a tensor copy (tma) must fill a pipe slot: expected a tile.pipe.produce_acquire before it}}
      tile.copy async tma %A[%c0, %k0], %As : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    scf.for %k = %c0 to %n step %c1 {
      tile.pipe.produce_acquire %p[%k] : <2>
      %k0 = arith.muli %k, %c32 : index
      tile.copy async %A[%c0, %k0], %Bs : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.pipe.produce_commit %p[%k] : <2>
      tile.pipe.consume_wait %p[%k] in_flight(0) : <2>
      tile.pipe.consume_release %p[%k] : <2>
    }
  }
  return
}
