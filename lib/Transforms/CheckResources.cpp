//===- CheckResources.cpp - Check on-chip resources of kernels --*- C++ -*-===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Resources.h"

#include "mlir/IR/Builders.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CHECKRESOURCES
#include "tile/Transforms/Passes.h.inc"

namespace {
struct CheckResourcesPass
    : public impl::CheckResourcesBase<CheckResourcesPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation().walk(
        [&](KernelOp kernel) {
          Builder b(kernel.getContext());
          int64_t smem = computeSharedMemoryBytes(kernel);
          int64_t regs = estimateTileRegisters(kernel);
          kernel->setAttr(TileDialect::kSharedMemoryBytesAttrName,
                          b.getI64IntegerAttr(smem));
          kernel->setAttr(TileDialect::kFragmentRegistersAttrName,
                          b.getI64IntegerAttr(regs));
          if (smem > maxSharedMemory) {
            kernel.emitError()
                << "kernel '" << kernel.getSymName() << "' needs " << smem
                << " bytes of shared memory but at most "
                << maxSharedMemory.getValue() << " are available";
            failed = true;
          }
          if (regs > maxRegisters) {
            kernel.emitError()
                << "kernel '" << kernel.getSymName() << "' needs about " << regs
                << " registers per thread for its register tiles but at most "
                << maxRegisters.getValue()
                << " are available; use more threads or smaller tiles";
            failed = true;
          }
        });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tile
