//===- tile_runtime.h - CUDA runtime for tile-mlir kernels --------*- C -*-===//
//
// A small C11 library that loads and launches the kernels tile-mlir compiles
// (cubin or PTX) through the CUDA driver API. The driver is loaded at run time
// with dlopen("libcuda.so.1"): nothing here needs CUDA to build, and a program
// linked with this library starts (and reports a clean error) on a machine
// without a GPU or driver.
//
// Conventions:
//  - every function returns an int status: TILE_RT_SUCCESS (0) on success, a
//    negative TILE_RT_ERROR_* code for errors of this library, or a positive
//    CUDA driver error code (CUresult) for errors the driver reports;
//  - tileRtErrorString(status) names a status, tileRtLastError(ctx) gives the
//    message of the last failed call on `ctx` (what failed, with the driver's
//    error name and description); tileRtLastError(NULL) gives the message of
//    the last failed call on this thread that had no context (for example a
//    failed tileRtInit);
//  - nothing aborts or prints.
//
// A context owns the device's primary context, which it makes current on the
// calling thread; all work goes to the default (legacy NULL) stream, which
// libraries like cuBLAS share when used in the same process.
//
// The same library implements the `mgpu*` functions that MLIR's gpu-to-llvm
// lowering calls (tile_mgpu.h) and the entry points of compiled host code
// (tileRtHost*, below). Those report errors through the thread's sticky error
// (tileRtGetError) rather than through statuses.
//
// Environment: TILE_RT_LIBCUDA overrides the path of the driver library
// (default "libcuda.so.1"); the driver is loaded once per process.
// TILE_RT_SYNC=1 makes compiled host calls synchronous (tileRtSetSynchronous).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_H
#define TILE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Status codes
//===----------------------------------------------------------------------===//

enum {
  TILE_RT_SUCCESS = 0,
  /// The driver library (libcuda.so.1) could not be loaded.
  TILE_RT_ERROR_DRIVER_NOT_FOUND = -1,
  /// The driver library lacks a function this library needs.
  TILE_RT_ERROR_DRIVER_SYMBOL = -2,
  /// An argument is NULL or out of range.
  TILE_RT_ERROR_INVALID_ARGUMENT = -3,
  /// A file could not be read.
  TILE_RT_ERROR_IO = -4,
  /// A host allocation failed.
  TILE_RT_ERROR_OUT_OF_MEMORY = -5,
  /// A caller-provided array is too small.
  TILE_RT_ERROR_CAPACITY = -6,
  /// The call is not available on the context's backend (HIP contexts
  /// implement a subset of this API, see tileRtInitBackend).
  TILE_RT_ERROR_UNSUPPORTED = -7,
  /// The HIP runtime reported an error (tileRtLastError names it).
  TILE_RT_ERROR_HIP = -8,
};

/// Returns a static description of `status`: the messages of this library
/// for negative codes ("libcuda.so.1 not found", ...), "success" for 0, and
/// the driver's "NAME: description" for CUDA errors (a built-in name when the
/// driver is not loaded or does not know the code). Never returns NULL.
const char *tileRtErrorString(int status);

//===----------------------------------------------------------------------===//
// Contexts and devices
//===----------------------------------------------------------------------===//

typedef struct TileRtContext TileRtContext;

/// Loads the driver if needed, initializes it and retains the primary context
/// of device `ordinal`, made current on the calling thread. On failure
/// `*ctx` is set to NULL and tileRtLastError(NULL) says why.
int tileRtInit(TileRtContext **ctx, int ordinal);

/// The GPU runtime behind a context.
enum {
  /// NVIDIA: the CUDA driver (libcuda.so.1), cubin / fatbin / PTX modules.
  TILE_RT_BACKEND_CUDA = 0,
  /// AMD: the HIP runtime (libamdhip64.so, or $TILE_RT_LIBHIP, loaded with
  /// dlopen on first use), code-object modules (tile-to-rocdl format=bin).
  /// Implemented: tileRtDestroy, tileRtDeviceName, tileRtSynchronize,
  /// module load / unload, tileRtGetFunction, tileRtLaunch (the same
  /// kernel parameters), tileRtMalloc, tileRtFree, tileRtMemcpyHtoD and
  /// tileRtMemcpyDtoH; the other calls fail with TILE_RT_ERROR_UNSUPPORTED.
  /// Errors of the HIP runtime are TILE_RT_ERROR_HIP, named in
  /// tileRtLastError. The compiled-host entry points (tileRtHost*) and the
  /// mgpu ABI are CUDA only.
  TILE_RT_BACKEND_HIP = 1,
};

