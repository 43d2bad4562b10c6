//===- mgpu.c - The mgpu runtime ABI of MLIR's GPU lowering -------*- C -*-===//
//
// Launches, streams, events and memory of tile_mgpu.h (modules are in
// mgpu_module.c). Each function
// runs in a TileScope (the primary context of the thread's default device),
// checks its handles and records failures as the thread's sticky error. The
// argument types are those LLVM 22's gpu-to-llvm and gpu.binary translation
// declare (i64 for index, i32 shared memory bytes, ...).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "driver.h"
#include "mgpu_hip.h"
#include "tile_mgpu.h"
#include "tile_runtime.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

/// Checks that the `count` dimensions are in [0, UINT_MAX] (the driver
/// rejects 0 itself) and converts them; records an error naming `what`.
static int toDims(const char *api, const char *what, const intptr_t *values,
                  unsigned *dims, int count) {
  for (int i = 0; i < count; ++i) {
    if (values[i] < 0 || (uintmax_t)values[i] > UINT_MAX) {
      tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "%s: %s dimension %d is %lld", api, what, i,
                      (long long)values[i]);
      return 1;
    }
    dims[i] = (unsigned)values[i];
  }
  return 0;
}

/// How error messages name a kernel: "'name'" where the driver names
/// kernels, else the handle. Only computed on errors.
typedef struct KernelLabel {
  char text[256];
} KernelLabel;

static KernelLabel kernelLabel(CUfunction function) {
  KernelLabel label;
  const char *name = tileKernelName(function);
  if (name)
    snprintf(label.text, sizeof(label.text), "'%s'", name);
  else
    snprintf(label.text, sizeof(label.text), "kernel %p", (void *)function);
  return label;
}

/// The common checks of both launches; fills `grid` and `block`.
/// Returns 0 when the launch may go on (in `scope`).
static int prepareLaunch(const char *api, CUfunction function,
                         const intptr_t gridValues[3],
                         const intptr_t blockValues[3], int32_t smem,
                         unsigned grid[3], unsigned block[3],
                         TileScope *scope) {
  if (!function) {
    tileRecordNullHandle(api, "function");
    return 1;
  }
  if (toDims(api, "grid", gridValues, grid, 3) ||
      toDims(api, "block", blockValues, block, 3))
    return 1;
  // An empty grid has nothing to run (the driver would fail the launch):
  // nothing is launched, no error, no driver needed.
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return 1;
  if (smem < 0) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: %d bytes of dynamic shared memory", api, (int)smem);
    return 1;
  }
  if (tileScopeEnter(scope, api))
    return 1;
  if (smem > 0) {
    unsigned limit = 0;
    const char *failedCall = "";
    CUresult result =
        tileAllowDynamicShared(function, (unsigned)smem, &limit, &failedCall);
    if (result != CUDA_SUCCESS) {
      tileRecordError(result, "%s: %s(%s, MAX_DYNAMIC_SHARED_SIZE_BYTES, %d)",
                      api, failedCall, kernelLabel(function).text, (int)smem);
      tileScopeExit(scope);
      return 1;
    }
  }
  return 0;
}

/// cuLaunchKernelEx's configuration of a launch, without attributes.
static CUlaunchConfig launchConfig(const unsigned grid[3],
                                   const unsigned block[3], int32_t smem,
                                   CUstream stream) {
  CUlaunchConfig config;
  memset(&config, 0, sizeof(config));
  config.gridDimX = grid[0];
  config.gridDimY = grid[1];
  config.gridDimZ = grid[2];
  config.blockDimX = block[0];
  config.blockDimY = block[1];
  config.blockDimZ = block[2];
  config.sharedMemBytes = (unsigned)smem;
  config.hStream = stream;
  return config;
}

