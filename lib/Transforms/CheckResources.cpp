//===- CheckResources.cpp - Check on-chip resources of kernels --*- C++ -*-===//
//
// Records the shared memory and tile registers of every kernel and reports,
// at the kernel, what does not fit the target: shared memory per block,
// registers per thread and per block. `tile-to-nvvm` runs it before any
// lowering, so that kernels over the limits fail with these diagnostics
// instead of reaching a lowering that would unroll them without bound (the
// per-thread iterations of `tile.parallel` are bounded by its verifier).
//
//===----------------------------------------------------------------------===//

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
    // An option left at its default (or set to 0) means "the target's".
    int64_t sharedOption =
        maxSharedMemory.hasValue() ? maxSharedMemory.getValue() : 0;
    int64_t registersOption =
        maxRegisters.hasValue() ? maxRegisters.getValue() : 0;
    bool failed = false;
    getOperation().walk([&](KernelOp kernel) {
      Builder b(kernel.getContext());
      ResourceLimits limits =
          getResourceLimits(kernel, sharedOption, registersOption);
      int64_t smem = computeSharedMemoryBytes(kernel);
      int64_t regs = estimateTileRegisters(kernel);
      kernel->setAttr(TileDialect::kSharedMemoryBytesAttrName,
                      b.getI64IntegerAttr(smem));
      kernel->setAttr(TileDialect::kFragmentRegistersAttrName,
                      b.getI64IntegerAttr(regs));
      if (smem > limits.sharedMemoryPerBlock) {
        kernel.emitError() << "kernel '" << kernel.getSymName() << "' needs "
                           << describeSize(smem)
                           << " bytes of shared memory but at most "
                           << limits.sharedMemoryPerBlock << " are available";
        failed = true;
      }
      if (regs > limits.registersPerThread) {
        kernel.emitError()
            << "kernel '" << kernel.getSymName() << "' needs about "
            << describeSize(regs)
            << " registers per thread for its register tiles but at most "
            << limits.registersPerThread
            << " are available; use more threads or smaller tiles";
        failed = true;
      } else if (mulSizes(regs, kernel.getThreads()) >
                 limits.registersPerBlock) {
        kernel.emitError()
            << "kernel '" << kernel.getSymName() << "' needs about " << regs
            << " registers per thread for its register tiles, "
            << mulSizes(regs, kernel.getThreads()) << " for its "
            << kernel.getThreads() << " threads, but a block has at most "
            << limits.registersPerBlock
            << " registers; use fewer threads or smaller tiles";
        failed = true;
      }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tile
