//===- driver.h - CUDA driver access for the tile runtime ---------*- C -*-===//
//
// Internal header of the tile runtime (not installed). The CUDA driver API is
// reached through function pointers looked up with dlsym in libcuda.so.1:
// nothing here needs CUDA to build. The declarations below are the subset of
// cuda.h the runtime uses, with cuda.h's names and layouts (the ABI of the
// driver, stable across versions for the entry points used here);
// test/Runtime/driver-layout.c checks them against cuda.h where the toolkit
// is installed.
//
// Also declared here: the shared error helpers (status strings, the
// thread's sticky error of the mgpu ABI) and the primary-context scope the
// mgpu functions run in.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DRIVER_H
#define TILE_RUNTIME_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Internal functions and data: not exported from the shared library.
#define TILE_RT_HIDDEN __attribute__((visibility("hidden")))

//===----------------------------------------------------------------------===//
// CUDA driver API declarations (subset of cuda.h)
//===----------------------------------------------------------------------===//

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
};

// CUdevice_attribute
enum {
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

// CUfunction_attribute
enum {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
};

// CUjit_option
enum {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
};

enum { CU_EVENT_DEFAULT = 0, CU_EVENT_DISABLE_TIMING = 2 };
enum { CU_STREAM_NON_BLOCKING = 1 };
enum { CU_MEM_ATTACH_GLOBAL = 1 };

// CUlaunchAttributeID and CUclusterSchedulingPolicy
enum {
  CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
  CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
  CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6,
};
enum { CU_CLUSTER_SCHEDULING_POLICY_SPREAD = 1 };

typedef union CUlaunchAttributeValue_union {
  char pad[64];
  struct {
    unsigned x, y, z;
  } clusterDim;
  int clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
} CUlaunchAttributeValue;

typedef struct CUlaunchAttribute_st {
  int id; // CUlaunchAttributeID
  char pad[8 - sizeof(int)];
  CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig_st {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
} CUlaunchConfig;

/// The opaque 128-byte TMA descriptor (aligned to 128 bytes since CUDA 13).
typedef struct CUtensorMap_st {
  _Alignas(128) unsigned long long opaque[16];
} CUtensorMap;

/// A stream-ordered memory pool and its properties (cuda.h's layout).
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef struct CUmemPoolProps_st {
  int allocType;   // CU_MEM_ALLOCATION_TYPE_PINNED = 1
  int handleTypes; // CU_MEM_HANDLE_TYPE_NONE = 0
  struct {
    int type; // CU_MEM_LOCATION_TYPE_DEVICE = 1
    int id;
  } location;
  void *win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
} CUmemPoolProps;
_Static_assert(sizeof(CUmemPoolProps) == 88, "cuda.h's CUmemPoolProps");
enum {
  CU_MEM_ALLOCATION_TYPE_PINNED = 1,
  CU_MEM_LOCATION_TYPE_DEVICE = 1,
  CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4
};

/// The driver entry points every supported driver has, by symbol name. The
/// `_v2` names are those cuda.h maps the unversioned API names to (without
/// CUDA_API_PER_THREAD_DEFAULT_STREAM: the NULL stream is the legacy one).
#define TILE_RT_DRIVER_FUNCTIONS(X)                                            \
  X(cuInit, "cuInit", CUresult, (unsigned))                                    \
  X(cuDriverGetVersion, "cuDriverGetVersion", CUresult, (int *))               \
  X(cuGetErrorName, "cuGetErrorName", CUresult, (CUresult, const char **))     \
  X(cuGetErrorString, "cuGetErrorString", CUresult, (CUresult, const char **)) \
  X(cuDeviceGetCount, "cuDeviceGetCount", CUresult, (int *))                   \
  X(cuDeviceGet, "cuDeviceGet", CUresult, (CUdevice *, int))                   \
  X(cuDeviceGetName, "cuDeviceGetName", CUresult, (char *, int, CUdevice))     \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", CUresult,                    \
    (int *, int, CUdevice))                                                    \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult,            \
    (CUcontext *, CUdevice))                                                   \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", CUresult,       \
    (CUdevice))                                                                \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", CUresult, (CUcontext))                 \
  X(cuCtxGetCurrent, "cuCtxGetCurrent", CUresult, (CUcontext *))               \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", CUresult, (CUcontext))            \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", CUresult, (CUcontext *))            \
  X(cuCtxSynchronize, "cuCtxSynchronize", CUresult, (void))                    \
  X(cuMemGetInfo, "cuMemGetInfo_v2", CUresult, (size_t *, size_t *))           \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", CUresult,                        \
    (CUmodule *, const void *, unsigned, int *, void **))                      \
  X(cuModuleUnload, "cuModuleUnload", CUresult, (CUmodule))                    \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUresult,                      \
    (CUfunction *, CUmodule, const char *))                                    \
  X(cuModuleGetGlobal, "cuModuleGetGlobal_v2", CUresult,                       \
    (CUdeviceptr *, size_t *, CUmodule, const char *))                         \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", CUresult,                        \
    (int *, int, CUfunction))                                                  \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", CUresult,                        \
    (CUfunction, int, int))                                                    \
  X(cuLaunchKernel, "cuLaunchKernel", CUresult,                                \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
     unsigned, CUstream, void **, void **))                                    \
  X(cuStreamCreate, "cuStreamCreate", CUresult, (CUstream *, unsigned))        \
  X(cuStreamDestroy, "cuStreamDestroy_v2", CUresult, (CUstream))               \
  X(cuStreamSynchronize, "cuStreamSynchronize", CUresult, (CUstream))          \
  X(cuStreamWaitEvent, "cuStreamWaitEvent", CUresult,                          \
    (CUstream, CUevent, unsigned))                                             \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr *, size_t))            \
  X(cuMemAllocManaged, "cuMemAllocManaged", CUresult,                          \
    (CUdeviceptr *, size_t, unsigned))                                         \
  X(cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr))                        \
  X(cuMemAllocHost, "cuMemAllocHost_v2", CUresult, (void **, size_t))          \
  X(cuMemFreeHost, "cuMemFreeHost", CUresult, (void *))                        \
  X(cuMemHostRegister, "cuMemHostRegister_v2", CUresult,                       \
    (void *, size_t, unsigned))                                                \
  X(cuMemHostUnregister, "cuMemHostUnregister", CUresult, (void *))            \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", CUresult,                                 \
    (CUdeviceptr, const void *, size_t))                                       \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", CUresult, (void *, CUdeviceptr, size_t))  \
  X(cuMemcpyDtoD, "cuMemcpyDtoD_v2", CUresult,                                 \
    (CUdeviceptr, CUdeviceptr, size_t))                                        \
  X(cuMemcpyAsync, "cuMemcpyAsync", CUresult,                                  \
    (CUdeviceptr, CUdeviceptr, size_t, CUstream))                              \
  X(cuMemsetD8, "cuMemsetD8_v2", CUresult,                                     \
    (CUdeviceptr, unsigned char, size_t))                                      \
  X(cuMemsetD16, "cuMemsetD16_v2", CUresult,                                   \
    (CUdeviceptr, unsigned short, size_t))                                     \
  X(cuMemsetD32, "cuMemsetD32_v2", CUresult, (CUdeviceptr, unsigned, size_t))  \
  X(cuMemsetD16Async, "cuMemsetD16Async", CUresult,                            \
    (CUdeviceptr, unsigned short, size_t, CUstream))                           \
  X(cuMemsetD32Async, "cuMemsetD32Async", CUresult,                            \
    (CUdeviceptr, unsigned, size_t, CUstream))                                 \
  X(cuEventCreate, "cuEventCreate", CUresult, (CUevent *, unsigned))           \
  X(cuEventDestroy, "cuEventDestroy_v2", CUresult, (CUevent))                  \
  X(cuEventRecord, "cuEventRecord", CUresult, (CUevent, CUstream))             \
  X(cuEventSynchronize, "cuEventSynchronize", CUresult, (CUevent))