void mgpuLaunchKernel(struct CUfunc_st *function, intptr_t gridX,
                      intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                      intptr_t blockY, intptr_t blockZ, int32_t smem,
                      struct CUstream_st *stream, void **params, void **extra,
                      size_t paramsCount) {
  const char *api = "mgpuLaunchKernel";
  if (!function) {
    tileRecordNullHandle(api, "function");
    return;
  }
  if (paramsCount > 0 && !params && !extra) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: NULL params for %zu parameters", api, paramsCount);
    return;
  }
  const intptr_t gridValues[3] = {gridX, gridY, gridZ};
  const intptr_t blockValues[3] = {blockX, blockY, blockZ};
  unsigned grid[3], block[3];
  // A kernel of an AMD code object (mgpu_hip.c): HIP's default stream.
  if (tileMgpuIsHipFunction(function)) {
    if (toDims(api, "grid", gridValues, grid, 3) ||
        toDims(api, "block", blockValues, block, 3) || grid[0] == 0 ||
        grid[1] == 0 || grid[2] == 0)
      return;
    if (smem < 0) {
      tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "%s: %d bytes of dynamic shared memory", api, (int)smem);
      return;
    }
    tileMgpuHipLaunch(function, grid, block, (unsigned)smem, params, api);
    return;
  }
  TileScope scope;
  if (prepareLaunch(api, function, gridValues, blockValues, smem, grid, block,
                    &scope))
    return;
  // A programmatic dependent where the driver can launch one (without
  // cuLaunchKernelEx the plain launch is just as correct).
  if (tileCu.cuLaunchKernelEx && tileMgpuIsDependentLaunch(function)) {
    CUlaunchAttribute attribute;
    memset(&attribute, 0, sizeof(attribute));
    attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config = launchConfig(grid, block, smem, stream);
    config.attrs = &attribute;
    config.numAttrs = 1;
    CUresult result = tileCu.cuLaunchKernelEx(&config, function, params, extra);
    if (result != CUDA_SUCCESS)
      tileRecordError(result,
                      "%s: cuLaunchKernelEx(%s, programmatic dependent, grid "
                      "(%u, %u, %u), block (%u, %u, %u), %d bytes of dynamic "
                      "shared memory)",
                      api, kernelLabel(function).text, grid[0], grid[1],
                      grid[2], block[0], block[1], block[2], (int)smem);
    tileScopeExit(&scope);
    return;
  }
  CUresult result = tileCu.cuLaunchKernel(
      function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
      (unsigned)smem, stream, params, extra);
  if (result != CUDA_SUCCESS)
    tileRecordError(result,
                    "%s: cuLaunchKernel(%s, grid (%u, %u, %u), block (%u, %u, "
                    "%u), %d bytes of dynamic shared memory)",
                    api, kernelLabel(function).text, grid[0], grid[1], grid[2],
                    block[0], block[1], block[2], (int)smem);
  tileScopeExit(&scope);
}

