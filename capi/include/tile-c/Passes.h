//===- Passes.h - C API for the tile passes -----------------------*- C -*-===//
//
// C bindings for the tile passes: `mlirRegisterTilePasses()` registers all of
// them (so that `mlirParsePassPipeline` knows them by name), and
// `mlirCreateTile<Pass>()` / `mlirRegisterTile<Pass>()` create and register
// each pass (for example `mlirCreateTileCheckResources()` for
// `tile-check-resources`). The declarations are generated from
// tile/Transforms/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_PASSES_H
#define TILE_C_PASSES_H

#include "mlir-c/Pass.h"

#include "tile/Transforms/Passes.capi.h.inc"

#endif // TILE_C_PASSES_H
