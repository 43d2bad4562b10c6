//===- driver.c - CUDA driver access for the tile runtime ---------*- C -*-===//
//
// Loading libcuda.so.1, status strings and driver helpers shared by the
// tileRt* API (tile_runtime.c) and the mgpu ABI (mgpu.c, tensor_map.c); the
// thread's sticky error (tileRtGetError) with the tileRtHost* functions that
// set and read it.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "driver.h"
#include "tile_runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TileDriver tileCu;

/// Result of loading and initializing the driver, set once per process.
static pthread_once_t driverOnce = PTHREAD_ONCE_INIT;
static int driverStatus = TILE_RT_ERROR_DRIVER_NOT_FOUND;
static char driverMessage[512];
static int errorNamesLoaded; // tileCu.cuGetError* usable
static int driverReady;

//===----------------------------------------------------------------------===//
// Status strings
//===----------------------------------------------------------------------===//

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
  case TILE_RT_ERROR_UNSUPPORTED:
    return "not supported on this backend";
  case TILE_RT_ERROR_HIP:
    return "HIP runtime error";
  default:
    break;
  }
  if (status < 0)
    return "unknown tile runtime error";

  static _Thread_local char buffer[512];
  const char *name = NULL, *description = NULL;
  if (errorNamesLoaded) {
    if (tileCu.cuGetErrorName(status, &name) != CUDA_SUCCESS)
      name = NULL;
    if (tileCu.cuGetErrorString(status, &description) != CUDA_SUCCESS)
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
  *(void **)(&tileCu.field) = dlsym(handle, symbol);                           \
  if (!tileCu.field) {                                                         \
    snprintf(driverMessage, sizeof(driverMessage),                             \
             "%s has no %s: the CUDA driver is too old", path, symbol);        \
    driverStatus = TILE_RT_ERROR_DRIVER_SYMBOL;                                \
    return;                                                                    \
  }
  TILE_RT_DRIVER_FUNCTIONS(TILE_RT_LOOKUP)
#undef TILE_RT_LOOKUP
  *(void **)(&tileCu.cuEventElapsedTime) =
      dlsym(handle, "cuEventElapsedTime_v2");
  if (!tileCu.cuEventElapsedTime)
    *(void **)(&tileCu.cuEventElapsedTime) =
        dlsym(handle, "cuEventElapsedTime");
  if (!tileCu.cuEventElapsedTime) {
    snprintf(driverMessage, sizeof(driverMessage),
             "%s has no cuEventElapsedTime", path);
    driverStatus = TILE_RT_ERROR_DRIVER_SYMBOL;
    return;
  }
  *(void **)(&tileCu.cuLaunchKernelEx) = dlsym(handle, "cuLaunchKernelEx");
  *(void **)(&tileCu.cuTensorMapEncodeTiled) =
      dlsym(handle, "cuTensorMapEncodeTiled");
  *(void **)(&tileCu.cuFuncGetName) = dlsym(handle, "cuFuncGetName");
  *(void **)(&tileCu.cuMemPoolCreate) = dlsym(handle, "cuMemPoolCreate");
  *(void **)(&tileCu.cuMemPoolSetAttribute) =
      dlsym(handle, "cuMemPoolSetAttribute");
  *(void **)(&tileCu.cuMemAllocFromPoolAsync) =
      dlsym(handle, "cuMemAllocFromPoolAsync");
  *(void **)(&tileCu.cuMemFreeAsync) = dlsym(handle, "cuMemFreeAsync");
  errorNamesLoaded = 1;

  CUresult result = tileCu.cuInit(0);
  if (result != CUDA_SUCCESS) {
    snprintf(driverMessage, sizeof(driverMessage), "cuInit (%s): %s", path,
             tileRtErrorString(result));
    driverStatus = result;
    return;
  }
  driverStatus = TILE_RT_SUCCESS;
  driverMessage[0] = 0;
  driverReady = 1;
}

int tileDriverLoad(void) {
  pthread_once(&driverOnce, loadDriver);
  return driverStatus;
}

const char *tileDriverMessage(void) {
  pthread_once(&driverOnce, loadDriver);
  return driverMessage;
}

int tileDriverReady(void) {
  // Set once inside pthread_once; a thread that has not seen it yet has not
  // used the driver either.
  return __atomic_load_n(&driverReady, __ATOMIC_ACQUIRE);
}

//===----------------------------------------------------------------------===//
// Shared driver helpers
//===----------------------------------------------------------------------===//

