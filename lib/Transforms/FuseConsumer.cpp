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
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
                        std::string &why) {
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
    if (!movesBeforeGemm(op, gemm, why))
      return nullptr;
    between.push_back(op);
  }
  return consumer;
}

struct FuseConsumerPass
    : public tile::impl::FuseConsumerBase<FuseConsumerPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
      const AsyncMmaInfo *async = target->asyncMma();
      kernel.walk([&](GemmOp gemm) {
        // (A 2:4-sparse gemm's product is not handed over in parts.)
        if (gemm.getConsumerChunk() || !gemm.getClearAccum() ||
            gemm.getPartials() || gemm.getAccumulate() ||
            gemm.getPromoteKAttr() || gemm.getMmaGroupsInFlightAttr() ||
            gemm.isSparse())
          return;
        auto skip = [&](const Twine &why) {
          if (emitRemarks)
            gemm.emitRemark("product not consumed in chunks: ") << why;
        };
        MmaAttr mma = gemm.getMmaAttr();
        if (!mma) {
          ScopedDiagnosticHandler quiet(gemm.getContext(),
                                        [](Diagnostic &) { return success(); });
          FailureOr<MmaAttr> selected =
              target->selectMma(gemm, getNumThreads(gemm, kernel));
          mma = succeeded(selected) ? *selected : MmaAttr();
        }
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
        int64_t registers = cType.getNumElements() *
                            cType.getElementTypeBitWidth() / 32 / threads;
        int64_t n = gemm.getN();
        if (registers <= kPartRegisters)
          return skip("its product takes " + Twine(registers) +
                      " registers a thread, few enough to hold at once");
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
      });
    });
  }
};

} // namespace
