//===- WarpSpecialize.cpp - Producer and consumer warpgroups ----*- C++ -*-===//
//
// `tile-warp-specialize`: a kernel whose pipelined loops hand their stages
// over through tensor copies (the `_tma` version of tile-select-tma) gets
// one more warpgroup, the producer, which runs the loops' producer side:
// `produce_acquire`, the tensor copies (and the cp.async copies beside them
// in the same hand-offs, for tiles a tensor copy cannot fill: their threads
// arrive on the slot's barrier) and `produce_commit`. The kernel's
// own warpgroups become the consumer region and run everything else. The
// pipe's barriers already order the two sides, so the hand-off is unchanged;
// the consumers no longer wait for a slot to be free, nor issue the copies,
// between two MMAs, and the producer runs ahead by as many stages as the
// pipe has slots. Where loops number their hand-offs from a pipe's base
// (`tile.pipe.base` / `tile.pipe.advance`: loops in an outer or persistent
// loop, loops sharing tiles), both regions keep those ops: each role counts
// its own hand-offs, at the same points of its program.
//
// Both regions start as copies of the kernel's body (everything but the
// allocations and pipes, which stay shared at the top level). The consumer
// copy loses the producer ops; the producer copy keeps only the producer
// ops, the loops and branches around them, and the side-effect-free ops
// (and reads) they use. A kernel whose producer side would need anything
// else keeps its shape, with a remark saying why.
//
//===----------------------------------------------------------------------===//