void mgpuLaunchClusterKernel(struct CUfunc_st *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, struct CUstream_st *stream,
                             void **params, void **extra) {
  const char *api = "mgpuLaunchClusterKernel";
  const intptr_t clusterValues[3] = {clusterX, clusterY, clusterZ};
  const intptr_t gridValues[3] = {gridX, gridY, gridZ};
  const intptr_t blockValues[3] = {blockX, blockY, blockZ};
  unsigned cluster[3], grid[3], block[3];
  TileScope scope;
  if (function && toDims(api, "cluster", clusterValues, cluster, 3))
    return;
  if (prepareLaunch(api, function, gridValues, blockValues, smem, grid, block,
                    &scope))
    return;
  if (!tileCu.cuLaunchKernelEx) {
    tileRecordErrorMessage(TILE_RT_ERROR_DRIVER_SYMBOL,
                           "%s: the CUDA driver has no cuLaunchKernelEx (CUDA "
                           "12.0 or newer is needed for clusters): %s",
                           api, tileRtErrorString(TILE_RT_ERROR_DRIVER_SYMBOL));
    tileScopeExit(&scope);
    return;
  }
  // Clusters of more than 8 blocks need the kernel's opt-in.
  if ((uint64_t)cluster[0] * cluster[1] * cluster[2] > 8) {
    CUresult result = tileCu.cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    if (result != CUDA_SUCCESS) {
      tileRecordError(result,
                      "%s: cuFuncSetAttribute(%s, "
                      "NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)",
                      api, kernelLabel(function).text);
      tileScopeExit(&scope);
      return;
    }
  }
  CUlaunchAttribute attributes[3];
  memset(attributes, 0, sizeof(attributes));
  attributes[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attributes[0].value.clusterDim.x = cluster[0];
  attributes[0].value.clusterDim.y = cluster[1];
  attributes[0].value.clusterDim.z = cluster[2];
  attributes[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE;
  attributes[1].value.clusterSchedulingPolicyPreference =
      CU_CLUSTER_SCHEDULING_POLICY_SPREAD;
  unsigned numAttributes = 2;
  if (tileMgpuIsDependentLaunch(function)) {
    attributes[2].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attributes[2].value.programmaticStreamSerializationAllowed = 1;
    numAttributes = 3;
  }
  CUlaunchConfig config = launchConfig(grid, block, smem, stream);
  config.attrs = attributes;
  config.numAttrs = numAttributes;
  CUresult result = tileCu.cuLaunchKernelEx(&config, function, params, extra);
  if (result != CUDA_SUCCESS)
    tileRecordError(result,
                    "%s: cuLaunchKernelEx(%s, cluster (%u, %u, %u), grid (%u, "
                    "%u, %u), block (%u, %u, %u), %d bytes of dynamic shared "
                    "memory)",
                    api, kernelLabel(function).text, cluster[0], cluster[1],
                    cluster[2], grid[0], grid[1], grid[2], block[0], block[1],
                    block[2], (int)smem);
  tileScopeExit(&scope);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

/// Runs `call` (a CUresult expression) in the scope of `api`, recording a
/// failure as "<api>: <callText>".
#define TILE_MGPU_CALL(api, call, ...)                                         \
  do {                                                                         \
    TileScope mgpuScope;                                                       \
    if (tileScopeEnter(&mgpuScope, (api)) == 0) {                              \
      CUresult mgpuResult = (call);                                            \
      if (mgpuResult != CUDA_SUCCESS)                                          \
        tileRecordError(mgpuResult, __VA_ARGS__);                              \
      tileScopeExit(&mgpuScope);                                               \
    }                                                                          \
  } while (0)

struct CUstream_st *mgpuStreamCreate(void) {
  CUstream stream = NULL;
  TILE_MGPU_CALL("mgpuStreamCreate",
                 tileCu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                 "mgpuStreamCreate: cuStreamCreate(CU_STREAM_NON_BLOCKING)");
  return stream;
}

void mgpuStreamDestroy(struct CUstream_st *stream) {
  if (stream)
    TILE_MGPU_CALL("mgpuStreamDestroy", tileCu.cuStreamDestroy(stream),
                   "mgpuStreamDestroy: cuStreamDestroy");
}

void mgpuStreamSynchronize(struct CUstream_st *stream) {
  TILE_MGPU_CALL("mgpuStreamSynchronize", tileCu.cuStreamSynchronize(stream),
                 "mgpuStreamSynchronize: cuStreamSynchronize");
}

void mgpuStreamWaitEvent(struct CUstream_st *stream, struct CUevent_st *event) {
  if (!event)
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "mgpuStreamWaitEvent: NULL event");
  else
    TILE_MGPU_CALL("mgpuStreamWaitEvent",
                   tileCu.cuStreamWaitEvent(stream, event, 0),
                   "mgpuStreamWaitEvent: cuStreamWaitEvent");
}

struct CUevent_st *mgpuEventCreate(void) {
  CUevent event = NULL;
  TILE_MGPU_CALL("mgpuEventCreate",
                 tileCu.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
                 "mgpuEventCreate: cuEventCreate(CU_EVENT_DISABLE_TIMING)");
  return event;
}

void mgpuEventDestroy(struct CUevent_st *event) {
  if (event)
    TILE_MGPU_CALL("mgpuEventDestroy", tileCu.cuEventDestroy(event),
                   "mgpuEventDestroy: cuEventDestroy");
}

void mgpuEventSynchronize(struct CUevent_st *event) {
  if (!event)
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "mgpuEventSynchronize: NULL event");
  else
    TILE_MGPU_CALL("mgpuEventSynchronize", tileCu.cuEventSynchronize(event),
                   "mgpuEventSynchronize: cuEventSynchronize");
}

void mgpuEventRecord(struct CUevent_st *event, struct CUstream_st *stream) {
  if (!event)
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "mgpuEventRecord: NULL event");
  else
    TILE_MGPU_CALL("mgpuEventRecord", tileCu.cuEventRecord(event, stream),
                   "mgpuEventRecord: cuEventRecord");
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static CUdeviceptr devicePointer(const void *ptr) {
  return (CUdeviceptr)(uintptr_t)ptr;
}

/// The live allocations of the runtime's pool (a compiled call holds one
/// workspace at a time; a few threads or streams may overlap): freed in
/// stream order, everything else through cuMemFree.
enum { kMaxPoolAllocations = 256 };
static CUdeviceptr poolAllocations[kMaxPoolAllocations];
static pthread_mutex_t poolAllocationsLock = PTHREAD_MUTEX_INITIALIZER;

/// Records `ptr` as the pool's; false if the table is full.
static bool recordPoolAllocation(CUdeviceptr ptr) {
  bool recorded = false;
  pthread_mutex_lock(&poolAllocationsLock);
  for (int i = 0; i < kMaxPoolAllocations && !recorded; ++i)
    if (!poolAllocations[i]) {
      poolAllocations[i] = ptr;
      recorded = true;
    }
  pthread_mutex_unlock(&poolAllocationsLock);
  return recorded;
}

/// Whether `ptr` was the pool's (it no longer is).
static bool releasePoolAllocation(CUdeviceptr ptr) {
  bool found = false;
  pthread_mutex_lock(&poolAllocationsLock);
  for (int i = 0; i < kMaxPoolAllocations && !found; ++i)
    if (poolAllocations[i] == ptr) {
      poolAllocations[i] = 0;
      found = true;
    }
  pthread_mutex_unlock(&poolAllocationsLock);
  return found;
}

/// Device memory. In a compiled host call it comes from the runtime's pool,
/// ordered with the work of the call's stream (the runtime's current one,
/// NULL for the legacy default stream), and is freed the same way: the call
/// allocates its workspace between launches without synchronizing, and the
/// pool keeps the memory for the next call. Otherwise (upstream's `gpu.alloc`
/// callers, synchronous host code), and when too many pool allocations are
/// live, it is plain cuMemAlloc. Called once the driver is loaded.
static CUresult allocateDevice(CUdeviceptr *ptr, size_t size, CUstream stream,
                               bool isHostShared) {
  if (isHostShared)
    return tileCu.cuMemAllocManaged(ptr, size, CU_MEM_ATTACH_GLOBAL);
  CUmemoryPool pool = tileInHostCall() ? tileWorkspacePool() : NULL;
  if (pool) {
    CUresult result = tileCu.cuMemAllocFromPoolAsync(ptr, size, pool, stream);
    if (result != CUDA_SUCCESS || recordPoolAllocation(*ptr))
      return result;
    // No room to remember it: give it back, allocate it plainly.
    (void)tileCu.cuMemFreeAsync(*ptr, stream);
    *ptr = 0;
  }
  return tileCu.cuMemAlloc(ptr, size);
}

static CUresult freeDevice(CUdeviceptr ptr, CUstream stream) {
  if (releasePoolAllocation(ptr))
    return tileCu.cuMemFreeAsync(ptr, stream);
  return tileCu.cuMemFree(ptr);
}

void *mgpuMemAlloc(uint64_t sizeBytes, struct CUstream_st *stream,
                   bool isHostShared) {
  CUdeviceptr ptr = 0;
  if (sizeBytes == 0)
    return NULL;
  TILE_MGPU_CALL("mgpuMemAlloc",
                 allocateDevice(&ptr, (size_t)sizeBytes, stream, isHostShared),
                 "mgpuMemAlloc: %s(%llu bytes)",
                 isHostShared ? "cuMemAllocManaged" : "cuMemAlloc",
                 (unsigned long long)sizeBytes);
  return (void *)(uintptr_t)ptr;
}

void mgpuMemFree(void *ptr, struct CUstream_st *stream) {
  if (ptr)
    TILE_MGPU_CALL("mgpuMemFree", freeDevice(devicePointer(ptr), stream),
                   "mgpuMemFree: cuMemFree(%p)", ptr);
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                struct CUstream_st *stream) {
  if (sizeBytes == 0)
    return;
  if (!dst || !src)
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "mgpuMemcpy: NULL %s (%zu bytes)",
                    dst ? "source" : "destination", sizeBytes);
  else
    TILE_MGPU_CALL("mgpuMemcpy",
                   tileCu.cuMemcpyAsync(devicePointer(dst), devicePointer(src),
                                        sizeBytes, stream),
                   "mgpuMemcpy: cuMemcpyAsync(%p <- %p, %zu bytes)", dst, src,
                   sizeBytes);
}

