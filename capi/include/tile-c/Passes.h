//===- Passes.h - C API for the tile passes -----------------------*- C -*-===//
//
// C bindings for the tile passes: `mlirRegisterTilePasses()` registers all of
// them (so that `mlirParsePassPipeline` knows them by name), and
// `mlirCreateTile<Pass>()` / `mlirRegisterTile<Pass>()` create and register
// each pass (for example `mlirCreateTileCheckResources()` for
// `tile-check-resources`). The declarations are generated from
// tile/Transforms/Passes.td, tile/Conversion/Passes.td and
// tile/Host/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_PASSES_H
#define TILE_C_PASSES_H

#include "mlir-c/Pass.h"

#include "tile/Transforms/Passes.capi.h.inc"
#include "tile/Conversion/Passes.capi.h.inc"
#include "tile/Host/Passes.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers the one-shot pipelines (`tile-to-nvvm`) so that
/// `mlirParsePassPipeline` knows them by name.
MLIR_CAPI_EXPORTED void tileRegisterPipelines(void);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_PASSES_H