#include "WarpSpecializeOccupancy.h"
#include "WarpSpecializeOrder.h"

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "tile/Dialect/ChipDescription.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Resources.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_WARPSPECIALIZE
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// Whether `copy` is a copy-engine copy filling a slot of a pipe of tensor
/// copies (its threads arrive on the slot's barrier).
static bool isCopyBesideTma(CopyOp copy) {
  if (!copy.getAsync() || copy.getTma())
    return false;
  PipeProduceAcquireOp handOff = getHandOff(copy);
  if (!handOff)
    return false;
  Operation *pipe = handOff.getPipe().getDefiningOp();
  auto kernel = copy->getParentOfType<KernelOp>();
  return kernel
      .walk([&](CopyOp other) {
        PipeProduceAcquireOp h = other.getTma() ? getHandOff(other) : nullptr;
        return h && h.getPipe().getDefiningOp() == pipe
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

static bool isProducerOp(Operation *op) {
  if (isa<PipeProduceAcquireOp, PipeProduceCommitOp>(op))
    return true;
  auto copy = dyn_cast<CopyOp>(op);
  return copy && (copy.getTma() || isCopyBesideTma(copy));
}

/// Ops both regions keep: the producer ops, and the advances of the pipes'
/// hand-off numbering.
static bool isHandOffOp(Operation *op) {
  return isProducerOp(op) || isa<PipeAdvanceOp>(op);
}

static bool containsHandOffOp(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isHandOffOp(inner) ? WalkResult::interrupt()
                                  : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Erases, until nothing changes, the ops of `body` that `removable` allows
/// and whose results are unused.
static void eraseUnused(Block &body,
                        function_ref<bool(Operation *)> removable) {
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<Operation *> ops;
    body.walk<WalkOrder::PostOrder>([&](Operation *op) { ops.push_back(op); });
    // Post-order: an op's nested ops come first, so erasing one leaves the
    // later entries valid.
    for (Operation *op : ops) {
      if (op->hasTrait<OpTrait::IsTerminator>() || !op->use_empty() ||
          !removable(op))
        continue;
      op->erase();
      changed = true;
    }
  }
}

/// Whether `op` is a branch without results whose regions hold nothing but
/// their terminators.
static bool isEmptyBranch(Operation *op) {
  auto branch = dyn_cast<scf::IfOp>(op);
  if (!branch || branch.getNumResults() != 0)
    return false;
  for (Region &region : branch->getRegions())
    if (!region.empty() && !llvm::hasSingleElement(region.front()))
      return false;
  return true;
}

/// Why the kept op `op` cannot run on the producer, or "".
static std::string checkProducerOp(Operation *op) {
  if (isHandOffOp(op) || op->hasTrait<OpTrait::IsTerminator>() ||
      isa<scf::ForOp, scf::IfOp, PipeBaseOp>(op) || isMemoryEffectFree(op))
    return "";
  if (isa<TileDialect>(op->getDialect()))
    return "its copies depend on '" + op->getName().getStringRef().str() + "'";
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (effects && effects.onlyHasEffect<MemoryEffects::Read>())
    return "";
  return "its copies depend on '" + op->getName().getStringRef().str() +
         "', which has side effects";
}

/// Whether the consumer warpgroups of `consumer` take turns at the MMAs
/// (there must be several): as the kernel says (`tile.pingpong`), else
/// where one of their gemms hands its product to its consumer one gemm late
/// (tile.consumer_late) from a pipe of kMinSlotsForLateAdds slots or more.
/// Such a gemm is lowered with its previous block's consumer after its own
/// MMAs' issue, so a turn ends before it and one warpgroup scales and adds
/// while the other's MMAs run (docs/design.md 5.6). Not a default
/// elsewhere: turns were slower around FlashAttention's gemms (docs/perf.md
/// run 36), in the 2:4-sparse GEMM (run 141), and, once each warpgroup
/// stores its own rows, in FP8 GEMMs that promote once per K block (run
/// 199).
static bool wantsTurns(KernelOp kernel, WsOp consumer) {
  if (consumer.getWarpgroups().size() < 2)
    return false;
  if (auto flag =
          kernel->getAttrOfType<BoolAttr>(TileDialect::kPingpongAttrName))
    return flag.getValue();
  WalkResult found = consumer.walk([](GemmOp gemm) {
    if (gemm->getParentOfType<scf::ForOp>() && consumesLate(gemm) &&
        hasSlotsForLateAdds(gemm))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Whether the persistent `kernel` asks for consumer warpgroups that take
/// its tiles in turn (`tile.alternate_tiles`, tile-persistent-blocks).
static bool wantsAlternateTiles(KernelOp kernel) {
  auto flag =
      kernel->getAttrOfType<BoolAttr>(TileDialect::kAlternateTilesAttrName);
  return flag && flag.getValue();
}

/// In `then`, the body of a tile loop's iteration that this region owns:
/// waits for the turn before the body (except on the loop's first
/// iteration, which nobody passes to) and passes it on once the body's
/// last hand-off is counted (its `tile.pipe.advance`: the main loops have
/// waited for all their slots), except on the loop's last iteration. A
/// consumer that waited for its next tile's slots while the other still
/// consumed its own could see a slot's barrier two rounds ahead of the
/// producer, which its parity cannot tell from the round it wants. The
/// pass is placed after the last op holding an advance in the innermost
/// block holding them all, and at the end of the other side of each branch
/// around that block, so every iteration passes exactly once.
static LogicalResult insertTurns(scf::ForOp loop, Block *then,
                                 std::string &why) {
  SmallVector<PipeAdvanceOp> advances;
  then->walk([&](PipeAdvanceOp op) { advances.push_back(op); });
  if (advances.empty()) {
    why = "its tiles hand off nothing through a pipe";
    return failure();
  }
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || *lb != 0 || !step || *step != 1) {
    why = "its tile loop does not count from 0 by 1";
    return failure();
  }
  // The innermost block holding every advance.
  Block *common = advances.front()->getBlock();
  auto holds = [](Block *block, Operation *op) {
    return block->findAncestorOpInBlock(*op) != nullptr;
  };
  while (!llvm::all_of(advances,
                       [&](PipeAdvanceOp op) { return holds(common, op); }))
    common = common->getParentOp()->getBlock();
  Operation *last = nullptr;
  for (Operation &op : *common)
    if (llvm::any_of(advances,
                     [&](PipeAdvanceOp a) { return op.isAncestor(a); }))
      last = &op;
  // Only branches between `then` and that block: a loop would pass more
  // than once.
  SmallVector<Block *> otherSides;
  for (Block *block = common; block != then;
       block = block->getParentOp()->getBlock()) {
    auto branch = dyn_cast<scf::IfOp>(block->getParentOp());
    if (!branch || branch.getNumResults() != 0) {
      why = "its tiles' hand-offs are counted inside '" +
            block->getParentOp()->getName().getStringRef().str() + "'";
      return failure();
    }
    if (branch.getElseRegion().empty()) {
      OpBuilder eb(branch);
      branch.getElseRegion().push_back(new Block());
      eb.setInsertionPointToStart(&branch.getElseRegion().front());
      scf::YieldOp::create(eb, branch.getLoc());
    }
    otherSides.push_back(block == branch.thenBlock() ? branch.elseBlock()
                                                     : branch.thenBlock());
  }
  Location loc = loop.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(then);
  Value iv = loop.getInductionVar();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value notFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, iv, zero);
  Value next = arith::AddIOp::create(b, loc, iv,
                                     arith::ConstantIndexOp::create(b, loc, 1));
  Value notLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                                        loop.getUpperBound());
  auto wait = scf::IfOp::create(b, loc, notFirst, /*withElseRegion=*/false);
  b.setInsertionPoint(wait.thenBlock()->getTerminator());
  TurnWaitOp::create(b, loc);
  auto pass = [&](OpBuilder &pb) {
    auto branch = scf::IfOp::create(pb, loc, notLast, false);
    pb.setInsertionPoint(branch.thenBlock()->getTerminator());
    TurnPassOp::create(pb, loc);
  };
  OpBuilder pb(loop.getContext());
  pb.setInsertionPointAfter(last);
  pass(pb);
  for (Block *side : otherSides) {
    pb.setInsertionPoint(side->getTerminator());
    pass(pb);
  }
  return success();
}

/// Makes consumer region `consumer` run the body of its tile loop (the
/// `tile.tile_loop` of tile-persistent-blocks) for the tiles whose loop
/// index is `turn` modulo `turns` only. For the others it still counts the
/// hand-offs the body would have made (its `tile.pipe.advance` ops, with
/// the loops, branches and side-effect-free ops they need), so that its
/// numbering of the pipe's slots stays the producer's. Fails, with `why`,
/// where the loop is missing or the count needs more.
static LogicalResult takeTurns(WsOp consumer, int64_t turn, int64_t turns,
                               std::string &why) {
  scf::ForOp loop;
  consumer.walk([&](scf::ForOp op) {
    if (!loop && op->hasAttr(TileDialect::kTileLoopAttrName))
      loop = op;
  });
  if (!loop || loop.getNumResults() != 0) {
    why = "its tile loop is not the one tile-persistent-blocks made";
    return failure();
  }
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  OpBuilder b = OpBuilder::atBlockBegin(body);
  Value index =
      arith::RemUIOp::create(b, loc, loop.getInductionVar(),
                             arith::ConstantIndexOp::create(b, loc, turns));
  Value mine =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                            arith::ConstantIndexOp::create(b, loc, turn));
  auto branch = scf::IfOp::create(b, loc, mine, /*withElseRegion=*/true);
  Block *then = branch.thenBlock();
  then->getOperations().splice(then->begin(), body->getOperations(),
                               std::next(Block::iterator(branch)),
                               std::prev(body->end()));
  if (failed(insertTurns(loop, then, why)))
    return failure();
  // The other turns: the same body, counting its hand-offs only.
  IRMapping mapping;
  OpBuilder eb = OpBuilder::atBlockTerminator(branch.elseBlock());
  for (Operation &op : then->without_terminator())
    eb.clone(op, mapping);
  auto countsHandOffs = [](Operation *op) {
    return op->walk([](PipeAdvanceOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  };
  eraseUnused(*branch.elseBlock(),
              [&](Operation *op) { return !countsHandOffs(op); });
  branch.elseBlock()->walk([&](Operation *op) {
    if (why.empty() && !isa<PipeAdvanceOp>(op))
      why = checkProducerOp(op);
  });
  if (!why.empty()) {
    why = "counting the hand-offs of another turn's tile: " + why;
    return failure();
  }
  return success();
}

/// Gives each consumer region its own copy of the kernel's register tiles
/// that only consumers use (beside the original, at the kernel's top): the
/// regions' threads are disjoint, and the code generator then sees one
/// region's tiles dead in the other's code instead of one set of values
/// live through both.
static void privatizeFragments(KernelOp kernel, ArrayRef<WsOp> consumers) {
  Block &body = kernel.getBody().front();
  for (auto alloc : llvm::make_early_inc_range(body.getOps<AllocOp>())) {
    if (getMemoryKind(alloc.getType()) != MemoryKind::Fragment)
      continue;
    bool consumersOnly = llvm::all_of(alloc->getUsers(), [&](Operation *user) {
      return llvm::any_of(consumers,
                          [&](WsOp ws) { return ws->isAncestor(user); });
    });
    if (!consumersOnly)
      continue;
    // Beside the original: the lowering wants tiles at the kernel's top.
    OpBuilder b(alloc);
    for (WsOp ws : consumers) {
      Operation *copy = b.clone(*alloc);
      alloc.getResult().replaceUsesWithIf(
          copy->getResult(0),
          [&](OpOperand &use) { return ws->isAncestor(use.getOwner()); });
    }
    alloc.erase();
  }
}

namespace {
struct WarpSpecializePass
    : public tile::impl::WarpSpecializeBase<WarpSpecializePass> {
  using WarpSpecializeBase::WarpSpecializeBase;

  /// Why `kernel` cannot be specialized, or "" (silent when it has no
  /// tensor-copy pipe: nothing to specialize).
  std::string check(KernelOp kernel, const ChipDescription &chip,
                    bool &candidate) {
    candidate = false;
    bool cpAsync = false;
    std::string where;
    kernel.walk([&](Operation *op) {
      if (auto copy = dyn_cast<CopyOp>(op)) {
        candidate |= copy.getTma();
        cpAsync |= copy.getAsync() && !copy.getTma() && !isCopyBesideTma(copy);
      }
      cpAsync |= isa<AsyncCommitOp, AsyncWaitOp>(op);
      if (!isProducerOp(op) || !where.empty())
        return;
      for (Operation *p = op->getParentOp(); p != kernel; p = p->getParentOp())
        if (!isa<scf::ForOp, scf::IfOp>(p))
          where = "its tensor copies are nested in '" +
                  p->getName().getStringRef().str() + "'";
    });
    if (!candidate)
      return "";
    auto flag =
        kernel->getAttrOfType<BoolAttr>(TileDialect::kWarpSpecializeAttrName);
    if (flag && !flag.getValue())
      return "disabled by tile.warp_specialize = false";
    if (!flag && !all) {
      candidate = false; // Not asked for: silent.
      return "";
    }
    if (kernel.walk([](WsOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return "the kernel already has tile.ws regions";
    if (cpAsync)
      return "it also hands off copies without tensor copies (cp.async)";
    if (!where.empty())
      return where;
    int64_t threads = kernel.getThreads();
    if (!chip.warpgroupSize || threads % chip.warpgroupSize != 0)
      return "its " + std::to_string(threads) +
             " threads are not whole warpgroups";
    if (threads + chip.warpgroupSize > chip.maxThreadsPerBlock)
      return "a producer warpgroup would exceed " +
             std::to_string(chip.maxThreadsPerBlock) + " threads per block";
    return "";
  }

  /// Every warp starts with the count the block is launched with; the
  /// producer's decrease frees registers for the consumers' increase. The
  /// launch is sized for as many blocks per multiprocessor as leave each
  /// consumer thread the target's least consumer budget (the producer
  /// warpgroup would
  /// otherwise cost a block of one consumer warpgroup half its occupancy:
  /// 256 threads launched with up to 255 registers each fit one block), and
  /// as the shared memory lets be resident.
  void setBudgets(KernelOp kernel, WsOp producer, ArrayRef<WsOp> consumers,
                  const ChipDescription &chip) {
    int64_t total = kernel.getThreads();
    std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
    // No more blocks than the shared memory lets share a multiprocessor:
    // registers sized for blocks that cannot be resident are lost.
    int64_t blocks = std::min(
        getSpecializedBlocks(*target, total, chip.warpgroupSize),
        residentBlocksPerMultiprocessor(chip, total, /*registers=*/1,
                                        computeSharedMemoryBytes(kernel)));
    int64_t budget =
        getConsumerBudget(*target, total, chip.warpgroupSize, blocks);
    if (budget <= target->getEntryRegisters(total, blocks))
      return;
    if (blocks > 1)
      kernel->setAttr(
          TileDialect::kBlocksPerMultiprocessorAttrName,
          IntegerAttr::get(IntegerType::get(kernel.getContext(), 64), blocks));
    producer.setRegisters(kProducerRegisters);
    for (WsOp consumer : consumers)
      consumer.setRegisters(budget);
  }

  /// Splits `kernel` into producer and consumer regions; on failure the
  /// kernel is unchanged and `why` says why.
  LogicalResult specialize(KernelOp kernel, const ChipDescription &chip,
                           std::string &why) {
    int64_t threads = kernel.getThreads();
    int64_t groups = threads / chip.warpgroupSize;
    // Consumer warpgroups taking the tiles in turn, each with the kernel's
    // threads.
    int64_t turns = wantsAlternateTiles(kernel) ? 2 : 1;
    // Work on a clone: the original stays if the producer side needs more
    // than its copies.
    OpBuilder b(kernel);
    auto clone = cast<KernelOp>(b.clone(*kernel));
    Block &body = clone.getBody().front();
    b.setInsertionPoint(body.getTerminator());
    SmallVector<int64_t> consumerGroups =
        llvm::to_vector(llvm::seq<int64_t>(0, groups));
    auto producer =
        WsOp::create(b, kernel.getLoc(), ArrayRef<int64_t>{groups * turns});
    auto consumer = WsOp::create(b, kernel.getLoc(), consumerGroups);
    Operation *consumerEnd = consumer.getBody().front().getTerminator();
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
      if (!isa<AllocOp, PipeCreateOp, WsOp>(op))
        op.moveBefore(consumerEnd);
    // The producer starts as a copy of the consumer.
    IRMapping mapping;
    OpBuilder pb = OpBuilder::atBlockTerminator(&producer.getBody().front());
    for (Operation &op : consumer.getBody().front().without_terminator())
      pb.clone(op, mapping);

    // Producer: its ops and what they need.
    eraseUnused(producer.getBody().front(), [](Operation *op) {
      return !isHandOffOp(op) && !containsHandOffOp(op);
    });
    producer.walk([&](Operation *op) {
      if (why.empty() && op != producer)
        why = checkProducerOp(op);
    });
    if (!why.empty()) {
      clone.erase();
      return failure();
    }
    orderOneTimeHandOffs(producer, consumer);
    // Consumer: everything but the producer ops.
    SmallVector<Operation *> producerOps;
    consumer.walk([&](Operation *op) {
      if (isProducerOp(op))
        producerOps.push_back(op);
    });
    for (Operation *op : producerOps)
      op->erase();
    eraseUnused(consumer.getBody().front(), [](Operation *op) {
      return isOpTriviallyDead(op) || isEmptyBranch(op);
    });
    if (wantsTurns(clone, consumer))
      consumer.setPingpong(true);
    SmallVector<WsOp> consumers = {consumer};
    for (int64_t turn = 1; turn < turns; ++turn) {
      b.setInsertionPoint(body.getTerminator());
      auto next = cast<WsOp>(b.clone(*consumer));
      next.setWarpgroupsAttr(b.getDenseI64ArrayAttr(llvm::to_vector(
          llvm::seq<int64_t>(turn * groups, (turn + 1) * groups))));
      consumers.push_back(next);
    }
    if (turns > 1) {
      for (auto [turn, region] : llvm::enumerate(consumers))
        if (failed(takeTurns(region, turn, turns, why))) {
          clone.erase();
          return failure();
        }
      privatizeFragments(clone, consumers);
    }

    // Register budgets when the target sets them and the consumers can have
    // more than what an even split gives them.
    clone.setThreads(turns * threads + chip.warpgroupSize);
    if (getTargetInfo(kernel)->registerBudgets())
      setBudgets(clone, producer, consumers, chip);
    kernel.erase();
    return success();
  }

  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels) {
      const ChipDescription *chip = getTargetAttr(kernel).getDescription();
      if (!getTargetInfo(kernel)->tensorCopies())
        continue;
      bool candidate;
      std::string why = check(kernel, *chip, candidate);
      if (!candidate)
        continue;
      Location loc = kernel.getLoc();
      auto flag =
          kernel->getAttrOfType<BoolAttr>(TileDialect::kWarpSpecializeAttrName);
      // Alternating tiles was decided with the specialized kernel in mind.
      if (why.empty() && !flag && !wantsAlternateTiles(kernel)) {
        why = checkProducerOccupancy(kernel, *chip);
        // The decision, where a test can see it and a user override it.
        if (!why.empty())
          kernel->setAttr(TileDialect::kWarpSpecializeAttrName,
                          BoolAttr::get(kernel.getContext(), false));
      }
      bool alternate = wantsAlternateTiles(kernel);
      if (why.empty() && succeeded(specialize(kernel, *chip, why))) {
        if (emitRemarks)
          emitRemark(loc, "warp-specialized: a producer warpgroup issues the "
                          "tensor copies")
              << (alternate ? ", two consumer warpgroups take the tiles in turn"
                            : "");
        continue;
      }
      emitRemark(loc, "not warp-specialized: ") << why;
    }
  }
};
} // namespace