void mgpuMemset32(void *dst, unsigned int value, size_t count,
                  struct CUstream_st *stream) {
  if (count == 0)
    return;
  if (!dst)
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "mgpuMemset32: NULL destination (%zu words)", count);
  else
    TILE_MGPU_CALL(
        "mgpuMemset32",
        tileCu.cuMemsetD32Async(devicePointer(dst), value, count, stream),
        "mgpuMemset32: cuMemsetD32Async(%p, %zu words)", dst, count);
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  struct CUstream_st *stream) {
  if (count == 0)
    return;
  if (!dst)
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "mgpuMemset16: NULL destination (%zu words)", count);
  else
    TILE_MGPU_CALL(
        "mgpuMemset16",
        tileCu.cuMemsetD16Async(devicePointer(dst), value, count, stream),
        "mgpuMemset16: cuMemsetD16Async(%p, %zu words)", dst, count);
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (!ptr || sizeBytes == 0)
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "mgpuMemHostRegister: empty range (%p, %llu bytes)", ptr,
                    (unsigned long long)sizeBytes);
  else
    TILE_MGPU_CALL("mgpuMemHostRegister",
                   tileCu.cuMemHostRegister(ptr, (size_t)sizeBytes, 0),
                   "mgpuMemHostRegister: cuMemHostRegister(%p, %llu bytes)",
                   ptr, (unsigned long long)sizeBytes);
}

