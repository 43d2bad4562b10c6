// RUN: tile-opt %s -split-input-file -tile-attach-target | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s -split-input-file -tile-attach-target=default-chip=gfx942 | FileCheck %s --check-prefix=DEFAULT

// A module naming no chip gets the default (sm_90a), or the chip given.
// CHECK-LABEL: module attributes {tile.target = #tile.target<"sm_90a">}
// SM80-LABEL: module attributes {tile.target = #tile.target<"sm_80">}
// DEFAULT-LABEL: module attributes {tile.target = #tile.target<"gfx942">}
func.func @none() {
  return
}

// -----

// A module naming a chip keeps it.
// CHECK-LABEL: module attributes {tile.target = #tile.target<"sm_80">}
// SM80-LABEL: module attributes {tile.target = #tile.target<"sm_80">}
// DEFAULT-LABEL: module attributes {tile.target = #tile.target<"sm_80">}
module attributes {tile.target = #tile.target<"sm_80">} {
  func.func @kept() {
    return
  }
}
