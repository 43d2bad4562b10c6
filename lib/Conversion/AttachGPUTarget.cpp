//===- AttachGPUTarget.cpp - gpu.module targets from #tile.target -*- C++
//-*-===//
//
// Translates the module's `#tile.target` into the upstream serialization
// target of each `gpu.module`, by running upstream's attach pass with the
// chip and features the target names.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::tile {
#define GEN_PASS_DEF_ATTACHGPUTARGET
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct AttachGPUTargetPass
    : public tile::impl::AttachGPUTargetBase<AttachGPUTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    TargetAttr target = getTargetAttr(module);
    const ChipDescription *chip = target.getDescription();
    if (!chip->isNVIDIA()) {
      module.emitError("no device code generator for ")
          << target.getChip() << " yet: the ROCDL pipeline is not "
          << "implemented";
      return signalPassFailure();
    }
    GpuNVVMAttachTargetOptions options;
    options.chip = target.getChip().str();
    options.features = "+ptx" + std::to_string(target.getPtxVersion());
    options.optLevel = optLevel;
    options.linkLibs.assign(linkLibs.begin(), linkLibs.end());
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createGpuNVVMAttachTarget(options));
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};
} // namespace
