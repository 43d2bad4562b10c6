//===- InjectPipeline.cpp - Emit software-pipelined loops -------*- C++ -*-===//
//
// Applies the schedule written by tile-pipeline-planning: multi-versions the
// shared tiles that live across stages and rewrites each scheduled loop into
// a predicated pipelined loop with asynchronous copies.
//
//   for it in [lb, ub + (S - 1) * step) step step:
//     for each group of consecutive ops (in `tile.order`) of stage s:
//       j = it - s * step
//       if lb <= j < ub: the group's ops for iteration j, using version
//                        ((j - lb) / step) mod V of every multi-versioned tile
//     (the stage hand-off through a tile.pipe: produce_acquire before the
//      first asynchronous copy, produce_commit after the last one,
//      consume_wait before the first group reading the copied tiles,
//      consume_release at the end of the iteration, or before the
//      producers when all reads come before them)
//
// A loop that may run more than once (nested in another loop) or that
// shares its copied tiles with another pipelined loop numbers its hand-offs
// (and the versions of its copied tiles) from the pipe's base, which it
// advances by its trip count afterwards: slots and barrier phases then
// continue across passes instead of restarting at 0. Loops sharing copied
// tiles share their pipe.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace mlir::tile {
#define GEN_PASS_DEF_INJECTPIPELINE
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

struct Versioning {
  int64_t versions;
  Location loopLoc;    // the first loop that versioned the tile (erased
                       // once pipelined: only its location is kept)
  AllocOp replacement; // the multi-versioned allocation
};

/// The shared tiles `loop` copies asynchronously under its schedule: those
/// first read in a stage after the one that writes them.
static SmallVector<Operation *> getAsyncTiles(scf::ForOp loop) {
  auto stages =
      loop->getAttrOfType<DenseI64ArrayAttr>(TileDialect::kStageAttrName);
  SmallVector<Operation *> tiles;
  for (auto &[op, info] : getVersionedBuffers(loop, stages.asArrayRef()))
    if (info.firstReadStage > info.writeStage)
      tiles.push_back(op);
  return tiles;
}

