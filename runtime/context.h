//===- context.h - The tile runtime's handles (internal) -----------*- C
//-*-===//
//
// Internal header of the tile runtime: the structures behind the opaque
// handles of tile_runtime.h, shared by the CUDA implementation
// (tile_runtime.c) and the HIP one (hip.c). A context records its backend;
// modules and functions of a HIP context keep HIP handles in the CUDA
// handle fields (both are opaque pointers).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_CONTEXT_H
#define TILE_RUNTIME_CONTEXT_H

#include "driver.h"
#include "tile_runtime.h"

enum { kMessageSize = 4096 };

struct TileRtContext {
  /// TILE_RT_BACKEND_CUDA or TILE_RT_BACKEND_HIP (hip.c).
  int backend;
  /// The device ordinal (CUDA: its CUdevice; HIP: the hipSetDevice id).
  CUdevice device;
  CUcontext context;            // CUDA only
  struct TileRtModule *modules; // loaded modules (linked list)
  char error[kMessageSize];
};

struct TileRtFunction {
  struct TileRtModule *module;
  CUfunction function; // a hipFunction_t in HIP contexts
  char *name;
  unsigned maxDynamicShared; // known dynamic shared memory limit (0: unknown)
  struct TileRtFunction *next;
};

struct TileRtModule {
  TileRtContext *ctx;
  CUmodule module; // a hipModule_t in HIP contexts
  struct TileRtFunction *functions;
  struct TileRtModule *next;
};

struct TileRtEvent {
  CUevent event;
};

/// The message buffer of the last failed call without a context on this
/// thread (tileRtLastError(NULL)).
TILE_RT_HIDDEN char *tileThreadErrorBuffer(void);

/// Records "<what>: <status string>" as the last error of `ctx` (or of the
/// thread) and returns `status`.
TILE_RT_HIDDEN int tileFail(TileRtContext *ctx, int status, const char *format,
                            ...) __attribute__((format(printf, 3, 4)));

/// Returns 0 if `result` is CUDA_SUCCESS, else records the error.
#define CHECK_CU(ctx, call, ...)                                               \
  do {                                                                         \
    CUresult checkResult = (call);                                             \
    if (checkResult != CUDA_SUCCESS)                                           \
      return tileFail((ctx), checkResult, __VA_ARGS__);                        \
  } while (0)

#define CHECK_ARG(ctx, cond, ...)                                              \
  do {                                                                         \
    if (!(cond))                                                               \
      return tileFail((ctx), TILE_RT_ERROR_INVALID_ARGUMENT, __VA_ARGS__);     \
  } while (0)

/// Checks that `ctx` is a valid context (the driver is then loaded).
#define CHECK_CTX(ctx, what)                                                   \
  do {                                                                         \
    if (!(ctx))                                                                \
      return tileFail(NULL, TILE_RT_ERROR_INVALID_ARGUMENT,                    \
                      "%s: NULL context", what);                               \
  } while (0)

/// Fails calls the HIP backend does not implement (see tile_runtime.h).
#define CHECK_CUDA_ONLY(ctx, what)                                             \
  do {                                                                         \
    if ((ctx) && (ctx)->backend != TILE_RT_BACKEND_CUDA)                       \
      return tileFail((ctx), TILE_RT_ERROR_UNSUPPORTED, "%s on a HIP context", \
                      what);                                                   \
  } while (0)

#endif // TILE_RUNTIME_CONTEXT_H
