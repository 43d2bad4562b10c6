//===- tile_runtime.c - CUDA runtime for tile-mlir kernels --------*- C -*-===//
//
// Implementation of tile_runtime.h. The CUDA driver API is reached through
// function pointers looked up with dlsym in libcuda.so.1, declared below with
// the few driver types they need (the ABI of the CUDA driver API, which is
// stable across versions for the versioned entry points used here).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "tile_runtime.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
};

// CUjit_option
enum {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

enum { CU_EVENT_DEFAULT = 0 };

/// The driver entry points, by symbol name. The `_v2` names are those cuda.h
/// maps the unversioned API names to.
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
  X(cuCtxSynchronize, "cuCtxSynchronize", CUresult, (void))                    \
  X(cuMemGetInfo, "cuMemGetInfo_v2", CUresult, (size_t *, size_t *))           \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", CUresult,                        \
    (CUmodule *, const void *, unsigned, int *, void **))                      \
  X(cuModuleUnload, "cuModuleUnload", CUresult, (CUmodule))                    \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUresult,                      \
    (CUfunction *, CUmodule, const char *))                                    \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", CUresult,                        \
    (int *, int, CUfunction))                                                  \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", CUresult,                        \
    (CUfunction, int, int))                                                    \
  X(cuLaunchKernel, "cuLaunchKernel", CUresult,                                \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
     unsigned, CUstream, void **, void **))                                    \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr *, size_t))            \
  X(cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr))                        \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", CUresult,                                 \
    (CUdeviceptr, const void *, size_t))                                       \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", CUresult, (void *, CUdeviceptr, size_t))  \
  X(cuMemcpyDtoD, "cuMemcpyDtoD_v2", CUresult,                                 \
    (CUdeviceptr, CUdeviceptr, size_t))                                        \
  X(cuMemsetD8, "cuMemsetD8_v2", CUresult,                                     \
    (CUdeviceptr, unsigned char, size_t))                                      \
  X(cuMemsetD16, "cuMemsetD16_v2", CUresult,                                   \
    (CUdeviceptr, unsigned short, size_t))                                     \
  X(cuMemsetD32, "cuMemsetD32_v2", CUresult, (CUdeviceptr, unsigned, size_t))  \
  X(cuEventCreate, "cuEventCreate", CUresult, (CUevent *, unsigned))           \
  X(cuEventDestroy, "cuEventDestroy_v2", CUresult, (CUevent))                  \
  X(cuEventRecord, "cuEventRecord", CUresult, (CUevent, CUstream))             \
  X(cuEventSynchronize, "cuEventSynchronize", CUresult, (CUevent))

typedef CUresult (*CuEventElapsedTimeFn)(float *, CUevent, CUevent);

static struct {
#define TILE_RT_DECLARE(field, symbol, ret, args) ret(*field) args;
  TILE_RT_DRIVER_FUNCTIONS(TILE_RT_DECLARE)
#undef TILE_RT_DECLARE
  /// cuEventElapsedTime_v2 (CUDA >= 12.8) or cuEventElapsedTime.
  CuEventElapsedTimeFn cuEventElapsedTime;
} cu;

/// Result of loading and initializing the driver, set once per process.
static pthread_once_t driverOnce = PTHREAD_ONCE_INIT;
static int driverStatus = TILE_RT_ERROR_DRIVER_NOT_FOUND;
static char driverMessage[512];
static int driverLoaded; // cu.cuGetError* usable

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

enum { kMessageSize = 4096 };

struct TileRtContext {
  CUdevice device;
  CUcontext context;
  struct TileRtModule *modules; // loaded modules (linked list)
  char error[kMessageSize];
};

struct TileRtFunction {
  struct TileRtModule *module;
  CUfunction function;
  char *name;
  unsigned maxDynamicShared; // known dynamic shared memory limit (0: unknown)
  struct TileRtFunction *next;
};

struct TileRtModule {
  TileRtContext *ctx;
  CUmodule module;
  struct TileRtFunction *functions;
  struct TileRtModule *next;
};

struct TileRtEvent {
  CUevent event;
};

/// Message of the last failed call without a context, per thread.
static _Thread_local char threadError[kMessageSize];

static char *errorBuffer(TileRtContext *ctx) {
  return ctx ? ctx->error : threadError;
}

