//===- PlanPipes.cpp - How the barriers of pipes count ----------*- C++ -*-===//
//
// `tile-plan-pipes`: for each pipe that tensor copies fill, what its
// barriers count, written as the `#tile.pipe_plan` of its tile.pipe.create
// (TmaCopy.cpp lowers the hand-offs with it):
//
//   full[slot]    one arrival per tensor copy of a hand-off, plus one per
//                 thread issuing the hand-off's cp.async copies (those that
//                 a tensor copy cannot move), which arrives when they land;
//                 every hand-off of a pipe must make as many
//   empty[slot]   one arrival per consumer warp that releases the slot (the
//                 union of the tile.ws regions holding a release), or one
//                 per consumer thread when threads read the slot themselves;
//                 times the blocks of the cluster when a multicast copy
//                 fills the slot in each of them
//
// and whether a release may be deferred to the next hand-off, so that the
// slot's asynchronous MMAs stay in flight (planDeferredRelease, in
// PlanPipesDeferred.cpp), with what that changes in the IR.
//
//===----------------------------------------------------------------------===//

#include "PlanPipes.h"

#include "tile/Transforms/Handoffs.h"
#include "tile/Transforms/Passes.h"

#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tile {
#define GEN_PASS_DEF_PLANPIPES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::plan_pipes;

