//===- Utils.cpp - Helpers shared by tile passes ----------------*- C++ -*-===//

#include "tile/Transforms/Utils.h"

#include "tile/Transforms/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::getNumThreads(Operation *op, KernelOp kernel) {
  if (auto ws = op->getParentOfType<WsOp>())
    return ws.getNumThreads();
  return kernel.getThreads();
}

int64_t mlir::tile::getFirstThread(Operation *op) {
  if (auto ws = op->getParentOfType<WsOp>())
    return ws.getFirstThread();
  return 0;
}

bool mlir::tile::isFragment(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && getMemoryKind(type) == MemoryKind::Fragment;
}

SmallVector<int64_t> mlir::tile::getPaddedShape(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> padded;
  for (int64_t size : shape)
    padded.push_back(llvm::PowerOf2Ceil(size));
  return padded;
}

LinearLayout mlir::tile::getPartitionLayout(ArrayRef<int64_t> shape,
                                            int64_t threads,
                                            int64_t elementBits,
                                            const TargetInfo &target) {
  SmallVector<int64_t> padded = getPaddedShape(shape);
  int64_t elements = 1;
  for (int64_t size : padded)
    elements *= size;
  int64_t vector =
      target.getCopyVectorElements(std::max<int64_t>(elementBits, 8));
  vector = std::max<int64_t>(1, std::min(vector, elements / threads));
  return LinearLayout::blocked(padded, threads, vector, target.getWarpSize());
}

/// Records on `gemm` (computed with `mma`) the K span after which its
/// partial sums leave the MMA unit for f32 registers, where the target's
/// asynchronous MMA needs that and the kernel did not say: the largest
/// multiple of the instruction's K that divides K and is at most the
/// target's span. A gemm that clears its accumulator and sums no more than
/// that span needs none.
static LogicalResult decidePromotion(GemmOp gemm, MmaAttr mma,
                                     const TargetInfo &target) {
  const AsyncMmaInfo *async = target.asyncMma();
  bool asyncMma = async && async->isAsync(mma);
  if (gemm.getPromotionSpan() && !asyncMma)
    return gemm.emitOpError("promotes partial sums (promote_k), which needs "
                            "an asynchronous MMA; ")
           << stringifyMmaKind(mma.getKind()) << " on " << target.getChipName()
           << " adds each instruction's products in f32 registers";
  if (gemm.getPromoteKAttr() || !asyncMma)
    return success();
  int64_t limit = async->getPromotionSpan(gemm, mma);
  int64_t k = gemm.getK(), step = mma.getInstrK();
  if (!limit || (gemm.getClearAccum() && k <= limit))
    return success();
  int64_t span = step;
  for (int64_t d = step; d <= std::min(limit, k); d += step)
    if (k % d == 0)
      span = d;
  // A promoting gemm completes its MMAs (the verifier's rule): one that
  // leaves groups in flight or accumulates on a condition cannot promote.
  if (!gemm.getPartials() &&
      (gemm.getMmaGroupsInFlight().value_or(0) > 0 || gemm.getAccumulate()))
    return gemm.emitOpError("needs its partial sums promoted every ")
           << span << " of K (" << stringifyMmaKind(mma.getKind()) << " on "
           << target.getChipName()
           << "), which completes its MMAs: it can neither leave MMA groups "
              "in flight nor accumulate on a condition (promote_k = 0 opts "
              "out)";
  gemm.setPromoteKAttr(
      IntegerAttr::get(IntegerType::get(gemm.getContext(), 64), span));
  return success();
}

