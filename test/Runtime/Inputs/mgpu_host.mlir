// Host code of MLIR's GPU lowering, linked with libtile_cuda_runtime.so in
// place of upstream's libmlir_cuda_runtime.so by mgpu-lowered-host.c. The
// binaries are not GPU code: without a driver every call fails cleanly.

!desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, bin = "not a cubin">]
  gpu.binary @jit [#gpu.object<#nvvm.target, properties = {O = 3 : i32}, assembly = "// not PTX">]

  // A synchronous launch with 64 KiB of dynamic shared memory.
  func.func @launch(%n: index) {
    %c1 = arith.constant 1 : index
    %smem = arith.constant 65536 : i32
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem args(%n : index)
    return
  }

  // A cluster launch of the JIT module.
  func.func @cluster(%n: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @jit::@k clusters in (%c2, %c1, %c1) blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index)
    return
  }

  // Asynchronous copies, sets and frees over streams and events, host
  // registration and a TMA descriptor.
  func.func @memory(%n: index) {
    %device = arith.constant 0 : i32
    gpu.set_default_device %device
    %host = memref.alloc(%n) : memref<?xf32>
    %unranked = memref.cast %host : memref<?xf32> to memref<*xf32>
    gpu.host_register %unranked : memref<*xf32>
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %t01 = gpu.wait async [%t0, %t1]
    %buffer, %t2 = gpu.alloc async [%t01] (%n) : memref<?xf32>
    %t3 = gpu.memcpy async [%t2] %buffer, %host : memref<?xf32>, memref<?xf32>
    %zero = arith.constant 0.0 : f32
    %t4 = gpu.memset async [%t3] %buffer, %zero : memref<?xf32>, f32
    %t5 = gpu.dealloc async [%t4] %buffer : memref<?xf32>
    gpu.wait [%t5]
    gpu.host_unregister %unranked : memref<*xf32>
    memref.dealloc %host : memref<?xf32>

    %c64 = arith.constant 64 : index
    %tile = memref.alloc() : memref<64x128xf16>
    %tileUnranked = memref.cast %tile : memref<64x128xf16> to memref<*xf16>
    %d = nvgpu.tma.create.descriptor %tileUnranked box[%c64, %c64] : memref<*xf16> -> !desc
    memref.dealloc %tile : memref<64x128xf16>
    return
  }
}
