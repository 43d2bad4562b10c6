//===- PipelinePlanning.cpp - Schedule pipelined loops ----------*- C++ -*-===//
//
// Assigns stages and an emission order to the ops of loops marked with
// tile.num_stages, or explains with a remark why a loop stays sequential.
// The schedule is written as attributes and applied by tile-inject-pipeline.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/ChipDescription.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Resources.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_PIPELINEPLANNING
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Most stages a pipelined loop may have. Every stage multiplies the shared
/// tiles it keeps in flight, and no chip holds more than a few: a larger
/// count is a mistake, not a request to search.
constexpr int64_t kMaxNumStages = 64;

/// Most bytes per thread that register prefetching may hold: the next
/// iteration's tiles stay in registers through the current one's compute.
constexpr int64_t kMaxPrefetchBytesPerThread = 256;

/// Drops the pipelining attributes of `loop` after telling why.
void keepSequential(scf::ForOp loop, const Twine &why) {
  loop.emitRemark() << "loop not pipelined: " << why;
  loop->removeAttr(TileDialect::kNumStagesAttrName);
  loop->removeAttr(TileDialect::kStageAttrName);
  loop->removeAttr(TileDialect::kOrderAttrName);
  loop->removeAttr(TileDialect::kExactStagesAttrName);
  loop->removeAttr(TileDialect::kRegisterPrefetchAttrName);
}

/// Whether `op` or an op nested in it reads or writes the tile `alloc`.
bool usesBuffer(Operation *op, Operation *alloc) {
  bool uses = false;
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (getRootAlloc(operand) == alloc)
        uses = true;
  });
  return uses;
}

struct PipelinePlanningPass
    : public tile::impl::PipelinePlanningBase<PipelinePlanningPass> {
  using Base::Base;

  void runOnOperation() override {
    plannedVersions.clear();
    warnedLocations.clear();
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(TileDialect::kNumStagesAttrName))
        loops.push_back(loop);
    });
    decided.clear();
    for (scf::ForOp loop : loops)
      if (!decided.contains(loop) && failed(plan(loop)))
        return signalPassFailure();
    // A tile may be shared by several pipelined loops (each multi-versions
    // it the same way); planning accepted such uses while the other loops
    // were still candidates. Drop the loops whose tiles ended up used by a
    // loop that stays sequential, until none is left.
    bool changed = true;
    while (changed) {
      changed = false;
      for (scf::ForOp loop : loops)
        if (isScheduled(loop) && usedOutside(loop, /*scheduledOnly=*/true)) {
          keepSequential(loop, "a shared tile filled in the loop is also "
                               "used by a loop that is not pipelined");
          changed = true;
        }
    }
  }

  LogicalResult plan(scf::ForOp loop);
  LogicalResult checkSchedule(scf::ForOp loop, ArrayRef<Operation *> ops,
                              ArrayRef<int64_t> stages,
                              ArrayRef<int64_t> order);
  FailureOr<int64_t> checkSharedMemory(scf::ForOp loop, KernelOp kernel,
                                       int64_t numStages, bool exact,
                                       bool prefetch, ArrayRef<int64_t> stages);

  /// Whether planning gave `loop` a schedule.
  static bool isScheduled(scf::ForOp loop) {
    auto numStages =
        loop->getAttrOfType<IntegerAttr>(TileDialect::kNumStagesAttrName);
    return numStages && numStages.getInt() > 1 &&
           loop->hasAttr(TileDialect::kStageAttrName);
  }
  /// Whether a shared tile that a producer copy of `loop` fills is used
  /// outside `loop` other than by another (candidate, or with
  /// `scheduledOnly`, scheduled) pipelined loop filling it too.
  static bool usedOutside(scf::ForOp loop, bool scheduledOnly);

  /// Locations of the loops already warned about a stage count that did
  /// not fit.
  llvm::DenseSet<Location> warnedLocations;

  /// Versions of a source loop (tile-specialize-bounds) given one buffer by
  /// the planning of another version.
  llvm::DenseSet<Operation *> decided;

  /// Versions of the shared tiles multi-buffered by the loops scheduled so
  /// far (the largest count where loops disagree; injection rejects that).
  llvm::MapVector<Operation *, int64_t> plannedVersions;
};

