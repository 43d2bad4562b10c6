//===- SelectMma.cpp - Choose each gemm's MMA instruction -------*- C++ -*-===//
//
// Records on every `tile.gemm` the matrix-multiply instruction its target
// computes it with and the warp partition (`mma = #tile.mma<...>`), so that
// layout inference, the lowering, resource checks and tests all see one
// decision. A choice the user pinned is checked against the target instead.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

namespace mlir::tile {
#define GEN_PASS_DEF_SELECTMMA
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct SelectMmaPass : public tile::impl::SelectMmaBase<SelectMmaPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
      if (failed(target->verifyKernel(kernel)))
        return WalkResult::interrupt();
      WalkResult inner = kernel.walk([&](GemmOp gemm) {
        if (failed(getOrSelectMma(gemm, *target, getNumThreads(gemm, kernel))))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      return inner;
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