/// tileRtInit for `backend`. tileRtInit itself uses the backend named by
/// $TILE_RT_BACKEND ("cuda", the default, or "hip").
int tileRtInitBackend(TileRtContext **ctx, int backend, int ordinal);
/// The backend of `ctx` (TILE_RT_BACKEND_*), -1 for NULL.
int tileRtContextBackend(const TileRtContext *ctx);
/// Releases the primary context and frees `ctx` (NULL is allowed). Modules
/// still loaded on the context are unloaded.
int tileRtDestroy(TileRtContext *ctx);

/// Returns the message of the last failed call on `ctx` (or, for NULL, of the
/// last failed call without a context on this thread); "" if none failed.
const char *tileRtLastError(const TileRtContext *ctx);

/// Number of CUDA devices (loads and initializes the driver if needed).
int tileRtDeviceCount(int *count);

/// Writes the device name, NUL-terminated, to `name` (at most `size` bytes).
int tileRtDeviceName(TileRtContext *ctx, char *name, size_t size);

/// Compute capability, e.g. 9 and 0 for sm_90.
int tileRtDeviceComputeCapability(TileRtContext *ctx, int *major, int *minor);

/// Number of streaming multiprocessors.
int tileRtDeviceSMCount(TileRtContext *ctx, int *count);

/// Largest dynamic + static shared memory a block can opt into, in bytes.
int tileRtDeviceMaxSharedMemoryOptin(TileRtContext *ctx, int *bytes);

/// Any CUdevice_attribute (the raw driver enum value).
int tileRtDeviceAttribute(TileRtContext *ctx, int attribute, int *value);

/// Free and total device memory in bytes.
int tileRtMemGetInfo(TileRtContext *ctx, size_t *freeBytes, size_t *totalBytes);

/// Driver version, e.g. 13000 for CUDA 13.0.
int tileRtDriverVersion(int *version);

/// Waits for all work on the context.
int tileRtSynchronize(TileRtContext *ctx);

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

typedef struct TileRtModule TileRtModule;
typedef struct TileRtFunction TileRtFunction;

/// Loads a module from memory: a cubin (ELF), a fatbin, or PTX text (which
/// need not be NUL-terminated: `size` bytes are used; the driver JIT-compiles
/// it and its error log ends up in tileRtLastError).
int tileRtModuleLoadData(TileRtContext *ctx, const void *image, size_t size,
                         TileRtModule **module);

/// Loads a module from a cubin, fatbin or PTX file.
int tileRtModuleLoadFile(TileRtContext *ctx, const char *path,
                         TileRtModule **module);

/// Unloads the module; its functions become invalid (NULL is allowed).
int tileRtModuleUnload(TileRtModule *module);

/// Looks up kernel `name` (the symbol name, e.g. "gemm_kernel"). The handle
/// is owned by the module.
int tileRtGetFunction(TileRtModule *module, const char *name,
                      TileRtFunction **fn);

/// Static attributes of a kernel; any pointer may be NULL.
int tileRtFunctionInfo(TileRtFunction *fn, int *numRegs, int *staticSharedBytes,
                       int *localBytes, int *maxThreadsPerBlock);

