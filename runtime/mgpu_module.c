//===- mgpu_module.c - Modules of the mgpu runtime ABI ------------*- C -*-===//
//
// mgpuModuleLoad/LoadJIT/Unload/GetFunction. The LLVM IR translation of
// gpu.binary calls mgpuModuleLoad from a global constructor, before main.
// Loading there would initialize CUDA before the program runs: before
// compute-sanitizer or a profiler has attached (which then refuse to work),
// before the program picks its device (mgpuSetDefaultDevice), and with any
// error reported at startup instead of at the call that needs the module.
// So a module handle here is a lazy module: the image is kept (it is a
// constant of the compiled program), and it is loaded into the primary
// context of the calling thread's default device at the first
// mgpuModuleGetFunction there; one CUmodule per device.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "driver.h"
#include "mgpu_hip.h"
#include "tile_mgpu.h"
#include "tile_runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A module handle of the mgpu ABI (`struct CUmod_st *` in tile_mgpu.h, an
/// opaque pointer to the compiled code).
typedef struct TileLazyModule {
  const void *image;
  size_t size;
  /// The JIT optimization level of PTX, or -1 (mgpuModuleLoad).
  int optLevel;
  /// An AMDGPU code object, loaded through HIP (mgpu_hip.c).
  int amd;
  const char *api;
  pthread_mutex_t lock;
  /// The module loaded in each device's primary context, or NULL.
  CUmodule loaded[kTileMaxDevices];
  /// Whether the module loaded on each device defines
  /// TILE_MGPU_DEPENDENT_LAUNCH_SYMBOL.
  int dependent[kTileMaxDevices];
} TileLazyModule;

//===----------------------------------------------------------------------===//
// Failed loads
//===----------------------------------------------------------------------===//

// The first failed load (an invalid image at mgpuModuleLoad, or a failure
// to load at the first use), kept for the process, so that a later use of a
// NULL handle still says why it is NULL.
static pthread_mutex_t loadFailureLock = PTHREAD_MUTEX_INITIALIZER;
static int loadFailureStatus;
static char loadFailure[kTileMessageSize];
static int loadFailureCount;

static void rememberLoadFailure(void) {
  int status = 0;
  const char *message = tileLastFailure(&status);
  pthread_mutex_lock(&loadFailureLock);
  if (loadFailureCount++ == 0) {
    loadFailureStatus = status;
    snprintf(loadFailure, sizeof(loadFailure), "%s", message);
  }
  pthread_mutex_unlock(&loadFailureLock);
}

void tileRecordNullHandle(const char *what, const char *handle) {
  pthread_mutex_lock(&loadFailureLock);
  int status = loadFailureStatus;
  int count = loadFailureCount;
  char reason[kTileMessageSize];
  snprintf(reason, sizeof(reason), "%s", loadFailure);
  pthread_mutex_unlock(&loadFailureLock);
  if (count == 0) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT, "%s: NULL %s", what,
                    handle);
  } else if (count == 1) {
    tileRecordErrorMessage(status, "%s: NULL %s: module not loaded: %s", what,
                           handle, reason);
  } else {
    tileRecordErrorMessage(status,
                           "%s: NULL %s: module not loaded: %s (and %d more "
                           "failed module loads)",
                           what, handle, reason, count - 1);
  }
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

static const char *imageKind(const void *data, size_t size) {
  if (!tileIsBinaryImage(data, size))
    return "PTX";
  return ((const unsigned char *)data)[0] == 0x7f ? "cubin" : "fatbin";
}

/// Loads `module` into the current context (of device `device`), once.
/// Returns the CUmodule, or NULL with the error recorded for `what`.
static CUmodule loadOnDevice(TileLazyModule *module, int device,
                             const char *what) {
  pthread_mutex_lock(&module->lock);
  CUmodule loaded = module->loaded[device];
  if (!loaded && module->amd) {
    loaded = tileMgpuHipLoad(device, module->image, module->size, what);
    module->loaded[device] = loaded;
    if (!loaded)
      rememberLoadFailure();
  } else if (!loaded) {
    char log[4096];
    int status = tileLoadModuleImage(&loaded, module->image, module->size,
                                     module->optLevel, log, sizeof(log));
    char options[32] = "";
    if (module->optLevel >= 0)
      snprintf(options, sizeof(options), ", -O%d", module->optLevel);
    if (status != CUDA_SUCCESS) {
      loaded = NULL;
      if (log[0])
        tileRecordErrorMessage(
            status,
            "%s: %s: cuModuleLoadDataEx(%s, %zu bytes%s): %s; JIT "
            "log: %s",
            what, module->api, imageKind(module->image, module->size),
            module->size, options, tileRtErrorString(status), log);
      else
        tileRecordError(status, "%s: %s: cuModuleLoadDataEx(%s, %zu bytes%s)",
                        what, module->api,
                        imageKind(module->image, module->size), module->size,
                        options);
    }
    module->loaded[device] = loaded;
    if (!loaded) {
      rememberLoadFailure();
    } else {
      CUdeviceptr address = 0;
      size_t bytes = 0;
      module->dependent[device] =
          tileCu.cuModuleGetGlobal(&address, &bytes, loaded,
                                   TILE_MGPU_DEPENDENT_LAUNCH_SYMBOL) ==
          CUDA_SUCCESS;
    }
  }
  pthread_mutex_unlock(&module->lock);
  return loaded;
}

//===----------------------------------------------------------------------===//
// Kernels launched as programmatic dependents
//===----------------------------------------------------------------------===//

