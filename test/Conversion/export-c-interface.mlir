// tile-export-c-interface: a public function's name becomes its C
// interface (forwarding to _mlir_ciface_<name>, which stays for the
// ExecutionEngine); the expanded function becomes internal.
// RUN: tile-opt %s --convert-func-to-llvm --tile-export-c-interface | FileCheck %s

// CHECK-LABEL: llvm.func internal @_mlir_tile_expanded_gemm(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-LABEL: llvm.func @_mlir_ciface_gemm(
// CHECK-SAME: %{{.*}}: !llvm.ptr) attributes {llvm.emit_c_interface}
// CHECK: llvm.call @_mlir_tile_expanded_gemm(
// CHECK-LABEL: llvm.func @gemm(
// CHECK-SAME: %[[D:.*]]: !llvm.ptr) {
// CHECK-NEXT: llvm.call @_mlir_ciface_gemm(%[[D]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: llvm.return
func.func @gemm(%A: memref<?x?xf16>) attributes {llvm.emit_c_interface} {
  return
}

// A caller follows the rename.
// CHECK-LABEL: llvm.func @caller(
// CHECK: llvm.call @_mlir_tile_expanded_gemm(
func.func @caller(%A: memref<?x?xf16>) {
  call @gemm(%A) : (memref<?x?xf16>) -> ()
  return
}

// Without a C interface, a function keeps its name.
// CHECK-LABEL: llvm.func @plain(
// CHECK-NOT: _mlir_ciface_plain
func.func @plain() {
  return
}

// A private helper stays inside the object (internal linkage); private
// declarations (runtime functions) stay external.
// CHECK-LABEL: llvm.func internal @helper(
// CHECK-SAME: attributes {sym_visibility = "private"}
// CHECK-LABEL: llvm.func @runtime_decl(
// CHECK-NOT: internal
func.func private @helper() {
  return
}
func.func private @runtime_decl()
