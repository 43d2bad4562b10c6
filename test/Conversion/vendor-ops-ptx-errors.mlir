// NVVM ops that need a newer PTX ISA version than the module's are reported
// at the op when tile-to-nvvm starts: the alias-proxy fence needs PTX 7.5,
// which sm_80 under +ptx70 to +ptx74 lacks (found by tile-fuzz:
// "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.fence.proxy.alias").
//
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -verify-diagnostics -o /dev/null
// RUN: not tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80 features=+ptx74 format=isa" -o /dev/null 2>&1 | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80 features=+ptx75 format=isa" -o /dev/null

// CHECK: vendor-ops-ptx-errors.mlir:[[@LINE+5]]:5: error: 'nvvm.fence.proxy' op needs PTX ISA +ptx75 or later, but tile-to-nvvm compiles this module with +ptx74 (the chip option)

func.func @fence_alias_old_ptx() {
  tile.kernel @k blocks(%bx) in [1] threads(32) {
    // expected-error @+1 {{'nvvm.fence.proxy' op needs PTX ISA +ptx75 or later, but tile-to-nvvm compiles this module with +ptx70}}
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
  }
  return
}