/// Built-in names of common driver errors, used when the driver cannot name
/// them (not loaded, or a stub library).
static const char *builtinCudaErrorName(int status) {
  switch (status) {
  case 1:
    return "CUDA_ERROR_INVALID_VALUE";
  case 2:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case 4:
    return "CUDA_ERROR_DEINITIALIZED";
  case 34:
    return "CUDA_ERROR_STUB_LIBRARY";
  case 35:
    return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 100:
    return "CUDA_ERROR_NO_DEVICE";
  case 101:
    return "CUDA_ERROR_INVALID_DEVICE";
  case 200:
    return "CUDA_ERROR_INVALID_IMAGE";
  case 201:
    return "CUDA_ERROR_INVALID_CONTEXT";
  case 209:
    return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case 218:
    return "CUDA_ERROR_INVALID_PTX";
  case 222:
    return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
  case 300:
    return "CUDA_ERROR_INVALID_SOURCE";
  case 301:
    return "CUDA_ERROR_FILE_NOT_FOUND";
  case 400:
    return "CUDA_ERROR_INVALID_HANDLE";
  case 500:
    return "CUDA_ERROR_NOT_FOUND";
  case 600:
    return "CUDA_ERROR_NOT_READY";
  case 700:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case 701:
    return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  case 702:
    return "CUDA_ERROR_LAUNCH_TIMEOUT";
  case 715:
    return "CUDA_ERROR_ILLEGAL_INSTRUCTION";
  case 716:
    return "CUDA_ERROR_MISALIGNED_ADDRESS";
  case 719:
    return "CUDA_ERROR_LAUNCH_FAILED";
  case 803:
    return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
  case 804:
    return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
  case 999:
    return "CUDA_ERROR_UNKNOWN";
  default:
    return NULL;
  }
}

const char *tileRtErrorString(int status) {
  switch (status) {
  case TILE_RT_SUCCESS:
    return "success";
  case TILE_RT_ERROR_DRIVER_NOT_FOUND:
    return "libcuda.so.1 not found";
  case TILE_RT_ERROR_DRIVER_SYMBOL:
    return "CUDA driver function not found in libcuda.so.1";
  case TILE_RT_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case TILE_RT_ERROR_IO:
    return "file I/O error";
  case TILE_RT_ERROR_OUT_OF_MEMORY:
    return "out of host memory";
  case TILE_RT_ERROR_CAPACITY:
    return "parameter array too small";
  default:
    break;
  }
  if (status < 0)
    return "unknown tile runtime error";

  static _Thread_local char buffer[512];
  const char *name = NULL, *description = NULL;
  if (driverLoaded) {
    if (cu.cuGetErrorName(status, &name) != CUDA_SUCCESS)
      name = NULL;
    if (cu.cuGetErrorString(status, &description) != CUDA_SUCCESS)
      description = NULL;
  }
  if (!name)
    name = builtinCudaErrorName(status);
  if (name && description)
    snprintf(buffer, sizeof(buffer), "%s: %s", name, description);
  else if (name)
    snprintf(buffer, sizeof(buffer), "%s", name);
  else
    snprintf(buffer, sizeof(buffer), "CUDA error %d", status);
  return buffer;
}

const char *tileRtLastError(const TileRtContext *ctx) {
  return ctx ? ctx->error : threadError;
}

