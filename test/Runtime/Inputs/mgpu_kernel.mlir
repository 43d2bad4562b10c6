// A kernel and its host function for mgpu-lowered-gpu.c: run(out, blocks)
// fills out[i] = 3 * i over `blocks` blocks of 128 threads, launched with
// 96 KiB of dynamic shared memory (over the 48 KiB default limit).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%out: memref<?xi32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = arith.index_cast %i : index to i32
      %three = arith.constant 3 : i32
      %w = arith.muli %v, %three : i32
      memref.store %w, %out[%i] : memref<?xi32>
      gpu.return
    }
  }
  func.func @run(%out: memref<?xi32>, %blocks: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 98304 : i32
    gpu.launch_func @kernels::@fill blocks in (%blocks, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %smem args(%out : memref<?xi32>)
    return
  }
}
