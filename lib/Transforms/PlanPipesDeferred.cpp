//===- PlanPipesDeferred.cpp - Releases one hand-off late ------*- C++ -*-===//
//
// Part of `tile-plan-pipes` (PlanPipes.cpp): whether the slots of a pipe can
// be released one hand-off late, so that their gemms' asynchronous MMAs stay
// in flight while the next hand-off is awaited, and what that changes in the
// IR (the gemms' `mma_groups_in_flight`, `accumulate` and `partials`, the
// moved zero fill, the release after the loop).
//
//===----------------------------------------------------------------------===//

#include "PlanPipes.h"

#include "tile/Transforms/Handoffs.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::plan_pipes;

static int64_t pipelineStage(Operation *op) { return getPipelineStage(op); }

/// Whether `op` or an op in it uses the tile `alloc`.
static bool usesTile(Operation *op, Operation *alloc) {
  bool uses = false;
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      uses |= getRootAlloc(operand) == alloc;
  });
  return uses;
}

/// The fill of the whole tile `acc` with zero that `loop` sees last, moved
/// into the loop's block before it (from an enclosing block: into both
/// branches of each scf.if in between), or null if there is none.
static FillOp findZeroFill(Operation *acc, scf::ForOp loop) {
  SmallVector<scf::IfOp> branches;
  for (Operation *cursor = loop; cursor;) {
    for (Operation *op = cursor->getPrevNode(); op; op = op->getPrevNode()) {
      if (!usesTile(op, acc))
        continue;
      auto fill = dyn_cast<FillOp>(op);
      if (!fill || fill.getTarget() != acc->getResult(0) ||
          !matchPattern(fill.getValue(), m_AnyZeroFloat()))
        return nullptr;
      // Sink it, outermost branch first: every path still fills.
      for (scf::IfOp branch : llvm::reverse(branches)) {
        bool inThen =
            branch.getThenRegion().isAncestor(loop->getParentRegion());
        Region &onPath =
            inThen ? branch.getThenRegion() : branch.getElseRegion();
        Region &other =
            inThen ? branch.getElseRegion() : branch.getThenRegion();
        OpBuilder b(branch.getContext());
        if (other.empty()) {
          b.createBlock(&other);
          scf::YieldOp::create(b, branch.getLoc());
        }
        b.setInsertionPointToStart(&other.front());
        b.clone(*fill);
        fill->moveBefore(&onPath.front().front());
      }
      return fill;
    }
    auto branch = dyn_cast<scf::IfOp>(cursor->getParentOp());
    if (!branch || branch.getNumResults() != 0)
      return nullptr;
    branches.push_back(branch);
    cursor = branch;
  }
  return nullptr;
}

/// Whether `a` and `b` run in tile.ws regions of different warpgroups.
static bool onDisjointWarps(Operation *a, Operation *b) {
  auto wsA = a->getParentOfType<WsOp>(), wsB = b->getParentOfType<WsOp>();
  if (!wsA || !wsB)
    return false;
  for (int64_t group : wsA.getWarpgroups())
    if (llvm::is_contained(wsB.getWarpgroups(), group))
      return false;
  return true;
}

namespace {
/// A pipelined loop whose release of a pipe can be deferred.
struct DeferredLoop {
  scf::ForOp loop;
  SmallVector<GemmOp> gemms;
  SmallVector<FillOp> fills;
};

} // namespace