/// Records "<what>: <status string>" as the last error and returns `status`.
static int fail(TileRtContext *ctx, int status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(TileRtContext *ctx, int status, const char *format, ...) {
  char *buffer = errorBuffer(ctx);
  va_list args;
  va_start(args, format);
  int n = vsnprintf(buffer, kMessageSize, format, args);
  va_end(args);
  if (n >= 0 && n < kMessageSize)
    snprintf(buffer + n, kMessageSize - (size_t)n, ": %s",
             tileRtErrorString(status));
  return status;
}

static void clearError(TileRtContext *ctx) { errorBuffer(ctx)[0] = 0; }

/// Returns 0 if `result` is CUDA_SUCCESS, else records the error.
#define CHECK_CU(ctx, call, ...)                                               \
  do {                                                                         \
    CUresult checkResult = (call);                                             \
    if (checkResult != CUDA_SUCCESS)                                           \
      return fail((ctx), checkResult, __VA_ARGS__);                            \
  } while (0)

//===----------------------------------------------------------------------===//
// Driver loading
//===----------------------------------------------------------------------===//

static void loadDriver(void) {
  const char *path = getenv("TILE_RT_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    snprintf(driverMessage, sizeof(driverMessage),
             "libcuda.so.1 not found (dlopen(\"%s\"): %s); is the NVIDIA "
             "driver installed?",
             path, why ? why : "unknown error");
    driverStatus = TILE_RT_ERROR_DRIVER_NOT_FOUND;
    return;
  }

#define TILE_RT_LOOKUP(field, symbol, ret, args)                               \
  *(void **)(&cu.field) = dlsym(handle, symbol);                               \
  if (!cu.field) {                                                             \
    snprintf(driverMessage, sizeof(driverMessage),                             \
             "%s has no %s: the CUDA driver is too old", path, symbol);        \
    driverStatus = TILE_RT_ERROR_DRIVER_SYMBOL;                                \
    return;                                                                    \
  }
  TILE_RT_DRIVER_FUNCTIONS(TILE_RT_LOOKUP)
#undef TILE_RT_LOOKUP
  *(void **)(&cu.cuEventElapsedTime) = dlsym(handle, "cuEventElapsedTime_v2");
  if (!cu.cuEventElapsedTime)
    *(void **)(&cu.cuEventElapsedTime) = dlsym(handle, "cuEventElapsedTime");
  if (!cu.cuEventElapsedTime) {
    snprintf(driverMessage, sizeof(driverMessage),
             "%s has no cuEventElapsedTime", path);
    driverStatus = TILE_RT_ERROR_DRIVER_SYMBOL;
    return;
  }
  driverLoaded = 1;

  CUresult result = cu.cuInit(0);
  if (result != CUDA_SUCCESS) {
    snprintf(driverMessage, sizeof(driverMessage), "cuInit (%s): %s", path,
             tileRtErrorString(result));
    driverStatus = result;
    return;
  }
  driverStatus = TILE_RT_SUCCESS;
  driverMessage[0] = 0;
}

/// Loads and initializes the driver once; on failure records the reason as
/// the error of `ctx` (or of the thread) and returns the status.
static int ensureDriver(TileRtContext *ctx) {
  pthread_once(&driverOnce, loadDriver);
  if (driverStatus == TILE_RT_SUCCESS)
    return TILE_RT_SUCCESS;
  snprintf(errorBuffer(ctx), kMessageSize, "%s", driverMessage);
  return driverStatus;
}

#define CHECK_ARG(ctx, cond, ...)                                              \
  do {                                                                         \
    if (!(cond))                                                               \
      return fail((ctx), TILE_RT_ERROR_INVALID_ARGUMENT, __VA_ARGS__);         \
  } while (0)

/// Checks that `ctx` is a valid context (the driver is then loaded).
#define CHECK_CTX(ctx, what)                                                   \
  do {                                                                         \
    if (!(ctx))                                                                \
      return fail(NULL, TILE_RT_ERROR_INVALID_ARGUMENT, "%s: NULL context",    \
                  what);                                                       \
  } while (0)

//===----------------------------------------------------------------------===//
// Contexts and devices
//===----------------------------------------------------------------------===//