/// Whether `op` may run more than once per run of its kernel.
static bool mayRepeat(Operation *op) {
  for (op = op->getParentOp(); op && !isa<KernelOp>(op); op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      return true;
  return false;
}

/// Whether at most one of `a` and `b` runs per run of the kernel: they are
/// in different branches of an scf.if that runs once (tile-specialize-bounds
/// makes such copies of a loop; in a persistent loop, both branches run, for
/// different tiles).
static bool inExclusiveBranches(Operation *a, Operation *b) {
  for (Operation *p = a->getParentOp(); p && !isa<KernelOp>(p);
       p = p->getParentOp()) {
    auto branch = dyn_cast<scf::IfOp>(p);
    if (!branch || !branch->isAncestor(b))
      continue;
    Region &then = branch.getThenRegion();
    return then.isAncestor(a->getParentRegion()) !=
               then.isAncestor(b->getParentRegion()) &&
           !mayRepeat(branch);
  }
  return false;
}

struct InjectPipelinePass
    : public tile::impl::InjectPipelineBase<InjectPipelinePass> {
  void runOnOperation() override;
  LogicalResult inject(scf::ForOp loop, bool counted);
  FailureOr<AllocOp> getVersionedAlloc(AllocOp alloc, int64_t versions,
                                       scf::ForOp loop);
  FailureOr<Value> getPipe(scf::ForOp loop, ArrayRef<AllocOp> tiles,
                           int64_t slots);

  llvm::MapVector<Operation *, Versioning> versioned;
  /// The pipelined loops copying each multi-versioned tile asynchronously
  /// (keyed by the new allocation), with their pipe.
  DenseMap<Operation *, SmallVector<std::pair<Operation *, Value>>> pipes;
};

/// The pipe of a loop copying `tiles` asynchronously: the one of an earlier
/// loop copying them that may run in the same run of the kernel, or a new
/// one of `slots` slots.
FailureOr<Value> InjectPipelinePass::getPipe(scf::ForOp loop,
                                             ArrayRef<AllocOp> tiles,
                                             int64_t slots) {
  Value pipe;
  for (AllocOp tile : tiles) {
    for (auto [other, otherPipe] : pipes.lookup(tile)) {
      if (inExclusiveBranches(loop, other))
        continue;
      if (pipe && otherPipe != pipe)
        return loop.emitError("this pipelined loop copies shared tiles that "
                              "two other pipelined loops hand off "
                              "separately");
      pipe = otherPipe;
    }
  }
  if (pipe && cast<PipeType>(pipe.getType()).getSlots() != slots)
    return loop.emitError("this pipelined loop hands off its copies in ")
           << slots << " slots, but shares tiles with a loop using "
           << cast<PipeType>(pipe.getType()).getSlots();
  if (!pipe) {
    auto kernel = loop->getParentOfType<KernelOp>();
    auto b = OpBuilder::atBlockBegin(&kernel.getBody().front());
    pipe = PipeCreateOp::create(b, loop.getLoc(),
                                PipeType::get(b.getContext(), slots),
                                /*plan=*/PipePlanAttr());
  }
  for (AllocOp tile : tiles)
    pipes[tile].push_back({loop, pipe});
  return pipe;
}

FailureOr<AllocOp> InjectPipelinePass::getVersionedAlloc(AllocOp alloc,
                                                         int64_t versions,
                                                         scf::ForOp loop) {
  auto it = versioned.find(alloc);
  if (it != versioned.end()) {
    if (it->second.versions == versions)
      return it->second.replacement;
    InFlightDiagnostic diag =
        loop.emitError("this pipelined loop needs ")
        << versions << " versions of a shared tile that another pipelined "
        << "loop versions " << it->second.versions << " times";
    diag.attachNote(it->second.loopLoc) << "the other loop";
    diag.attachNote(alloc.getLoc()) << "the shared tile";
    return diag;
  }
  MemRefType type = alloc.getType();
  SmallVector<int64_t> shape{versions};
  llvm::append_range(shape, type.getShape());
  auto newType =
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace());
  OpBuilder b(alloc);
  auto newAlloc = AllocOp::create(b, alloc.getLoc(), newType);
  newAlloc->setAttrs(alloc->getAttrs());
  versioned.insert({alloc, {versions, loop.getLoc(), newAlloc}});
  return newAlloc;
}

/// Version `version` of a multi-versioned tile, as a view of the original
/// tile's shape.
Value getVersionView(OpBuilder &b, Location loc, AllocOp alloc, Value version) {
  MemRefType type = alloc.getType();
  unsigned rank = type.getRank();
  SmallVector<OpFoldResult> offsets{version}, sizes{b.getIndexAttr(1)},
      strides(rank, b.getIndexAttr(1));
  for (int64_t size : type.getShape().drop_front()) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(size));
  }
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      type.getShape().drop_front(), type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(viewType), alloc,
                                   offsets, sizes, strides);
}

