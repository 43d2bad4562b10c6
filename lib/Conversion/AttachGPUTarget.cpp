//===- AttachGPUTarget.cpp - gpu.module targets from #tile.target -*- C++ -*-//
//
// Translates the module's `#tile.target` into the upstream serialization
// target of each `gpu.module` (`#nvvm.target` or `#rocdl.target`), by
// running upstream's attach pass with the chip and features the target
// names.
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
    StringRef chipVendor = chip->isNVIDIA() ? "nvidia" : "amd";
    if (!vendor.empty() && vendor != chipVendor) {
      module.emitError("the target ")
          << target.getChip() << " is "
          << (chip->isNVIDIA() ? "an NVIDIA" : "an AMD") << " GPU: compile it "
          << "with " << (chip->isNVIDIA() ? "tile-to-nvvm" : "tile-to-rocdl")
          << ", not " << (chip->isNVIDIA() ? "tile-to-rocdl" : "tile-to-nvvm");
      return signalPassFailure();
    }
    OpPassManager pm(ModuleOp::getOperationName());
    if (chip->isAMD()) {
      // Code objects for the chip's 64-lane waves.
      GpuROCDLAttachTargetOptions options;
      options.chip = target.getChip().str();
      options.optLevel = optLevel;
      options.wave64Flag = chip->warpSize == 64;
      options.linkLibs.assign(linkLibs.begin(), linkLibs.end());
      pm.addPass(createGpuROCDLAttachTarget(options));
      if (failed(runPipeline(pm, module)))
        return signalPassFailure();
      return;
    }
    GpuNVVMAttachTargetOptions options;
    options.chip = target.getChip().str();
    options.features = "+ptx" + std::to_string(target.getPtxVersion());
    options.optLevel = optLevel;
    options.linkLibs.assign(linkLibs.begin(), linkLibs.end());
    pm.addPass(createGpuNVVMAttachTarget(options));
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};
} // namespace