int tileRtInit(TileRtContext **ctx, int ordinal) {
  CHECK_ARG(NULL, ctx, "tileRtInit: NULL context pointer");
  *ctx = NULL;
  clearError(NULL);
  int status = ensureDriver(NULL);
  if (status != TILE_RT_SUCCESS)
    return status;

  int count = 0;
  CHECK_CU(NULL, cu.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (ordinal < 0 || ordinal >= count)
    return fail(NULL, TILE_RT_ERROR_INVALID_ARGUMENT,
                "tileRtInit: device %d requested but %d device(s) present",
                ordinal, count);

  TileRtContext *result = calloc(1, sizeof(TileRtContext));
  if (!result)
    return fail(NULL, TILE_RT_ERROR_OUT_OF_MEMORY, "tileRtInit");
  CUresult r = cu.cuDeviceGet(&result->device, ordinal);
  if (r == CUDA_SUCCESS)
    r = cu.cuDevicePrimaryCtxRetain(&result->context, result->device);
  if (r != CUDA_SUCCESS) {
    free(result);
    return fail(NULL, r, "cuDevicePrimaryCtxRetain(device %d)", ordinal);
  }
  r = cu.cuCtxSetCurrent(result->context);
  if (r != CUDA_SUCCESS) {
    cu.cuDevicePrimaryCtxRelease(result->device);
    free(result);
    return fail(NULL, r, "cuCtxSetCurrent(device %d)", ordinal);
  }
  *ctx = result;
  return TILE_RT_SUCCESS;
}

int tileRtDestroy(TileRtContext *ctx) {
  if (!ctx)
    return TILE_RT_SUCCESS;
  int status = TILE_RT_SUCCESS;
  while (ctx->modules) {
    int s = tileRtModuleUnload(ctx->modules);
    if (s != TILE_RT_SUCCESS && status == TILE_RT_SUCCESS)
      status = s;
  }
  CUresult r = cu.cuDevicePrimaryCtxRelease(ctx->device);
  if (r != CUDA_SUCCESS && status == TILE_RT_SUCCESS)
    status = fail(NULL, r, "cuDevicePrimaryCtxRelease");
  free(ctx);
  return status;
}

int tileRtDeviceCount(int *count) {
  CHECK_ARG(NULL, count, "tileRtDeviceCount: NULL count");
  *count = 0;
  int status = ensureDriver(NULL);
  if (status != TILE_RT_SUCCESS)
    return status;
  CHECK_CU(NULL, cu.cuDeviceGetCount(count), "cuDeviceGetCount");
  return TILE_RT_SUCCESS;
}

int tileRtDriverVersion(int *version) {
  CHECK_ARG(NULL, version, "tileRtDriverVersion: NULL version");
  *version = 0;
  int status = ensureDriver(NULL);
  if (status != TILE_RT_SUCCESS)
    return status;
  CHECK_CU(NULL, cu.cuDriverGetVersion(version), "cuDriverGetVersion");
  return TILE_RT_SUCCESS;
}

int tileRtDeviceName(TileRtContext *ctx, char *name, size_t size) {
  CHECK_CTX(ctx, "tileRtDeviceName");
  CHECK_ARG(ctx, name && size > 0 && size <= 0x7fffffff,
            "tileRtDeviceName: invalid buffer");
  CHECK_CU(ctx, cu.cuDeviceGetName(name, (int)size, ctx->device),
           "cuDeviceGetName");
  name[size - 1] = 0;
  return TILE_RT_SUCCESS;
}

int tileRtDeviceAttribute(TileRtContext *ctx, int attribute, int *value) {
  CHECK_CTX(ctx, "tileRtDeviceAttribute");
  CHECK_ARG(ctx, value, "tileRtDeviceAttribute: NULL value");
  CHECK_CU(ctx, cu.cuDeviceGetAttribute(value, attribute, ctx->device),
           "cuDeviceGetAttribute(%d)", attribute);
  return TILE_RT_SUCCESS;
}

int tileRtDeviceComputeCapability(TileRtContext *ctx, int *major, int *minor) {
  CHECK_CTX(ctx, "tileRtDeviceComputeCapability");
  CHECK_ARG(ctx, major && minor,
            "tileRtDeviceComputeCapability: NULL argument");
  int status = tileRtDeviceAttribute(
      ctx, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, major);
  if (status == TILE_RT_SUCCESS)
    status = tileRtDeviceAttribute(
        ctx, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, minor);
  return status;
}

int tileRtDeviceSMCount(TileRtContext *ctx, int *count) {
  CHECK_CTX(ctx, "tileRtDeviceSMCount");
  return tileRtDeviceAttribute(ctx, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                               count);
}

int tileRtDeviceMaxSharedMemoryOptin(TileRtContext *ctx, int *bytes) {
  CHECK_CTX(ctx, "tileRtDeviceMaxSharedMemoryOptin");
  return tileRtDeviceAttribute(
      ctx, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, bytes);
}

int tileRtMemGetInfo(TileRtContext *ctx, size_t *freeBytes,
                     size_t *totalBytes) {
  CHECK_CTX(ctx, "tileRtMemGetInfo");
  CHECK_ARG(ctx, freeBytes && totalBytes, "tileRtMemGetInfo: NULL argument");
  CHECK_CU(ctx, cu.cuMemGetInfo(freeBytes, totalBytes), "cuMemGetInfo");
  return TILE_RT_SUCCESS;
}

int tileRtSynchronize(TileRtContext *ctx) {
  CHECK_CTX(ctx, "tileRtSynchronize");
  CHECK_CU(ctx, cu.cuCtxSynchronize(), "cuCtxSynchronize");
  return TILE_RT_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

static int isBinaryImage(const unsigned char *data, size_t size) {
  // ELF (cubin) or fatbin (magic 0xBA55ED50, or the 0x466243B1 wrapper).
  if (size >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' &&
      data[3] == 'F')
    return 1;
  if (size >= 4 && data[0] == 0x50 && data[1] == 0xED && data[2] == 0x55 &&
      data[3] == 0xBA)
    return 1;
  if (size >= 4 && data[0] == 0xB1 && data[1] == 0x43 && data[2] == 0x62 &&
      data[3] == 0x46)
    return 1;
  return 0;
}

int tileRtModuleLoadData(TileRtContext *ctx, const void *image, size_t size,
                         TileRtModule **module) {
  CHECK_CTX(ctx, "tileRtModuleLoadData");
  CHECK_ARG(ctx, module, "tileRtModuleLoadData: NULL module pointer");
  *module = NULL;
  CHECK_ARG(ctx, image && size > 0, "tileRtModuleLoadData: empty image");

  // PTX is text the driver reads up to a NUL: copy it with one.
  const void *data = image;
  char *ptx = NULL;
  if (!isBinaryImage(image, size)) {
    ptx = malloc(size + 1);
    if (!ptx)
      return fail(ctx, TILE_RT_ERROR_OUT_OF_MEMORY, "tileRtModuleLoadData");
    memcpy(ptx, image, size);
    ptx[size] = 0;
    data = ptx;
  }

  TileRtModule *result = calloc(1, sizeof(TileRtModule));
  if (!result) {
    free(ptx);
    return fail(ctx, TILE_RT_ERROR_OUT_OF_MEMORY, "tileRtModuleLoadData");
  }

  enum { kLogSize = 2048 };
  char errorLog[kLogSize];
  errorLog[0] = 0;
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog, (void *)(uintptr_t)kLogSize};
  CUresult r = cu.cuModuleLoadDataEx(&result->module, data, 2, options, values);
  free(ptx);
  if (r != CUDA_SUCCESS) {
    free(result);
    errorLog[kLogSize - 1] = 0;
    if (errorLog[0])
      return fail(ctx, r, "cuModuleLoadDataEx (%s, %zu bytes): %s",
                  data == image ? "binary" : "PTX", size, errorLog);
    return fail(ctx, r, "cuModuleLoadDataEx (%s, %zu bytes)",
                data == image ? "binary" : "PTX", size);
  }
  result->ctx = ctx;
  result->next = ctx->modules;
  ctx->modules = result;
  *module = result;
  return TILE_RT_SUCCESS;
}

int tileRtModuleLoadFile(TileRtContext *ctx, const char *path,
                         TileRtModule **module) {
  CHECK_CTX(ctx, "tileRtModuleLoadFile");
  CHECK_ARG(ctx, module, "tileRtModuleLoadFile: NULL module pointer");
  *module = NULL;
  CHECK_ARG(ctx, path, "tileRtModuleLoadFile: NULL path");
  FILE *file = fopen(path, "rb");
  if (!file)
    return fail(ctx, TILE_RT_ERROR_IO, "cannot open '%s' (%s)", path,
                strerror(errno));
  size_t capacity = 1 << 16, size = 0;
  unsigned char *data = malloc(capacity);
  while (data) {
    size += fread(data + size, 1, capacity - size, file);
    if (size < capacity)
      break;
    capacity *= 2;
    unsigned char *grown = realloc(data, capacity);
    if (!grown) {
      free(data);
      data = NULL;
    }
    data = grown;
  }
  int readError = ferror(file);
  fclose(file);
  if (!data)
    return fail(ctx, TILE_RT_ERROR_OUT_OF_MEMORY, "reading '%s'", path);
  if (readError || size == 0) {
    free(data);
    return fail(ctx, TILE_RT_ERROR_IO, "cannot read '%s'%s", path,
                readError ? "" : " (empty file)");
  }
  int status = tileRtModuleLoadData(ctx, data, size, module);
  free(data);
  if (status != TILE_RT_SUCCESS) {
    // Prefix the driver's message with the path.
    char prefix[512];
    snprintf(prefix, sizeof(prefix), "loading '%s': ", path);
    size_t prefixLength = strlen(prefix);
    size_t messageLength = strlen(ctx->error);
    if (messageLength > kMessageSize - 1 - prefixLength)
      messageLength = kMessageSize - 1 - prefixLength;
    memmove(ctx->error + prefixLength, ctx->error, messageLength);
    memcpy(ctx->error, prefix, prefixLength);
    ctx->error[prefixLength + messageLength] = 0;
  }
  return status;
}

int tileRtModuleUnload(TileRtModule *module) {
  if (!module)
    return TILE_RT_SUCCESS;
  TileRtContext *ctx = module->ctx;
  for (TileRtModule **link = &ctx->modules; *link; link = &(*link)->next) {
    if (*link == module) {
      *link = module->next;
      break;
    }
  }
  while (module->functions) {
    TileRtFunction *next = module->functions->next;
    free(module->functions->name);
    free(module->functions);
    module->functions = next;
  }
  CUresult r = cu.cuModuleUnload(module->module);
  free(module);
  if (r != CUDA_SUCCESS)
    return fail(ctx, r, "cuModuleUnload");
  return TILE_RT_SUCCESS;
}

int tileRtGetFunction(TileRtModule *module, const char *name,
                      TileRtFunction **fn) {
  CHECK_ARG(NULL, module, "tileRtGetFunction: NULL module");
  TileRtContext *ctx = module->ctx;
  CHECK_ARG(ctx, name && fn, "tileRtGetFunction: NULL argument");
  *fn = NULL;
  for (TileRtFunction *f = module->functions; f; f = f->next) {
    if (strcmp(f->name, name) == 0) {
      *fn = f;
      return TILE_RT_SUCCESS;
    }
  }
  CUfunction function;
  CHECK_CU(ctx, cu.cuModuleGetFunction(&function, module->module, name),
           "cuModuleGetFunction: no kernel '%s' in the module", name);
  TileRtFunction *result = calloc(1, sizeof(TileRtFunction));
  char *copy = malloc(strlen(name) + 1);
  if (!result || !copy) {
    free(result);
    free(copy);
    return fail(ctx, TILE_RT_ERROR_OUT_OF_MEMORY, "tileRtGetFunction");
  }
  strcpy(copy, name);
  result->module = module;
  result->function = function;
  result->name = copy;
  result->next = module->functions;
  module->functions = result;
  *fn = result;
  return TILE_RT_SUCCESS;
}

int tileRtFunctionInfo(TileRtFunction *fn, int *numRegs, int *staticSharedBytes,
                       int *localBytes, int *maxThreadsPerBlock) {
  CHECK_ARG(NULL, fn, "tileRtFunctionInfo: NULL function");
  TileRtContext *ctx = fn->module->ctx;
  struct {
    int *value;
    int attribute;
    const char *name;
  } queries[] = {
      {numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS"},
      {staticSharedBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
       "SHARED_SIZE_BYTES"},
      {localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "LOCAL_SIZE_BYTES"},
      {maxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
       "MAX_THREADS_PER_BLOCK"},
  };
  for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); ++i) {
    if (!queries[i].value)
      continue;
    CHECK_CU(ctx,
             cu.cuFuncGetAttribute(queries[i].value, queries[i].attribute,
                                   fn->function),
             "cuFuncGetAttribute(%s, '%s')", queries[i].name, fn->name);
  }
  return TILE_RT_SUCCESS;
}