typedef struct TileDriver {
#define TILE_RT_DECLARE(field, symbol, ret, args) ret(*field) args;
  TILE_RT_DRIVER_FUNCTIONS(TILE_RT_DECLARE)
#undef TILE_RT_DECLARE
  // Entry points newer drivers add, NULL where missing.
  /// cuEventElapsedTime_v2 (CUDA >= 12.8) or cuEventElapsedTime (required).
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  /// CUDA >= 12.0.
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **,
                               void **);
  /// CUDA >= 12.0.
  CUresult (*cuTensorMapEncodeTiled)(CUtensorMap *, int, unsigned, void *,
                                     const uint64_t *, const uint64_t *,
                                     const unsigned *, const unsigned *, int,
                                     int, int, int);
  /// CUDA >= 12.3; only used to name kernels in error messages.
  CUresult (*cuFuncGetName)(const char **, CUfunction);
  /// CUDA >= 11.2: stream-ordered allocations from a pool of the runtime's
  /// (split-K workspaces).
  CUresult (*cuMemPoolCreate)(CUmemoryPool *, const CUmemPoolProps *);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void *);
  CUresult (*cuMemAllocFromPoolAsync)(CUdeviceptr *, size_t, CUmemoryPool,
                                      CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
} TileDriver;

/// The driver's functions; valid once tileDriverLoad() succeeded.
extern TILE_RT_HIDDEN TileDriver tileCu;

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/// Loads (once per process) libcuda.so.1, or $TILE_RT_LIBCUDA, looks up its
/// functions and calls cuInit. Returns TILE_RT_SUCCESS, or the status of the
/// failure, which tileDriverMessage() then describes ("libcuda.so.1 not found
/// (dlopen(...): ...); is the NVIDIA driver installed?", "cuInit (path):
/// CUDA_ERROR_...").
TILE_RT_HIDDEN int tileDriverLoad(void);
TILE_RT_HIDDEN const char *tileDriverMessage(void);
/// Whether tileDriverLoad() has succeeded, without loading anything.
TILE_RT_HIDDEN int tileDriverReady(void);

