// RUN: tile-opt %s -split-input-file -tile-convert-exp2-to-nvvm | FileCheck %s

// tile-convert-exp2-to-nvvm: every f32 math.exp2 in a gpu.module becomes
// ex2.approx.ftz (one MUFU.EX2; subnormal results flushed to zero). Other
// widths, and code outside gpu.modules, keep math.exp2.

// CHECK-LABEL: gpu.func @softmax
// CHECK-SAME: (%[[X:.*]]: f32, %[[H:.*]]: f16, %[[V:.*]]: vector<2xf32>)
// CHECK: %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[X]]) : (f32) -> f32
// CHECK: math.exp2 %[[H]] : f16
// CHECK: math.exp2 %[[V]] : vector<2xf32>
// CHECK: arith.addf %[[E]], %[[E]] : f32
// CHECK-LABEL: func.func @host
// CHECK: math.exp2 %{{.*}} : f32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @softmax(%x: f32, %h: f16, %v: vector<2xf32>) kernel {
      %e = math.exp2 %x : f32
      %eh = math.exp2 %h : f16
      %ev = math.exp2 %v : vector<2xf32>
      %s = arith.addf %e, %e : f32
      gpu.return
    }
  }
  func.func @host(%x: f32) -> f32 {
    %e = math.exp2 %x : f32
    return %e : f32
  }
}
