// The tile runtime provides upstream's mgpu ABI, so the stock mlir-runner
// runs a module compiled by tile-to-nvvm with it as its shared library: a
// main (below) is appended to examples/gemm.mlir, compiled, and run. No GPU
// here (TILE_RT_LIBCUDA points nowhere, also on a GPU machine): the first
// runtime call, making the tensor maps of the TMA kernel (the allocations
// are aligned), reports it, and main prints
// the runtime's error message instead of the process aborting. With
// host-runtime=false the host code is upstream's own (mgpuStreamCreate,
// mgpuLaunchKernel, mgpuStreamSynchronize, ...).

// REQUIRES: mlir-runner
// RUN: cat %examples/gemm.mlir %s > %t.mlir
// RUN: tile-opt %t.mlir --tile-to-nvvm="format=isa" -o %t.llvm.mlir
// RUN: env TILE_RT_LIBCUDA=/nonexistent %mlir_runner %t.llvm.mlir -e main --entry-point-result=void --shared-libs=%tile_cuda_runtime | FileCheck %s
// RUN: tile-opt %t.mlir --tile-to-nvvm="format=isa host-runtime=false" -o %t.upstream.mlir
// RUN: env TILE_RT_LIBCUDA=/nonexistent %mlir_runner %t.upstream.mlir -e main --entry-point-result=void --shared-libs=%tile_cuda_runtime | FileCheck %s --check-prefix=UPSTREAM

// CHECK: gemm: mgpuTensorMapEncodeTiledMemref: libcuda.so.1 not found (dlopen("/nonexistent"){{.*}}
// CHECK-NEXT: main done
// UPSTREAM: mgpuTensorMapEncodeTiledMemref: libcuda.so.1 not found (dlopen("/nonexistent"){{.*}}
// UPSTREAM-NEXT: main done

func.func private @tileRtGetErrorMessage() -> !llvm.ptr
func.func private @puts(!llvm.ptr) -> i32

func.func @main() {
  %a = memref.alloc() : memref<64x32xf16>
  %b = memref.alloc() : memref<32x48xf16>
  %c = memref.alloc() : memref<64x48xf16>
  %A = memref.cast %a : memref<64x32xf16> to memref<?x?xf16>
  %B = memref.cast %b : memref<32x48xf16> to memref<?x?xf16>
  %C = memref.cast %c : memref<64x48xf16> to memref<?x?xf16>
  call @gemm(%A, %B, %C) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>) -> ()
  %message = call @tileRtGetErrorMessage() : () -> !llvm.ptr
  %0 = call @puts(%message) : (!llvm.ptr) -> i32
  %done = llvm.mlir.addressof @done : !llvm.ptr
  %1 = call @puts(%done) : (!llvm.ptr) -> i32
  memref.dealloc %a : memref<64x32xf16>
  memref.dealloc %b : memref<32x48xf16>
  memref.dealloc %c : memref<64x48xf16>
  return
}
llvm.mlir.global internal constant @done("main done\00") {addr_space = 0 : i32}
