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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;

TargetInfo::TargetInfo(TargetAttr target)
    : target(target), chip(target.getDescription()) {
  assert(chip && "verified targets name a known chip");
}

TargetInfo::~TargetInfo() = default;

SharedLayoutAttr mlir::tile::getChunkSwizzledLayout(MemRefType type) {
  MLIRContext *ctx = type.getContext();
  int64_t rowBytes = type.getShape().back() * type.getElementTypeBitWidth() / 8;
  int64_t rows = type.getRank() > 1 ? type.getShape().drop_back().back() : 1;
  for (int64_t swizzle : {128, 64, 32})
    if (rowBytes % swizzle == 0 && (rowBytes * rows) % swizzle == 0)
      return SharedLayoutAttr::get(ctx, swizzle, 0);
  return SharedLayoutAttr::get(ctx, 0, 16);
}

SharedLayoutChoice
TargetInfo::chooseGemmOperandLayout(MemRefType type,
                                    ArrayRef<SharedGemmUse> uses) const {
  return {getChunkSwizzledLayout(type), ""};
}

int64_t TargetInfo::getEntryRegisters(int64_t threads,
                                      int64_t blocksPerSM) const {
  // threads x blocks can overflow for any blocks_per_sm the verifier
  // accepts: past the register file, a thread gets none.
  int64_t perBlock = chip->registersPerBlock / std::max<int64_t>(threads, 1);
  int64_t blocks = std::max<int64_t>(blocksPerSM, 1);
  int64_t even = blocks > perBlock ? 0 : perBlock / blocks;
  return std::min(chip->maxRegistersPerThread, even / 8 * 8);
}

int64_t TargetInfo::getEntryRegisters(KernelOp kernel) const {
  auto blocks = kernel->getAttrOfType<IntegerAttr>(
      TileDialect::kBlocksPerMultiprocessorAttrName);
  return getEntryRegisters(kernel.getThreads(), blocks ? blocks.getInt() : 1);
}

/// "a, b and c".
static std::string joinList(ArrayRef<std::string> items) {
  std::string text;
  for (auto [i, item] : llvm::enumerate(items)) {
    if (i > 0)
      text += i + 1 == items.size() ? " and " : ", ";
    text += item;
  }
  return text;
}

