// NVVM ops of a newer chip than the module's are reported at the op when
// tile-to-nvvm starts (issue 26): a hand-written setmaxnreg, an async-proxy
// fence or a barrier-init fence in an sm_80 kernel ended in "LLVM ERROR:
// Cannot select: intrinsic %llvm.nvvm...".
//
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80 format=isa" -verify-diagnostics -o /dev/null
// RUN: not tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80 format=isa" -o /dev/null 2>&1 | FileCheck %s
// CHECK: vendor-ops-chip-errors.mlir:[[@LINE+7]]:5: error: 'nvvm.setmaxregister' op needs sm_90a, but tile-to-nvvm compiles this module for sm_80 (the chip option)
// CHECK-NOT: LLVM ERROR
// CHECK-NOT: {{^}}<unknown>

func.func @setmaxnreg() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'nvvm.setmaxregister' op needs sm_90a, but tile-to-nvvm compiles this module for sm_80 (the chip option)}}
    nvvm.setmaxregister increase 232
  }
  return
}

// -----

func.func @fence_proxy_async() {
  tile.kernel @k blocks(%bx) in [1] threads(64) {
    // expected-error @+1 {{'nvvm.fence.proxy' op needs sm_90 or later, but tile-to-nvvm compiles this module for sm_80}}
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  }
  return
}

// -----

func.func @fence_mbarrier_init() {
  tile.kernel @k blocks(%bx) in [1] threads(64) {
    // expected-error @+1 {{'nvvm.fence.mbarrier.init' op needs sm_90 or later, but tile-to-nvvm compiles this module for sm_80}}
    nvvm.fence.mbarrier.init
  }
  return
}

// -----

// What sm_80 has compiles: an alias-proxy fence, a warp reduction.

func.func @sm80_ops(%A: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(32) {
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
    %v = arith.constant 1 : i32
    %m = arith.constant -1 : i32
    %r = nvvm.redux.sync add %v, %m : i32 -> i32
    memref.store %r, %A[%c0] : memref<?xi32>
  }
  return
}
