//===- host.c - Contexts, streams and host calls of the mgpu ABI --*- C -*-===//
//
// The primary-context scope every mgpu function runs in (the thread's default
// device), the thread's current stream, synchronous mode and the end of a
// compiled host call (tile_runtime.h).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "driver.h"
#include "tile_mgpu.h"
#include "tile_runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Primary contexts
//===----------------------------------------------------------------------===//

/// The retained primary context of each device ordinal used so far (kept for
/// the life of the process, like upstream's), NULL until first used.
static CUcontext primaryContexts[kTileMaxDevices];
static pthread_mutex_t primaryContextsLock = PTHREAD_MUTEX_INITIALIZER;

static _Thread_local int defaultDevice;

int tileDefaultDevice(void) { return defaultDevice; }

void mgpuSetDefaultDevice(int32_t device) {
  if (device < 0 || device >= kTileMaxDevices) {
    tileRecordErrorMessage(TILE_RT_ERROR_INVALID_ARGUMENT,
                           "mgpuSetDefaultDevice: device %d out of range "
                           "[0, %d): invalid argument",
                           (int)device, (int)kTileMaxDevices);
    return;
  }
  defaultDevice = device;
}

/// Each device's pool for stream-ordered workspaces (split-K's): its own,
/// not the device's default pool, so that keeping freed memory for the next
/// call (release threshold: unlimited) changes nothing for other users of
/// the default pool. Without that, memory freed on a stream goes back to the
/// system at the next synchronization and the next call maps it again.
static CUmemoryPool workspacePools[kTileMaxDevices];
static int workspacePoolTried[kTileMaxDevices];
static pthread_mutex_t workspacePoolsLock = PTHREAD_MUTEX_INITIALIZER;

CUmemoryPool tileWorkspacePool(void) {
  int ordinal = defaultDevice;
  CUmemoryPool pool =
      __atomic_load_n(&workspacePools[ordinal], __ATOMIC_ACQUIRE);
  if (pool || !tileCu.cuMemPoolCreate || !tileCu.cuMemAllocFromPoolAsync ||
      !tileCu.cuMemFreeAsync || !tileCu.cuMemPoolSetAttribute)
    return pool;
  pthread_mutex_lock(&workspacePoolsLock);
  pool = workspacePools[ordinal];
  if (!pool && !workspacePoolTried[ordinal]) {
    workspacePoolTried[ordinal] = 1;
    CUdevice device = 0;
    CUmemPoolProps props;
    memset(&props, 0, sizeof(props));
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    if (tileCu.cuDeviceGet(&device, ordinal) == CUDA_SUCCESS) {
      props.location.id = device;
      if (tileCu.cuMemPoolCreate(&pool, &props) == CUDA_SUCCESS) {
        uint64_t keep = UINT64_MAX;
        (void)tileCu.cuMemPoolSetAttribute(
            pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep);
        __atomic_store_n(&workspacePools[ordinal], pool, __ATOMIC_RELEASE);
      } else {
        pool = NULL;
      }
    }
  }
  pthread_mutex_unlock(&workspacePoolsLock);
  return pool;
}

/// The primary context of `ordinal`, retained on first use; NULL after
/// recording an error for `api`.
static CUcontext primaryContext(int ordinal, const char *api) {
  CUcontext context =
      __atomic_load_n(&primaryContexts[ordinal], __ATOMIC_ACQUIRE);
  if (context)
    return context;
  pthread_mutex_lock(&primaryContextsLock);
  context = primaryContexts[ordinal];
  if (!context) {
    CUdevice device = 0;
    CUresult result = tileCu.cuDeviceGet(&device, ordinal);
    if (result != CUDA_SUCCESS) {
      tileRecordError(result, "%s: cuDeviceGet(%d)", api, ordinal);
    } else {
      result = tileCu.cuDevicePrimaryCtxRetain(&context, device);
      if (result != CUDA_SUCCESS) {
        context = NULL;
        tileRecordError(result, "%s: cuDevicePrimaryCtxRetain(device %d)", api,
                        ordinal);
      } else {
        __atomic_store_n(&primaryContexts[ordinal], context, __ATOMIC_RELEASE);
      }
    }
  }
  pthread_mutex_unlock(&primaryContextsLock);
  return context;
}

