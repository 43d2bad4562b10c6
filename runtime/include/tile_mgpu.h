//===- tile_mgpu.h - The mgpu runtime ABI of MLIR's GPU lowering --*- C -*-===//
//
// MLIR's gpu-to-llvm conversion and the LLVM IR translation of gpu.binary and
// gpu.launch_func emit calls to these `mgpu*` functions, which upstream
// implements in mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp
// (libmlir_cuda_runtime.so). libtile_cuda_runtime.so implements the same ABI
// (names and argument types of LLVM 22, without the cuSPARSE functions) on
// the tile runtime's dlopen'ed driver:
//
//  - no CUDA is needed to build or link; without a driver or GPU every call
//    fails cleanly;
//  - errors are recorded as the thread's sticky error (tileRtGetError,
//    tile_runtime.h), never printed, and never abort;
//  - every call runs with the primary context of the thread's default device
//    (mgpuSetDefaultDevice, device 0 by default) current, and restores the
//    previous current context: the context tileRtInit and the CUDA runtime
//    (cuBLAS, ...) use;
//  - NULL handles are tolerated: destroying, freeing or unloading NULL does
//    nothing; any other use of a NULL module, function or event records an
//    error. A NULL stream is the legacy default stream.
//
// Handles are the driver's (CUmodule, CUfunction, CUstream, CUevent), declared
// here through cuda.h's struct tags so that this header and cuda.h can be
// included together.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_MGPU_H
#define TILE_MGPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUtensorMap_st;

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

/// Loads a cubin or fatbin (or PTX) image of `size` bytes. Returns NULL on
/// failure, which is also remembered for later uses of the NULL module.
struct CUmod_st *mgpuModuleLoad(void *data, size_t size);

/// JIT-compiles and loads NUL-terminated PTX at CU_JIT_OPTIMIZATION_LEVEL
/// `optLevel` (0-4); the JIT's error log ends up in the error message.
struct CUmod_st *mgpuModuleLoadJIT(void *data, int optLevel);

/// Unloads `module` (NULL is allowed).
void mgpuModuleUnload(struct CUmod_st *module);

/// The global a module defines (any type) when its kernels are launched as
/// programmatic dependents of the kernel before them in the stream: each
/// kernel starts with grid dependency control (`griddepcontrol.wait`: it
/// waits until the previous kernel has completed and its memory is
/// visible) and lets the next kernel launch when its blocks are done, so
/// mgpuLaunchKernel and
/// mgpuLaunchClusterKernel launch it with
/// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, and its launch
/// overlaps the end of the kernel before. tile-mlir's compiler defines it
/// for kernels with `tile.dependent_launch = true`.
#define TILE_MGPU_DEPENDENT_LAUNCH_SYMBOL "__tile_dependent_launch"

/// The kernel `name` of `module`, or NULL.
struct CUfunc_st *mgpuModuleGetFunction(struct CUmod_st *module,
                                        const char *name);

/// Launches `function` on `stream` with `smem` bytes of dynamic shared memory
/// (raising the kernel's limit when over 48 KiB). `params` holds one pointer
/// per kernel parameter (`paramsCount` of them), `extra` is cuLaunchKernel's.
void mgpuLaunchKernel(struct CUfunc_st *function, intptr_t gridX,
                      intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                      intptr_t blockY, intptr_t blockZ, int32_t smem,
                      struct CUstream_st *stream, void **params, void **extra,
                      size_t paramsCount);

/// Launches `function` with thread block clusters of clusterX x clusterY x
/// clusterZ blocks (cuLaunchKernelEx, CUDA 12 drivers and sm_90 devices),
/// spread over the SMs.
void mgpuLaunchClusterKernel(struct CUfunc_st *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, struct CUstream_st *stream,
                             void **params, void **extra);

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

/// A new non-blocking stream, or NULL.
struct CUstream_st *mgpuStreamCreate(void);
/// Destroys `stream` (NULL is allowed).
void mgpuStreamDestroy(struct CUstream_st *stream);
void mgpuStreamSynchronize(struct CUstream_st *stream);
void mgpuStreamWaitEvent(struct CUstream_st *stream, struct CUevent_st *event);

/// A new event without timing, or NULL.
struct CUevent_st *mgpuEventCreate(void);
/// Destroys `event` (NULL is allowed).
void mgpuEventDestroy(struct CUevent_st *event);
void mgpuEventSynchronize(struct CUevent_st *event);
void mgpuEventRecord(struct CUevent_st *event, struct CUstream_st *stream);

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Allocates `sizeBytes` of device memory (managed memory if
/// `isHostShared`); NULL for 0 bytes or on failure. `stream` is unused.
void *mgpuMemAlloc(uint64_t sizeBytes, struct CUstream_st *stream,
                   bool isHostShared);
/// Frees `ptr` (NULL is allowed); `stream` is unused.
void mgpuMemFree(void *ptr, struct CUstream_st *stream);
/// Copies `sizeBytes` between any two pointers (unified addressing),
/// asynchronously on `stream`.
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                struct CUstream_st *stream);
/// Sets `count` 32-bit (16-bit) words at `dst` to `value` on `stream`.
void mgpuMemset32(void *dst, unsigned int value, size_t count,
                  struct CUstream_st *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  struct CUstream_st *stream);

/// Page-locks host memory for the device (cuMemHostRegister).
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
void mgpuMemHostUnregister(void *ptr);
/// Same for the memory of a ranked memref: `descriptor` points to its
/// descriptor {allocated, aligned, offset, sizes[rank], strides[rank]}; the
/// bytes its elements span from aligned + offset are registered.
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes);

/// Sets the calling thread's device for the calls that follow.
void mgpuSetDefaultDevice(int32_t device);

//===----------------------------------------------------------------------===//
// TMA tensor maps (CUDA 12 drivers)
//===----------------------------------------------------------------------===//

/// cuTensorMapEncodeTiled: encodes the 128-byte tensor map at `tensorMap`
/// (host memory). The int arguments are cuda.h's CUtensorMap* enums.
void mgpuTensorMapEncodeTiled(struct CUtensorMap_st *tensorMap,
                              int tensorDataType, uint32_t tensorRank,
                              void *globalAddress, const uint64_t *globalDim,
                              const uint64_t *globalStrides,
                              const uint32_t *boxDim,
                              const uint32_t *elementStrides, int interleave,
                              int swizzle, int l2Promotion, int oobFill);

/// The tensor map of a ranked memref (`descriptor` as above, rank 1-5, the
/// innermost stride 1) with box `boxDims` (outermost first), as
/// nvgpu.tma.create.descriptor lowers to. Returns the address of the map in
/// device global memory, as kernels take it, or NULL on failure. Maps are
/// kept for the life of the process; equal maps share one copy.
void *mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *descriptor,
                                     int tensorDataType, int interleave,
                                     int swizzle, int l2Promotion, int oobFill,
                                     int64_t *boxDims);

#ifdef __cplusplus
}
#endif

#endif // TILE_MGPU_H