int tileIsBinaryImage(const void *image, size_t size) {
  const unsigned char *data = image;
  if (size < 4)
    return 0;
  // ELF (cubin) or fatbin (magic 0xBA55ED50, or the 0x466243B1 wrapper).
  if (data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' && data[3] == 'F')
    return 1;
  if (data[0] == 0x50 && data[1] == 0xED && data[2] == 0x55 && data[3] == 0xBA)
    return 1;
  if (data[0] == 0xB1 && data[1] == 0x43 && data[2] == 0x62 && data[3] == 0x46)
    return 1;
  return 0;
}

int tileLoadModuleImage(CUmodule *module, const void *image, size_t size,
                        int optLevel, char *log, size_t logSize) {
  *module = NULL;
  // PTX is text the driver reads up to a NUL: copy it with one if needed.
  const void *data = image;
  char *ptx = NULL;
  if (!tileIsBinaryImage(image, size) && memchr(image, 0, size) == NULL) {
    ptx = malloc(size + 1);
    if (!ptx)
      return TILE_RT_ERROR_OUT_OF_MEMORY;
    memcpy(ptx, image, size);
    ptx[size] = 0;
    data = ptx;
  }
  log[0] = 0;
  int options[3] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                    CU_JIT_OPTIMIZATION_LEVEL};
  void *values[3] = {log, (void *)(uintptr_t)logSize,
                     (void *)(uintptr_t)(optLevel < 0 ? 0 : optLevel)};
  CUresult result = tileCu.cuModuleLoadDataEx(
      module, data, optLevel < 0 ? 2 : 3, options, values);
  free(ptx);
  log[logSize - 1] = 0;
  if (result != CUDA_SUCCESS)
    *module = NULL;
  return result;
}

CUresult tileAllowDynamicShared(CUfunction fn, unsigned bytes, unsigned *limit,
                                const char **failedCall) {
  int current = 0;
  CUresult result = tileCu.cuFuncGetAttribute(
      &current, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, fn);
  if (result != CUDA_SUCCESS) {
    *failedCall = "cuFuncGetAttribute";
    return result;
  }
  if (current >= 0 && bytes <= (unsigned)current) {
    *limit = (unsigned)current;
    return CUDA_SUCCESS;
  }
  result = tileCu.cuFuncSetAttribute(
      fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)bytes);
  if (result != CUDA_SUCCESS) {
    *failedCall = "cuFuncSetAttribute";
    return result;
  }
  *limit = bytes;
  return CUDA_SUCCESS;
}

const char *tileKernelName(CUfunction fn) {
  const char *name = NULL;
  if (!fn || !tileCu.cuFuncGetName ||
      tileCu.cuFuncGetName(&name, fn) != CUDA_SUCCESS)
    return NULL;
  return name;
}

//===----------------------------------------------------------------------===//
// The thread's sticky error
//===----------------------------------------------------------------------===//

static _Thread_local int stickyStatus;
static _Thread_local char stickyMessage[kTileMessageSize];
/// The message of the thread's last recorded failure, sticky or not, without
/// the host-function prefix.
static _Thread_local char lastMessage[kTileMessageSize];
static _Thread_local int lastStatus;
/// The compiled host function in progress (tileRtHostBegin), "" if none.
static _Thread_local char hostFunction[256];

static void recordV(int status, int appendStatus, const char *format,
                    va_list args) {
  if (status == 0)
    return;
  lastStatus = status;
  size_t size = sizeof(lastMessage);
  int n = vsnprintf(lastMessage, size, format, args);
  size_t used = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
  if (appendStatus && used < size - 1)
    snprintf(lastMessage + used, size - used, ": %s",
             tileRtErrorString(status));
  if (stickyStatus != 0)
    return;
  stickyStatus = status;
  // "<host function>: <message>", truncated to the buffer.
  size_t prefix = strlen(hostFunction), length = strlen(lastMessage);
  size_t capacity = sizeof(stickyMessage) - 1;
  if (prefix > 0) {
    memcpy(stickyMessage, hostFunction, prefix);
    memcpy(stickyMessage + prefix, ": ", 2);
    prefix += 2;
  }
  if (length > capacity - prefix)
    length = capacity - prefix;
  memcpy(stickyMessage + prefix, lastMessage, length);
  stickyMessage[prefix + length] = 0;
}

const char *tileLastFailure(int *status) {
  *status = lastStatus;
  return lastMessage;
}

void tileRecordError(int status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(status, 1, format, args);
  va_end(args);
}

void tileRecordErrorMessage(int status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordV(status, 0, format, args);
  va_end(args);
}

int tileRtGetError(void) { return stickyStatus; }

const char *tileRtGetErrorMessage(void) {
  return stickyStatus ? stickyMessage : "";
}

void tileRtClearError(void) {
  stickyStatus = 0;
  stickyMessage[0] = 0;
}

void tileRtHostBegin(const char *function) {
  tileRtClearError();
  snprintf(hostFunction, sizeof(hostFunction), "%s", function ? function : "");
}

void tileRtHostArgError(const char *function, const char *message) {
  // The message names the function itself: no host-function prefix.
  char saved[sizeof(hostFunction)];
  memcpy(saved, hostFunction, sizeof(saved));
  hostFunction[0] = 0;
  tileRecordErrorMessage(TILE_RT_ERROR_INVALID_ARGUMENT, "%s: %s",
                         function ? function : "(unknown function)",
                         message ? message : "invalid argument");
  memcpy(hostFunction, saved, sizeof(saved));
}

void tileRtHostArgErrorValue(const char *function, const char *before,
                             int64_t value, const char *after) {
  char message[kTileMessageSize];
  snprintf(message, sizeof(message), "%s%lld%s", before ? before : "",
           (long long)value, after ? after : "");
  tileRtHostArgError(function, message);
}

int32_t tileRtHostFailed(void) { return stickyStatus != 0; }

void tileHostCallEnded(void) { hostFunction[0] = 0; }

int tileInHostCall(void) { return hostFunction[0] != 0; }
