// RUN: tile-opt %s -split-input-file --tile-dependent-launch="remarks=true" -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-dependent-launch="decide=false" 2>/dev/null | FileCheck %s --check-prefix=KEEP

// tile-dependent-launch: kernels for chips with grid dependency control
// (sm_90+) are launched as programmatic dependents of the kernel before
// them (tile.dependent_launch = true); a kernel that has the attribute
// keeps it; other chips keep plain launches.

// CHECK-LABEL: func.func @sm90a
// CHECK: tile.kernel @sm90a_kernel {{.*}} attributes {tile.dependent_launch = true}
// KEEP-LABEL: func.func @sm90a
// KEEP-NOT: tile.dependent_launch
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @sm90a(%A: memref<?xf32>, %n: index) {
  // expected-remark @+1 {{launched as a programmatic dependent: its launch overlaps the end of the kernel before it in the stream}}
  tile.kernel @sm90a_kernel blocks(%bx) in [%n] threads(128) {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1.0 : f32
    memref.store %v, %A[%c0] : memref<?xf32>
  }
  return
}
}

// -----

// sm_90 (without the a) has it too.
// CHECK-LABEL: func.func @sm90
// CHECK: tile.kernel @sm90_kernel {{.*}} attributes {tile.dependent_launch = true}
module attributes {tile.target = #tile.target<"sm_90">} {
func.func @sm90(%n: index) {
  // expected-remark @+1 {{launched as a programmatic dependent}}
  tile.kernel @sm90_kernel blocks(%bx) in [%n] threads(128) {
  }
  return
}
}

// -----

// The user's choice stays: false launches after the kernel before ends.
// CHECK-LABEL: func.func @opted_out
// CHECK: tile.kernel @opted_out_kernel {{.*}} attributes {tile.dependent_launch = false}
// KEEP: tile.kernel @opted_out_kernel {{.*}} attributes {tile.dependent_launch = false}
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @opted_out(%n: index) {
  tile.kernel @opted_out_kernel blocks(%bx) in [%n] threads(128)
      attributes {tile.dependent_launch = false} {
  }
  return
}
}

// -----

// With decide=false only the kernels that ask are dependents.
// KEEP-LABEL: func.func @asked
// KEEP: tile.kernel @asked_kernel {{.*}} attributes {tile.dependent_launch = true}
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @asked(%n: index) {
  tile.kernel @asked_kernel blocks(%bx) in [%n] threads(128)
      attributes {tile.dependent_launch = true} {
  }
  return
}
}

// -----

// sm_80 and AMD chips have no grid dependency control.
// CHECK-LABEL: func.func @sm80
// CHECK-NOT: tile.dependent_launch
// CHECK: return
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @sm80(%n: index) {
  // expected-remark @+1 {{launched after the kernel before it ends: the target has no grid dependency control}}
  tile.kernel @sm80_kernel blocks(%bx) in [%n] threads(128) {
  }
  return
}
}

// -----

// CHECK-LABEL: func.func @gfx942
// CHECK-NOT: tile.dependent_launch
// CHECK: return
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @gfx942(%n: index) {
  // expected-remark @+1 {{launched after the kernel before it ends: the target has no grid dependency control}}
  tile.kernel @gfx942_kernel blocks(%bx) in [%n] threads(256) {
  }
  return
}
}
