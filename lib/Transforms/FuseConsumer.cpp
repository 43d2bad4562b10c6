//===- FuseConsumer.cpp - A gemm's product consumed chunk by chunk -*- C++
//-*-===//
//
// `tile-fuse-consumer`: a clearing gemm whose product only the next
// `tile.parallel` of its block reads, element by element, gets
// `consumer_chunk = w` where the target's asynchronous MMA would otherwise
// hold the whole product beside what the consumer keeps (the width the
// target narrows a promoting gemm's instruction to). The ops between the
// two move before the gemm, so that the lowering can run the consumer on
// each chunk right after its MMAs complete. The rules (findConsumer) keep
// the move and the interleaving equivalent to the program as written.
//
// A product small enough to hold at once, in a loop pipelined for an
// asynchronous MMA, gets `tile.consumer_late = true` instead where nothing
// else in the loop touches the consumer's tiles: the consumer of K block j
// then runs inside the gemm of block j + 1, after its MMAs are issued (once
// tile-plan-pipes leaves them in flight), and the last after the loop.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_FUSECONSUMER
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The most registers a thread holds of a product consumed in parts: one
/// wgmma m64n128's accumulator, as many as a promoting gemm's partial sums
/// (AsyncMmaInfo::narrowForPromotion), which fit beside a 64 x 256 slab's
/// accumulator in a consumer's registers.
constexpr int64_t kPartRegisters = 64;

/// Whether `op`, between the gemm and its consumer, may run before the gemm
/// instead: it does not touch the accumulator, writes no memory the gemm
/// reads, and has no effect other than reading memory or writing a
/// fragment.
bool movesBeforeGemm(Operation *op, GemmOp gemm, std::string &why) {
  for (Value operand : op->getOperands())
    if (getRootAlloc(operand) &&
        getRootAlloc(operand) == getRootAlloc(gemm.getC())) {
      why = "'" + op->getName().getStringRef().str() +
            "' between them uses the gemm's accumulator";
      return false;
    }
  if (isMemoryEffectFree(op) || isa<memref::LoadOp, memref::DimOp>(op))
    return true;
  if (auto copy = dyn_cast<CopyOp>(op)) {
    AllocOp target = getRootAlloc(copy.getTarget());
    if (getMemoryKind(copy.getTargetType()) == MemoryKind::Fragment &&
        getMemoryKind(copy.getSourceType()) == MemoryKind::Global && target &&
        target != getRootAlloc(gemm.getA()) &&
        target != getRootAlloc(gemm.getB()))
      return true;
  }
  why = "'" + op->getName().getStringRef().str() +
        "' between them cannot move before the gemm";
  return false;
}

