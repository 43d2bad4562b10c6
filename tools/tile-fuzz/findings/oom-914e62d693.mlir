// tile-fuzz finding: oom
// signature: oom: tile-to-nvvm @ anon::KernelLowering::lowerGemm
// message: out of memory (limit: RLIMIT_AS)
// command: tile-opt %s --mlir-print-op-on-diagnostic=false --mlir-disable-threading "--tile-to-nvvm=chip=sm_80 format=isa" --tile-emit-binary=prefix=%t/ -o /dev/null
// found: seed 9, input 241 (test/Transforms/select-mma-errors.mlir#2; mutations shape), 1 occurrence; minimized: yes (125 tests)
// tile-fuzz-json: {"count": 1, "flags": ["--mlir-print-op-on-diagnostic=false", "--mlir-disable-threading"], "index": 241, "kind": "oom", "message": "out of memory (limit: RLIMIT_AS)", "minimized": true, "mutations": ["shape"], "pipeline": {"args": ["--tile-to-nvvm=chip=sm_80 format=isa", "--tile-emit-binary=prefix=@WORK@/"], "chip": "sm_80", "emits_binary": true, "format": "isa", "name": "tile-to-nvvm", "odd_options": false}, "seed": 9, "signature": "oom: tile-to-nvvm @ anon::KernelLowering::lowerGemm", "source": "test/Transforms/select-mma-errors.mlir#2"}

!sA = memref<64x4294967296xf16, #gpu.address_space<workgroup>>
!sB = memref<4294967296x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @wrong_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
