//===- hip.h - HIP backend of the tile runtime (internal) ---------*- C -*-===//
//
// Internal header of the tile runtime: the AMD path behind the API of
// tile_runtime.h. The HIP runtime (libamdhip64.so) is loaded at run time with
// dlopen, like the CUDA driver: nothing here needs ROCm to build, and a
// program starts (and reports a clean error) without it. tile_runtime.c
// sends the calls of HIP contexts here.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_HIP_H
#define TILE_RUNTIME_HIP_H

#include "context.h"

/// Creates a HIP context on device `ordinal`: loads the HIP runtime if
/// needed ($TILE_RT_LIBHIP, default libamdhip64.so), calls hipInit, checks
/// the ordinal and selects the device. On failure the thread's error says
/// why (tileRtLastError(NULL)).
TILE_RT_HIDDEN int tileHipInit(TileRtContext **ctx, int ordinal);
TILE_RT_HIDDEN int tileHipDestroy(TileRtContext *ctx);
TILE_RT_HIDDEN int tileHipDeviceName(TileRtContext *ctx, char *name,
                                     size_t size);
TILE_RT_HIDDEN int tileHipSynchronize(TileRtContext *ctx);
/// Loads a code object; `*handle` receives the hipModule_t.
TILE_RT_HIDDEN int tileHipModuleLoad(TileRtContext *ctx, const void *image,
                                     size_t size, CUmodule *handle);
TILE_RT_HIDDEN int tileHipModuleUnload(TileRtContext *ctx, CUmodule handle);
/// Looks up kernel `name`; `*handle` receives the hipFunction_t.
TILE_RT_HIDDEN int tileHipGetFunction(TileRtContext *ctx, CUmodule module,
                                      const char *name, CUfunction *handle);
TILE_RT_HIDDEN int tileHipLaunch(TileRtFunction *fn, const unsigned grid[3],
                                 const unsigned block[3], unsigned sharedBytes,
                                 void **params);
/// The same for a kernel handle alone (the mgpu ABI's launches), `name`
/// for messages; on the legacy default stream.
TILE_RT_HIDDEN int tileHipLaunchRaw(TileRtContext *ctx, CUfunction function,
                                    const char *name, const unsigned grid[3],
                                    const unsigned block[3],
                                    unsigned sharedBytes, void **params);
TILE_RT_HIDDEN int tileHipMalloc(TileRtContext *ctx, size_t size,
                                 TileRtDevicePtr *ptr);
TILE_RT_HIDDEN int tileHipFree(TileRtContext *ctx, TileRtDevicePtr ptr);
TILE_RT_HIDDEN int tileHipMemcpy(TileRtContext *ctx, void *dst, const void *src,
                                 size_t size, int toDevice);

#endif // TILE_RUNTIME_HIP_H
