//===- TargetInfo.cpp - Target-neutral defaults and dispatch ----*- C++ -*-===//
//
// Defaults that hold on every GPU the upstream `gpu` dialect lowers for
// (block barriers, shuffles), the thread-geometry checks every target shares,
// and the dispatch from a `#tile.target` to its vendor's implementation.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/TargetInfo.h"
#include "TargetFactories.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::tile;

TargetInfo::TargetInfo(TargetAttr target)
    : target(target), chip(target.getDescription()) {
  assert(chip && "verified targets name a known chip");
}

TargetInfo::~TargetInfo() = default;

LogicalResult TargetInfo::verifyKernel(KernelOp kernel) const {
  int64_t threads = kernel.getThreads();
  if (threads % getWarpSize() != 0)
    return kernel.emitOpError("expects whole warps: ")
           << threads << " threads is not a multiple of " << getChipName()
           << "'s warp size " << getWarpSize();
  if (threads > chip->maxThreadsPerBlock)
    return kernel.emitOpError("expects at most ")
           << chip->maxThreadsPerBlock << " threads per block on "
           << getChipName() << ", got " << threads;
  WalkResult result = kernel.walk([&](WsOp ws) {
    if (!getWarpgroupSize()) {
      ws.emitOpError("needs warpgroups, which ")
          << getChipName()
          << " does not have: warp specialization is not supported there";
      return WalkResult::interrupt();
    }
    int64_t groups = kernel.getNumWarpgroups();
    if (groups == 0) {
      ws.emitOpError("requires a kernel thread count that is a multiple of ")
          << getWarpgroupSize() << " (a warpgroup on " << getChipName()
          << "), got " << threads;
      return WalkResult::interrupt();
    }
    for (int64_t group : ws.getWarpgroups())
      if (group >= groups) {
        ws.emitOpError("warpgroup ")
            << group << " is out of range: the kernel has " << groups
            << " warpgroups";
        return WalkResult::interrupt();
      }
    if (std::optional<int64_t> regs = ws.getRegisters()) {
      if (!chip->setMaxNReg) {
        ws.emitOpError("sets a register budget, which needs setmaxnreg "
                       "(sm_90a); the target is ")
            << getChipName();
        return WalkResult::interrupt();
      }
      if (*regs < 24 || *regs > 256 || *regs % 8 != 0) {
        ws.emitOpError("expects a register count that is a multiple of 8 in "
                       "[24, 256], got ")
            << *regs;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void TargetInfo::emitBarrier(OpBuilder &b, Location loc,
                             BarrierScope scope) const {
  assert(scope.isBlock() && "this target has no named barriers");
  gpu::BarrierOp::create(b, loc);
}

Value TargetInfo::emitShuffleXor(OpBuilder &b, Location loc, Value v,
                                 int64_t mask, int64_t width) const {
  Value offset = arith::ConstantIntOp::create(b, loc, mask, 32);
  Value widthV = arith::ConstantIntOp::create(b, loc, width, 32);
  return gpu::ShuffleOp::create(b, loc, v, offset, widthV,
                                gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

void TargetInfo::emitAsyncCopy(OpBuilder &, Location, Value, Value, Value,
                               ValueRange, int64_t, int64_t, Value) const {
  llvm_unreachable("callers check hasAsyncCopy()");
}

void TargetInfo::emitAsyncCommit(OpBuilder &, Location) const {
  llvm_unreachable("callers check hasAsyncCopy()");
}

void TargetInfo::emitAsyncWait(OpBuilder &, Location, int64_t) const {
  llvm_unreachable("callers check hasAsyncCopy()");
}

void TargetInfo::emitMbarrierInit(OpBuilder &, Location, Value,
                                  int64_t) const {
  llvm_unreachable("callers check hasTma()");
}

void TargetInfo::emitMmaWait(OpBuilder &, Location, int64_t) const {
  llvm_unreachable("callers check isAsyncMma()");
}

void TargetInfo::emitMbarrierInitFence(OpBuilder &, Location) const {
  llvm_unreachable("callers check hasTma()");
}

void TargetInfo::emitMbarrierArrive(OpBuilder &, Location, Value) const {
  llvm_unreachable("callers check hasTma()");
}

void TargetInfo::emitMbarrierArriveExpectTx(OpBuilder &, Location, Value,
                                            int64_t) const {
  llvm_unreachable("callers check hasTma()");
}

void TargetInfo::emitMbarrierWait(OpBuilder &, Location, Value, Value) const {
  llvm_unreachable("callers check hasTma()");
}

Value TargetInfo::emitTensorMap(OpBuilder &, Location, Value,
                                ArrayRef<int64_t>, int64_t) const {
  llvm_unreachable("callers check hasTma()");
}

void TargetInfo::emitTensorCopy(OpBuilder &, Location, Value, Value,
                                ValueRange, Value) const {
  llvm_unreachable("callers check hasTma()");
}

LogicalResult TargetInfo::emitRegisterBudget(OpBuilder &, Location, int64_t,
                                             Operation *op) const {
  return op->emitOpError("register budgets are not supported on ")
         << getChipName();
}

LogicalResult TargetInfo::emitSharedToRegisters(OpBuilder &, Location,
                                                const SharedOperand &,
                                                const RegisterOperand &,
                                                Value) const {
  return failure();
}

std::unique_ptr<TargetInfo> mlir::tile::createTargetInfo(TargetAttr target) {
  switch (target.getDescription()->vendor) {
  case Vendor::NVIDIA:
    return createNVIDIATargetInfo(target);
  case Vendor::AMD:
    return createAMDTargetInfo(target);
  }
  llvm_unreachable("unknown vendor");
}

std::unique_ptr<TargetInfo> mlir::tile::getTargetInfo(Operation *op) {
  return createTargetInfo(getTargetAttr(op));
}
