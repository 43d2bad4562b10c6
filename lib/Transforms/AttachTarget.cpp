//===- AttachTarget.cpp - Attach the module's #tile.target ------*- C++ -*-===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/TileOps.h"

#include "mlir/IR/Verifier.h"

namespace mlir::tile {
#define GEN_PASS_DEF_ATTACHTARGET
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct AttachTargetPass
    : public tile::impl::AttachTargetBase<AttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto existing =
        module->getAttrOfType<TargetAttr>(TileDialect::kTargetAttrName);
    StringRef wantChip = chip;
    if (wantChip.empty()) {
      if (existing && features.empty())
        return;
      wantChip = existing              ? existing.getChip()
                 : defaultChip.empty() ? StringRef(kDefaultChip)
                                       : StringRef(defaultChip);
    } else if (existing && existing.getChip() != wantChip) {
      module.emitError("the module targets ")
          << existing.getChip() << ", but " << wantChip << " was requested";
      return signalPassFailure();
    }
    auto emitError = [&] { return module.emitError(); };
    if (failed(TargetAttr::verify(emitError, wantChip, features)))
      return signalPassFailure();
    module->setAttr(TileDialect::kTargetAttrName,
                    TargetAttr::get(ctx, wantChip, features));
    // Ops verify against the module's chip (thread counts of tile.ws
    // regions, per-thread unrolling): what verified for the chip assumed
    // before may not verify for this one. Say where, rather than leave IR
    // that does not verify.
    if (failed(verify(module)))
      return signalPassFailure();
  }
};
} // namespace