MmaAttr mlir::tile::peekMma(GemmOp gemm, const TargetInfo &target,
                            int64_t numThreads) {
  if (MmaAttr mma = gemm.getMmaAttr())
    return mma;
  ScopedDiagnosticHandler quiet(gemm.getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<MmaAttr> selected = target.selectMma(gemm, numThreads);
  return succeeded(selected) ? *selected : MmaAttr();
}

FailureOr<MmaAttr> mlir::tile::getOrSelectMma(GemmOp gemm,
                                              const TargetInfo &target,
                                              int64_t numThreads) {
  if (MmaAttr mma = gemm.getMmaAttr()) {
    if (failed(target.verifyMma(gemm, mma, numThreads)) ||
        failed(decidePromotion(gemm, mma, target)))
      return failure();
    return mma;
  }
  FailureOr<MmaAttr> mma = target.selectMma(gemm, numThreads);
  if (failed(mma))
    return failure();
  gemm.setMmaAttr(*mma);
  if (failed(decidePromotion(gemm, *mma, target)))
    return failure();
  // A gemm whose consumer takes its product in chunks issues one
  // instruction per chunk (tile-fuse-consumer chose the width).
  if (std::optional<int64_t> chunk = gemm.getConsumerChunk();
      chunk && *chunk < mma->getInstrN()) {
    MmaAttr narrow = MmaAttr::get(gemm.getContext(), mma->getKind(),
                                  {mma->getInstrM(), *chunk, mma->getInstrK()},
                                  {mma->getWarpsM(), mma->getWarpsN()});
    gemm.setMmaAttr(narrow);
    return narrow;
  }
  // A promoting gemm holds one instruction's partial sums besides its
  // accumulator: the target may narrow the instruction to keep them few.
  if (gemm.getPromotionSpan())
    if (MmaAttr narrow = target.asyncMma()->narrowForPromotion(gemm, *mma)) {
      gemm.setMmaAttr(narrow);
      return narrow;
    }
  return mma;
}

int64_t mlir::tile::getCopyVectorWidth(CopyOp copy, const TargetInfo &target) {
  MemRefType source = copy.getSourceType(), dest = copy.getTargetType();
  bool globalSource = getMemoryKind(source) == MemoryKind::Global;
  bool globalTarget = getMemoryKind(dest) == MemoryKind::Global;
  int64_t bits = globalSource != globalTarget
                     ? (globalSource ? source : dest).getElementTypeBitWidth()
                     : std::max(source.getElementTypeBitWidth(),
                                dest.getElementTypeBitWidth());
  int64_t vec = target.getCopyVectorElements(bits);
  ArrayRef<int64_t> extent = copy.getExtent();
  while (vec > 1 && !extent.empty() && extent.back() % vec != 0)
    vec /= 2;
  return vec;
}

bool mlir::tile::reducesAcrossWarps(ReduceOp op, const LinearLayout &src) {
  unsigned dim = op.getDim();
  for (uint64_t basis : src.getBases(LinearLayout::kWarp)) {
    SmallVector<int64_t> coord = src.unpackCoord(basis);
    bool onlyDim = coord[dim] != 0;
    for (auto [d, c] : llvm::enumerate(coord))
      onlyDim &= d == dim || c == 0;
    if (onlyDim)
      return true;
  }
  return false;
}

bool mlir::tile::convertsRegisterLayout(CopyOp copy) {
  auto src = copy.getSource().getDefiningOp<AllocOp>();
  auto dst = copy.getTarget().getDefiningOp<AllocOp>();
  return src && dst && getMemoryKind(src.getType()) == MemoryKind::Fragment &&
         getMemoryKind(dst.getType()) == MemoryKind::Fragment &&
         src.getLayoutAttr() != dst.getLayoutAttr();
}

bool mlir::tile::needsScratchTile(Operation *op) {
  if (auto copy = dyn_cast<CopyOp>(op))
    return convertsRegisterLayout(copy);
  if (auto reduce = dyn_cast<ReduceOp>(op))
    if (auto src = reduce.getSource().getDefiningOp<AllocOp>())
      if (auto layout = dyn_cast_or_null<LinearLayoutAttr>(src.getLayoutAttr()))
        return reducesAcrossWarps(reduce, layout.getLinearLayout());
  return false;
}

bool mlir::tile::synchronizesThreads(Operation *op) {
  return isa<BarrierOp, AsyncWaitOp, PipeConsumeWaitOp>(op) ||
         needsScratchTile(op);
}

bool mlir::tile::mayAccessMemory(Operation *op,
                                 function_ref<bool(MemoryKind)> selected,
                                 bool writesOnly) {
  return op
      ->walk([&](Operation *inner) {
        if (isMemoryEffectFree(inner) ||
            inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          return WalkResult::advance();
        auto iface = dyn_cast<MemoryEffectOpInterface>(inner);
        if (!iface)
          return WalkResult::interrupt();
        SmallVector<MemoryEffects::EffectInstance> effects;
        iface.getEffects(effects);
        for (const MemoryEffects::EffectInstance &effect : effects) {
          if (writesOnly && !isa<MemoryEffects::Write>(effect.getEffect()))
            continue;
          auto type = effect.getValue()
                          ? dyn_cast<MemRefType>(effect.getValue().getType())
                          : MemRefType();
          if (selected(type ? getMemoryKind(type) : MemoryKind::Unknown))
            return WalkResult::interrupt();
        }
        return WalkResult::advance();
      })
      .wasInterrupted();
}

bool mlir::tile::spansWholeUnits(int64_t elements, int64_t bytes,
                                 int64_t align) {
  // (e * b) mod a == ((e mod a) * b) mod a, and the right side cannot
  // overflow for element widths of a few bytes.
  return ((elements % align) * bytes) % align == 0;
}

std::string mlir::tile::byteCountString(int64_t elements, int64_t bytes) {
  APInt product = APInt(128, elements, /*isSigned=*/true) * bytes;
  return llvm::toString(product, 10, /*Signed=*/true);
}

/// The warpgroups executing `op`: those of its tile.ws, or none for the
/// whole block.
static ArrayRef<int64_t> executingGroups(Operation *op) {
  auto ws = op->getParentOfType<WsOp>();
  return ws ? ws.getWarpgroups() : ArrayRef<int64_t>();
}

LogicalResult mlir::tile::verifyCopyEngineWaitThreads(PipeConsumeWaitOp wait) {
  for (Operation *user : wait.getPipe().getUsers()) {
    if (!isa<PipeProduceCommitOp>(user) ||
        executingGroups(user) == executingGroups(wait))
      continue;
    return wait.emitOpError("waits for copies that other warps issue: a "
                            "hand-off between tile.ws regions needs tensor "
                            "copies ('tile.copy async tma')")
               .attachNote(user->getLoc())
           << "the copies are committed here";
  }
  return success();
}

SmallVector<Block *> mlir::tile::getTileLoopBlocks(Block &body) {
  SmallVector<Block *> blocks;
  for (Operation &op : body) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || !loop->hasAttr(TileDialect::kTileLoopAttrName))
      continue;
    blocks.push_back(loop.getBody());
    for (Operation &inner : *loop.getBody())
      if (auto branch = dyn_cast<scf::IfOp>(inner);
          branch && branch.getElseRegion().empty())
        blocks.push_back(branch.thenBlock());
  }
  return blocks;
}

