//===- Host.h - C API to compile a module's host side -------------*- C -*-===//
//
// A module compiled by `tile-to-nvvm` keeps the functions the user wrote
// around the kernels (`func.func @gemm(%A, %B, %C)`), lowered to LLVM: they
// compute the grid, check their arguments, and launch the embedded GPU
// binary through the `mgpu` runtime ABI (libtile_cuda_runtime.so,
// runtime/include/tile_runtime.h). A public function `f` is exported as
// `void f(tile_memref_2d *A, ...)`, taking pointers to memref descriptors.
//
// Two ways to call them from C:
//  - JIT: `mlirExecutionEngineCreate` (mlir-c/ExecutionEngine.h, exported by
//    this library) with libtile_cuda_runtime.so as a shared library path,
//    then `mlirExecutionEngineLookup(engine, "f")`;
//  - AOT: `tileModuleEmitObjectFile` writes the host code as an object file
//    to link into a program or a shared library; `tileModuleEmitCHeader`
//    (on the module before compiling it) writes the header declaring the
//    functions. The tile-compile tool does both and links the library.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_HOST_H
#define TILE_C_HOST_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Writes, through `callback`, a C header declaring the public functions of
/// `module`, which must not be compiled yet (func.func with memref
/// arguments), with `guard` as its include guard. Fails, with an error
/// diagnostic at the function, for a signature C cannot express or a name
/// that is not a C identifier, is a C or C++ keyword, or is one of the
/// header's own names (`int64_t`, `tile_memref_2d`, the guard): the name
/// would not declare that function; and, with one at the module, for a
/// guard that is not a C identifier or is a keyword. Fails without a
/// diagnostic for a null module or callback; writes nothing on failure.
MLIR_CAPI_EXPORTED MlirLogicalResult
tileModuleEmitCHeader(MlirModule module, MlirStringRef guard,
                      MlirStringCallback callback, void *userData);

/// Writes, through `callback`, a JSON table of the public functions of
/// `module` (not compiled yet): for each its name, result type and
/// arguments (memrefs with element type, static sizes and `tile.shape`
/// names; scalars with their type), the description a caller needs without
/// MLIR (docs/python.md gives the format; tile-compile embeds it in the
/// libraries it links as the symbol `tile_mlir_signatures`). Fails, with an
/// error diagnostic at the function, for several results or an unranked
/// memref argument, and without one for a null module or callback; writes
/// nothing on failure.
MLIR_CAPI_EXPORTED MlirLogicalResult tileModuleEmitSignatures(
    MlirModule module, MlirStringCallback callback, void *userData);

/// Compiles the host code of a lowered module (LLVM dialect and gpu.binary
/// ops, as tile-to-nvvm leaves it) for the machine this runs on, as
/// position-independent code optimized at `optLevel` (0 to 3), into the
/// object file `path`. Fails with an error diagnostic at the module (and
/// without one for a null module), also when `path` cannot be written (a
/// full disk, `/dev/full`): an I/O failure never ends the process. A partly
/// written regular file is removed; a device is left alone.
MLIR_CAPI_EXPORTED MlirLogicalResult
tileModuleEmitObjectFile(MlirModule module, MlirStringRef path, int optLevel);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_HOST_H
