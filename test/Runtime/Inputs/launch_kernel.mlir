// A module shaped like the output of the tile pipeline before serialization:
// a gpu.module with an NVVM kernel `gemm_kernel` and its gpu.launch_func with
// a constant block size and dynamic shared memory size. extract-kernel.test
// serializes it with gpu-module-to-binary and extracts the result through
// tile-extract-kernel (tile-c/Compile.h).
module attributes {gpu.container_module} {
  gpu.module @gemm_kernel {
    llvm.func @gemm_kernel(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  func.func @gemm(%p: !llvm.ptr, %gx: index, %gy: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 24576 : i32
    gpu.launch_func @gemm_kernel::@gemm_kernel
        blocks in (%gx, %gy, %c1) threads in (%c128, %c1, %c1)
        dynamic_shared_memory_size %smem args(%p : !llvm.ptr)
    return
  }
}
