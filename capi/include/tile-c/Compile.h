//===- Compile.h - C API to extract compiled GPU kernels ----------*- C -*-===//
//
// Queries on a module compiled by the tile pipeline (for example
// `builtin.module(tile-to-nvvm{chip=sm_90a})` or
// `builtin.module(tile-to-rocdl{chip=gfx942})`), which holds the device code
// in `gpu.binary` operations and launches it with `gpu.launch_func`. The
// queries are the same for both vendors. A C host loads the binary with the
// CUDA driver or the HIP runtime (see runtime/include/tile_runtime.h) and
// launches the kernel with the block size and dynamic shared memory these
// functions return.
//
// Both functions emit an error diagnostic on the module's location and
// return failure when the module holds no matching operation, or when an
// out-pointer is NULL (they then set the others to NULL, 0 or -1, as on any
// failure); they return failure without a diagnostic for a null module. A
// kernel name with NULL data is the empty name only if its length is 0.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_COMPILE_H
#define TILE_C_COMPILE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns in `*data` and `*size` the bytes of the first object of the
/// `gpu.binary` holding kernel `kernelName` (a cubin, fatbin or PTX text, or
/// an AMD code object or assembly, as the pipeline serialized it; text is not
/// NUL-terminated). The binary is the
/// one a `gpu.launch_func` of the kernel refers to; failing that, the
/// `gpu.binary` named `kernelName`; failing that, the only `gpu.binary` of
/// the module (an empty `kernelName` selects the first one). The bytes stay
/// valid as long as the module's context.
MLIR_CAPI_EXPORTED MlirLogicalResult
tileModuleGetGPUBinary(MlirModule module, MlirStringRef kernelName,
                       const void **data, size_t *size);

/// Returns the launch configuration of the first `gpu.launch_func` of kernel
/// `kernelName` (an empty name selects the first launch): `*sharedBytes` is
/// its dynamic shared memory size in bytes (0 if the launch has none) and
/// `block` its block size (x, y, z); a value that is not a constant is
/// returned as -1.
MLIR_CAPI_EXPORTED MlirLogicalResult
tileModuleGetLaunchInfo(MlirModule module, MlirStringRef kernelName,
                        int64_t *sharedBytes, int64_t block[3]);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_COMPILE_H
