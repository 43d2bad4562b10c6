//===- Pipelines.cpp - One-shot tile pipelines ------------------*- C++ -*-===//

#include "tile/Conversion/Passes.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::buildTileToNVVMPipeline(
    OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
  pm.addPass(createLayoutInference());
  pm.addPass(createLowerOps());
  pm.addPass(createConvertTileToGPU());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = options.features;
  nvvm.cubinFormat = options.format;
  nvvm.optLevel = options.optLevel;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}

void mlir::tile::registerTilePipelines() {
  PassPipelineRegistration<TileToNVVMPipelineOptions>(
      "tile-to-nvvm",
      "Compile tile kernels to a gpu.binary for NVIDIA GPUs (layout "
      "inference, tile op lowering, outlining, NVVM lowering, serialization)",
      buildTileToNVVMPipeline);
}
