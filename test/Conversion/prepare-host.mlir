// tile-prepare-host: host functions that launch kernels check their
// arguments, report through the tile runtime, launch on its current stream
// and skip empty grids; public functions get a C interface.
// RUN: tile-opt %s -split-input-file --tile-prepare-host | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-prepare-host="runtime=false c-interface=false" | FileCheck %s --check-prefix=PLAIN

module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k(%a: memref<?x?xf16>, %b: memref<?x?xf16>) kernel {
      gpu.return
    }
  }
  // CHECK-DAG: llvm.mlir.global internal constant @[[NAME:.*]]("gemm\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[NULL0:.*]]("argument #0 (memref<?x?xf16>) is a null pointer but not empty\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[STRIDE1:.*]]("argument #1 has a non-positive stride in dimension 0\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[SHAPE:.*]]("argument #1 dimension 0 ('K') differs from argument #0 dimension 1 ('K')\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[EXACT:.*]]("argument #1 dimension 1 must be 64\00")
  // CHECK-LABEL: func.func @gemm(
  // CHECK-SAME: attributes {llvm.emit_c_interface}
  // CHECK: %[[N:.*]] = llvm.mlir.addressof @[[NAME]]
  // CHECK: call @tileRtHostBegin(%[[N]])
  // CHECK: memref.extract_aligned_pointer_as_index %arg0
  // CHECK: scf.if
  // CHECK: %[[M:.*]] = llvm.mlir.addressof @[[NULL0]]
  // CHECK-NEXT: call @tileRtHostArgError(%[[N]], %[[M]])
  // CHECK: memref.extract_strided_metadata %arg1
  // CHECK: llvm.mlir.addressof @[[STRIDE1]]
  // CHECK: llvm.mlir.addressof @[[SHAPE]]
  // CHECK: llvm.mlir.addressof @[[EXACT]]
  // CHECK: %[[FAILED:.*]] = call @tileRtHostFailed()
  // CHECK: %[[OK:.*]] = arith.cmpi eq, %[[FAILED]]
  // CHECK: %[[STREAM:.*]] = call @tileRtHostStream()
  // CHECK: %[[TOKEN:.*]] = builtin.unrealized_conversion_cast %[[STREAM]] : !llvm.ptr to !gpu.async.token
  // CHECK: scf.if %[[OK]] {
  // CHECK: %[[NONEMPTY:.*]] = arith.cmpi sgt
  // CHECK: scf.if %[[NONEMPTY]] {
  // CHECK-NEXT: gpu.launch_func async [%[[TOKEN]]] @k_module::@k
  // CHECK: call @tileRtHostEnd(%[[STREAM]])
  // CHECK-NEXT: return
  // CHECK: func.func private @tileRtHostBegin(!llvm.ptr)
  // CHECK: func.func private @tileRtHostArgError(!llvm.ptr, !llvm.ptr)
  // CHECK: func.func private @tileRtHostFailed() -> i32
  // CHECK: func.func private @tileRtHostStream() -> !llvm.ptr
  // CHECK: func.func private @tileRtHostEnd(!llvm.ptr)

  // PLAIN-LABEL: func.func @gemm(
  // PLAIN-NOT: llvm.emit_c_interface
  // PLAIN-NOT: tileRt
  // PLAIN: scf.if
  // PLAIN-NEXT: gpu.launch_func @k_module::@k
  // PLAIN-NOT: tileRt
  func.func @gemm(%A: memref<?x?xf16> {tile.shape = ["M", "K"]},
                  %B: memref<?x?xf16> {tile.shape = ["K", "64"]}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %m = memref.dim %A, %c0 : memref<?x?xf16>
    gpu.launch_func @k_module::@k blocks in (%m, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%A : memref<?x?xf16>, %B : memref<?x?xf16>)
    return
  }
}

// -----

// A function that launches nothing gets no runtime calls; a private one no
// C interface. A static grid needs no emptiness test; a function with a
// result returns poison when a check fails.
module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @no_launch(
  // CHECK-SAME: attributes {llvm.emit_c_interface}
  // CHECK-NOT: tileRt
  // CHECK: return
  func.func @no_launch(%A: memref<4xf32>) {
    return
  }
  // CHECK-LABEL: func.func private @helper(
  // CHECK-NOT: llvm.emit_c_interface
  func.func private @helper() {
    return
  }
  // CHECK-LABEL: func.func @with_result(
  // CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i32) {
  // CHECK-NOT: scf.if
  // CHECK: gpu.launch_func async
  // CHECK: scf.yield %{{.*}} : i32
  // CHECK: } else {
  // CHECK: %[[P:.*]] = ub.poison : i32
  // CHECK: scf.yield %[[P]] : i32
  // CHECK: call @tileRtHostEnd
  // CHECK: return %[[R]] : i32
  func.func @with_result(%A: memref<8xf32>) -> i32 {
    %c1 = arith.constant 1 : index
    %r = arith.constant 7 : i32
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return %r : i32
  }
}