/// Checks one release of a pipe (see planDeferredRelease).
static std::optional<DeferredLoop>
checkDeferredRelease(PipePlanner &ctx, Value pipe,
                     PipeConsumeReleaseOp release) {
  if (pipelineStage(release) < 0)
    return std::nullopt;
  auto loop = dyn_cast<scf::ForOp>(release->getParentOp());
  if (!loop)
    return std::nullopt;
  // Producers on other warps (tile-warp-specialize) never wait behind the
  // consumers' own release; producers on the same warps, in this loop, must
  // acquire after it (acquires in other loops run before or after this one).
  bool producersElsewhere = true;
  for (Operation *user : pipe.getUsers()) {
    auto acquire = dyn_cast<PipeProduceAcquireOp>(user);
    if (!acquire || onDisjointWarps(release, acquire))
      continue;
    producersElsewhere = false;
    if (!loop->isAncestor(acquire))
      continue;
    if (acquire->getParentOp() != loop || !release->isBeforeInBlock(acquire))
      return std::nullopt;
  }
  // Sparse gemms in flight hold the slot of their MMAs one hand-off longer.
  // Unless the kernel says, they stay in flight where the producers are
  // other warps and the pipe has three slots or more: with two the
  // producers run only one slot ahead, which cost more than the overlap
  // gained (docs/design.md 5.7).
  bool sparseInFlight = ctx.sparseInFlight.value_or(
      producersElsewhere && cast<PipeType>(pipe.getType()).getSlots() >= 3);
  llvm::SmallPtrSet<Operation *, 4> tiles;
  for (auto &[copy, tmaPipe] : ctx.tmaPipes)
    if (tmaPipe == pipe)
      tiles.insert(getRootAlloc(cast<CopyOp>(copy).getTarget()));
  DeferredLoop result{loop, {}, {}};
  bool ok = true;
  loop.walk([&](GemmOp gemm) {
    MmaAttr mma = gemm.getMmaAttr();
    if (!mma || !ctx.target.isAsyncMma(mma) ||
        (!tiles.contains(getRootAlloc(gemm.getA())) &&
         !tiles.contains(getRootAlloc(gemm.getB()))))
      return;
    Operation *guard = gemm->getParentOp();
    // A product consumed one gemm late: its consumer, in the gemm's guard,
    // must still be free to run at the next gemm once pipelined.
    std::string why;
    ok &= !consumesLate(gemm) ||
          canConsumeLate(gemm, findProductConsumer(gemm), why);
    ok &= !isFragment(gemm.getA()) && !isFragment(gemm.getB()) &&
          (!gemm.isSparse() || sparseInFlight) &&
          (!gemm.getPromotionSpan() || promotesOncePerCall(gemm)) &&
          isa<scf::IfOp>(guard) && guard->getParentOp() == loop &&
          pipelineStage(guard) == pipelineStage(release) &&
          guard->isBeforeInBlock(release);
    result.gemms.push_back(gemm);
  });
  if (!ok || result.gemms.empty())
    return std::nullopt;
  // The accumulators: only these gemms may use them in the loop. Those of
  // promoting gemms are never in flight (their partial sums are): they
  // need no zero fill moved.
  llvm::SmallPtrSet<Operation *, 4> accumulators, inFlight;
  for (GemmOp gemm : result.gemms) {
    AllocOp acc = getRootAlloc(gemm.getC());
    if (!acc || loop->isAncestor(acc) ||
        (promotesOncePerCall(gemm) && acc.getResult() != gemm.getC()))
      return std::nullopt;
    accumulators.insert(acc);
    // A clearing gemm whose product is consumed late needs no zero fill.
    if (!promotesOncePerCall(gemm) && !consumesLate(gemm))
      inFlight.insert(acc);
  }
  // The consumers of late-consumed products read them in the loop.
  llvm::DenseSet<Operation *> lateConsumers;
  for (GemmOp gemm : result.gemms)
    if (consumesLate(gemm))
      lateConsumers.insert(findProductConsumer(gemm));
  // A promoting gemm's accumulator takes partial sums from it alone.
  llvm::SmallPtrSet<Operation *, 4> promoted;
  for (GemmOp gemm : result.gemms)
    if (promotesOncePerCall(gemm) &&
        (inFlight.contains(getRootAlloc(gemm.getC())) ||
         !promoted.insert(getRootAlloc(gemm.getC())).second))
      return std::nullopt;
  loop.walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      if (!accumulators.contains(getRootAlloc(operand.get())))
        continue;
      auto gemm = dyn_cast<GemmOp>(op);
      Operation *parallel = op->getParentOfType<ParallelOp>();
      if (parallel && lateConsumers.contains(parallel))
        continue;
      ok &= gemm && operand.get() == gemm.getC() &&
            llvm::is_contained(result.gemms, gemm);
    }
  });
  if (!ok)
    return std::nullopt;
  // The zero fills, and the iterations the pipelined loop runs beyond the
  // original loop's (tile-inject-pipeline records them).
  for (Operation *acc : inFlight) {
    FillOp fill = findZeroFill(acc, loop);
    if (!fill)
      return std::nullopt;
    result.fills.push_back(fill);
  }
  if (!loop->hasAttr(TileDialect::kPipelineDrainAttrName))
    return std::nullopt;
  return result;
}