int tileRtLaunch(TileRtFunction *fn, const unsigned grid[3],
                 const unsigned block[3], unsigned sharedBytes, void **params) {
  CHECK_ARG(NULL, fn, "tileRtLaunch: NULL function");
  TileRtContext *ctx = fn->module->ctx;
  CHECK_ARG(ctx, grid && block, "tileRtLaunch('%s'): NULL grid or block",
            fn->name);
  // The dynamic shared memory a kernel may use is limited to 48 KiB minus its
  // static shared memory unless raised: raise it when the launch needs more.
  if (sharedBytes > fn->maxDynamicShared) {
    int limit = 0;
    CHECK_CU(ctx,
             cu.cuFuncGetAttribute(
                 &limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                 fn->function),
             "cuFuncGetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, '%s')",
             fn->name);
    if (sharedBytes > (unsigned)limit) {
      CHECK_CU(
          ctx,
          cu.cuFuncSetAttribute(fn->function,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                (int)sharedBytes),
          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = %u, '%s')",
          sharedBytes, fn->name);
      limit = (int)sharedBytes;
    }
    fn->maxDynamicShared = (unsigned)limit;
  }
  CHECK_CU(ctx,
           cu.cuLaunchKernel(fn->function, grid[0], grid[1], grid[2], block[0],
                             block[1], block[2], sharedBytes, NULL, params,
                             NULL),
           "cuLaunchKernel('%s', grid (%u, %u, %u), block (%u, %u, %u), %u "
           "bytes of dynamic shared memory)",
           fn->name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
           sharedBytes);
  return TILE_RT_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Device memory