/// Whether an op other than an asynchronous MMA reads a tile that a copy of
/// `pipe` fills.
static bool readByThreads(PipePlanner &ctx, Value pipe) {
  llvm::SmallPtrSet<Operation *, 4> tiles;
  ctx.kernel.walk([&](CopyOp copy) {
    PipeProduceAcquireOp handOff = copy.getAsync() ? getHandOff(copy) : nullptr;
    if (handOff && handOff.getPipe() == pipe)
      if (AllocOp alloc = getRootAlloc(copy.getTarget()))
        tiles.insert(alloc);
  });
  WalkResult result = ctx.kernel.walk([&](Operation *op) {
    if (isa<AllocOp, ViewLikeOpInterface>(op))
      return WalkResult::advance();
    if (auto copy = dyn_cast<CopyOp>(op);
        copy && tiles.contains(getRootAlloc(copy.getTarget())) &&
        !tiles.contains(getRootAlloc(copy.getSource())))
      return WalkResult::advance();
    auto gemm = dyn_cast<GemmOp>(op);
    bool asyncMma =
        gemm && gemm.getMmaAttr() && ctx.target.isAsyncMma(gemm.getMmaAttr());
    for (Value operand : op->getOperands()) {
      AllocOp alloc = getRootAlloc(operand);
      if (alloc && tiles.contains(alloc) &&
          !(asyncMma && operand != gemm.getC()))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Plans the pipes of one kernel that tensor copies fill and have no plan
/// yet.
static LogicalResult planKernel(PipePlanner &ctx) {
  // What one plan holds while it is made.
  struct Entry {
    int64_t full = 0, empty = 0, engineThreads = 0;
    bool perThread = false, deferred = false, cluster = false;
  };
  llvm::MapVector<Value, Entry> entries;
  // Tensor copies per hand-off (per produce_acquire): each arrives once on
  // the slot's full barrier.
  llvm::MapVector<Operation *, int64_t> copiesPerHandOff;
  WalkResult result = ctx.kernel.walk([&](CopyOp copy) {
    if (!copy.getTma())
      return WalkResult::advance();
    FailureOr<PipeProduceAcquireOp> handOff = getTensorCopyHandOff(
        copy, ctx.target.tensorCopies(), ctx.target.getChipName());
    if (failed(handOff))
      return WalkResult::interrupt();
    Value pipe = handOff->getPipe();
    auto create = pipe.getDefiningOp<PipeCreateOp>();
    if (!create) {
      copy.emitOpError("fills a pipe that no tile.pipe.create of the kernel "
                       "makes");
      return WalkResult::interrupt();
    }
    ctx.tmaPipes[copy] = pipe;
    if (create.getPlanAttr())
      return WalkResult::advance();
    entries[pipe];
    ++copiesPerHandOff[*handOff];
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // Copy-engine copies beside the tensor copies: each thread issuing them
  // arrives once per hand-off, when they land (at the hand-off's commit,
  // which must run on the same threads).
  llvm::DenseMap<Operation *, int64_t> engineThreads;
  result = ctx.kernel.walk([&](CopyOp copy) {
    PipeProduceAcquireOp handOff =
        copy.getAsync() && !copy.getTma() ? getHandOff(copy) : nullptr;
    if (!handOff || !entries.contains(handOff.getPipe()))
      return WalkResult::advance();
    PipeProduceCommitOp commit = getCommit(copy);
    int64_t threads = ctx.numThreads(copy);
    if (!commit || ctx.numThreads(commit) != threads ||
        getFirstThread(commit) != getFirstThread(copy)) {
      copy.emitOpError("fills a slot of a pipe of tensor copies, but its "
                       "threads do not commit the hand-off: copy-engine "
                       "copies arrive on the slot's barrier at the commit");
      return WalkResult::interrupt();
    }
    engineThreads[handOff] = threads;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // The full barriers count one arrival per tensor copy and per thread of
  // the copy-engine copies: every hand-off of a pipe (in several loops
  // sharing it) must make as many.
  llvm::DenseMap<Value, Operation *> firstHandOff;
  for (auto [op, copies] : copiesPerHandOff) {
    auto handOff = cast<PipeProduceAcquireOp>(op);
    Entry &entry = entries[handOff.getPipe()];
    int64_t threads = engineThreads.lookup(op);
    auto [it, inserted] = firstHandOff.try_emplace(handOff.getPipe(), op);
    if (inserted) {
      entry.full = copies + threads;
      entry.engineThreads = threads;
      continue;
    }
    if (entry.full != copies + threads || entry.engineThreads != threads) {
      auto describe = [](int64_t copies, int64_t threads) {
        std::string what = std::to_string(copies) + " tensor copies";
        if (threads)
          what +=
              " and cp.async copies of " + std::to_string(threads) + " threads";
        return what;
      };
      InFlightDiagnostic diag =
          handOff.emitOpError("fills its slot with ")
          << describe(copies, threads)
          << ", but another hand-off of the pipe with "
          << describe(entry.full - entry.engineThreads, entry.engineThreads)
          << ": a pipe's barriers expect as many arrivals per hand-off";
      diag.attachNote(it->second->getLoc()) << "the other hand-off";
      return failure();
    }
  }
  for (auto &[pipe, entry] : entries) {
    // One arrival per warp that releases the slot: the warps of the union
    // of the tile.ws regions holding a release (two consumer regions [1]
    // and [2] both release: 8 warps), or every warp of the kernel when a
    // release runs outside tile.ws (or there is none).
    // Regions taking the tiles in turn (`tile.alternate_tiles`) release
    // the slots of their own tiles only: the warps of one region.
    auto alternate = ctx.kernel->getAttrOfType<BoolAttr>(
        TileDialect::kAlternateTilesAttrName);
    bool turns = alternate && alternate.getValue();
    llvm::SmallDenseSet<int64_t, 4> groups;
    size_t regionGroups = 0;
    bool wholeBlock = false;
    for (Operation *user : pipe.getUsers()) {
      if (!isa<PipeConsumeReleaseOp>(user))
        continue;
      if (auto ws = user->getParentOfType<WsOp>()) {
        groups.insert(ws.getWarpgroups().begin(), ws.getWarpgroups().end());
        regionGroups = std::max(regionGroups, ws.getWarpgroups().size());
      } else {
        wholeBlock = true;
      }
    }
    int64_t consumers =
        wholeBlock || groups.empty()
            ? ctx.numThreads(ctx.kernel)
            : static_cast<int64_t>(turns ? regionGroups : groups.size()) *
                  ctx.target.getWarpgroupSize();
    entry.empty = consumers / ctx.target.getWarpSize();
    entry.deferred = planDeferredRelease(ctx, pipe);
    // Slots read by threads (ldmatrix, loads) are released by every
    // consumer thread after its own reads. One lane per warp after a warp
    // barrier would do by the memory model, but compute-sanitizer's
    // racecheck does not follow a warp barrier into an mbarrier arrival,
    // and it should verify these kernels. Slots only asynchronous MMAs
    // read keep one arrival per warp, after the MMAs' wait.
    if (readByThreads(ctx, pipe)) {
      entry.perThread = true;
      entry.empty = consumers;
    }
    // Multicast copies write the slot in every block of the cluster: its
    // release counts the consumers of all of them.
    for (auto &[copy, tmaPipe] : ctx.tmaPipes)
      if (tmaPipe == pipe && copy->hasAttr(TileDialect::kMulticastAttrName))
        entry.cluster = ctx.clusterSize > 1;
    if (entry.cluster)
      entry.empty *= ctx.clusterSize;
    pipe.getDefiningOp<PipeCreateOp>().setPlanAttr(PipePlanAttr::get(
        ctx.kernel.getContext(), entry.full, entry.empty, entry.engineThreads,
        entry.perThread, entry.deferred, entry.cluster));
  }
  return success();
}

/// Waits of pipes filled by copy-engine copies (no plan: no barriers).
/// `in_flight(k)` waits for all of the threads' groups but the k most
/// recent: the waited hand-off must not be among them, so k becomes the
/// later hand-offs the same threads provably commit before the wait
/// (tile-check-handoffs' analysis), 0 where nothing is proved. The groups
/// are per thread: a wait for copies of other warps is an error.
static LogicalResult planCopyEngineWaits(PipePlanner &ctx) {
  if (!ctx.target.asyncCopies())
    return success();
  auto unplanned = [](PipeConsumeWaitOp wait) {
    auto create = wait.getPipe().getDefiningOp<PipeCreateOp>();
    return create && !create.getPlanAttr();
  };
  llvm::DenseMap<Operation *, int64_t> laterCommits;
  (void)analyzeHandoffs(ctx.kernel, /*diagnose=*/false, &laterCommits);
  WalkResult result = ctx.kernel.walk([&](PipeConsumeWaitOp wait) {
    if (!unplanned(wait))
      return WalkResult::advance();
    if (failed(verifyCopyEngineWaitThreads(wait)))
      return WalkResult::interrupt();
    int64_t proved = laterCommits.lookup(wait);
    if (static_cast<int64_t>(wait.getInFlight()) > proved)
      wait.setInFlight(proved);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {
struct PlanPipesPass : public tile::impl::PlanPipesBase<PlanPipesPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
      PipePlanner planner(kernel, *target);
      if (failed(planKernel(planner)) || failed(planCopyEngineWaits(planner)))
        return WalkResult::interrupt();
      planLateEpilogues(kernel);
      // Sparse gemms with MMAs in flight: two K steps an iteration, each
      // with metadata registers of its own (see tile.sparse_in_flight).
      for (Operation *loop : planner.unrollByTwo) {
        if (succeeded(unrollByTwo(cast<scf::ForOp>(loop))))
          continue;
        loop->emitOpError("could not be unrolled by two for the sparse "
                          "gemms whose MMAs it leaves in flight");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
