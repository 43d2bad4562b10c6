//===- hip.c - HIP backend of the tile runtime --------------------*- C -*-===//
//
// The AMD path of tile_runtime.h: contexts, code-object modules, launches
// and memory through the HIP runtime's module API (hipModuleLoadData,
// hipModuleGetFunction, hipModuleLaunchKernel), looked up with dlsym in
// libamdhip64.so. The declarations below are the subset of hip_runtime_api.h
// used here, with HIP's names (hipError_t is an int, handles are opaque
// pointers, device pointers are void *; the memcpy sources are declared
// const, which does not change the ABI).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "hip.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int hipError_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipStream_t *hipStream_t;
enum { hipSuccess = 0 };

#define TILE_HIP_FUNCTIONS(X)                                                  \
  X(hipInit, hipError_t, (unsigned))                                           \
  X(hipGetDeviceCount, hipError_t, (int *))                                    \
  X(hipSetDevice, hipError_t, (int))                                           \
  X(hipDeviceGetName, hipError_t, (char *, int, int))                          \
  X(hipDeviceSynchronize, hipError_t, (void))                                  \
  X(hipModuleLoadData, hipError_t, (hipModule_t *, const void *))              \
  X(hipModuleUnload, hipError_t, (hipModule_t))                                \
  X(hipModuleGetFunction, hipError_t,                                          \
    (hipFunction_t *, hipModule_t, const char *))                              \
  X(hipModuleLaunchKernel, hipError_t,                                         \
    (hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned,          \
     unsigned, unsigned, hipStream_t, void **, void **))                       \
  X(hipMalloc, hipError_t, (void **, size_t))                                  \
  X(hipFree, hipError_t, (void *))                                             \
  X(hipMemcpyHtoD, hipError_t, (void *, const void *, size_t))                 \
  X(hipMemcpyDtoH, hipError_t, (void *, const void *, size_t))                 \
  X(hipGetErrorName, const char *, (hipError_t))

static struct {
#define TILE_HIP_DECLARE(name, ret, args) ret(*name) args;
  TILE_HIP_FUNCTIONS(TILE_HIP_DECLARE)
#undef TILE_HIP_DECLARE
} hip;

static pthread_once_t hipOnce = PTHREAD_ONCE_INIT;
static int hipStatus = TILE_RT_SUCCESS;
static char hipMessage[kMessageSize];

/// Loads the HIP runtime once per process and calls hipInit.
static void loadHip(void) {
  const char *path = getenv("TILE_RT_LIBHIP");
  if (!path || !*path)
    path = "libamdhip64.so";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    snprintf(hipMessage, sizeof(hipMessage),
             "libamdhip64.so not found (dlopen(\"%s\"): %s); is ROCm (the HIP "
             "runtime) installed?",
             path, reason ? reason : "unknown error");
    hipStatus = TILE_RT_ERROR_DRIVER_NOT_FOUND;
    return;
  }