//===----------------------------------------------------------------------===//

int tileRtMalloc(TileRtContext *ctx, size_t size, TileRtDevicePtr *ptr) {
  CHECK_CTX(ctx, "tileRtMalloc");
  CHECK_ARG(ctx, ptr, "tileRtMalloc: NULL pointer");
  *ptr = 0;
  CUdeviceptr result = 0;
  CHECK_CU(ctx, cu.cuMemAlloc(&result, size), "cuMemAlloc(%zu bytes)", size);
  *ptr = result;
  return TILE_RT_SUCCESS;
}

int tileRtFree(TileRtContext *ctx, TileRtDevicePtr ptr) {
  CHECK_CTX(ctx, "tileRtFree");
  if (!ptr)
    return TILE_RT_SUCCESS;
  CHECK_CU(ctx, cu.cuMemFree(ptr), "cuMemFree");
  return TILE_RT_SUCCESS;
}

int tileRtMemcpyHtoD(TileRtContext *ctx, TileRtDevicePtr dst, const void *src,
                     size_t size) {
  CHECK_CTX(ctx, "tileRtMemcpyHtoD");
  CHECK_ARG(ctx, src || size == 0, "tileRtMemcpyHtoD: NULL source");
  CHECK_CU(ctx, cu.cuMemcpyHtoD(dst, src, size), "cuMemcpyHtoD(%zu bytes)",
           size);
  return TILE_RT_SUCCESS;
}