void mgpuMemHostUnregister(void *ptr) {
  if (!ptr)
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "mgpuMemHostUnregister: NULL pointer");
  else
    TILE_MGPU_CALL("mgpuMemHostUnregister", tileCu.cuMemHostUnregister(ptr),
                   "mgpuMemHostUnregister: cuMemHostUnregister(%p)", ptr);
}

/// The first byte and the number of bytes the elements of a memref span.
/// Returns 0 on success (`*bytes` is 0 for an empty memref), else records an
/// error for `api`.
static int memRefSpan(const char *api, int64_t rank, void *descriptor,
                      int64_t elementSize, char **first, uint64_t *bytes) {
  const MemRefDescriptor *memref = descriptor;
  if (!memref || rank < 0 || elementSize <= 0) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                    "%s: %s descriptor, rank %lld, %lld-byte elements", api,
                    memref ? "a" : "NULL", (long long)rank,
                    (long long)elementSize);
    return 1;
  }
  uint64_t lastElement = 0;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = memref->shape[i], stride = memref->shape[rank + i];
    if (size < 0 || stride < 0) {
      tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT,
                      "%s: dimension %lld has size %lld and stride %lld "
                      "(negative values are not supported)",
                      api, (long long)i, (long long)size, (long long)stride);
      return 1;
    }
    if (size == 0) {
      *first = memref->aligned + memref->offset * elementSize;
      *bytes = 0;
      return 0;
    }
    lastElement += (uint64_t)(size - 1) * (uint64_t)stride;
  }
  *first = memref->aligned + memref->offset * elementSize;
  *bytes = (lastElement + 1) * (uint64_t)elementSize;
  return 0;
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  char *first = NULL;
  uint64_t bytes = 0;
  if (memRefSpan("mgpuMemHostRegisterMemRef", rank, descriptor,
                 elementSizeBytes, &first, &bytes) == 0 &&
      bytes > 0)
    TILE_MGPU_CALL("mgpuMemHostRegisterMemRef",
                   tileCu.cuMemHostRegister(first, (size_t)bytes, 0),
                   "mgpuMemHostRegisterMemRef: cuMemHostRegister(%p, %llu "
                   "bytes)",
                   (void *)first, (unsigned long long)bytes);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  char *first = NULL;
  uint64_t bytes = 0;
  if (memRefSpan("mgpuMemHostUnregisterMemRef", rank, descriptor,
                 elementSizeBytes, &first, &bytes) == 0 &&
      bytes > 0)
    TILE_MGPU_CALL(
        "mgpuMemHostUnregisterMemRef", tileCu.cuMemHostUnregister(first),
        "mgpuMemHostUnregisterMemRef: cuMemHostUnregister(%p)", (void *)first);
}