int tileScopeEnter(TileScope *scope, const char *api) {
  scope->context = NULL;
  scope->pushed = 0;
  int status = tileDriverLoad();
  if (status != TILE_RT_SUCCESS) {
    tileRecordErrorMessage(status, "%s: %s", api, tileDriverMessage());
    return 1;
  }
  CUcontext context = primaryContext(defaultDevice, api);
  if (!context)
    return 1;
  CUcontext current = NULL;
  CUresult result = tileCu.cuCtxGetCurrent(&current);
  if (result == CUDA_SUCCESS && current != context) {
    result = tileCu.cuCtxPushCurrent(context);
    scope->pushed = result == CUDA_SUCCESS;
  }
  if (result != CUDA_SUCCESS) {
    tileRecordError(result,
                    "%s: making the primary context of device %d "
                    "current",
                    api, defaultDevice);
    return 1;
  }
  scope->context = context;
  return 0;
}

void tileScopeExit(TileScope *scope) {
  if (!scope->pushed)
    return;
  CUcontext popped = NULL;
  CUresult result = tileCu.cuCtxPopCurrent(&popped);
  if (result != CUDA_SUCCESS)
    tileRecordError(result, "cuCtxPopCurrent");
  scope->pushed = 0;
}

//===----------------------------------------------------------------------===//
// Streams and compiled host calls
//===----------------------------------------------------------------------===//

static _Thread_local void *currentStream;

/// -1: not decided yet (TILE_RT_SYNC is read at the first use).
static int synchronousMode = -1;

static int synchronous(void) {
  int mode = __atomic_load_n(&synchronousMode, __ATOMIC_RELAXED);
  if (mode < 0) {
    const char *env = getenv("TILE_RT_SYNC");
    int fromEnv = env && strcmp(env, "1") == 0;
    int expected = -1;
    __atomic_compare_exchange_n(&synchronousMode, &expected, fromEnv, 0,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    mode = __atomic_load_n(&synchronousMode, __ATOMIC_RELAXED);
  }
  return mode;
}

void tileRtSetSynchronous(int on) {
  __atomic_store_n(&synchronousMode, on ? 1 : 0, __ATOMIC_RELAXED);
}

void tileRtSetStream(void *stream) { currentStream = stream; }

void *tileRtGetStream(void) { return currentStream; }

void *tileRtHostStream(void) { return currentStream; }

int32_t tileRtHostComputeCapability(void) {
  static const char api[] = "tileRtHostComputeCapability";
  int status = tileDriverLoad();
  if (status != TILE_RT_SUCCESS) {
    tileRecordErrorMessage(status, "%s: %s", api, tileDriverMessage());
    return -1;
  }
  CUdevice device = 0;
  CUresult result = tileCu.cuDeviceGet(&device, defaultDevice);
  if (result != CUDA_SUCCESS) {
    tileRecordError(result, "%s: cuDeviceGet(%d)", api, defaultDevice);
    return -1;
  }
  int major = 0, minor = 0;
  result = tileCu.cuDeviceGetAttribute(
      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  if (result == CUDA_SUCCESS)
    result = tileCu.cuDeviceGetAttribute(
        &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  if (result != CUDA_SUCCESS) {
    tileRecordError(result, "%s: cuDeviceGetAttribute(device %d)", api,
                    defaultDevice);
    return -1;
  }
  return 10 * major + minor;
}

void tileRtHostEnd(void *stream) {
  // Without a loaded driver no work can have been issued: nothing to wait
  // for (and no driver to load just for that).
  if (synchronous() && tileDriverReady()) {
    TileScope scope;
    if (tileScopeEnter(&scope, "tileRtHostEnd") == 0) {
      CUresult result = tileCu.cuStreamSynchronize((CUstream)stream);
      if (result != CUDA_SUCCESS) {
        if (stream)
          tileRecordError(result, "tileRtHostEnd: cuStreamSynchronize(%p)",
                          stream);
        else
          tileRecordError(result, "tileRtHostEnd: cuStreamSynchronize(legacy "
                                  "default stream)");
      }
      tileScopeExit(&scope);
    }
  }
  tileHostCallEnded();
}