bool PipelinePlanningPass::usedOutside(scf::ForOp loop, bool scheduledOnly) {
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!isProducerCopy(&op, loop))
      continue;
    Operation *alloc = cast<CopyOp>(op).getTarget().getDefiningOp();
    for (Operation *user : alloc->getResult(0).getUsers()) {
      if (loop->isAncestor(user))
        continue;
      // The innermost enclosing loop marked for pipelining, unless it
      // encloses `loop` too.
      auto other = user->getParentOfType<scf::ForOp>();
      while (other && !other->hasAttr(TileDialect::kNumStagesAttrName))
        other = other->getParentOfType<scf::ForOp>();
      auto numStages = other ? other->getAttrOfType<IntegerAttr>(
                                   TileDialect::kNumStagesAttrName)
                             : IntegerAttr();
      bool ok =
          other && !other->isAncestor(loop) && numStages &&
          numStages.getInt() > 1 && (!scheduledOnly || isScheduled(other)) &&
          llvm::any_of(
              other.getBody()->without_terminator(), [&](Operation &op) {
                return isProducerCopy(&op, other) &&
                       cast<CopyOp>(op).getTarget().getDefiningOp() == alloc;
              });
      if (!ok)
        return true;
    }
  }
  return false;
}

LogicalResult PipelinePlanningPass::plan(scf::ForOp loop) {
  int64_t numStages =
      loop->getAttrOfType<IntegerAttr>(TileDialect::kNumStagesAttrName)
          .getInt();
  auto prefetchAttr =
      loop->getAttrOfType<BoolAttr>(TileDialect::kRegisterPrefetchAttrName);
  // One stage with register prefetching asked for: checked as a two-stage
  // pipeline, lowered with one shared buffer.
  bool prefetchOnly = numStages <= 1 && prefetchAttr && prefetchAttr.getValue();
  if (numStages <= 1 && !prefetchOnly) {
    // One stage is the sequential loop: nothing to do.
    loop->removeAttr(TileDialect::kStageAttrName);
    loop->removeAttr(TileDialect::kOrderAttrName);
    loop->removeAttr(TileDialect::kRegisterPrefetchAttrName);
    return success();
  }
  if (prefetchOnly)
    numStages = 2;
  if (numStages > kMaxNumStages)
    return loop.emitError()
           << "'" << TileDialect::kNumStagesAttrName << "' = " << numStages
           << " is more than the supported maximum of " << kMaxNumStages
           << " stages";
  auto kernel = loop->getParentOfType<KernelOp>();
  if (!kernel) {
    keepSequential(loop, "it is not inside a tile.kernel");
    return success();
  }
  if (loop.getNumResults() != 0) {
    keepSequential(loop, "loop-carried values (iter_args) are not supported "
                         "by the pipeliner yet");
    return success();
  }
  SmallVector<Operation *> ops;
  for (Operation &op : loop.getBody()->without_terminator())
    ops.push_back(&op);

  // Producers: copies from global memory into whole shared tiles.
  SmallVector<unsigned> producers;
  for (auto [i, op] : llvm::enumerate(ops))
    if (isProducerCopy(op, loop))
      producers.push_back(i);
  bool nestedCopy = false;
  for (Operation *op : ops)
    if (op->getNumRegions())
      op->walk([&](CopyOp copy) {
        if (getMemoryKind(copy.getTargetType()) == MemoryKind::Shared)
          nestedCopy = true;
      });
  if (nestedCopy) {
    keepSequential(loop, "a copy into shared memory is nested in a region of "
                         "the loop body");
    return success();
  }
  if (producers.empty()) {
    keepSequential(loop, "the body has no copy from global into a whole "
                         "shared tile to overlap with computation");
    return success();
  }
  // With one buffer and register prefetching, every access to the tiles
  // keeps its place in the iteration: only the multi-buffered pipeline
  // needs the checks below.
  for (unsigned p : prefetchOnly ? ArrayRef<unsigned>() : producers) {
    Operation *alloc = cast<CopyOp>(ops[p]).getTarget().getDefiningOp();
    // Write-after-read across iterations: the tile is read before it is
    // overwritten, so iteration i reads what iteration i - 1 copied.
    for (unsigned j = 0; j < p; ++j)
      if (readsTile(ops[j], alloc)) {
        InFlightDiagnostic remark =
            loop.emitRemark()
            << "loop not pipelined: a shared tile is read before it is "
               "overwritten in the same iteration (a write-after-read "
               "dependence across iterations)";
        remark.attachNote(ops[j]->getLoc()) << "read here";
        remark.attachNote(ops[p]->getLoc()) << "overwritten here";
        loop->removeAttr(TileDialect::kNumStagesAttrName);
        loop->removeAttr(TileDialect::kStageAttrName);
        loop->removeAttr(TileDialect::kOrderAttrName);
        loop->removeAttr(TileDialect::kExactStagesAttrName);
        loop->removeAttr(TileDialect::kRegisterPrefetchAttrName);
        return success();
      }
    // Other writers in the loop, or uses outside it, would see the wrong
    // version once the tile is multi-buffered.
    for (auto [j, op] : llvm::enumerate(ops))
      if (j != p && usesBuffer(op, alloc) && !readsTile(op, alloc)) {
        keepSequential(loop, "a shared tile filled by a copy is also written "
                             "by another op of the loop");
        return success();
      }
    // Views other than subviews would need their result types rewritten
    // once the tile gets a version dimension.
    SmallVector<Value> views{alloc->getResult(0)};
    while (!views.empty()) {
      Value view = views.pop_back_val();
      for (Operation *user : view.getUsers()) {
        if (!loop->isAncestor(user))
          continue;
        if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
          views.push_back(subview.getResult());
          continue;
        }
        if (llvm::any_of(user->getResultTypes(), llvm::IsaPred<MemRefType>)) {
          keepSequential(loop, "a shared tile filled by a copy is viewed by "
                               "an op other than memref.subview");
          return success();
        }
      }
    }
  }
  // Uses outside the loop would see the wrong version, except in other
  // pipelined loops multi-versioning the tile the same way.
  if (!prefetchOnly && usedOutside(loop, /*scheduledOnly=*/false)) {
    keepSequential(loop, "a shared tile filled in the loop is also used "
                         "outside it");
    return success();
  }

  SmallVector<int64_t> stages, order;
  auto userStages =
      loop->getAttrOfType<DenseI64ArrayAttr>(TileDialect::kStageAttrName);
  auto userOrder =
      loop->getAttrOfType<DenseI64ArrayAttr>(TileDialect::kOrderAttrName);
  if (userStages) {
    llvm::append_range(stages, userStages.asArrayRef());
  } else {
    // Producers and the side-effect-free ops computing their operands go to
    // stage 0, everything else to the last stage.
    stages.assign(ops.size(), numStages - 1);
    DenseMap<Operation *, unsigned> index;
    for (auto [i, op] : llvm::enumerate(ops))
      index[op] = i;
    SmallVector<Operation *> worklist;
    for (unsigned p : producers)
      worklist.push_back(ops[p]);
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      stages[index[op]] = 0;
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != loop.getBody() ||
            stages[index[def]] == 0)
          continue;
        if (!isMemoryEffectFree(def)) {
          keepSequential(loop, "a copy's operands depend on an op with side "
                               "effects");
          return success();
        }
        worklist.push_back(def);
      }
    }
  }
  if (userOrder) {
    llvm::append_range(order, userOrder.asArrayRef());
  } else {
    // Stage by stage, program order within a stage. On chips whose MMA
    // runs asynchronously (wgmma) the consumer stages go first: they
    // release the slot read by the previous iteration's MMA, now completed,
    // before the producers refill it; producers first would wait for that
    // release in their own iteration.
    bool consumersFirst = getTargetInfo(kernel)->asyncMma() != nullptr;
    SmallVector<unsigned> indices(ops.size());
    for (unsigned i = 0; i < ops.size(); ++i)
      indices[i] = i;
    llvm::stable_sort(indices, [&](unsigned a, unsigned b) {
      return consumersFirst ? stages[a] > stages[b] : stages[a] < stages[b];
    });
    order.assign(ops.size(), 0);
    for (auto [position, i] : llvm::enumerate(indices))
      order[i] = position;
  }
  if (failed(checkSchedule(loop, ops, stages, order)))
    return failure();
  Builder b(loop.getContext());
  if (prefetchOnly) {
    loop->removeAttr(TileDialect::kStageAttrName);
    loop->removeAttr(TileDialect::kOrderAttrName);
    loop->setAttr(TileDialect::kNumStagesAttrName, b.getI64IntegerAttr(1));
    return success();
  }
  // Where only one shared buffer fits, the next iteration's tiles can wait
  // in registers instead, unless the loop says no or they take too many.
  int64_t prefetchBytes = 0;
  for (unsigned p : producers)
    prefetchBytes = addSizes(
        prefetchBytes, getSharedTileSizeInBytes(cast<AllocOp>(
                           cast<CopyOp>(ops[p]).getTarget().getDefiningOp())));
  bool prefetch = (!prefetchAttr || prefetchAttr.getValue()) &&
                  llvm::divideCeil(prefetchBytes,
                                   std::max<int64_t>(kernel.getThreads(), 1)) <=
                      kMaxPrefetchBytesPerThread;
  // User-given stages are a schedule for exactly that count.
  bool exact = userStages || loop->hasAttr(TileDialect::kExactStagesAttrName);
  FailureOr<int64_t> fits =
      checkSharedMemory(loop, kernel, numStages, exact, prefetch, stages);
  if (failed(fits))
    return failure();
  if (*fits > 1)
    loop->removeAttr(TileDialect::kRegisterPrefetchAttrName);
  if (*fits != numStages) {
    // The largest count that fits: the last stage moves down, as in
    // checkSharedMemory's estimate; the IR says what is lowered.
    if (*fits == 1) {
      // One buffer, with the next tiles in registers or sequential, and so
      // are the other versions of the same source loop
      // (tile-specialize-bounds), which share its tiles.
      kernel.walk([&](scf::ForOp other) {
        if (other.getLoc() != loop.getLoc() ||
            !other->hasAttr(TileDialect::kNumStagesAttrName))
          return;
        other->removeAttr(TileDialect::kStageAttrName);
        other->removeAttr(TileDialect::kOrderAttrName);
        other->setAttr(TileDialect::kNumStagesAttrName, b.getI64IntegerAttr(1));
        other->setAttr(TileDialect::kRegisterPrefetchAttrName,
                       b.getBoolAttr(prefetch));
        decided.insert(other);
      });
      return success();
    }
    for (int64_t &s : stages)
      s = std::min(s, *fits - 1);
    numStages = *fits;
    loop->setAttr(TileDialect::kNumStagesAttrName,
                  b.getI64IntegerAttr(numStages));
  }
  for (auto &[alloc, info] : getVersionedBuffers(loop, stages)) {
    int64_t &versions = plannedVersions[alloc];
    versions = std::max(versions, info.getNumVersions());
  }

  loop->setAttr(TileDialect::kStageAttrName, b.getDenseI64ArrayAttr(stages));
  loop->setAttr(TileDialect::kOrderAttrName, b.getDenseI64ArrayAttr(order));
  return success();
}