LogicalResult InjectPipelinePass::inject(scf::ForOp loop, bool counted) {
  auto stagesAttr =
      loop->getAttrOfType<DenseI64ArrayAttr>(TileDialect::kStageAttrName);
  auto orderAttr =
      loop->getAttrOfType<DenseI64ArrayAttr>(TileDialect::kOrderAttrName);
  int64_t numStages =
      loop->getAttrOfType<IntegerAttr>(TileDialect::kNumStagesAttrName)
          .getInt();
  SmallVector<Operation *> ops;
  for (Operation &op : loop.getBody()->without_terminator())
    ops.push_back(&op);
  ArrayRef<int64_t> stages = stagesAttr.asArrayRef();
  ArrayRef<int64_t> order = orderAttr.asArrayRef();

  // Tiles to multi-version, and their new allocations.
  auto buffers = getVersionedBuffers(loop, stages);
  // (A MapVector: the version views are emitted in this order.)
  llvm::MapVector<Operation *, std::pair<AllocOp, int64_t>> replacements;
  for (auto &[op, info] : buffers) {
    auto alloc = cast<AllocOp>(op);
    FailureOr<AllocOp> newAlloc =
        getVersionedAlloc(alloc, info.getNumVersions(), loop);
    if (failed(newAlloc))
      return failure();
    replacements[alloc] = {*newAlloc, info.getNumVersions()};
  }
  // Copies into tiles first read in a later stage become asynchronous. A
  // tile also read in the stage of its copy is still multi-versioned (later
  // stages read it too) but keeps a synchronous copy: the reader of the same
  // iteration needs the data at once, and an asynchronous copy would need a
  // wait for fewer than zero pending groups.
  llvm::SmallPtrSet<Operation *, 4> asyncTiles;
  // Before the first stage reading the copied tiles, wait until only the
  // groups issued for later iterations are in flight: a tile read at stage
  // r was copied at stage w, r - w iterations (commits) ago.
  // The slot is released after its last read, `releaseDistance` hand-offs
  // after the producers' current one.
  int64_t firstRead = numStages, distance = numStages, releaseDistance = 0;
  std::optional<int64_t> writeStage;
  bool oneWriteStage = true;
  for (auto &[op, info] : buffers) {
    if (info.firstReadStage <= info.writeStage)
      continue;
    asyncTiles.insert(op);
    firstRead = std::min(firstRead, info.firstReadStage);
    distance = std::min(distance, info.firstReadStage - info.writeStage);
    releaseDistance =
        std::max(releaseDistance, info.lastReadStage - info.writeStage);
    if (writeStage && *writeStage != info.writeStage)
      oneWriteStage = false;
    writeStage = info.writeStage;
  }
  auto isAsyncCopy = [&](Operation *op) {
    return isProducerCopy(op, loop) &&
           asyncTiles.contains(cast<CopyOp>(op).getTarget().getDefiningOp());
  };

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  // Constants of the induction variable's type (index or an integer type).
  Type ivType = loop.getInductionVar().getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(ivType, value));
  };
  Value extra = arith::MulIOp::create(b, loc, step, constant(numStages - 1));
  Value newUb = arith::AddIOp::create(b, loc, ub, extra);
  // Comparisons and divisions follow the loop's signedness: in an unsigned
  // loop, it - s * step wraps around below 0 and fails j < ub.
  bool isUnsigned = loop.getUnsignedCmp();
  auto newLoop = scf::ForOp::create(b, loc, lb, newUb, step, ValueRange{},
                                    /*bodyBuilder=*/nullptr, isUnsigned);
  newLoop->setAttr(TileDialect::kPipelineDrainAttrName,
                   b.getI64IntegerAttr(numStages - 1));
  Value it = newLoop.getInductionVar();

  SmallVector<unsigned> emission(ops.size());
  for (unsigned i = 0; i < ops.size(); ++i)
    emission[i] = i;
  llvm::stable_sort(
      emission, [&](unsigned a, unsigned c) { return order[a] < order[c]; });
  DenseMap<Operation *, unsigned> index;
  for (auto [i, op] : llvm::enumerate(ops))
    index[op] = i;

  // All asynchronous copies of an iteration form one group, committed after
  // the last of them in emission order (they may be spread over several
  // stages): the group of iteration `it` then holds the copies of iteration
  // it - w of every tile written at stage w, which the wait count assumes.
  std::optional<unsigned> firstAsync, lastAsync, lastRead;
  for (auto [k, i] : llvm::enumerate(emission)) {
    if (isAsyncCopy(ops[i])) {
      if (!firstAsync)
        firstAsync = k;
      lastAsync = k;
    }
    if (llvm::any_of(asyncTiles,
                     [&](Operation *tile) { return readsTile(ops[i], tile); }))
      lastRead = k;
  }
  // The consumers release their slot at the end of the iteration, or, when
  // every read of the copied tiles comes before the producers (consumer
  // stages emitted first), before the producers take the next slot: a
  // producer waiting for a release later in its own iteration would wait
  // forever where the release is deferred until the slot's MMA completes.
  bool releaseBeforeProducers =
      firstAsync && lastRead && *lastRead < *firstAsync;

  // The stage hand-off: a pipe with a slot per version of the copied tiles.
  // Hand-off j carries the copies of original iteration j: the producers
  // (stage 0) of this iteration hand off j = (it - lb) / step, the
  // consumers wait for the one `distance` iterations older (negative in
  // the prologue: a hand-off that never happens, ready at once).
  //
  // A counted loop numbers them (and the versions of the copied tiles) from
  // the pipe's base instead.
  Value pipe, base, producerSeq, consumerSeq, releaseSeq;
  if (!asyncTiles.empty()) {
    int64_t slots = 1;
    SmallVector<AllocOp> pipeTiles;
    for (Operation *tile : asyncTiles) {
      slots = std::max(slots, replacements[tile].second);
      pipeTiles.push_back(replacements[tile].first);
    }
    FailureOr<Value> found = getPipe(newLoop, pipeTiles, slots);
    if (failed(found))
      return failure();
    pipe = *found;
    if (counted) {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(newLoop);
      base = PipeBaseOp::create(b, loc, b.getIndexType(), pipe);
    }
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(newLoop.getBody());
    Value fromLb = arith::SubIOp::create(b, loc, it, lb);
    Value iteration =
        isUnsigned ? arith::DivUIOp::create(b, loc, fromLb, step).getResult()
                   : arith::DivSIOp::create(b, loc, fromLb, step).getResult();
    if (!iteration.getType().isIndex())
      iteration =
          arith::IndexCastOp::create(b, loc, b.getIndexType(), iteration);
    if (base)
      iteration = arith::AddIOp::create(b, loc, base, iteration);
    producerSeq = iteration;
    consumerSeq = arith::SubIOp::create(
        b, loc, iteration, arith::ConstantIndexOp::create(b, loc, distance));
    releaseSeq = releaseDistance == distance
                     ? consumerSeq
                     : arith::SubIOp::create(b, loc, iteration,
                                             arith::ConstantIndexOp::create(
                                                 b, loc, releaseDistance))
                           .getResult();
  }
  // The release, marked with the stage of the last reads of its slot when
  // all copied tiles are written in one stage.
  auto release = [&] {
    auto op = PipeConsumeReleaseOp::create(b, loc, pipe, releaseSeq);
    if (oneWriteStage)
      op->setAttr(TileDialect::kPipelineStageAttrName,
                  b.getI64IntegerAttr(*writeStage + releaseDistance));
  };

  b.setInsertionPoint(newLoop.getBody()->getTerminator());
  bool committed = false, waited = false;
  unsigned pos = 0;
  while (pos < emission.size()) {
    int64_t stage = stages[emission[pos]];
    unsigned end = pos;
    while (end < emission.size() && stages[emission[end]] == stage)
      ++end;
    // Wait for the copies before the first group reading them (one group
    // fewer if this iteration's copies are not committed yet). When the
    // iteration starts with its copies, wait before them instead: the wait's
    // barrier then also orders the previous iteration's reads of the version
    // these copies overwrite, so the copies need no barrier of their own.
    bool startsWithCopies = pos == 0 && stage < firstRead;
    if (!waited && !asyncTiles.empty() &&
        (stage >= firstRead || startsWithCopies)) {
      PipeConsumeWaitOp::create(b, loc, pipe, consumerSeq,
                                committed ? distance : distance - 1);
      waited = true;
    }
    // The producers take their slot before the group with the first copy.
    if (firstAsync && *firstAsync >= pos && *firstAsync < end) {
      if (releaseBeforeProducers)
        release();
      PipeProduceAcquireOp::create(b, loc, pipe, producerSeq);
    }
    // Iteration executed by this stage, and whether it is in range.
    Value shift = arith::MulIOp::create(b, loc, step, constant(stage));
    Value j = arith::SubIOp::create(b, loc, it, shift);
    // j >= lb holds at stage 0; j < ub is needed at every stage since the
    // original range may be empty.
    Value inRange = arith::CmpIOp::create(
        b, loc,
        isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt, j,
        ub);
    if (stage > 0)
      inRange = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc,
                                isUnsigned ? arith::CmpIPredicate::uge
                                           : arith::CmpIPredicate::sge,
                                j, lb),
          inRange);
    auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    guard->setAttr(TileDialect::kPipelineStageAttrName,
                   b.getI64IntegerAttr(stage));
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(guard.thenBlock());
      IRMapping mapping;
      mapping.map(loop.getInductionVar(), j);
      // Versions of the multi-buffered tiles for iteration j.
      Value fromLb = arith::SubIOp::create(b, loc, j, lb);
      Value iteration =
          isUnsigned ? arith::DivUIOp::create(b, loc, fromLb, step).getResult()
                     : arith::DivSIOp::create(b, loc, fromLb, step).getResult();
      // In a counted loop, the copied tiles' versions follow the hand-offs:
      // hand-off base + i fills version (base + i) mod V (the slot whose
      // release the producers waited for).
      Value offset;
      if (base) {
        offset = iteration;
        if (!offset.getType().isIndex())
          offset = arith::IndexCastOp::create(b, loc, b.getIndexType(), offset);
      }
      for (auto &[op, repl] : replacements) {
        bool counted = base && asyncTiles.contains(op);
        Value version;
        if (!llvm::isPowerOf2_64(repl.second)) {
          // A count other than a power of two: a ring position, which
          // tile-carry-ring-positions steps through the loop (the
          // iteration is at least 0 here, and below 2^31 as the pipe's
          // hand-offs from its base are: tile-lower-ops).
          Value from = counted ? offset : iteration;
          if (!from.getType().isIndex())
            from = arith::IndexCastOp::create(b, loc, b.getIndexType(), from);
          version = emitRingPosition(b, loc, counted ? base : Value(), from,
                                     repl.second)
                        .first;
        } else if (counted) {
          // (One op a statement: the order of the ops is the same whichever
          // order the compiler evaluates arguments in.)
          Value count = arith::ConstantIndexOp::create(b, loc, repl.second);
          Value sum = arith::AddIOp::create(b, loc, base, offset);
          version = arith::RemUIOp::create(b, loc, sum, count);
        } else
          version = isUnsigned ? arith::RemUIOp::create(b, loc, iteration,
                                                        constant(repl.second))
                                     .getResult()
                               : arith::RemSIOp::create(b, loc, iteration,
                                                        constant(repl.second))
                                     .getResult();
        if (!version.getType().isIndex())
          version =
              arith::IndexCastOp::create(b, loc, b.getIndexType(), version);
        mapping.map(op->getResult(0),
                    getVersionView(b, loc, repl.first, version));
      }
      // Clones `op`, first recomputing the side-effect-free values of other
      // stages it needs.
      std::function<LogicalResult(Operation *)> cloneWithDeps =
          [&](Operation *op) -> LogicalResult {
        // Already recomputed for an op emitted before it in this group.
        if (op->getNumResults() && llvm::all_of(op->getResults(), [&](Value v) {
              return mapping.contains(v);
            }))
          return success();
        llvm::SetVector<Value> needed;
        for (Value operand : op->getOperands())
          needed.insert(operand);
        for (Region &region : op->getRegions())
          getUsedValuesDefinedAbove(region, needed);
        for (Value value : needed) {
          Operation *def = value.getDefiningOp();
          if (!def || def->getBlock() != loop.getBody() ||
              mapping.contains(value))
            continue;
          if (!isMemoryEffectFree(def))
            return op->emitError("pipelining: uses a value of an op with side "
                                 "effects from another stage");
          if (failed(cloneWithDeps(def)))
            return failure();
        }
        Operation *clone = b.clone(*op, mapping);
        if (isAsyncCopy(op))
          cast<CopyOp>(clone).setAsync(true);
        // A view of a multi-versioned tile has a dynamic offset now.
        if (auto view = dyn_cast<memref::SubViewOp>(clone)) {
          auto oldView = cast<memref::SubViewOp>(op);
          if (view.getSourceType() != oldView.getSourceType())
            view.getResult().setType(
                cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
                    oldView.getType().getShape(), view.getSourceType(),
                    view.getMixedOffsets(), view.getMixedSizes(),
                    view.getMixedStrides())));
        }
        return success();
      };
      for (unsigned k = pos; k < end; ++k)
        if (failed(cloneWithDeps(ops[emission[k]])))
          return failure();
    }
    // One group of copies per iteration.
    if (lastAsync && *lastAsync >= pos && *lastAsync < end) {
      PipeProduceCommitOp::create(b, loc, pipe, producerSeq);
      committed = true;
    }
    pos = end;
  }
  // The consumers are done with their slot at the end of the iteration.
  if (!asyncTiles.empty() && !releaseBeforeProducers)
    release();
  b.setInsertionPointAfter(newLoop);
  if (!asyncTiles.empty())
    AsyncWaitOp::create(b, loc, 0);
  // A counted loop moves the base past its hand-offs: one per iteration of
  // the original loop.
  if (base) {
    Value zero = constant(0);
    Value span = arith::SubIOp::create(b, loc, ub, lb);
    Value trips =
        isUnsigned ? arith::CeilDivUIOp::create(b, loc, span, step).getResult()
                   : arith::CeilDivSIOp::create(b, loc, span, step).getResult();
    Value none = arith::CmpIOp::create(b, loc,
                                       isUnsigned ? arith::CmpIPredicate::ule
                                                  : arith::CmpIPredicate::sle,
                                       ub, lb);
    trips = arith::SelectOp::create(b, loc, none, zero, trips);
    if (!trips.getType().isIndex())
      trips = arith::IndexCastOp::create(b, loc, b.getIndexType(), trips);
    PipeAdvanceOp::create(b, loc, pipe, trips);
  }
  loop.erase();
  return success();
}

