// tile-attach-gpu-target derives the #nvvm.target of every gpu.module from
// the module's #tile.target (the default one when the module names none).
// RUN: tile-opt %s -split-input-file --tile-attach-gpu-target | FileCheck %s

// CHECK-LABEL: gpu.module @m_default
// CHECK-SAME: #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx84">
module attributes {gpu.container_module} {
  gpu.module @m_default {
  }
}

// -----

// CHECK-LABEL: gpu.module @m_sm80
// CHECK-SAME: #nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">
module attributes {gpu.container_module, tile.target = #tile.target<"sm_80", "+ptx70">} {
  gpu.module @m_sm80 {
  }
}

// -----

// A module with nothing in it needs no tile dialect loaded beforehand.
// CHECK-LABEL: module
module {
}