#define TILE_HIP_LOOKUP(name, ret, args)                                       \
  *(void **)(&hip.name) = dlsym(library, #name);                               \
  if (!hip.name) {                                                             \
    snprintf(hipMessage, sizeof(hipMessage),                                   \
             "HIP runtime function %s not found in %s", #name, path);          \
    hipStatus = TILE_RT_ERROR_DRIVER_SYMBOL;                                   \
    return;                                                                    \
  }
  TILE_HIP_FUNCTIONS(TILE_HIP_LOOKUP)
#undef TILE_HIP_LOOKUP
  hipError_t result = hip.hipInit(0);
  if (result != hipSuccess) {
    const char *name = hip.hipGetErrorName(result);
    snprintf(hipMessage, sizeof(hipMessage), "hipInit (%s): %s (%d)", path,
             name ? name : "unknown HIP error", result);
    hipStatus = TILE_RT_ERROR_HIP;
  }
}

/// Records "<what>: <HIP error name> (<code>)" on `ctx` (or the thread) and
/// returns TILE_RT_ERROR_HIP.
static int hipFail(TileRtContext *ctx, hipError_t result, const char *format,
                   ...) __attribute__((format(printf, 3, 4)));
static int hipFail(TileRtContext *ctx, hipError_t result, const char *format,
                   ...) {
  char *buffer = ctx ? ctx->error : tileThreadErrorBuffer();
  va_list args;
  va_start(args, format);
  int n = vsnprintf(buffer, kMessageSize, format, args);
  va_end(args);
  const char *name = hip.hipGetErrorName(result);
  if (n >= 0 && n < kMessageSize)
    snprintf(buffer + n, kMessageSize - (size_t)n, ": %s (%d)",
             name ? name : "unknown HIP error", result);
  return TILE_RT_ERROR_HIP;
}

/// Returns the failure of a HIP call (after selecting the context's device).
#define CHECK_HIP(ctx, call, ...)                                              \
  do {                                                                         \
    hipError_t checkResult = hip.hipSetDevice((ctx)->device);                  \
    if (checkResult == hipSuccess)                                             \
      checkResult = (call);                                                    \
    if (checkResult != hipSuccess)                                             \
      return hipFail((ctx), checkResult, __VA_ARGS__);                         \
  } while (0)

int tileHipInit(TileRtContext **ctx, int ordinal) {
  pthread_once(&hipOnce, loadHip);
  char *threadError = tileThreadErrorBuffer();
  if (hipStatus != TILE_RT_SUCCESS) {
    snprintf(threadError, kMessageSize, "%s", hipMessage);
    return hipStatus;
  }
  int count = 0;
  hipError_t result = hip.hipGetDeviceCount(&count);
  if (result != hipSuccess)
    return hipFail(NULL, result, "hipGetDeviceCount");
  if (ordinal < 0 || ordinal >= count) {
    snprintf(threadError, kMessageSize,
             "tileRtInit: HIP device %d requested but %d device(s) present: "
             "%s",
             ordinal, count, tileRtErrorString(TILE_RT_ERROR_INVALID_ARGUMENT));
    return TILE_RT_ERROR_INVALID_ARGUMENT;
  }
  result = hip.hipSetDevice(ordinal);
  if (result != hipSuccess)
    return hipFail(NULL, result, "hipSetDevice(%d)", ordinal);
  TileRtContext *context = calloc(1, sizeof(TileRtContext));
  if (!context) {
    snprintf(threadError, kMessageSize, "tileRtInit: %s",
             tileRtErrorString(TILE_RT_ERROR_OUT_OF_MEMORY));
    return TILE_RT_ERROR_OUT_OF_MEMORY;
  }
  context->backend = TILE_RT_BACKEND_HIP;
  context->device = ordinal;
  *ctx = context;
  return TILE_RT_SUCCESS;
}

int tileHipDestroy(TileRtContext *ctx) {
  int status = TILE_RT_SUCCESS;
  while (ctx->modules) {
    int s = tileRtModuleUnload(ctx->modules);
    if (s != TILE_RT_SUCCESS && status == TILE_RT_SUCCESS)
      status = s;
  }
  free(ctx);
  return status;
}

int tileHipDeviceName(TileRtContext *ctx, char *name, size_t size) {
  int length = size > 0x7fffffff ? 0x7fffffff : (int)size;
  CHECK_HIP(ctx, hip.hipDeviceGetName(name, length, ctx->device),
            "hipDeviceGetName");
  return TILE_RT_SUCCESS;
}

int tileHipSynchronize(TileRtContext *ctx) {
  CHECK_HIP(ctx, hip.hipDeviceSynchronize(), "hipDeviceSynchronize");
  return TILE_RT_SUCCESS;
}

int tileHipModuleLoad(TileRtContext *ctx, const void *image, size_t size,
                      CUmodule *handle) {
  hipModule_t module = NULL;
  CHECK_HIP(ctx, hip.hipModuleLoadData(&module, image),
            "hipModuleLoadData (code object, %zu bytes)", size);
  *handle = (CUmodule)module;
  return TILE_RT_SUCCESS;
}

int tileHipModuleUnload(TileRtContext *ctx, CUmodule handle) {
  CHECK_HIP(ctx, hip.hipModuleUnload((hipModule_t)handle), "hipModuleUnload");
  return TILE_RT_SUCCESS;
}

int tileHipGetFunction(TileRtContext *ctx, CUmodule module, const char *name,
                       CUfunction *handle) {
  hipFunction_t function = NULL;
  CHECK_HIP(ctx, hip.hipModuleGetFunction(&function, (hipModule_t)module, name),
            "hipModuleGetFunction: no kernel '%s' in the module", name);
  *handle = (CUfunction)function;
  return TILE_RT_SUCCESS;
}

int tileHipLaunch(TileRtFunction *fn, const unsigned grid[3],
                  const unsigned block[3], unsigned sharedBytes,
                  void **params) {
  TileRtContext *ctx = fn->module->ctx;
  CHECK_HIP(ctx,
            hip.hipModuleLaunchKernel(
                (hipFunction_t)fn->function, grid[0], grid[1], grid[2],
                block[0], block[1], block[2], sharedBytes, NULL, params, NULL),
            "hipModuleLaunchKernel('%s', grid (%u, %u, %u), block (%u, %u, "
            "%u), %u bytes of dynamic LDS)",
            fn->name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
            sharedBytes);
  return TILE_RT_SUCCESS;
}

int tileHipLaunchRaw(TileRtContext *ctx, CUfunction function, const char *name,
                     const unsigned grid[3], const unsigned block[3],
                     unsigned sharedBytes, void **params) {
  CHECK_HIP(ctx,
            hip.hipModuleLaunchKernel((hipFunction_t)function, grid[0], grid[1],
                                      grid[2], block[0], block[1], block[2],
                                      sharedBytes, NULL, params, NULL),
            "hipModuleLaunchKernel('%s', grid (%u, %u, %u), block (%u, %u, "
            "%u), %u bytes of dynamic LDS)",
            name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
            sharedBytes);
  return TILE_RT_SUCCESS;
}

int tileHipMalloc(TileRtContext *ctx, size_t size, TileRtDevicePtr *ptr) {
  void *device = NULL;
  CHECK_HIP(ctx, hip.hipMalloc(&device, size), "hipMalloc(%zu bytes)", size);
  *ptr = (TileRtDevicePtr)(uintptr_t)device;
  return TILE_RT_SUCCESS;
}

int tileHipFree(TileRtContext *ctx, TileRtDevicePtr ptr) {
  if (!ptr)
    return TILE_RT_SUCCESS;
  CHECK_HIP(ctx, hip.hipFree((void *)(uintptr_t)ptr), "hipFree");
  return TILE_RT_SUCCESS;
}

int tileHipMemcpy(TileRtContext *ctx, void *dst, const void *src, size_t size,
                  int toDevice) {
  if (toDevice)
    CHECK_HIP(ctx, hip.hipMemcpyHtoD(dst, src, size),
              "hipMemcpyHtoD(%zu bytes)", size);
  else
    CHECK_HIP(ctx, hip.hipMemcpyDtoH(dst, src, size),
              "hipMemcpyDtoH(%zu bytes)", size);
  return TILE_RT_SUCCESS;
}
