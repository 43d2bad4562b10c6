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

// 16-bit float scalars cross the C interface as their bits (uint16_t in the
// C header): the exported function takes and returns i16 and bitcasts.
// CHECK-LABEL: llvm.func @scale(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr, %[[H:.*]]: i16, %[[B:.*]]: i16) -> i16 {
// CHECK-DAG: %[[HF:.*]] = llvm.bitcast %[[H]] : i16 to f16
// CHECK-DAG: %[[BF:.*]] = llvm.bitcast %[[B]] : i16 to bf16
// CHECK: %[[R:.*]] = llvm.call @_mlir_ciface_scale(%[[P]], %[[HF]], %[[BF]]) : (!llvm.ptr, f16, bf16) -> f16
// CHECK-NEXT: %[[RB:.*]] = llvm.bitcast %[[R]] : f16 to i16
// CHECK-NEXT: llvm.return %[[RB]] : i16
func.func @scale(%A: memref<?xf16>, %h: f16, %b: bf16) -> f16
    attributes {llvm.emit_c_interface} {
  return %h : f16
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