/// The tile.parallel that alone reads `gemm`'s accumulator after it, with
/// the ops between them in `between`; null with `why` otherwise.
ParallelOp findConsumer(GemmOp gemm, SmallVectorImpl<Operation *> &between,
                        std::string &why, bool movable = true) {
  auto alloc = gemm.getC().getDefiningOp<AllocOp>();
  if (!alloc) {
    why = "its accumulator is not a tile.alloc of its own";
    return nullptr;
  }
  Block *block = gemm->getBlock();
  ParallelOp consumer;
  for (OpOperand &use : alloc->getUses()) {
    Operation *user = use.getOwner();
    if (user == gemm)
      continue;
    auto parallel =
        dyn_cast_or_null<ParallelOp>(block->findAncestorOpInBlock(*user));
    auto load = dyn_cast<memref::LoadOp>(user);
    if (!parallel || !load || (consumer && parallel != consumer) ||
        user->getParentOp() != parallel) {
      why = "its accumulator has users other than one tile.parallel's loads";
      return nullptr;
    }
    Block &body = parallel.getBody().front();
    if (load.getIndices().size() != body.getNumArguments()) {
      why = "the tile.parallel's rank is not the accumulator's";
      return nullptr;
    }
    for (auto [i, index] : llvm::enumerate(load.getIndices()))
      if (index != body.getArgument(i)) {
        why = "the tile.parallel reads the accumulator at other elements "
              "than its own";
        return nullptr;
      }
    consumer = parallel;
  }
  if (!consumer || !gemm->isBeforeInBlock(consumer)) {
    why = "no tile.parallel after it reads its accumulator";
    return nullptr;
  }
  if (consumer.getExtents() != cast<MemRefType>(alloc.getType()).getShape()) {
    why = "the tile.parallel's extents are not the accumulator's shape";
    return nullptr;
  }
  WalkResult walk = consumer.getBody().walk([&](Operation *inner) {
    if (isa<TileDialect>(inner->getDialect()) &&
        !inner->hasTrait<OpTrait::IsTerminator>())
      return WalkResult::interrupt();
    for (Value operand : inner->getOperands())
      if (auto type = dyn_cast<MemRefType>(operand.getType());
          type && getMemoryKind(type) != MemoryKind::Fragment)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted()) {
    why = "the tile.parallel uses memory other than fragments, or tile ops";
    return nullptr;
  }
  for (Operation *op = gemm->getNextNode(); op != consumer;
       op = op->getNextNode()) {
    if (movable && !movesBeforeGemm(op, gemm, why))
      return nullptr;
    between.push_back(op);
  }
  return consumer;
}

struct FuseConsumerPass
    : public tile::impl::FuseConsumerBase<FuseConsumerPass> {
  using Base::Base;

  /// The floats of the loop that `consumer` uses (a K block's scale loaded
  /// in the loop) would not exist at the next iteration's gemm: each is
  /// filled into a fragment of the consumer's rows right before it, which
  /// the consumer reads at its row instead.
  static void passThroughFragments(GemmOp gemm, ParallelOp consumer,
                                   ArrayRef<Value> scalars) {
    if (scalars.empty())
      return;
    auto kernel = gemm->getParentOfType<KernelOp>();
    OpBuilder b(gemm.getContext());
    Block &body = consumer.getBody().front();
    for (Value scalar : scalars) {
      // (The product's memory space: a fragment's.)
      auto type = MemRefType::get(
          {consumer.getExtents().front()}, scalar.getType(), AffineMap(),
          cast<MemRefType>(gemm.getC().getType()).getMemorySpace());
      b.setInsertionPointToStart(&kernel.getBody().front());
      Value tile = AllocOp::create(b, consumer.getLoc(), type);
      b.setInsertionPoint(consumer);
      FillOp::create(b, consumer.getLoc(), tile, scalar);
      b.setInsertionPointToStart(&body);
      Value row = memref::LoadOp::create(b, consumer.getLoc(), tile,
                                         ValueRange{body.getArgument(0)});
      scalar.replaceUsesWithIf(row, [&](OpOperand &use) {
        return consumer->isAncestor(use.getOwner());
      });
    }
  }

  /// Whether `op` writes nothing but fragments (registers of the block's
  /// own threads), so that loads from global memory may move across it.
  static bool writesOnlyFragments(Operation *op) {
    return !mayAccessMemory(
        op, [](MemoryKind kind) { return kind != MemoryKind::Fragment; },
        /*writesOnly=*/true);
  }

  /// The consumer's inputs read from global memory between the gemm and it
  /// (a K block's scales) are read before the gemm instead: run one gemm
  /// late, the consumer would otherwise wait for loads issued right before
  /// it. A copy into a fragment goes to a fragment of its own there, copied
  /// (register to register) into the consumer's where the copy was, since
  /// the previous K block's consumer, in the gemm, still reads that one.
  /// Nothing between writes memory other than fragments.
  static bool loadInputsEarly(GemmOp gemm, ParallelOp consumer) {
    SmallVector<Operation *> between;
    for (Operation *op = gemm->getNextNode(); op != consumer;
         op = op->getNextNode()) {
      if (!writesOnlyFragments(op))
        return false;
      between.push_back(op);
    }
    if (!writesOnlyFragments(gemm))
      return false;
    auto fromGlobal = [](Value memory) {
      return getMemoryKind(cast<MemRefType>(memory.getType())) ==
             MemoryKind::Global;
    };
    // The loads and copies from global memory, and the pure ops they need.
    llvm::SetVector<Operation *> early;
    llvm::SmallPtrSet<Operation *, 8> segment(between.begin(), between.end());
    std::function<bool(Operation *)> add = [&](Operation *op) {
      if (early.contains(op))
        return true;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && segment.contains(def) &&
            !(isMemoryEffectFree(def) && def->getNumRegions() == 0 && add(def)))
          return false;
      early.insert(op);
      return true;
    };
    for (Operation *op : between) {
      auto load = dyn_cast<memref::LoadOp>(op);
      auto copy = dyn_cast<CopyOp>(op);
      if ((load && fromGlobal(load.getMemRef())) ||
          (copy && fromGlobal(copy.getSource()) &&
           getMemoryKind(copy.getTargetType()) == MemoryKind::Fragment &&
           copy.getTarget().getDefiningOp<AllocOp>()))
        (void)add(op);
    }
    auto kernel = gemm->getParentOfType<KernelOp>();
    OpBuilder b(gemm.getContext());
    for (Operation *op : between) {
      if (!early.contains(op))
        continue;
      auto copy = dyn_cast<CopyOp>(op);
      if (!copy) {
        op->moveBefore(gemm);
        continue;
      }
      b.setInsertionPointToStart(&kernel.getBody().front());
      Value staged = AllocOp::create(b, copy.getLoc(), copy.getTargetType());
      b.setInsertionPoint(copy);
      CopyOp::create(b, copy.getLoc(), staged, ValueRange(), copy.getTarget(),
                     ValueRange());
      copy.getTargetMutable().assign(staged);
      copy->moveBefore(gemm);
    }
    return !early.empty();
  }

  /// A product small enough to hold at once: whether its consumer runs one
  /// gemm late (`tile.consumer_late`), inside the next K block's gemm once
  /// that gemm's MMAs are issued. Asynchronous MMAs only, in a loop
  /// pipelined deep enough for the consumers to hold a slot one gemm
  /// longer (kMinSlotsForLateAdds, as a promotion one K block late).
  void decideLate(GemmOp gemm, MmaAttr mma, const AsyncMmaInfo *async,
                  int64_t registers) {
    auto decline = [&](const Twine &why) {
      if (emitRemarks)
        gemm.emitRemark("product consumed in place: ") << why;
    };
    auto asked =
        gemm->getAttrOfType<BoolAttr>(TileDialect::kConsumerLateAttrName);
    if (asked && !asked.getValue())
      return decline("tile.consumer_late = false");
    auto fail = [&](const Twine &why) {
      if (asked) {
        gemm.emitError("cannot consume its product one gemm late "
                       "(tile.consumer_late): ")
            << why;
        return signalPassFailure();
      }
      decline(why);
    };
    if (!async || !async->isAsync(mma))
      return fail("its MMAs are not asynchronous");
    auto loop = dyn_cast<scf::ForOp>(gemm->getParentOp());
    if (!loop)
      return fail("it is not in a loop");
    auto stages =
        loop->getAttrOfType<IntegerAttr>(TileDialect::kNumStagesAttrName);
    if (!asked && (!stages || stages.getInt() < kMinSlotsForLateAdds))
      return decline("its loop is not pipelined with " +
                     Twine(kMinSlotsForLateAdds) + " stages or more");
    std::string why;
    SmallVector<Operation *> between;
    ParallelOp consumer = findConsumer(gemm, between, why,
                                       /*movable=*/false);
    if (!consumer)
      return fail(why);
    SmallVector<Value> scalars;
    if (!canConsumeLate(gemm, consumer, why, &scalars))
      return fail(why);
    for (Value scalar : scalars)
      if (!isa<FloatType>(scalar.getType()) ||
          !scalar.getParentBlock()->findAncestorOpInBlock(*consumer))
        return fail("its consumer uses a value of the loop other than a "
                    "float computed before it in its block");
    passThroughFragments(gemm, consumer, scalars);
    bool early = loadInputsEarly(gemm, consumer);
    gemm->setAttr(TileDialect::kConsumerLateAttrName,
                  BoolAttr::get(gemm.getContext(), true));
    if (emitRemarks)
      gemm.emitRemark() << "product (" << registers
                        << " registers a thread) consumed one gemm late by "
                           "the tile.parallel that follows, while the next "
                           "K block's MMAs run"
                        << (early ? ", its inputs from global memory read "
                                    "before the gemm"
                                  : "");
  }

  /// Whether `gemm`'s product is consumed in chunks or one gemm late.
  void decide(GemmOp gemm, KernelOp kernel, TargetInfo &target,
              const AsyncMmaInfo *async) {
    // (A 2:4-sparse gemm's product is not handed over in parts.)
    if (gemm.getConsumerChunk() || !gemm.getClearAccum() ||
        gemm.getPartials() || gemm.getAccumulate() || gemm.getPromoteKAttr() ||
        gemm.getMmaGroupsInFlightAttr() || gemm.isSparse())
      return;
    auto skip = [&](const Twine &why) {
      if (emitRemarks)
        gemm.emitRemark("product not consumed in chunks: ") << why;
    };
    MmaAttr mma = peekMma(gemm, target, getNumThreads(gemm, kernel));
    if (!mma)
      return skip("the target has no matrix-multiply instruction for it");
    if (async && async->isAsync(mma)) {
      int64_t span = async->getPromotionSpan(gemm, mma);
      if (span && gemm.getK() > span)
        return skip("it promotes its partial sums");
    }
    // Parts of at most kPartRegisters registers a thread, in columns.
    int64_t threads = std::max<int64_t>(getNumThreads(gemm, kernel), 1);
    MemRefType cType = cast<MemRefType>(gemm.getC().getType());
    int64_t registers =
        cType.getNumElements() * cType.getElementTypeBitWidth() / 32 / threads;
    int64_t n = gemm.getN();
    if (registers <= kPartRegisters)
      return decideLate(gemm, mma, async, registers);
    int64_t chunk = n * kPartRegisters / registers;
    if (chunk < 8 || n % chunk != 0)
      return skip("its columns do not split into parts of " +
                  Twine(kPartRegisters) + " registers");
    SmallVector<Operation *> between;
    std::string why;
    ParallelOp consumer = findConsumer(gemm, between, why);
    if (!consumer)
      return skip(why);
    for (Operation *op : between)
      op->moveBefore(gemm);
    gemm.setConsumerChunkAttr(
        IntegerAttr::get(IntegerType::get(gemm.getContext(), 64), chunk));
    if (emitRemarks)
      gemm.emitRemark() << "product consumed " << chunk
                        << " columns at a time by the tile.parallel that "
                           "follows, each chunk as soon as its MMAs "
                           "complete";
  }

  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
      // (Collected first: the decisions move ops across the gemms.)
      SmallVector<GemmOp> gemms;
      kernel.walk([&](GemmOp gemm) { gemms.push_back(gemm); });
      for (GemmOp gemm : gemms)
        decide(gemm, kernel, *target, target->asyncMma());
    });
  }
};

} // namespace
