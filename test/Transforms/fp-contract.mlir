// RUN: tile-opt %s -split-input-file -tile-fp-contract | FileCheck %s

// Floating-point arith ops in a kernel (in a tile.parallel body and at the
// kernel's top level) get `contract`; flags they carry stay; integer ops
// and the host function's float ops are not touched.

!fS = memref<128x64xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @kernel_ops
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: tile.kernel
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: tile.parallel
// CHECK: arith.muli %{{.*}}, %{{.*}} : index
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<fast> : f32
// CHECK: math.exp2 %{{.*}} : f32
func.func @kernel_ops(%x: f32) -> f32 {
  %host = arith.mulf %x, %x : f32
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : !fS
    %c = arith.constant 0.5 : f32
    %m = arith.addf %c, %c : f32
    tile.parallel (%i, %j) in [128, 64] {
      %ij = arith.muli %i, %j : index
      %v = memref.load %s[%i, %j] : !fS
      %a = arith.mulf %v, %c : f32
      %b = arith.subf %a, %m fastmath<nnan> : f32
      %d = arith.divf %b, %c fastmath<fast> : f32
      %e = math.exp2 %d : f32
      memref.store %e, %s[%i, %j] : !fS
    }
  }
  return %host : f32
}
