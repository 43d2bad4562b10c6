//===- Registration.h - C API registration helpers ---------------*- C -*-===//
//
// Helpers registering, in one call, everything tile IR needs.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_REGISTRATION_H
#define TILE_C_REGISTRATION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Inserts into `registry` the tile dialect and the upstream dialects tile IR
/// is built from or lowered to: func, arith, memref, scf, gpu, nvgpu, nvvm,
/// llvm, vector, math, amdgpu and rocdl. Does nothing for a null registry.
MLIR_CAPI_EXPORTED void tileRegisterAllDialects(MlirDialectRegistry registry);

/// Registers all tile passes (same as `mlirRegisterTilePasses`) and the
/// upstream passes of the C API libraries bundled with the tile C library
/// (the core transformation passes and the gpu passes).
MLIR_CAPI_EXPORTED void tileRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_REGISTRATION_H