/// Decides whether the slots of `pipe` can be released one hand-off late,
/// leaving their gemms' asynchronous MMA groups in flight (the MMA of
/// hand-off s then overlaps the wait for hand-off s + 1). They can when, in
/// every pipelined loop releasing them:
///  - the release precedes the producers' acquire (the consumer stages are
///    emitted first), or the producers run on other warps, so the producers
///    never wait for a release of their own iteration;
///  - every asynchronous-MMA gemm reading the pipe's tiles runs in the guard
///    of the release's stage: whenever hand-off s is released, the gemm of
///    hand-off s was issued just before, and its wait for all but the
///    latest group completed the MMAs of hand-off s - 1;
///  - their accumulators are touched by nothing else in the loop (registers
///    of an MMA in flight); a wait for all groups follows the loop;
///  - they do not promote partial sums (`promote_k`: they complete their
///    MMAs to add them), or promote them once per gemm (promote_k = K):
///    then the promotion moves one gemm later (`partials`: the MMAs go in
///    flight into a tile of their own, which the next gemm, after its wait,
///    adds to the accumulator; the lowering adds the last after the loop),
///    and the accumulator, never in flight, keeps its fill;
///  - or they clear their accumulator and hand it to their consumer one gemm
///    late (`tile.consumer_late`, canConsumeLate checked again on the
///    pipelined loop): the lowering runs the previous gemm's consumer once
///    the gemm's wait has completed that product, and the last after the
///    loop; no zero fill is needed;
///  - they read no operand from registers (wgmma's RS form) and no sparsity
///    metadata (wgmma.sp reads its metadata register as it runs, like a
///    register A): the next iteration would redefine registers an MMA in
///    flight still reads;
///  - each accumulator is zero-filled right before the loop. The fill moves
///    after the loop, for loops that run no iteration, and the gemm's first
///    iteration overwrites the accumulator instead: no other instruction
///    may define an accumulator register an MMA in flight may still write
///    (ptxas would serialize every MMA of the kernel).
/// When a loop advances the pipe's base (it runs again, or another loop
/// continues its hand-offs), its last hand-off is released after the loop,
/// once its MMAs are done: the producers of the next pass wait for it.
bool plan_pipes::planDeferredRelease(PipePlanner &ctx, Value pipe) {
  SmallVector<DeferredLoop> loops;
  for (Operation *user : pipe.getUsers()) {
    auto release = dyn_cast<PipeConsumeReleaseOp>(user);
    if (!release)
      continue;
    std::optional<DeferredLoop> loop = checkDeferredRelease(ctx, pipe, release);
    if (!loop || llvm::any_of(loops, [&](const DeferredLoop &other) {
          return other.loop == loop->loop;
        }))
      return false;
    loops.push_back(std::move(*loop));
  }
  if (loops.empty())
    return false;
  OpBuilder b(ctx.kernel.getContext());
  IntegerAttr inFlight = b.getI64IntegerAttr(1);
  for (DeferredLoop &deferred : loops) {
    scf::ForOp loop = deferred.loop;
    Location loc = loop.getLoc();
    if (llvm::any_of(deferred.gemms, [](GemmOp g) { return g.isSparse(); }))
      ctx.unrollByTwo.insert(loop);
    // A gemm of stage r runs iteration it - r * step: the first when
    // it == lb + r * step. Only the first gemm (in program order) into an
    // accumulator overwrites it then; later ones add to what it wrote
    // (two gemms into one accumulator: TileLang #2547).
    b.setInsertionPointToStart(loop.getBody());
    llvm::SmallPtrSet<Operation *, 4> overwritten;
    for (GemmOp gemm : deferred.gemms) {
      gemm.setMmaGroupsInFlightAttr(inFlight);
      // A late-consumed product: the lowering runs the previous gemm's
      // consumer at this one (from the second gemm of the loop on).
      if (consumesLate(gemm))
        continue;
      if (promotesOncePerCall(gemm)) {
        // Its partial sums go in flight into a tile of their own, which
        // the accumulator takes one gemm later (from the second gemm of
        // the loop on: the first has none to take).
        OpBuilder::InsertionGuard guard(b);
        Operation *acc = getRootAlloc(gemm.getC());
        Value &partials = ctx.partials[acc];
        if (!partials) {
          b.setInsertionPointAfter(acc);
          partials = b.clone(*acc)->getResult(0);
        }
        gemm.getPartialsMutable().assign(partials);
      }
      if (!promotesOncePerCall(gemm) &&
          !overwritten.insert(getRootAlloc(gemm.getC())).second)
        continue;
      Value firstIt =
          createStageStart(b, loc, loop, pipelineStage(gemm->getParentOp()));
      gemm.getAccumulateMutable().assign(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne, loop.getInductionVar(), firstIt));
    }
    // After the loop (where the lowering waits for the MMAs in flight):
    // the original loop's upper bound, ub - drain * step.
    b.setInsertionPointAfter(loop);
    int64_t drain =
        loop->getAttrOfType<IntegerAttr>(TileDialect::kPipelineDrainAttrName)
            .getInt();
    Value ub = arith::SubIOp::create(
        b, loc, loop.getUpperBound(),
        arith::MulIOp::create(
            b, loc, loop.getStep(),
            arith::ConstantOp::create(
                b, loc, b.getIntegerAttr(loop.getStep().getType(), drain))));
    Value empty =
        arith::CmpIOp::create(b, loc,
                              loop.getUnsignedCmp() ? arith::CmpIPredicate::uge
                                                    : arith::CmpIPredicate::sge,
                              loop.getLowerBound(), ub);
    auto guard = scf::IfOp::create(b, loc, empty, /*withElseRegion=*/false);
    for (FillOp fill : deferred.fills)
      fill->moveBefore(guard.thenBlock()->getTerminator());
    // The pass's last hand-off, base + count - 1, is released by a deferred
    // release of base + count (lowered like the loop's: one hand-off back;
    // nothing when the pass made none).
    for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
      auto advance = dyn_cast<PipeAdvanceOp>(op);
      if (!advance || advance.getPipe() != pipe)
        continue;
      b.setInsertionPoint(advance);
      Value base = PipeBaseOp::create(b, loc, b.getIndexType(), pipe);
      Value end = arith::AddIOp::create(b, loc, base, advance.getCount());
      PipeConsumeReleaseOp::create(b, loc, pipe, end);
      break;
    }
  }
  return true;
}