// From mlir/Dialect/SCF/Utils/Utils.h, which cannot be included here: it
// declares a function `mlir::tile`, this project's namespace.
namespace mlir {
struct UnrolledLoopInfo {
  std::optional<scf::ForOp> mainLoopOp = std::nullopt;
  std::optional<scf::ForOp> epilogueLoopOp = std::nullopt;
};
FailureOr<UnrolledLoopInfo>
loopUnrollByFactor(scf::ForOp forOp, uint64_t unrollFactor,
                   function_ref<void(unsigned, Operation *, OpBuilder)>);
} // namespace mlir

LogicalResult mlir::tile::unrollByTwo(scf::ForOp loop) {
  return success(succeeded(loopUnrollByFactor(loop, 2, nullptr)));
}

bool mlir::tile::promotesOncePerCall(GemmOp gemm) {
  MmaAttr mma = gemm.getMmaAttr();
  return gemm.getPromotionSpan() && gemm.getPromotionSpan() == gemm.getK() &&
         !gemm.getClearAccum() && !gemm.getAccumulate() &&
         (!mma || mma.getInstrN() == gemm.getN());
}

bool mlir::tile::consumesLate(GemmOp gemm) {
  auto late = gemm->getAttrOfType<BoolAttr>(TileDialect::kConsumerLateAttrName);
  return late && late.getValue();
}

