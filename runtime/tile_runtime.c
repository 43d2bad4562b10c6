//===- tile_runtime.c - CUDA runtime for tile-mlir kernels --------*- C -*-===//
//
// Implementation of the context-based API of tile_runtime.h: contexts,
// modules, launches and memory (events are in events.c). The driver is
// reached through driver.h; HIP contexts are sent to hip.c; the mgpu ABI and
// the compiled-host entry points are in mgpu.c, tensor_map.c and host.c.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "tile_runtime.h"
#include "context.h"
#include "driver.h"
#include "hip.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Handles and errors
//===----------------------------------------------------------------------===//

/// Message of the last failed call without a context, per thread.
static _Thread_local char threadError[kMessageSize];

static char *errorBuffer(TileRtContext *ctx) {
  return ctx ? ctx->error : threadError;
}

char *tileThreadErrorBuffer(void) { return threadError; }

const char *tileRtLastError(const TileRtContext *ctx) {
  return ctx ? ctx->error : threadError;
}

#define fail tileFail

int tileFail(TileRtContext *ctx, int status, const char *format, ...) {
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

/// Loads and initializes the driver once; on failure records the reason as
/// the error of `ctx` (or of the thread) and returns the status.
static int ensureDriver(TileRtContext *ctx) {
  int status = tileDriverLoad();
  if (status != TILE_RT_SUCCESS)
    snprintf(errorBuffer(ctx), kMessageSize, "%s", tileDriverMessage());
  return status;
}

//===----------------------------------------------------------------------===//
// Contexts and devices
//===----------------------------------------------------------------------===//

int tileRtInit(TileRtContext **ctx, int ordinal) {
  const char *backend = getenv("TILE_RT_BACKEND");
  int hip = backend && strcmp(backend, "hip") == 0;
  return tileRtInitBackend(
      ctx, hip ? TILE_RT_BACKEND_HIP : TILE_RT_BACKEND_CUDA, ordinal);
}

int tileRtContextBackend(const TileRtContext *ctx) {
  return ctx ? ctx->backend : -1;
}

int tileRtInitBackend(TileRtContext **ctx, int backend, int ordinal) {
  CHECK_ARG(NULL, ctx, "tileRtInit: NULL context pointer");
  *ctx = NULL;
  clearError(NULL);
  if (backend == TILE_RT_BACKEND_HIP)
    return tileHipInit(ctx, ordinal);
  CHECK_ARG(NULL, backend == TILE_RT_BACKEND_CUDA,
            "tileRtInitBackend: unknown backend %d", backend);
  int status = ensureDriver(NULL);
  if (status != TILE_RT_SUCCESS)
    return status;

  int count = 0;
  CHECK_CU(NULL, tileCu.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (ordinal < 0 || ordinal >= count)
    return fail(NULL, TILE_RT_ERROR_INVALID_ARGUMENT,
                "tileRtInit: device %d requested but %d device(s) present",
                ordinal, count);

  TileRtContext *result = calloc(1, sizeof(TileRtContext));
  if (!result)
    return fail(NULL, TILE_RT_ERROR_OUT_OF_MEMORY, "tileRtInit");
  CUresult r = tileCu.cuDeviceGet(&result->device, ordinal);
  if (r == CUDA_SUCCESS)
    r = tileCu.cuDevicePrimaryCtxRetain(&result->context, result->device);
  if (r != CUDA_SUCCESS) {
    free(result);
    return fail(NULL, r, "cuDevicePrimaryCtxRetain(device %d)", ordinal);
  }
  r = tileCu.cuCtxSetCurrent(result->context);
  if (r != CUDA_SUCCESS) {
    tileCu.cuDevicePrimaryCtxRelease(result->device);
    free(result);
    return fail(NULL, r, "cuCtxSetCurrent(device %d)", ordinal);
  }
  *ctx = result;
  return TILE_RT_SUCCESS;
}

int tileRtDestroy(TileRtContext *ctx) {
  if (!ctx)
    return TILE_RT_SUCCESS;
  if (ctx->backend == TILE_RT_BACKEND_HIP)
    return tileHipDestroy(ctx);
  int status = TILE_RT_SUCCESS;
  while (ctx->modules) {
    int s = tileRtModuleUnload(ctx->modules);
    if (s != TILE_RT_SUCCESS && status == TILE_RT_SUCCESS)
      status = s;
  }
  CUresult r = tileCu.cuDevicePrimaryCtxRelease(ctx->device);
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
  CHECK_CU(NULL, tileCu.cuDeviceGetCount(count), "cuDeviceGetCount");
  return TILE_RT_SUCCESS;
}

int tileRtDriverVersion(int *version) {
  CHECK_ARG(NULL, version, "tileRtDriverVersion: NULL version");
  *version = 0;
  int status = ensureDriver(NULL);
  if (status != TILE_RT_SUCCESS)
    return status;
  CHECK_CU(NULL, tileCu.cuDriverGetVersion(version), "cuDriverGetVersion");
  return TILE_RT_SUCCESS;
}

int tileRtDeviceName(TileRtContext *ctx, char *name, size_t size) {
  CHECK_CTX(ctx, "tileRtDeviceName");
  if (ctx->backend == TILE_RT_BACKEND_HIP)
    return tileHipDeviceName(ctx, name, size);
  CHECK_ARG(ctx, name && size > 0 && size <= 0x7fffffff,
            "tileRtDeviceName: invalid buffer");
  CHECK_CU(ctx, tileCu.cuDeviceGetName(name, (int)size, ctx->device),
           "cuDeviceGetName");
  name[size - 1] = 0;
  return TILE_RT_SUCCESS;
}

int tileRtDeviceAttribute(TileRtContext *ctx, int attribute, int *value) {
  CHECK_CTX(ctx, "tileRtDeviceAttribute");
  CHECK_CUDA_ONLY(ctx, "tileRtDeviceAttribute");
  CHECK_ARG(ctx, value, "tileRtDeviceAttribute: NULL value");
  CHECK_CU(ctx, tileCu.cuDeviceGetAttribute(value, attribute, ctx->device),
           "cuDeviceGetAttribute(%d)", attribute);
  return TILE_RT_SUCCESS;
}

int tileRtDeviceComputeCapability(TileRtContext *ctx, int *major, int *minor) {
  CHECK_CTX(ctx, "tileRtDeviceComputeCapability");
  CHECK_CUDA_ONLY(ctx, "tileRtDeviceComputeCapability");
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
  CHECK_CUDA_ONLY(ctx, "tileRtDeviceSMCount");
  return tileRtDeviceAttribute(ctx, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                               count);
}

int tileRtDeviceMaxSharedMemoryOptin(TileRtContext *ctx, int *bytes) {
  CHECK_CTX(ctx, "tileRtDeviceMaxSharedMemoryOptin");
  CHECK_CUDA_ONLY(ctx, "tileRtDeviceMaxSharedMemoryOptin");
  return tileRtDeviceAttribute(
      ctx, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, bytes);
}

int tileRtMemGetInfo(TileRtContext *ctx, size_t *freeBytes,
                     size_t *totalBytes) {
  CHECK_CTX(ctx, "tileRtMemGetInfo");
  CHECK_CUDA_ONLY(ctx, "tileRtMemGetInfo");
  CHECK_ARG(ctx, freeBytes && totalBytes, "tileRtMemGetInfo: NULL argument");
  CHECK_CU(ctx, tileCu.cuMemGetInfo(freeBytes, totalBytes), "cuMemGetInfo");
  return TILE_RT_SUCCESS;
}

int tileRtSynchronize(TileRtContext *ctx) {
  CHECK_CTX(ctx, "tileRtSynchronize");
  if (ctx->backend == TILE_RT_BACKEND_HIP)
    return tileHipSynchronize(ctx);
  CHECK_CU(ctx, tileCu.cuCtxSynchronize(), "cuCtxSynchronize");
  return TILE_RT_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

int tileRtModuleLoadData(TileRtContext *ctx, const void *image, size_t size,
                         TileRtModule **module) {
  CHECK_CTX(ctx, "tileRtModuleLoadData");
  CHECK_ARG(ctx, module, "tileRtModuleLoadData: NULL module pointer");
  *module = NULL;
  CHECK_ARG(ctx, image && size > 0, "tileRtModuleLoadData: empty image");

  TileRtModule *result = calloc(1, sizeof(TileRtModule));
  if (!result)
    return fail(ctx, TILE_RT_ERROR_OUT_OF_MEMORY, "tileRtModuleLoadData");
  if (ctx->backend == TILE_RT_BACKEND_HIP) {
    int status = tileHipModuleLoad(ctx, image, size, &result->module);
    if (status != TILE_RT_SUCCESS) {
      free(result);
      return status;
    }
  } else {
    char errorLog[2048];
    int status = tileLoadModuleImage(&result->module, image, size, -1, errorLog,
                                     sizeof(errorLog));
    if (status != CUDA_SUCCESS) {
      free(result);
      const char *kind = tileIsBinaryImage(image, size) ? "binary" : "PTX";
      if (errorLog[0])
        return fail(ctx, status, "cuModuleLoadDataEx (%s, %zu bytes): %s", kind,
                    size, errorLog);
      return fail(ctx, status, "cuModuleLoadDataEx (%s, %zu bytes)", kind,
                  size);
    }
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
  CUmodule handle = module->module;
  free(module);
  if (ctx->backend == TILE_RT_BACKEND_HIP)
    return tileHipModuleUnload(ctx, handle);
  CUresult r = tileCu.cuModuleUnload(handle);
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
  if (ctx->backend == TILE_RT_BACKEND_HIP) {
    int status = tileHipGetFunction(ctx, module->module, name, &function);
    if (status != TILE_RT_SUCCESS)
      return status;
  } else {
    CHECK_CU(ctx, tileCu.cuModuleGetFunction(&function, module->module, name),
             "cuModuleGetFunction: no kernel '%s' in the module", name);
  }
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
  CHECK_CUDA_ONLY(ctx, "tileRtFunctionInfo");
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
             tileCu.cuFuncGetAttribute(queries[i].value, queries[i].attribute,
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
  if (ctx->backend == TILE_RT_BACKEND_HIP)
    return tileHipLaunch(fn, grid, block, sharedBytes, params);
  // The dynamic shared memory a kernel may use is limited to 48 KiB minus its
  // static shared memory unless raised: raise it when the launch needs more.
  if (sharedBytes > fn->maxDynamicShared) {
    const char *failedCall = "";
    CHECK_CU(ctx,
             tileAllowDynamicShared(fn->function, sharedBytes,
                                    &fn->maxDynamicShared, &failedCall),
             "%s(MAX_DYNAMIC_SHARED_SIZE_BYTES, %u bytes, '%s')", failedCall,
             sharedBytes, fn->name);
  }
  CHECK_CU(ctx,
           tileCu.cuLaunchKernel(fn->function, grid[0], grid[1], grid[2],
                                 block[0], block[1], block[2], sharedBytes,
                                 NULL, params, NULL),
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
  if (ctx->backend == TILE_RT_BACKEND_HIP)
    return tileHipMalloc(ctx, size, ptr);
  CUdeviceptr result = 0;
  CHECK_CU(ctx, tileCu.cuMemAlloc(&result, size), "cuMemAlloc(%zu bytes)",
           size);
  *ptr = result;
  return TILE_RT_SUCCESS;
}

int tileRtFree(TileRtContext *ctx, TileRtDevicePtr ptr) {
  CHECK_CTX(ctx, "tileRtFree");
  if (!ptr)
    return TILE_RT_SUCCESS;
  if (ctx->backend == TILE_RT_BACKEND_HIP)
    return tileHipFree(ctx, ptr);
  CHECK_CU(ctx, tileCu.cuMemFree(ptr), "cuMemFree");
  return TILE_RT_SUCCESS;
}

int tileRtMemcpyHtoD(TileRtContext *ctx, TileRtDevicePtr dst, const void *src,
                     size_t size) {
  CHECK_CTX(ctx, "tileRtMemcpyHtoD");
  CHECK_ARG(ctx, src || size == 0, "tileRtMemcpyHtoD: NULL source");
  if (ctx->backend == TILE_RT_BACKEND_HIP)
    return tileHipMemcpy(ctx, (void *)(uintptr_t)dst, src, size, 1);
  CHECK_CU(ctx, tileCu.cuMemcpyHtoD(dst, src, size), "cuMemcpyHtoD(%zu bytes)",
           size);
  return TILE_RT_SUCCESS;
}

int tileRtMemcpyDtoH(TileRtContext *ctx, void *dst, TileRtDevicePtr src,
                     size_t size) {
  CHECK_CTX(ctx, "tileRtMemcpyDtoH");
  CHECK_ARG(ctx, dst || size == 0, "tileRtMemcpyDtoH: NULL destination");
  if (ctx->backend == TILE_RT_BACKEND_HIP)
    return tileHipMemcpy(ctx, dst, (const void *)(uintptr_t)src, size, 0);
  CHECK_CU(ctx, tileCu.cuMemcpyDtoH(dst, src, size), "cuMemcpyDtoH(%zu bytes)",
           size);
  return TILE_RT_SUCCESS;
}

int tileRtMemcpyDtoD(TileRtContext *ctx, TileRtDevicePtr dst,
                     TileRtDevicePtr src, size_t size) {
  CHECK_CTX(ctx, "tileRtMemcpyDtoD");
  CHECK_CUDA_ONLY(ctx, "tileRtMemcpyDtoD");
  CHECK_CU(ctx, tileCu.cuMemcpyDtoD(dst, src, size), "cuMemcpyDtoD(%zu bytes)",
           size);
  return TILE_RT_SUCCESS;
}

int tileRtMemsetD8(TileRtContext *ctx, TileRtDevicePtr ptr, uint8_t value,
                   size_t size) {
  CHECK_CTX(ctx, "tileRtMemsetD8");
  CHECK_CUDA_ONLY(ctx, "tileRtMemsetD8");
  CHECK_CU(ctx, tileCu.cuMemsetD8(ptr, value, size), "cuMemsetD8(%zu bytes)",
           size);
  return TILE_RT_SUCCESS;
}

int tileRtMemsetD16(TileRtContext *ctx, TileRtDevicePtr ptr, uint16_t value,
                    size_t count) {
  CHECK_CTX(ctx, "tileRtMemsetD16");
  CHECK_CUDA_ONLY(ctx, "tileRtMemsetD16");
  CHECK_CU(ctx, tileCu.cuMemsetD16(ptr, value, count), "cuMemsetD16(%zu words)",
           count);
  return TILE_RT_SUCCESS;
}

int tileRtMemsetD32(TileRtContext *ctx, TileRtDevicePtr ptr, uint32_t value,
                    size_t count) {
  CHECK_CTX(ctx, "tileRtMemsetD32");
  CHECK_CUDA_ONLY(ctx, "tileRtMemsetD32");
  CHECK_CU(ctx, tileCu.cuMemsetD32(ptr, value, count), "cuMemsetD32(%zu words)",
           count);
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
