//===- mgpu_hip.c - AMD code objects behind the mgpu ABI ----------*- C -*-===//
//
// Compiled host code of an AMD module (tile-to-rocdl) calls the same mgpu
// functions as NVIDIA code: mgpuModuleLoad with an AMDGPU code object,
// mgpuModuleGetFunction, mgpuLaunchKernel. mgpu_module.c and mgpu.c send
// those to this file, which loads code objects through the HIP backend of
// the tile runtime (hip.c: a HIP context per device ordinal, made on first
// use) and remembers the kernel handles it gave out, so that a launch can
// tell a HIP kernel from a CUDA function. Failures are the thread's error,
// as for CUDA. Launches go to HIP's default stream, synchronously ordered
// with other HIP work; the thread's CUDA stream and synchronous mode do not
// apply.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "mgpu_hip.h"

#include "hip.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { kMaxHipFunctions = 4096 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static TileRtContext *contexts[kTileMaxDevices];
static struct {
  CUfunction function;
  int device;
  char name[96];
} functions[kMaxHipFunctions];
static int numFunctions;

int tileIsAmdCodeObject(const void *data, size_t size) {
  const unsigned char *bytes = data;
  // ELF, machine EM_AMDGPU (224) at offset 18, little endian.
  return data && size >= 20 && bytes[0] == 0x7f && bytes[1] == 'E' &&
         bytes[2] == 'L' && bytes[3] == 'F' && bytes[18] == 224 &&
         bytes[19] == 0;
}

/// The HIP context of `device`, made on first use; NULL after recording
/// the thread's error.
static TileRtContext *context(int device, const char *what) {
  pthread_mutex_lock(&lock);
  TileRtContext *ctx = contexts[device];
  if (!ctx) {
    int status = tileHipInit(&ctx, device);
    if (status != TILE_RT_SUCCESS) {
      ctx = NULL;
      tileRecordErrorMessage(status, "%s: %s", what, tileRtLastError(NULL));
    } else {
      contexts[device] = ctx;
    }
  }
  pthread_mutex_unlock(&lock);
  return ctx;
}

CUmodule tileMgpuHipLoad(int device, const void *image, size_t size,
                         const char *what) {
  TileRtContext *ctx = context(device, what);
  if (!ctx)
    return NULL;
  CUmodule module = NULL;
  int status = tileHipModuleLoad(ctx, image, size, &module);
  if (status != TILE_RT_SUCCESS) {
    tileRecordErrorMessage(status, "%s: %s", what, ctx->error);
    return NULL;
  }
  return module;
}

void tileMgpuHipUnload(int device, CUmodule module) {
  TileRtContext *ctx = contexts[device];
  if (ctx && module)
    tileHipModuleUnload(ctx, module);
}

CUfunction tileMgpuHipFunction(int device, CUmodule module, const char *name,
                               const char *what) {
  TileRtContext *ctx = context(device, what);
  if (!ctx)
    return NULL;
  CUfunction function = NULL;
  int status = tileHipGetFunction(ctx, module, name, &function);
  if (status != TILE_RT_SUCCESS) {
    tileRecordErrorMessage(status, "%s: %s", what, ctx->error);
    return NULL;
  }
  pthread_mutex_lock(&lock);
  int known = 0;
  for (int i = 0; i < numFunctions && !known; ++i)
    known = functions[i].function == function;
  if (!known && numFunctions < kMaxHipFunctions) {
    functions[numFunctions].function = function;
    functions[numFunctions].device = device;
    snprintf(functions[numFunctions].name, sizeof(functions[0].name), "%s",
             name);
    ++numFunctions;
  } else if (!known) {
    function = NULL;
    tileRecordError(TILE_RT_ERROR_CAPACITY, "%s: more than %d HIP kernels",
                    what, (int)kMaxHipFunctions);
  }
  pthread_mutex_unlock(&lock);
  return function;
}

int tileMgpuIsHipFunction(CUfunction function) {
  if (!function)
    return 0;
  pthread_mutex_lock(&lock);
  int found = 0;
  for (int i = 0; i < numFunctions && !found; ++i)
    found = functions[i].function == function;
  pthread_mutex_unlock(&lock);
  return found;
}

int tileMgpuHipLaunch(CUfunction function, const unsigned grid[3],
                      const unsigned block[3], unsigned sharedBytes,
                      void **params, const char *api) {
  int device = -1;
  char name[96] = "";
  pthread_mutex_lock(&lock);
  for (int i = 0; i < numFunctions && device < 0; ++i)
    if (functions[i].function == function) {
      device = functions[i].device;
      memcpy(name, functions[i].name, sizeof(name));
    }
  pthread_mutex_unlock(&lock);
  if (device < 0)
    return 0; // not a HIP kernel
  TileRtContext *ctx = context(device, api);
  if (!ctx)
    return 1;
  int status =
      tileHipLaunchRaw(ctx, function, name, grid, block, sharedBytes, params);
  if (status != TILE_RT_SUCCESS)
    tileRecordErrorMessage(status, "%s: %s", api, ctx->error);
  return 1;
}