LogicalResult PipelinePlanningPass::checkSchedule(scf::ForOp loop,
                                                  ArrayRef<Operation *> ops,
                                                  ArrayRef<int64_t> stages,
                                                  ArrayRef<int64_t> order) {
  DenseMap<Operation *, unsigned> index;
  for (auto [i, op] : llvm::enumerate(ops))
    index[op] = i;
  // Injection emits maximal runs of same-stage ops (in emission order) as
  // one predicated group each.
  SmallVector<unsigned> emission(ops.size());
  for (unsigned i = 0; i < ops.size(); ++i)
    emission[i] = i;
  llvm::stable_sort(
      emission, [&](unsigned a, unsigned c) { return order[a] < order[c]; });
  SmallVector<unsigned> group(ops.size());
  for (unsigned k = 0, g = 0; k < emission.size(); ++k) {
    if (k > 0 && stages[emission[k]] != stages[emission[k - 1]])
      ++g;
    group[emission[k]] = g;
  }
  for (auto [i, op] : llvm::enumerate(ops)) {
    WalkResult result = op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != loop.getBody())
          continue;
        // A side-effect-free value from any stage is recomputed where it
        // is needed. Any other value is only available in its own group,
        // after its op.
        unsigned d = index[def];
        if (isMemoryEffectFree(def) ||
            (group[d] == group[i] && order[d] < order[i]))
          continue;
        InFlightDiagnostic diag =
            op->emitError("pipeline schedule: this op (stage ")
            << stages[i] << ") uses a value produced ";
        if (stages[d] > stages[i])
          diag << "in a later stage (" << stages[d] << ")";
        else if (stages[d] < stages[i])
          diag << "in an earlier stage (" << stages[d]
               << "); only side-effect-free values can cross stages";
        else
          diag << "by an op with side effects that is not emitted before "
                  "it in the same group";
        diag.attachNote(def->getLoc()) << "produced here";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
  }
  // A tile must be read in a later stage than its copy, or in the same
  // stage but emitted after it.
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (!isProducerCopy(op, loop))
      continue;
    Operation *alloc = cast<CopyOp>(op).getTarget().getDefiningOp();
    for (auto [j, other] : llvm::enumerate(ops)) {
      if (j <= i || !readsTile(other, alloc))
        continue;
      if (stages[j] < stages[i]) {
        InFlightDiagnostic diag =
            other->emitError("pipeline schedule: this op (stage ")
            << stages[j] << ") reads a shared tile that is filled in a later "
            << "stage (" << stages[i] << ")";
        diag.attachNote(op->getLoc()) << "filled here";
        return failure();
      }
      if (stages[j] == stages[i] && order[j] < order[i]) {
        InFlightDiagnostic diag =
            other->emitError("pipeline schedule: this op (stage ")
            << stages[j] << ") is emitted before the copy filling the "
            << "shared tile it reads";
        diag.attachNote(op->getLoc()) << "filled here";
        return failure();
      }
    }
  }
  return success();
}

