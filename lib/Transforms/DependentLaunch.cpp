//===- DependentLaunch.cpp - Programmatic dependent launches ----*- C++ -*-===//
//
// `tile-dependent-launch`: kernels for chips with grid dependency control
// are launched so that they may start while the kernel before them in the
// stream ends (`tile.dependent_launch`). The pass only decides;
// `convert-tile-to-gpu` emits the kernel's entry through the target
// (TargetInfo::dependentLaunch) and marks its module, and the runtime
// launches marked kernels with the launch attribute.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tile {
#define GEN_PASS_DEF_DEPENDENTLAUNCH
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

struct DependentLaunchPass
    : public tile::impl::DependentLaunchBase<DependentLaunchPass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      TargetAttr target = getTargetAttr(kernel);
      bool able = target && getTargetInfo(kernel)->dependentLaunch();
      auto asked = kernel->getAttrOfType<BoolAttr>(
          TileDialect::kDependentLaunchAttrName);
      if (asked) {
        if (asked.getValue() && !able) {
          kernel.emitOpError("tile.dependent_launch = true needs a chip with "
                             "grid dependency control (sm_90 or newer), not ")
              << (target ? target.getChip()
                         : StringRef("a kernel without "
                                     "a target"));
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      }
      if (!decide || !able) {
        if (emitRemarks && !able)
          kernel.emitRemark("launched after the kernel before it ends: the "
                            "target has no grid dependency control");
        return WalkResult::advance();
      }
      kernel->setAttr(TileDialect::kDependentLaunchAttrName,
                      BoolAttr::get(kernel.getContext(), true));
      if (emitRemarks)
        kernel.emitRemark("launched as a programmatic dependent: its launch "
                          "overlaps the end of the kernel before it in the "
                          "stream");
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
