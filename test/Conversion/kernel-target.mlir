// A kernel's own #tile.target is accepted where it names the chip the
// pipeline compiles the module for (kernel-target-errors*.mlir: where it
// does not). CHIP is replaced by each RUN line.
//
// RUN: sed 's/CHIP/sm_80/' %s | tile-opt --tile-to-nvvm="format=isa chip=sm_80 host-runtime=false" | FileCheck %s --check-prefix=SM80
// SM80: gpu.binary @k_module [#gpu.object<#nvvm.target<O = 3, chip = "sm_80"
// RUN: sed 's/CHIP/sm_90a/' %s | tile-opt --tile-to-nvvm="format=isa host-runtime=false" | FileCheck %s --check-prefix=SM90
// SM90: gpu.binary @k_module [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a"
// RUN: sed 's/CHIP/gfx90a/' %s | tile-opt --tile-to-rocdl="format=isa chip=gfx90a host-runtime=false" | FileCheck %s --check-prefix=GFX90A
// GFX90A: gpu.binary @k_module [#gpu.object<#rocdl.target<O = 3, chip = "gfx90a"
//
// A module that names no chip is compiled for the pipeline's default one.
// RUN: sed 's/CHIP/sm_80/' %s | not tile-opt --tile-to-nvvm="format=isa" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: <stdin>:[[# @LINE + 8]]:3: error: 'tile.kernel' op @k targets sm_80, but tile-to-nvvm compiles this module for sm_90a (the pipeline's default chip)
// DEFAULT-NOT: LLVM ERROR

!g = memref<?x?xf32>
!f = memref<32x32xf32, #tile.mem<fragment>>

func.func @own_target(%A: !g) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.target = #tile.target<"CHIP">} {
    %f = tile.alloc : !f
    tile.copy %A[%c0, %c0], %f : !g to !f
    tile.copy %f, %A[%c0, %c0] : !f to !g
  }
  return
}