void InjectPipelinePass::runOnOperation() {
  // The pass may run on several modules: forget the previous one's tiles.
  versioned.clear();
  SmallVector<scf::ForOp> loops;
  getOperation().walk([&](scf::ForOp loop) {
    if (loop->hasAttr(TileDialect::kStageAttrName) &&
        loop->hasAttr(TileDialect::kOrderAttrName))
      loops.push_back(loop);
  });
  // Loops that repeat, or share a copied tile with another loop of the
  // same run, count their hand-offs from the pipe's base.
  DenseMap<Operation *, SmallVector<scf::ForOp>> copiers;
  for (scf::ForOp loop : loops)
    for (Operation *tile : getAsyncTiles(loop))
      copiers[tile].push_back(loop);
  SmallVector<bool> counted;
  for (scf::ForOp loop : loops)
    counted.push_back(
        mayRepeat(loop) || llvm::any_of(copiers, [&](auto &entry) {
          return llvm::is_contained(entry.second, loop) &&
                 llvm::any_of(entry.second, [&](scf::ForOp o) {
                   return o != loop && !inExclusiveBranches(loop, o);
                 });
        }));
  pipes.clear();
  for (auto [loop, isCounted] : llvm::zip(loops, counted))
    if (failed(inject(loop, isCounted)))
      return signalPassFailure();
  // Every use of a versioned tile was inside a pipelined loop (planning
  // checks it): the old allocations are dead.
  for (auto &[op, info] : versioned) {
    if (!op->use_empty()) {
      op->emitError("a multi-versioned shared tile is still used outside "
                    "the pipelined loops");
      return signalPassFailure();
    }
    op->erase();
  }
}

} // namespace
