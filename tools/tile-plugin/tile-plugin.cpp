//===- tile-plugin.cpp - Tile dialect and pass plugin -----------*- C++ -*-===//
//
// A plugin that tools linking libMLIR.so, such as the stock mlir-opt, load at
// run time:
//
//   mlir-opt --load-dialect-plugin=TilePlugin.so \
//            --load-pass-plugin=TilePlugin.so \
//            --pass-pipeline='builtin.module(tile-to-nvvm{chip=sm_90a})'
//            in.mlir
//
// The dialect plugin registers the tile dialect (its dependent dialects come
// with it), the interfaces the lowering needs (translations, GPU targets,
// convert-to-LLVM) and every tile pass and pipeline; the pass plugin
// registers the passes and pipelines: what tile-opt registers of its own.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Host/Passes.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Pipelines/Registration.h"
#include "tile/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

/// Registers the tile passes, conversions and pipelines (tile-to-nvvm,
/// tile-to-rocdl, ...).
static void registerTilePassesAndPipelines() {
  tile::registerTilePasses();
  tile::registerTileConversionPasses();
  tile::registerTileHostPasses();
  tile::registerTilePipelines();
}

/// Registers the tile dialect and what its lowering needs. The passes are
/// registered as well, so that loading the dialect plugin alone is enough to
/// run them.
static void registerTileDialectPlugin(DialectRegistry *registry) {
  registry->insert<tile::TileDialect>();
  tile::registerTileLoweringInterfaces(*registry);
  registerTilePassesAndPipelines();
}

/// Entry point of the dialect plugin (`--load-dialect-plugin`).
extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TileDialect", LLVM_VERSION_STRING,
          registerTileDialectPlugin};
}

/// Entry point of the pass plugin (`--load-pass-plugin`).
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TilePasses", LLVM_VERSION_STRING,
          registerTilePassesAndPipelines};
}