FailureOr<int64_t> PipelinePlanningPass::checkSharedMemory(
    scf::ForOp loop, KernelOp kernel, int64_t numStages, bool exact,
    bool prefetch, ArrayRef<int64_t> stages) {
  // Shared memory of the kernel with this loop's tiles multi-buffered.
  auto bytesWith = [&](int64_t stagesUsed) {
    // Stage S - 1 becomes stagesUsed - 1; earlier stages keep their number.
    SmallVector<int64_t> scaled;
    for (int64_t s : stages)
      scaled.push_back(s == numStages - 1 ? stagesUsed - 1
                                          : std::min(s, stagesUsed - 1));
    // Tiles of the kernel multi-buffered by loops planned before count too.
    llvm::MapVector<Operation *, int64_t> versions;
    for (auto &[alloc, count] : plannedVersions)
      if (kernel->isAncestor(alloc))
        versions[alloc] = count;
    for (auto &[alloc, info] : getVersionedBuffers(loop, scaled)) {
      int64_t &count = versions[alloc];
      count = std::max(count, info.getNumVersions());
    }
    // Saturating: no count of versions or tile size can wrap the sum.
    int64_t extra = 0;
    for (auto &[alloc, count] : versions)
      extra = addSizes(
          extra, mulSizes(std::max<int64_t>(count - 1, 0),
                          getSharedTileSizeInBytes(cast<AllocOp>(alloc))));
    return addSizes(computeSharedMemoryBytes(kernel), extra);
  };
  // The option when given (and positive), else the target's limit.
  int64_t limit =
      getResourceLimits(
          kernel, maxSharedMemory.hasValue() ? maxSharedMemory.getValue() : 0,
          /*registersOption=*/0)
          .sharedMemoryPerBlock;
  int64_t needed = bytesWith(numStages);
  if (needed <= limit)
    return numStages;
  // The shared memory needed grows with the stage count: binary search for
  // the largest count in [1, numStages - 1] that fits (0 if none does).
  int64_t fits = 0;
  for (int64_t lo = 1, hi = numStages - 1; lo <= hi;) {
    int64_t mid = lo + (hi - lo) / 2;
    if (bytesWith(mid) <= limit) {
      fits = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  // A count is a request the target may not meet: one source serves chips
  // of different shared memory sizes. Lowered with what fits unless the
  // loop asks for exactly this count.
  if (!exact && fits >= 1) {
    // Versions of one source loop (tile-specialize-bounds) warn once.
    if (!warnedLocations.insert(loop.getLoc()).second)
      return fits;
    InFlightDiagnostic warning = loop.emitWarning()
                                 << "num_stages = " << numStages << " needs "
                                 << describeSize(needed)
                                 << " bytes of shared memory but at most "
                                 << limit << " are available: ";
    if (fits > 1)
      warning << "lowered with num_stages = " << fits
              << ", the largest count that fits";
    else if (prefetch)
      warning << "lowered with one buffer (num_stages = 1), the next "
                 "iteration's tiles loaded ahead into registers "
                 "(tile.register_prefetch)";
    else
      warning << "lowered without pipelining (num_stages = 1), the only "
                 "count that fits";
    warning << " (tile.exact_stages makes this an error)";
    return fits;
  }
  InFlightDiagnostic diag = loop.emitError()
                            << "pipelining with num_stages = " << numStages
                            << " needs " << describeSize(needed)
                            << " bytes of shared memory but at most " << limit
                            << " are available";
  if (fits > 1)
    diag << "; num_stages = " << fits << " would fit";
  else if (fits == 1)
    diag << "; only num_stages = 1 (no pipelining) fits";
  else
    diag << "; the kernel does not fit even without pipelining";
  return failure();
}

} // namespace