/// Launches `fn` on the default stream. `params` holds one pointer per kernel
/// parameter, pointing at its value (cuLaunchKernel's kernelParams). When
/// `sharedBytes` (dynamic shared memory) is over the kernel's
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (by default 48 KiB minus
/// its static shared memory), the attribute is raised to it first.
/// The launch is asynchronous: errors of the kernel itself show up at the next
/// synchronizing call.
int tileRtLaunch(TileRtFunction *fn, const unsigned grid[3],
                 const unsigned block[3], unsigned sharedBytes, void **params);

//===----------------------------------------------------------------------===//
// Device memory
//===----------------------------------------------------------------------===//

/// A device address (CUdeviceptr).
typedef uint64_t TileRtDevicePtr;

int tileRtMalloc(TileRtContext *ctx, size_t size, TileRtDevicePtr *ptr);
/// Frees `ptr` (0 is allowed).
int tileRtFree(TileRtContext *ctx, TileRtDevicePtr ptr);
int tileRtMemcpyHtoD(TileRtContext *ctx, TileRtDevicePtr dst, const void *src,
                     size_t size);
int tileRtMemcpyDtoH(TileRtContext *ctx, void *dst, TileRtDevicePtr src,
                     size_t size);
int tileRtMemcpyDtoD(TileRtContext *ctx, TileRtDevicePtr dst,
                     TileRtDevicePtr src, size_t size);
/// Sets `size` bytes to `value`.
int tileRtMemsetD8(TileRtContext *ctx, TileRtDevicePtr ptr, uint8_t value,
                   size_t size);
/// Sets `count` 16-bit words to `value` (`ptr` 2-byte aligned).
int tileRtMemsetD16(TileRtContext *ctx, TileRtDevicePtr ptr, uint16_t value,
                    size_t count);
/// Sets `count` 32-bit words to `value` (`ptr` 4-byte aligned).
int tileRtMemsetD32(TileRtContext *ctx, TileRtDevicePtr ptr, uint32_t value,
                    size_t count);

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

typedef struct TileRtEvent TileRtEvent;

int tileRtEventCreate(TileRtContext *ctx, TileRtEvent **event);
/// Destroys `event` (NULL is allowed).
int tileRtEventDestroy(TileRtContext *ctx, TileRtEvent *event);
/// Records `event` on the default stream.
int tileRtEventRecord(TileRtContext *ctx, TileRtEvent *event);
int tileRtEventSynchronize(TileRtContext *ctx, TileRtEvent *event);
/// Milliseconds between two recorded, completed events.
int tileRtEventElapsedMs(TileRtContext *ctx, TileRtEvent *start,
                         TileRtEvent *end, float *ms);

//===----------------------------------------------------------------------===//
// Kernel arguments
//===----------------------------------------------------------------------===//

/// The MLIR memref descriptor of a rank-2 memref, as a kernel lowered with
/// the default memref calling convention takes it: 7 parameters.
typedef struct TileRtMemRef2D {
  TileRtDevicePtr allocated;
  TileRtDevicePtr aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} TileRtMemRef2D;

/// Fills `desc` for a row-major `rows` x `cols` buffer at `ptr` (offset 0,
/// strides {cols, 1}) and appends pointers to its 7 fields to `params` at
/// index `*count`, incrementing `*count` by 7. Fails with
/// TILE_RT_ERROR_CAPACITY (appending nothing) if that would exceed
/// `capacity`. `desc` must outlive the launch that uses `params`.
int tileRtMemRefArgs2D(TileRtMemRef2D *desc, TileRtDevicePtr ptr, int64_t rows,
                       int64_t cols, void **params, size_t capacity,
                       size_t *count);

//===----------------------------------------------------------------------===//
// 16-bit floating point conversions (host side)
//===----------------------------------------------------------------------===//

/// IEEE binary16, round to nearest even.
uint16_t tileRtFloatToHalf(float value);
float tileRtHalfToFloat(uint16_t bits);
/// bfloat16, round to nearest even (NaN stays NaN).
uint16_t tileRtFloatToBF16(float value);
float tileRtBF16ToFloat(uint16_t bits);

//===----------------------------------------------------------------------===//
// The thread's error (mgpu ABI and compiled host code)
//===----------------------------------------------------------------------===//
//
// The mgpu functions (tile_mgpu.h) and the tileRtHost* entry points return no
// status: a failure is recorded as the calling thread's error, which is
// sticky: the first failure is kept, later ones are dropped, until
// tileRtClearError or tileRtHostBegin clears it. Work after a failure still
// runs (a launch of a kernel whose module failed to load fails by itself).
// Nothing prints or aborts. The context-based API above keeps its own
// statuses and tileRtLastError and does not touch this error.

/// The thread's error: 0 if none, a negative TILE_RT_ERROR_* code or a
/// positive CUDA driver error code (CUresult).
int tileRtGetError(void);

/// The message of the thread's error, "" if none: the compiled host function
/// (see tileRtHostBegin), the mgpu function, the driver call with its
/// arguments and the driver's error name and description, e.g.
/// "gemm: mgpuLaunchKernel: cuLaunchKernel('gemm_kernel', grid (8, 8, 1),
/// block (128, 1, 1), 98304 bytes of dynamic shared memory):
/// CUDA_ERROR_INVALID_VALUE: invalid argument". Valid until the thread's
/// next runtime call.
const char *tileRtGetErrorMessage(void);

/// Clears the thread's error.
void tileRtClearError(void);

//===----------------------------------------------------------------------===//
// Entry points of compiled host code
//===----------------------------------------------------------------------===//
//
// A host function compiled by tile-mlir runs as
//
//   tileRtHostBegin("gemm");
//   ... argument checks: tileRtHostArgError("gemm", "...") or
//       tileRtHostArgErrorValue("gemm", "...", value, "...") on failure ...
//   stream = tileRtHostStream();
//   ... mgpu calls (loads, launches on `stream`) ...
//   tileRtHostEnd(stream);
//   return tileRtHostFailed() ? failure : success;
//
// Calls do not nest. A C host sets the stream and the mode before the call
// and reads tileRtGetError / tileRtGetErrorMessage after it. Modules are
// loaded by global constructors, before main: a load failure is the thread's
// error until tileRtHostBegin clears it, and is remembered, so that a later
// launch from that module reports "module not loaded: <reason>".

/// Starts a compiled host call: clears the thread's error and remembers
/// `function`, which prefixes the messages of the errors of this call
/// ("gemm: mgpuLaunchKernel: ...").
void tileRtHostBegin(const char *function);

/// Records TILE_RT_ERROR_INVALID_ARGUMENT with the message
/// "<function>: <message>" (unless an error is recorded already).
void tileRtHostArgError(const char *function, const char *message);

/// Records TILE_RT_ERROR_INVALID_ARGUMENT with the message
/// "<function>: <before><value><after>", the value in decimal, e.g.
/// "fa: argument #0 dimension 2 must be 128, got 64" (unless an error is
/// recorded already).
void tileRtHostArgErrorValue(const char *function, const char *before,
                             int64_t value, const char *after);

/// Nonzero when the thread has an error.
int32_t tileRtHostFailed(void);

/// The stream compiled host code launches on: the thread's current stream
/// (tileRtSetStream; NULL, the legacy default stream, unless set).
void *tileRtHostStream(void);

/// The compute capability of the thread's default device as 10 * major +
/// minor (90 for an H100), or -1 after recording the thread's error (no
/// driver, no device). Libraries compiled for several chips call it to pick
/// the image for the device.
int32_t tileRtHostComputeCapability(void);

/// Ends a compiled host call on `stream`. In synchronous mode it waits for
/// the stream and records any error of the work (kernel faults show up
/// here); otherwise it returns at once, leaving the work running.
void tileRtHostEnd(void *stream);

/// Sets the calling thread's current stream (a CUstream of the primary
/// context of the default device, e.g. from cudaStreamCreate or
/// mgpuStreamCreate; NULL for the legacy default stream). The stream must
/// outlive the calls that use it.
void tileRtSetStream(void *stream);

/// The calling thread's current stream.
void *tileRtGetStream(void);

/// Synchronous mode, for all threads: when on, tileRtHostEnd waits for the
/// work of the call. Off by default, on when the environment variable
/// TILE_RT_SYNC is 1 at the first call.
void tileRtSetSynchronous(int on);

#ifdef __cplusplus
}
#endif

#endif // TILE_RUNTIME_H