int tileRtMemcpyDtoH(TileRtContext *ctx, void *dst, TileRtDevicePtr src,
                     size_t size) {
  CHECK_CTX(ctx, "tileRtMemcpyDtoH");
  CHECK_ARG(ctx, dst || size == 0, "tileRtMemcpyDtoH: NULL destination");
  CHECK_CU(ctx, cu.cuMemcpyDtoH(dst, src, size), "cuMemcpyDtoH(%zu bytes)",
           size);
  return TILE_RT_SUCCESS;
}

int tileRtMemcpyDtoD(TileRtContext *ctx, TileRtDevicePtr dst,
                     TileRtDevicePtr src, size_t size) {
  CHECK_CTX(ctx, "tileRtMemcpyDtoD");
  CHECK_CU(ctx, cu.cuMemcpyDtoD(dst, src, size), "cuMemcpyDtoD(%zu bytes)",
           size);
  return TILE_RT_SUCCESS;
}

int tileRtMemsetD8(TileRtContext *ctx, TileRtDevicePtr ptr, uint8_t value,
                   size_t size) {
  CHECK_CTX(ctx, "tileRtMemsetD8");
  CHECK_CU(ctx, cu.cuMemsetD8(ptr, value, size), "cuMemsetD8(%zu bytes)", size);
  return TILE_RT_SUCCESS;
}

int tileRtMemsetD16(TileRtContext *ctx, TileRtDevicePtr ptr, uint16_t value,
                    size_t count) {
  CHECK_CTX(ctx, "tileRtMemsetD16");
  CHECK_CU(ctx, cu.cuMemsetD16(ptr, value, count), "cuMemsetD16(%zu words)",
           count);
  return TILE_RT_SUCCESS;
}