/// setmaxnreg moves registers between the warpgroups of a block: every warp
/// starts with the entry count, a decrease gives registers to the block's
/// pool and an increase waits until the pool has them. So the budgets of
/// all warpgroups (the entry count for one without a budget) must fit what
/// the block is launched with, or an increase waits forever (TileLang
/// #2406, #2559). A warpgroup keeps its budget from one region to the next,
/// so two regions may not give it different ones.
static LogicalResult verifyRegisterBudgets(const TargetInfo &target,
                                           KernelOp kernel) {
  const ChipDescription &chip = target.getChip();
  int64_t threads = kernel.getThreads();
  int64_t groups = kernel.getNumWarpgroups();
  int64_t entry = target.getEntryRegisters(kernel);
  auto budget = [](WsOp ws) {
    return static_cast<int64_t>(*ws.getRegisters());
  };
  SmallVector<WsOp> budgetOf(groups);
  WsOp increase;
  WalkResult result = kernel.walk([&](WsOp ws) {
    std::optional<int64_t> regs = ws.getRegisters();
    if (!regs)
      return WalkResult::advance();
    if (*regs > entry && !increase)
      increase = ws;
    for (int64_t group : ws.getWarpgroups()) {
      WsOp &other = budgetOf[group];
      if (other && budget(other) != *regs) {
        InFlightDiagnostic diag =
            ws.emitOpError("gives warpgroup ")
            << group << " a budget of " << *regs
            << " registers, but an earlier tile.ws gives it " << budget(other)
            << ": a warpgroup keeps its budget from one region to the next";
        diag.attachNote(other.getLoc()) << "the earlier budget";
        return WalkResult::interrupt();
      }
      if (!other)
        other = ws;
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // Only decreases: nothing waits.
  if (!increase)
    return success();
  int64_t allocated = llvm::alignTo(entry, 8);
  int64_t needed = 0;
  SmallVector<std::string> perGroup;
  for (WsOp ws : budgetOf) {
    int64_t regs = ws ? budget(ws) : allocated;
    needed += regs * chip.warpgroupSize;
    perGroup.push_back(std::to_string(regs));
  }
  int64_t launched = allocated * threads;
  if (needed <= launched)
    return success();
  InFlightDiagnostic diag =
      increase.emitOpError("register budgets of ")
      << joinList(perGroup) << " registers per thread for warpgroups 0 to "
      << groups - 1 << " (" << allocated
      << " for a warpgroup without one) need " << needed << " registers, ";
  if (needed > chip.registersPerBlock)
    return diag << "more than the " << chip.registersPerBlock << " of "
                << chip.name << "'s register file";
  return diag << "more than the " << launched << " a block of " << threads
              << " threads is launched with (" << entry
              << " per thread): setmaxnreg would wait forever";
}

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
      if (ws.getRegisters()) {
        ws.emitOpError("sets a register budget, which needs setmaxnreg "
                       "(sm_90a); the target is ")
            << getChipName();
        return WalkResult::interrupt();
      }
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
      if (!registerBudgets()) {
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
  if (result.wasInterrupted())
    return failure();
  return verifyRegisterBudgets(*this, kernel);
}

AsyncCopyInfo::~AsyncCopyInfo() = default;
TensorCopyInfo::~TensorCopyInfo() = default;
ClusterInfo::~ClusterInfo() = default;
DependentLaunchInfo::~DependentLaunchInfo() = default;
AsyncMmaInfo::~AsyncMmaInfo() = default;
NamedBarrierInfo::~NamedBarrierInfo() = default;
RegisterBudgetInfo::~RegisterBudgetInfo() = default;

bool TargetInfo::isAsyncMma(MmaAttr mma) const {
  const AsyncMmaInfo *async = asyncMma();
  return async && async->isAsync(mma);
}

int64_t TargetInfo::getNumNamedBarriers() const {
  const NamedBarrierInfo *named = namedBarriers();
  return named ? named->getNumNamedBarriers() : 0;
}

int64_t TargetInfo::getCopyVectorElements(int64_t elementBits) const {
  return std::max<int64_t>(1, 128 / std::max<int64_t>(elementBits, 1));
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

Value mlir::tile::loadRegisterRun(OpBuilder &b, Location loc,
                                  const RegisterOperand &tile, int64_t first,
                                  VectorType type) {
  SmallVector<Value> elems;
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    elems.push_back(memref::LoadOp::create(
        b, loc, tile.regs,
        arith::ConstantIndexOp::create(b, loc, first + i).getResult()));
  return vector::FromElementsOp::create(b, loc, type, elems);
}

FailureOr<Value> TargetInfo::emitFloat8Truncate(OpBuilder &b, Location loc,
                                                Value x, FloatType type) const {
  return emitError(loc, "rounding to ")
         << type << " is not supported on " << getChipName() << " yet";
}

LogicalResult TargetInfo::emitSharedToRegisters(OpBuilder &, Location,
                                                const SharedOperand &,
                                                const RegisterOperand &,
                                                Value) const {
  return failure();
}

LogicalResult TargetInfo::emitRegistersToShared(
    OpBuilder &, Location, const LinearLayout &, ArrayRef<int64_t>,
    function_ref<Value(int64_t)>, function_ref<Value(Value, Value)>,
    Value) const {
  return failure();
}

std::optional<std::pair<int64_t, int64_t>>
mlir::tile::partitionWarps(WarpPolicy policy, int64_t m, int64_t n,
                           int64_t numWarps, int64_t unitM, int64_t unitN) {
  auto fits = [&](int64_t wm, int64_t wn) {
    return m % (unitM * wm) == 0 && n % (unitN * wn) == 0;
  };
  switch (policy) {
  case WarpPolicy::FullRow:
    if (!fits(numWarps, 1))
      return std::nullopt;
    return std::make_pair(numWarps, int64_t(1));
  case WarpPolicy::FullCol:
    if (!fits(1, numWarps))
      return std::nullopt;
    return std::make_pair(int64_t(1), numWarps);
  case WarpPolicy::Square: {
    std::optional<std::pair<int64_t, int64_t>> best;
    int64_t bestScore = 0;
    for (int64_t wm = numWarps; wm >= 1; wm /= 2) {
      int64_t wn = numWarps / wm;
      if (!fits(wm, wn))
        continue;
      int64_t score = std::abs(m / wm - n / wn);
      if (!best || score < bestScore) {
        best = std::make_pair(wm, wn);
        bestScore = score;
      }
    }
    return best;
  }
  }
  llvm_unreachable("unknown policy");
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
