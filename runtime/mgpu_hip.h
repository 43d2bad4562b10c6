//===- mgpu_hip.h - AMD code objects behind the mgpu ABI ----------*- C -*-===//
//
// Internal header of the tile runtime (mgpu_hip.c).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_MGPU_HIP_H
#define TILE_RUNTIME_MGPU_HIP_H

#include "driver.h"

#include <stddef.h>

/// Whether `data` is an AMDGPU code object (an ELF for EM_AMDGPU).
TILE_RT_HIDDEN int tileIsAmdCodeObject(const void *data, size_t size);

/// Loads the code object on `device` through HIP; NULL after recording the
/// thread's error (prefixed with `what`).
TILE_RT_HIDDEN CUmodule tileMgpuHipLoad(int device, const void *image,
                                        size_t size, const char *what);
TILE_RT_HIDDEN void tileMgpuHipUnload(int device, CUmodule module);

/// Kernel `name` of a module loaded by tileMgpuHipLoad, remembered as a HIP
/// kernel; NULL after recording the thread's error.
TILE_RT_HIDDEN CUfunction tileMgpuHipFunction(int device, CUmodule module,
                                              const char *name,
                                              const char *what);

/// Whether `function` is a kernel tileMgpuHipFunction gave out.
TILE_RT_HIDDEN int tileMgpuIsHipFunction(CUfunction function);

/// Launches `function` through HIP if it is a kernel tileMgpuHipFunction
/// gave out, recording a failure as the thread's error: returns 1 then, or
/// 0 for any other handle (a CUDA function).
TILE_RT_HIDDEN int tileMgpuHipLaunch(CUfunction function,
                                     const unsigned grid[3],
                                     const unsigned block[3],
                                     unsigned sharedBytes, void **params,
                                     const char *api);

#endif // TILE_RUNTIME_MGPU_HIP_H
