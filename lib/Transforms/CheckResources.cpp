//===- CheckResources.cpp - Check on-chip resources of kernels --*- C++ -*-===//
//
// Records the shared memory and tile registers of every kernel and reports,
// at the kernel, what does not fit the target: shared memory per block,
// registers per thread and per block. `tile-to-nvvm` runs it before any
// lowering, so that kernels over the limits fail with these diagnostics
// instead of reaching a lowering that would unroll them without bound (the
// per-thread iterations of `tile.parallel` are bounded by its verifier).
//
// On NVIDIA chips the registers are also checked against what the launch
// gives a thread (checkLaunchRegisters), so that ptxas does not fail with
// "Insufficient registers" after the whole pipeline ran.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Resources.h"
#include "tile/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CHECKRESOURCES
#include "tile/Transforms/Passes.h.inc"

namespace {
/// Registers per thread that `op` may use: the budget of its `tile.ws`
/// region where that sets one (setmaxnreg), else what every thread is
/// launched with (the register file over threads x tile.blocks_per_sm, in
/// steps of 8, at most `perThread`: TargetInfo::getEntryRegisters with the
/// checked per-thread limit). `where` says which.
int64_t getRegisterCap(Operation *op, KernelOp kernel, const TargetInfo &target,
                       int64_t perThread, std::string &where) {
  auto ws = dyn_cast<WsOp>(op);
  if (!ws)
    ws = op->getParentOfType<WsOp>();
  if (ws && ws.getRegisters()) {
    where = "the register budget of its tile.ws region";
    return *ws.getRegisters();
  }
  auto blocks = kernel->getAttrOfType<IntegerAttr>(
      TileDialect::kBlocksPerMultiprocessorAttrName);
  int64_t count = blocks ? blocks.getInt() : 1;
  where = std::to_string(kernel.getThreads()) + " threads, " +
          std::to_string(count) + (count == 1 ? " block" : " blocks") +
          " per multiprocessor";
  // (Divided in two steps: threads x count may overflow.)
  int64_t even = target.getChip().registersPerBlock /
                 std::max<int64_t>(kernel.getThreads(), 1) /
                 std::max<int64_t>(count, 1);
  return std::min(perThread, even / 8 * 8);
}

/// The asynchronous MMA `gemm` will be computed with, if any: its choice,
/// else the target's (without diagnostics: layout inference reports gemms
/// the target cannot compute).
static MmaAttr getAsyncMma(GemmOp gemm, KernelOp kernel,
                           const TargetInfo &target) {
  MmaAttr mma = peekMma(gemm, target, getNumThreads(gemm, kernel));
  return mma && target.isAsyncMma(mma) ? mma : MmaAttr();
}

/// Checks the registers `kernel` needs (its register tiles over the threads
/// that share them plus kAddressRegisters: `tileRegisters` +
/// kAddressRegisters) against what a thread of its launch may have (at most
/// `perThread`, the checked per-thread limit):
///  - a wgmma whose one instruction needs more (its accumulator cannot
///    spill): ptxas would fail with "Insufficient registers";
///  - register tiles that alone take more (as the per-block limit above,
///    with tile.blocks_per_sm and the budgets of tile.ws regions): every
///    thread would spill its tiles.
/// An estimate over the cap by the addresses alone is left to ptxas, which
/// spills a few registers (a 128x256 accumulator over 1024 threads: 32
/// registers of tiles, 64 allowed, 136 bytes spilled).
/// Only on NVIDIA: AMD's compiler spills VGPRs to scratch memory instead of
/// failing, and its limits (VGPRs per SIMD over waves) are checked by the
/// per-thread and per-block limits above.
bool checkLaunchRegisters(KernelOp kernel, int64_t tileRegisters,
                          int64_t perThread) {
  std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
  if (!target || !target->getChip().isNVIDIA())
    return true;
  int64_t need = addSizes(tileRegisters, kAddressRegisters);
  auto report = [&](InFlightDiagnostic &diag, int64_t cap,
                    const std::string &where) {
    diag << "kernel '" << kernel.getSymName() << "' needs about "
         << describeSize(need) << " registers per thread, the launch allows "
         << cap << " (" << where << ")";
  };
  const char *fix = "use fewer threads, a smaller accumulator tile, or lower "
                    "tile.blocks_per_sm";
  // The largest cap of the kernel: a consumer's budget, or the launch's.
  std::string where;
  int64_t cap = getRegisterCap(kernel, kernel, *target, perThread, where);
  kernel.walk([&](WsOp ws) {
    std::string budget;
    int64_t regs = getRegisterCap(ws, kernel, *target, perThread, budget);
    if (regs > cap) {
      cap = regs;
      where = budget;
    }
  });
  bool ok = true;
  kernel.walk([&](GemmOp gemm) {
    MmaAttr mma = getAsyncMma(gemm, kernel, *target);
    if (!mma)
      return WalkResult::advance();
    std::string gemmWhere;
    int64_t gemmCap =
        getRegisterCap(gemm, kernel, *target, perThread, gemmWhere);
    int64_t instr = target->asyncMma()->getInstructionRegisters(gemm, mma);
    if (instr <= gemmCap)
      return WalkResult::advance();
    InFlightDiagnostic diag = kernel.emitError();
    report(diag, gemmCap, gemmWhere);
    diag << ": one " << stringifyMmaKind(mma.getKind()) << " m"
         << mma.getInstrM() << "n" << mma.getInstrN() << "k" << mma.getInstrK()
         << " needs about " << instr
         << " at once, its accumulator in registers; " << fix;
    diag.attachNote(gemm.getLoc()) << "the " << stringifyMmaKind(mma.getKind());
    ok = false;
    return WalkResult::interrupt();
  });
  if (!ok)
    return false;
  if (tileRegisters > cap) {
    InFlightDiagnostic diag = kernel.emitError();
    report(diag, cap, where);
    diag << ": its register tiles alone take " << describeSize(tileRegisters)
         << "; " << fix;
    return false;
  }
  return true;
}

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
    getOperation().walk(
        [&](KernelOp kernel) {
          Builder b(kernel.getContext());
          ResourceLimits limits =
              getResourceLimits(kernel, sharedOption, registersOption);
          int64_t smem = computeSharedMemoryBytes(kernel);
          int64_t regs = estimateTileRegisters(kernel);
          kernel->setAttr(TileDialect::kSharedMemoryBytesAttrName,
                          b.getI64IntegerAttr(smem));
          kernel->setAttr(TileDialect::kFragmentRegistersAttrName,
                          b.getI64IntegerAttr(regs));
          // More resident blocks than a multiprocessor holds threads for is
          // no launch bound ptxas accepts.
          if (auto blocks = kernel->getAttrOfType<IntegerAttr>(
                  TileDialect::kBlocksPerMultiprocessorAttrName)) {
            TargetAttr target = getTargetAttr(kernel);
            const ChipDescription *chip =
                target ? target.getDescription() : nullptr;
            int64_t most = chip ? chip->maxThreadsPerMultiprocessor /
                                      std::max<int64_t>(kernel.getThreads(), 1)
                                : 0;
            if (chip && blocks.getInt() > most) {
              kernel.emitError()
                  << "kernel '" << kernel.getSymName()
                  << "' asks for tile.blocks_per_sm = " << blocks.getInt()
                  << " blocks of " << kernel.getThreads()
                  << " threads, but a multiprocessor of " << target.getChip()
                  << " holds " << chip->maxThreadsPerMultiprocessor
                  << " threads (" << most << " such blocks)";
              failed = true;
              return;
            }
          }
          if (smem > limits.sharedMemoryPerBlock) {
            kernel.emitError()
                << "kernel '" << kernel.getSymName() << "' needs "
                << describeSize(smem) << " bytes of shared memory but at most "
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
          } else if (!checkLaunchRegisters(kernel, regs,
                                           limits.registersPerThread)) {
            failed = true;
          }
        });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tile