int tileRtMemsetD32(TileRtContext *ctx, TileRtDevicePtr ptr, uint32_t value,
                    size_t count) {
  CHECK_CTX(ctx, "tileRtMemsetD32");
  CHECK_CU(ctx, cu.cuMemsetD32(ptr, value, count), "cuMemsetD32(%zu words)",
           count);
  return TILE_RT_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

int tileRtEventCreate(TileRtContext *ctx, TileRtEvent **event) {
  CHECK_CTX(ctx, "tileRtEventCreate");
  CHECK_ARG(ctx, event, "tileRtEventCreate: NULL event pointer");
  *event = NULL;
  TileRtEvent *result = calloc(1, sizeof(TileRtEvent));
  if (!result)
    return fail(ctx, TILE_RT_ERROR_OUT_OF_MEMORY, "tileRtEventCreate");
  CUresult r = cu.cuEventCreate(&result->event, CU_EVENT_DEFAULT);
  if (r != CUDA_SUCCESS) {
    free(result);
    return fail(ctx, r, "cuEventCreate");
  }
  *event = result;
  return TILE_RT_SUCCESS;
}

int tileRtEventDestroy(TileRtContext *ctx, TileRtEvent *event) {
  CHECK_CTX(ctx, "tileRtEventDestroy");
  if (!event)
    return TILE_RT_SUCCESS;
  CUresult r = cu.cuEventDestroy(event->event);
  free(event);
  CHECK_CU(ctx, r, "cuEventDestroy");
  return TILE_RT_SUCCESS;
}

int tileRtEventRecord(TileRtContext *ctx, TileRtEvent *event) {
  CHECK_CTX(ctx, "tileRtEventRecord");
  CHECK_ARG(ctx, event, "tileRtEventRecord: NULL event");
  CHECK_CU(ctx, cu.cuEventRecord(event->event, NULL), "cuEventRecord");
  return TILE_RT_SUCCESS;
}

int tileRtEventSynchronize(TileRtContext *ctx, TileRtEvent *event) {
  CHECK_CTX(ctx, "tileRtEventSynchronize");
  CHECK_ARG(ctx, event, "tileRtEventSynchronize: NULL event");
  CHECK_CU(ctx, cu.cuEventSynchronize(event->event), "cuEventSynchronize");
  return TILE_RT_SUCCESS;
}

int tileRtEventElapsedMs(TileRtContext *ctx, TileRtEvent *start,
                         TileRtEvent *end, float *ms) {
  CHECK_CTX(ctx, "tileRtEventElapsedMs");
  CHECK_ARG(ctx, start && end && ms, "tileRtEventElapsedMs: NULL argument");
  *ms = 0;
  CHECK_CU(ctx, cu.cuEventElapsedTime(ms, start->event, end->event),
           "cuEventElapsedTime");
  return TILE_RT_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Kernel arguments
//===----------------------------------------------------------------------===//

int tileRtMemRefArgs2D(TileRtMemRef2D *desc, TileRtDevicePtr ptr, int64_t rows,
                       int64_t cols, void **params, size_t capacity,
                       size_t *count) {
  CHECK_ARG(NULL, desc && params && count, "tileRtMemRefArgs2D: NULL argument");
  CHECK_ARG(NULL, rows >= 0 && cols >= 0,
            "tileRtMemRefArgs2D: negative size %lld x %lld", (long long)rows,
            (long long)cols);
  if (*count > capacity || capacity - *count < 7)
    return fail(NULL, TILE_RT_ERROR_CAPACITY,
                "tileRtMemRefArgs2D: %zu parameters already, room for %zu",
                *count, capacity);
  desc->allocated = ptr;
  desc->aligned = ptr;
  desc->offset = 0;
  desc->sizes[0] = rows;
  desc->sizes[1] = cols;
  desc->strides[0] = cols;
  desc->strides[1] = 1;
  void **out = params + *count;
  out[0] = &desc->allocated;
  out[1] = &desc->aligned;
  out[2] = &desc->offset;
  out[3] = &desc->sizes[0];
  out[4] = &desc->sizes[1];
  out[5] = &desc->strides[0];
  out[6] = &desc->strides[1];
  *count += 7;
  return TILE_RT_SUCCESS;
}

//===----------------------------------------------------------------------===//
// 16-bit floating point conversions
//===----------------------------------------------------------------------===//

static uint32_t floatBits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float bitsFloat(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t tileRtFloatToHalf(float value) {
  uint32_t x = floatBits(value);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  uint32_t abs = x & 0x7fffffff;
  if (abs > 0x7f800000) // NaN: keep it quiet and NaN
    return (uint16_t)(sign | 0x7e00 | ((abs >> 13) & 0x3ff));
  if (abs >= 0x477ff000) // >= 65520 rounds to infinity
    return (uint16_t)(sign | 0x7c00);
  if (abs < 0x38800000) {  // below the smallest normal half, 2^-14
    if (abs <= 0x33000000) // <= 2^-25 rounds to zero
      return sign;
    uint32_t exponent = abs >> 23;
    uint32_t mantissa = (abs & 0x7fffff) | 0x800000;
    uint32_t shift = 126 - exponent; // 14..24
    uint32_t result = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (result & 1)))
      ++result;
    return (uint16_t)(sign | result);
  }
  uint32_t result = (abs - 0x38000000) >> 13; // rebias 127 -> 15
  uint32_t rest = abs & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (result & 1)))
    ++result;
  return (uint16_t)(sign | result);
}

float tileRtHalfToFloat(uint16_t bits) {
  uint32_t sign = (uint32_t)(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0) {
    if (mantissa == 0)
      return bitsFloat(sign);
    exponent = 113; // normalize the subnormal
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= 0x3ff;
    return bitsFloat(sign | (exponent << 23) | (mantissa << 13));
  }
  if (exponent == 31)
    return bitsFloat(sign | 0x7f800000 | (mantissa << 13));
  return bitsFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t tileRtFloatToBF16(float value) {
  uint32_t x = floatBits(value);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

float tileRtBF16ToFloat(uint16_t bits) {
  return bitsFloat((uint32_t)bits << 16);
}