ParallelOp mlir::tile::findProductConsumer(GemmOp gemm) {
  Operation *acc = getRootAlloc(gemm.getC());
  if (!acc)
    return nullptr;
  for (Operation *op = gemm->getNextNode(); op; op = op->getNextNode()) {
    auto parallel = dyn_cast<ParallelOp>(op);
    if (!parallel)
      continue;
    WalkResult reads = parallel.getBody().walk([&](memref::LoadOp load) {
      return getRootAlloc(load.getMemRef()) == acc ? WalkResult::interrupt()
                                                   : WalkResult::advance();
    });
    if (reads.wasInterrupted())
      return parallel;
  }
  return nullptr;
}

bool mlir::tile::canConsumeLate(GemmOp gemm, ParallelOp consumer,
                                std::string &why,
                                SmallVectorImpl<Value> *loopValues) {
  // In a pipelined loop the gemm sits in its stage's guard.
  Operation *parent = gemm->getParentOp();
  if (isa_and_nonnull<scf::IfOp>(parent))
    parent = parent->getParentOp();
  auto loop = dyn_cast_or_null<scf::ForOp>(parent);
  if (!loop) {
    why = "it is not in a loop";
    return false;
  }
  if (!consumer || consumer->getBlock() != gemm->getBlock() ||
      !gemm->isBeforeInBlock(consumer)) {
    why = "no tile.parallel after it in its block reads its product";
    return false;
  }
  // The consumer's tiles (besides the product) and the values it uses.
  Operation *product = getRootAlloc(gemm.getC());
  llvm::SmallPtrSet<Operation *, 8> tiles;
  llvm::SetVector<Value> fromLoop;
  consumer.getBody().walk([&](Operation *inner) {
    for (Value operand : inner->getOperands()) {
      if (Operation *alloc = getRootAlloc(operand)) {
        if (alloc != product)
          tiles.insert(alloc);
        continue;
      }
      // Values of the loop, its induction variable included, but for the
      // consumer's own and constants.
      Operation *home = operand.getParentRegion()->getParentOp();
      if (!matchPattern(operand, m_Constant()) && loop->isAncestor(home) &&
          !consumer->isAncestor(home))
        fromLoop.insert(operand);
    }
  });
  if (!fromLoop.empty() && !loopValues) {
    why = "its consumer uses values computed in the loop";
    return false;
  }
  if (loopValues)
    loopValues->append(fromLoop.begin(), fromLoop.end());
  bool touched = false;
  auto segment = [&](Operation *op) {
    Operation *top = gemm->getBlock()->findAncestorOpInBlock(*op);
    return top && !top->isBeforeInBlock(gemm) &&
           (top == consumer || top->isBeforeInBlock(consumer));
  };
  loop.getBody()->walk([&](Operation *op) {
    if (segment(op))
      return;
    for (Value operand : op->getOperands())
      if (Operation *alloc = getRootAlloc(operand))
        touched |= alloc == product || tiles.contains(alloc);
  });
  if (touched) {
    why = "ops of its loop outside the gemm and its consumer use the tiles "
          "the consumer reads or writes";
    return false;
  }
  return true;
}

bool mlir::tile::hasSlotsForLateAdds(GemmOp gemm) {
  AllocOp slots = getRootAlloc(gemm.getA());
  auto type = slots ? dyn_cast<MemRefType>(slots.getType()) : MemRefType();
  return type && type.getRank() >= 3 &&
         type.getDimSize(0) >= kMinSlotsForLateAdds;
}

Operation *mlir::tile::findHandWrittenSync(KernelOp kernel) {
  Operation *found = nullptr;
  kernel.walk([&](Operation *op) {
    if (isa<WsOp, PipeCreateOp>(op)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

std::pair<Value, Value> mlir::tile::emitRingPosition(OpBuilder &b, Location loc,
                                                     Value base, Value offset,
                                                     int64_t slots) {
  auto position = RingPositionOp::create(b, loc, base, offset, slots);
  return {position.getSlot(), position.getWraps()};
}