//===----------------------------------------------------------------------===//
// Shared driver helpers
//===----------------------------------------------------------------------===//

/// Whether `size` bytes at `data` are a cubin (ELF) or a fatbin rather than
/// PTX text.
TILE_RT_HIDDEN int tileIsBinaryImage(const void *data, size_t size);

/// Loads a module image of `size` bytes with cuModuleLoadDataEx: a cubin, a
/// fatbin or PTX (which need not be NUL-terminated). `optLevel` >= 0 sets
/// CU_JIT_OPTIMIZATION_LEVEL. The JIT error log, if any, is written to `log`
/// (NUL-terminated). Returns a CUresult, or TILE_RT_ERROR_OUT_OF_MEMORY.
TILE_RT_HIDDEN int tileLoadModuleImage(CUmodule *module, const void *image,
                                       size_t size, int optLevel, char *log,
                                       size_t logSize);

/// Makes sure `fn` may be launched with `bytes` of dynamic shared memory:
/// reads its CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (by default
/// 48 KiB minus its static shared memory) and raises it when lower. On
/// success `*limit` is the limit now in force; on failure `*failedCall`
/// names the driver function that failed (cuFuncGetAttribute or
/// cuFuncSetAttribute).
TILE_RT_HIDDEN CUresult tileAllowDynamicShared(CUfunction fn, unsigned bytes,
                                               unsigned *limit,
                                               const char **failedCall);

/// Whether `function` is a kernel of a module that defines
/// TILE_MGPU_DEPENDENT_LAUNCH_SYMBOL, as mgpuModuleGetFunction gave it out
/// (mgpu_module.c).
TILE_RT_HIDDEN int tileMgpuIsDependentLaunch(CUfunction function);

/// The kernel's name through cuFuncGetName where the driver has it, else
/// NULL.
TILE_RT_HIDDEN const char *tileKernelName(CUfunction fn);

//===----------------------------------------------------------------------===//
// The thread's sticky error (tileRtGetError)
//===----------------------------------------------------------------------===//

enum { kTileMessageSize = 4096 };

/// Records `status` as the thread's error with the message
/// "<host function>: <formatted>: <tileRtErrorString(status)>", unless an
/// error is recorded already (the first error wins). The host-function prefix
/// is there between tileRtHostBegin and tileRtHostEnd.
TILE_RT_HIDDEN void tileRecordError(int status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/// Same, without appending the status string.
TILE_RT_HIDDEN void tileRecordErrorMessage(int status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/// The message of the last failure recorded on this thread by the two
/// functions above, whether it became the thread's error or not, without the
/// host-function prefix, and its status.
TILE_RT_HIDDEN const char *tileLastFailure(int *status);

//===----------------------------------------------------------------------===//
// The primary-context scope of the mgpu functions (host.c)
//===----------------------------------------------------------------------===//

/// Device ordinals the mgpu functions support: [0, kTileMaxDevices).
enum { kTileMaxDevices = 64 };

/// The descriptor of a ranked memref as the mgpu functions receive it (a
/// pointer to the ranked descriptor of an unranked memref): sizes in
/// shape[0, rank), strides in shape[rank, 2 * rank), in elements.
typedef struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t shape[];
} MemRefDescriptor;

/// The context state of one mgpu call: the primary context of the thread's
/// default device is made current for the call, and the previous one
/// restored after it (like upstream's ScopedContext).
typedef struct TileScope {
  CUcontext context;
  int pushed;
} TileScope;

/// Loads the driver and makes the primary context of the thread's default
/// device (mgpuSetDefaultDevice) current. Returns 0 on success; else records
/// the error for `api` (the mgpu function) and returns nonzero.
TILE_RT_HIDDEN int tileScopeEnter(TileScope *scope, const char *api);
/// Restores the context that was current before tileScopeEnter().
TILE_RT_HIDDEN void tileScopeExit(TileScope *scope);
/// The thread's default device.
TILE_RT_HIDDEN int tileDefaultDevice(void);
/// The runtime's stream-ordered memory pool of the thread's default device
/// (created on first use, kept for the life of the process, holding on to
/// what it has allocated), or NULL where the driver has no pools. Call in a
/// scope (tileScopeEnter).
TILE_RT_HIDDEN CUmemoryPool tileWorkspacePool(void);
/// Ends the error prefix of a compiled host call (driver.c; tileRtHostEnd).
TILE_RT_HIDDEN void tileHostCallEnded(void);
/// Whether the thread is in a compiled host call (tileRtHostBegin ran, its
/// tileRtHostEnd has not).
TILE_RT_HIDDEN int tileInHostCall(void);

/// Records the error of using a NULL module or function in `what` (e.g.
/// "mgpuLaunchKernel"), with the reason of the first failed module load if
/// there was one (mgpu_module.c).
TILE_RT_HIDDEN void tileRecordNullHandle(const char *what, const char *handle);

#endif // TILE_RUNTIME_DRIVER_H