// The kernels of modules that define TILE_MGPU_DEPENDENT_LAUNCH_SYMBOL, as
// mgpuModuleGetFunction gave them out (compiled host code asks before each
// launch), for the process. A kernel that is not found here is launched
// plainly, which is always correct: its grid dependency control then
// returns at once.
enum { kMaxDependentFunctions = 1024 };
static pthread_mutex_t dependentLock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  CUfunction function;
  CUmodule module;
} dependentFunctions[kMaxDependentFunctions];
static int numDependentFunctions;

static int findDependentLocked(CUfunction function) {
  for (int i = 0; i < numDependentFunctions; ++i)
    if (dependentFunctions[i].function == function)
      return 1;
  return 0;
}

static void rememberDependent(CUfunction function, CUmodule module) {
  pthread_mutex_lock(&dependentLock);
  if (!findDependentLocked(function) &&
      numDependentFunctions < kMaxDependentFunctions) {
    dependentFunctions[numDependentFunctions].function = function;
    dependentFunctions[numDependentFunctions].module = module;
    ++numDependentFunctions;
  }
  pthread_mutex_unlock(&dependentLock);
}

/// Drops the kernels of `module`, which is being unloaded (the driver may
/// hand out their handles again for other kernels).
static void forgetDependent(CUmodule module) {
  pthread_mutex_lock(&dependentLock);
  int kept = 0;
  for (int i = 0; i < numDependentFunctions; ++i)
    if (dependentFunctions[i].module != module)
      dependentFunctions[kept++] = dependentFunctions[i];
  numDependentFunctions = kept;
  pthread_mutex_unlock(&dependentLock);
}

int tileMgpuIsDependentLaunch(CUfunction function) {
  if (!function)
    return 0;
  pthread_mutex_lock(&dependentLock);
  int found = findDependentLocked(function);
  pthread_mutex_unlock(&dependentLock);
  return found;
}

static struct CUmod_st *createModule(const char *api, const void *data,
                                     size_t size, int optLevel) {
  if (!data || size == 0) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT, "%s: empty image", api);
    rememberLoadFailure();
    return NULL;
  }
  TileLazyModule *module = calloc(1, sizeof(*module));
  if (!module) {
    tileRecordError(TILE_RT_ERROR_OUT_OF_MEMORY, "%s", api);
    rememberLoadFailure();
    return NULL;
  }
  module->image = data;
  module->size = size;
  module->optLevel = optLevel;
  module->amd = tileIsAmdCodeObject(data, size);
  module->api = api;
  pthread_mutex_init(&module->lock, NULL);
  return (struct CUmod_st *)module;
}

struct CUmod_st *mgpuModuleLoad(void *data, size_t size) {
  return createModule("mgpuModuleLoad", data, size, -1);
}

struct CUmod_st *mgpuModuleLoadJIT(void *data, int optLevel) {
  if (optLevel < 0 || optLevel > 4) {
    tileRecordErrorMessage(TILE_RT_ERROR_INVALID_ARGUMENT,
                           "mgpuModuleLoadJIT: optimization level %d not in "
                           "[0, 4]: invalid argument",
                           optLevel);
    rememberLoadFailure();
    return NULL;
  }
  size_t size = data ? strlen(data) + 1 : 0;
  return createModule("mgpuModuleLoadJIT", data, size, optLevel);
}

void mgpuModuleUnload(struct CUmod_st *handle) {
  TileLazyModule *module = (TileLazyModule *)handle;
  if (!module)
    return;
  // Unload from every device it was loaded on (in that device's primary
  // context; the driver may be gone at exit, when nothing was loaded).
  for (int device = 0; device < kTileMaxDevices; ++device) {
    if (!module->loaded[device])
      continue;
    if (module->amd) {
      tileMgpuHipUnload(device, module->loaded[device]);
      continue;
    }
    int previous = tileDefaultDevice();
    mgpuSetDefaultDevice(device);
    if (module->dependent[device])
      forgetDependent(module->loaded[device]);
    TileScope scope;
    if (tileScopeEnter(&scope, "mgpuModuleUnload") == 0) {
      CUresult result = tileCu.cuModuleUnload(module->loaded[device]);
      if (result != CUDA_SUCCESS)
        tileRecordError(result, "mgpuModuleUnload: cuModuleUnload");
      tileScopeExit(&scope);
    }
    mgpuSetDefaultDevice(previous);
  }
  pthread_mutex_destroy(&module->lock);
  free(module);
}

struct CUfunc_st *mgpuModuleGetFunction(struct CUmod_st *handle,
                                        const char *name) {
  TileLazyModule *module = (TileLazyModule *)handle;
  char what[320];
  snprintf(what, sizeof(what), "mgpuModuleGetFunction('%s')",
           name ? name : "(null)");
  if (!module) {
    tileRecordNullHandle(what, "module");
    return NULL;
  }
  if (!name) {
    tileRecordError(TILE_RT_ERROR_INVALID_ARGUMENT, "%s: NULL kernel name",
                    what);
    return NULL;
  }
  if (module->amd) {
    int device = tileDefaultDevice();
    CUmodule loaded = loadOnDevice(module, device, what);
    return loaded ? tileMgpuHipFunction(device, loaded, name, what) : NULL;
  }
  TileScope scope;
  if (tileScopeEnter(&scope, what)) {
    rememberLoadFailure(); // no driver or device to load the module on
    return NULL;
  }
  CUfunction function = NULL;
  CUmodule loaded = loadOnDevice(module, tileDefaultDevice(), what);
  if (loaded) {
    CUresult result = tileCu.cuModuleGetFunction(&function, loaded, name);
    if (result != CUDA_SUCCESS) {
      function = NULL;
      tileRecordError(result, "%s: cuModuleGetFunction", what);
    } else if (module->dependent[tileDefaultDevice()]) {
      rememberDependent(function, loaded);
    }
  }
  tileScopeExit(&scope);
  return function;
}
