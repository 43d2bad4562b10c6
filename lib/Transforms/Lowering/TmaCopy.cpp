//===- TmaCopy.cpp - Tensor copies and transaction-barrier pipes -*- C++ -*-=//
//
// Lowering of `tile.copy async tma` and of the pipes such copies fill. A
// pipe of S slots gets 2 x S barriers in shared memory. Hand-off `s` uses
// slot `s mod S`; its barriers complete their phase number `s / S`, so a
// wait for it checks parity `(s / S) mod 2`:
//
//   produce_acquire s   one producer thread waits on empty[slot] for the
//                       release of hand-off s - S (parity flipped: the
//                       first S acquires find the slot free)
//   tma copy            the same thread arrives on full[slot] expecting the
//                       copy's bytes, then issues one tensor copy per
//                       swizzle panel (the hardware adds the bytes that
//                       landed, zeros outside the tensor included)
//   cp.async copy       (beside the tensor copies, for tiles they cannot
//                       move) every thread issuing them also waits on
//                       empty[slot] at the acquire
//   produce_commit      nothing: full[slot] completes with the bytes; with
//                       cp.async copies, each of their threads arrives on
//                       full[slot] once they have landed
//                       (cp.async.mbarrier.arrive.noinc: full[slot]
//                       counts those threads too)
//   consume_wait s      every consumer thread waits on full[slot]
//   consume_release s   one arrival per consumer warp on empty[slot] for
//                       s - 1 when the slot's gemms leave their MMA in
//                       flight (planDeferredRelease); else one arrival per
//                       consumer thread for s
//
// Sequence numbers below the threads' base of the pipe (prologue
// iterations of the predicated pipeline) are hand-offs that never happen,
// or that they already passed: their ops do nothing.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// The stage an scf.if guard of a pipelined loop (or a release) belongs
/// to, or -1.
static int64_t pipelineStage(Operation *op) {
  auto stage =
      op->getAttrOfType<IntegerAttr>(TileDialect::kPipelineStageAttrName);
  return stage ? stage.getInt() : -1;
}

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
checkDeferredRelease(LoweringContext &ctx, Value pipe,
                     PipeConsumeReleaseOp release) {
  if (pipelineStage(release) < 0)
    return std::nullopt;
  auto loop = dyn_cast<scf::ForOp>(release->getParentOp());
  if (!loop)
    return std::nullopt;
  // Producers on other warps (tile-warp-specialize) never wait behind the
  // consumers' own release; producers on the same warps, in this loop, must
  // acquire after it (acquires in other loops run before or after this one).
  for (Operation *user : pipe.getUsers()) {
    auto acquire = dyn_cast<PipeProduceAcquireOp>(user);
    if (!acquire || onDisjointWarps(release, acquire) ||
        !loop->isAncestor(acquire))
      continue;
    if (acquire->getParentOp() != loop || !release->isBeforeInBlock(acquire))
      return std::nullopt;
  }
  llvm::SmallPtrSet<Operation *, 4> tiles;
  for (auto &[copy, handOff] : ctx.tmaHandOffs)
    if (handOff.first == pipe)
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
    ok &= !isFragment(gemm.getA()) && !isFragment(gemm.getB()) &&
          isa<scf::IfOp>(guard) && guard->getParentOp() == loop &&
          pipelineStage(guard) == pipelineStage(release) &&
          guard->isBeforeInBlock(release);
    result.gemms.push_back(gemm);
  });
  if (!ok || result.gemms.empty())
    return std::nullopt;
  // The accumulators: only these gemms may use them in the loop.
  llvm::SmallPtrSet<Operation *, 4> accumulators;
  for (GemmOp gemm : result.gemms) {
    AllocOp acc = getRootAlloc(gemm.getC());
    if (!acc || loop->isAncestor(acc))
      return std::nullopt;
    accumulators.insert(acc);
  }
  loop.walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      if (!accumulators.contains(getRootAlloc(operand.get())))
        continue;
      auto gemm = dyn_cast<GemmOp>(op);
      ok &= gemm && operand.get() == gemm.getC() &&
            llvm::is_contained(result.gemms, gemm);
    }
  });
  if (!ok)
    return std::nullopt;
  // The zero fills, and the original loop's upper bound (the pipelined loop
  // runs to ub + (stages - 1) * step).
  for (Operation *acc : accumulators) {
    FillOp fill = findZeroFill(acc, loop);
    if (!fill)
      return std::nullopt;
    result.fills.push_back(fill);
  }
  auto bound = loop.getUpperBound().getDefiningOp<arith::AddIOp>();
  auto extra =
      bound ? bound.getRhs().getDefiningOp<arith::MulIOp>() : arith::MulIOp();
  if (!extra || extra.getLhs() != loop.getStep())
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
///  - they read no operand from registers (wgmma's RS form): the next
///    iteration would redefine registers an MMA in flight still reads;
///  - each accumulator is zero-filled right before the loop. The fill moves
///    after the loop, for loops that run no iteration, and the gemm's first
///    iteration overwrites the accumulator instead: no other instruction
///    may define an accumulator register an MMA in flight may still write
///    (ptxas would serialize every MMA of the kernel).
/// When a loop advances the pipe's base (it runs again, or another loop
/// continues its hand-offs), its last hand-off is released after the loop,
/// once its MMAs are done: the producers of the next pass wait for it.
static void planDeferredRelease(LoweringContext &ctx, Value pipe,
                                BarrierPipe &entry) {
  SmallVector<DeferredLoop> loops;
  for (Operation *user : pipe.getUsers()) {
    auto release = dyn_cast<PipeConsumeReleaseOp>(user);
    if (!release)
      continue;
    std::optional<DeferredLoop> loop = checkDeferredRelease(ctx, pipe, release);
    if (!loop || llvm::any_of(loops, [&](const DeferredLoop &other) {
          return other.loop == loop->loop;
        }))
      return;
    loops.push_back(std::move(*loop));
  }
  if (loops.empty())
    return;
  entry.deferredRelease = true;
  OpBuilder &b = ctx.b;
  OpBuilder::InsertionGuard g(b);
  for (DeferredLoop &deferred : loops) {
    scf::ForOp loop = deferred.loop;
    Location loc = loop.getLoc();
    // A gemm of stage r runs iteration it - r * step: the first when
    // it == lb + r * step. Only the first gemm (in program order) into an
    // accumulator overwrites it then; later ones add to what it wrote
    // (two gemms into one accumulator: TileLang #2547).
    b.setInsertionPointToStart(loop.getBody());
    llvm::SmallPtrSet<Operation *, 4> overwritten;
    for (GemmOp gemm : deferred.gemms) {
      if (!overwritten.insert(getRootAlloc(gemm.getC())).second) {
        ctx.asyncGemms[gemm] = Value();
        continue;
      }
      Value firstIt = arith::AddIOp::create(
          b, loc, loop.getLowerBound(),
          arith::MulIOp::create(
              b, loc, loop.getStep(),
              arith::ConstantOp::create(
                  b, loc,
                  b.getIntegerAttr(loop.getStep().getType(),
                                   pipelineStage(gemm->getParentOp())))));
      ctx.asyncGemms[gemm] = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne, loop.getInductionVar(), firstIt);
    }
    b.setInsertionPointAfter(loop);
    ctx.target.emitMmaWait(b, loc, 0);
    Value ub = loop.getUpperBound().getDefiningOp<arith::AddIOp>().getLhs();
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
}

/// Whether an op other than a wgmma reads a tile that a copy of `pipe`
/// fills.
static bool readByThreads(LoweringContext &ctx, Value pipe) {
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
    bool wgmma = gemm && gemm.getMmaAttr() &&
                 gemm.getMmaAttr().getKind() == MmaKind::Wgmma;
    for (Value operand : op->getOperands()) {
      AllocOp alloc = getRootAlloc(operand);
      if (alloc && tiles.contains(alloc) &&
          !(wgmma && operand != gemm.getC()))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

LogicalResult mlir::tile::lowering::planBarrierPipes(LoweringContext &ctx) {
  // Tensor copies per hand-off (per produce_acquire): each arrives once on
  // the slot's full barrier.
  llvm::MapVector<Operation *, int64_t> copiesPerHandOff;
  WalkResult result = ctx.kernel.walk([&](CopyOp copy) {
    if (!copy.getTma())
      return WalkResult::advance();
    if (!ctx.target.hasTma()) {
      copy.emitOpError("tensor copies (tma) need sm_90 or newer; the target "
                       "is ")
          << ctx.target.getChipName();
      return WalkResult::interrupt();
    }
    PipeProduceAcquireOp handOff = getHandOff(copy);
    if (!handOff) {
      copy.emitOpError("a tensor copy (tma) must fill a pipe slot: expected "
                       "a tile.pipe.produce_acquire before it");
      return WalkResult::interrupt();
    }
    Value pipe = handOff.getPipe();
    ctx.tmaHandOffs[copy] = {pipe, handOff.getSeq()};
    BarrierPipe &entry = ctx.barrierPipes[pipe];
    entry.slots = cast<PipeType>(pipe.getType()).getSlots();
    ++copiesPerHandOff[handOff];
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
    if (!handOff || !ctx.barrierPipes.contains(handOff.getPipe()))
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
    BarrierPipe &entry = ctx.barrierPipes[handOff.getPipe()];
    int64_t threads = engineThreads.lookup(op);
    auto [it, inserted] = firstHandOff.try_emplace(handOff.getPipe(), op);
    if (inserted) {
      entry.fullArrivals = copies + threads;
      entry.engineThreads = threads;
      continue;
    }
    if (entry.fullArrivals != copies + threads ||
        entry.engineThreads != threads) {
      auto describe = [](int64_t copies, int64_t threads) {
        std::string what = std::to_string(copies) + " tensor copies";
        if (threads)
          what += " and cp.async copies of " + std::to_string(threads) +
                  " threads";
        return what;
      };
      InFlightDiagnostic diag =
          handOff.emitOpError("fills its slot with ")
          << describe(copies, threads)
          << ", but another hand-off of the pipe with "
          << describe(entry.fullArrivals - entry.engineThreads,
                      entry.engineThreads)
          << ": a pipe's barriers expect as many arrivals per hand-off";
      diag.attachNote(it->second->getLoc()) << "the other hand-off";
      return failure();
    }
  }
  for (auto &[pipe, entry] : ctx.barrierPipes) {
    // One arrival per warp that releases the slot: the warps of the union
    // of the tile.ws regions holding a release (two consumer regions [1]
    // and [2] both release: 8 warps), or every warp of the kernel when a
    // release runs outside tile.ws (or there is none).
    llvm::SmallDenseSet<int64_t, 4> groups;
    bool wholeBlock = false;
    for (Operation *user : pipe.getUsers()) {
      if (!isa<PipeConsumeReleaseOp>(user))
        continue;
      if (auto ws = user->getParentOfType<WsOp>())
        groups.insert(ws.getWarpgroups().begin(), ws.getWarpgroups().end());
      else
        wholeBlock = true;
    }
    int64_t consumers = wholeBlock || groups.empty()
                            ? ctx.numThreads(ctx.kernel)
                            : static_cast<int64_t>(groups.size()) *
                                  ctx.target.getWarpgroupSize();
    entry.emptyArrivals = consumers / ctx.target.getWarpSize();
    planDeferredRelease(ctx, pipe, entry);
    // Slots read by threads (ldmatrix, loads) are released by every
    // consumer thread after its own reads. One lane per warp after a warp
    // barrier would do by the memory model, but compute-sanitizer's
    // racecheck does not follow a warp barrier into an mbarrier arrival
    // (run 34), and it should verify these kernels. Slots only wgmma reads
    // keep one arrival per warp, after the wgmma wait.
    if (readByThreads(ctx, pipe)) {
      entry.threadRelease = true;
      entry.emptyArrivals = consumers;
    }
  }
  return success();
}

/// Pointer to barrier `which` (0: full, 1: empty) of `slot`.
static Value barrierAt(LoweringContext &ctx, BarrierPipe &pipe, int which,
                       Value slot) {
  Value index = ctx.add(slot, ctx.idx(which * pipe.slots));
  return ctx.sharedPointer(pipe.barriers, index);
}

void mlir::tile::lowering::initBarrierPipes(LoweringContext &ctx) {
  if (ctx.barrierPipes.empty())
    return;
  OpBuilder &b = ctx.b;
  Value first = arith::CmpIOp::create(b, ctx.loc(), arith::CmpIPredicate::eq,
                                      ctx.tidValue, ctx.idx(0));
  auto init = scf::IfOp::create(b, ctx.loc(), first, false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(init.thenBlock());
    for (auto &[pipe, entry] : ctx.barrierPipes)
      for (int64_t slot = 0; slot < entry.slots; ++slot) {
        ctx.target.emitMbarrierInit(b, ctx.loc(),
                                    barrierAt(ctx, entry, 0, ctx.idx(slot)),
                                    entry.fullArrivals);
        ctx.target.emitMbarrierInit(b, ctx.loc(),
                                    barrierAt(ctx, entry, 1, ctx.idx(slot)),
                                    entry.emptyArrivals);
      }
    ctx.target.emitMbarrierInitFence(b, ctx.loc());
  }
  ctx.target.emitBarrier(b, ctx.loc(), BarrierScope{});
}

namespace {
/// Slot and phase parity of a hand-off.
struct HandOff {
  Value slot;   // index
  Value parity; // i32
};
} // namespace

/// Whether hand-off `seq` of `pipeValue` is one the executing threads
/// make: at or above their base.
static Value happens(LoweringContext &ctx, Value seq, Value pipeValue) {
  return arith::CmpIOp::create(ctx.b, ctx.loc(), arith::CmpIPredicate::sge, seq,
                               ctx.pipeBase(pipeValue));
}

static HandOff decode(LoweringContext &ctx, Value seq, int64_t slots) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc();
  HandOff h;
  // Hand-offs that do not happen are never used: clamp to 0 to keep the
  // arithmetic unsigned.
  Value clamped = arith::MaxSIOp::create(b, loc, seq, ctx.idx(0));
  h.slot = arith::RemUIOp::create(b, loc, clamped, ctx.idx(slots));
  Value phase = arith::DivUIOp::create(b, loc, clamped, ctx.idx(slots));
  h.parity = arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                        ctx.andConst(phase, 1));
  return h;
}

/// Emits `body` under `cond`.
static void emitIf(LoweringContext &ctx, Value cond,
                   function_ref<void()> body) {
  auto guard = scf::IfOp::create(ctx.b, ctx.loc(), cond, false);
  OpBuilder::InsertionGuard g(ctx.b);
  ctx.b.setInsertionPointToStart(guard.thenBlock());
  body();
}

static Value isZero(LoweringContext &ctx, Value v) {
  return arith::CmpIOp::create(ctx.b, ctx.loc(), arith::CmpIPredicate::eq, v,
                               ctx.idx(0));
}

LogicalResult mlir::tile::lowering::lowerBarrierPipeOp(LoweringContext &ctx,
                                                       Operation *op,
                                                       BarrierPipe &pipe) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc();
  Value seq = op->getOperand(1);
  if (isa<PipeProduceCommitOp>(op)) {
    // Tensor copies complete the slot with their bytes; each thread of the
    // copy-engine copies arrives once they have landed.
    if (pipe.engineThreads) {
      Value valid = happens(ctx, seq, op->getOperand(0));
      HandOff h = decode(ctx, seq, pipe.slots);
      emitIf(ctx, valid, [&] {
        ctx.target.emitAsyncCopyArrive(b, loc,
                                       barrierAt(ctx, pipe, 0, h.slot));
      });
    }
    return success();
  }
  // A deferred release frees the previous hand-off's slot, whose MMAs are
  // done (planDeferredRelease).
  if (isa<PipeConsumeReleaseOp>(op) && pipe.deferredRelease)
    seq = ctx.addConst(seq, -1);
  Value valid = happens(ctx, seq, op->getOperand(0));
  HandOff h = decode(ctx, seq, pipe.slots);
  if (isa<PipeProduceAcquireOp>(op)) {
    // The thread issuing the tensor copies waits for the slot, and so do
    // the threads of copy-engine copies.
    Value producer =
        pipe.engineThreads ? valid
                           : ctx.andBool(valid, isZero(ctx, ctx.threadId(op)));
    emitIf(ctx, producer, [&] {
      Value flipped = arith::XOrIOp::create(
          b, loc, h.parity, arith::ConstantIntOp::create(b, loc, 1, 32));
      ctx.target.emitMbarrierWait(b, loc, barrierAt(ctx, pipe, 1, h.slot),
                                  flipped);
    });
    return success();
  }
  if (isa<PipeConsumeWaitOp>(op)) {
    emitIf(ctx, valid, [&] {
      ctx.target.emitMbarrierWait(b, loc, barrierAt(ctx, pipe, 0, h.slot),
                                  h.parity);
    });
    return success();
  }
  // consume_release: each thread after its own reads, or one lane per warp
  // once all its lanes are here.
  if (pipe.threadRelease) {
    emitIf(ctx, valid, [&] {
      ctx.target.emitMbarrierArrive(b, loc, barrierAt(ctx, pipe, 1, h.slot));
    });
    return success();
  }
  ctx.target.emitWarpSync(b, loc);
  Value lane = ctx.andConst(ctx.threadId(op), ctx.target.getWarpSize() - 1);
  emitIf(ctx, ctx.andBool(valid, isZero(ctx, lane)), [&] {
    ctx.target.emitMbarrierArrive(b, loc, barrierAt(ctx, pipe, 1, h.slot));
  });
  return success();
}

LogicalResult mlir::tile::lowering::lowerTmaCopy(LoweringContext &ctx,
                                                 CopyOp op) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc();
  auto [pipeValue, seq] = ctx.tmaHandOffs.lookup(op);
  auto pipeIt = ctx.barrierPipes.find(pipeValue);
  assert(pipeIt != ctx.barrierPipes.end() && "planned by planBarrierPipes");
  BarrierPipe &pipe = pipeIt->second;
  FailureOr<SharedRef> ref = ctx.resolveShared(op.getTarget(), op);
  if (failed(ref))
    return failure();
  SharedTile &tile = *ref->tile;
  if (tile.layout.getPad() != 0)
    return op.emitOpError("a tensor copy (tma) needs a swizzled or row-major "
                          "shared tile");
  int64_t bytes = tile.elementBits / 8;
  int64_t rows = ref->shape[0], cols = ref->shape[1];
  int64_t swizzle = tile.layout.getSwizzle();
  int64_t panelCols = swizzle ? std::min(cols, swizzle / bytes) : cols;
  int64_t panels = cols / panelCols;

  // The tensor map, made once per kernel on the host before the launch.
  Value tensor = op.getSource();
  auto key =
      std::make_tuple(tensor.getAsOpaquePointer(), rows, panelCols, swizzle);
  Value &map = ctx.tensorMaps[key];
  int64_t rank = op.getSourceType().getRank();
  if (!map) {
    // Boxes of one element along the tensor's leading dimensions.
    SmallVector<int64_t> box(rank - 2, 1);
    box.append({rows, panelCols});
    OpBuilder host(ctx.kernel);
    map = ctx.target.emitTensorMap(host, ctx.kernel.getLoc(), tensor, box,
                                   swizzle);
  }

  HandOff h = decode(ctx, seq, pipe.slots);
  ValueRange offsets = op.getSourceOffsets();
  Value row0 = offsets[rank - 2], col0 = offsets[rank - 1];
  emitIf(ctx, isZero(ctx, ctx.threadId(op)), [&] {
    Value full = barrierAt(ctx, pipe, 0, h.slot);
    ctx.target.emitMbarrierArriveExpectTx(b, loc, full, rows * cols * bytes);
    auto i32 = [&](Value v) {
      return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
    };
    for (int64_t p = 0; p < panels; ++p) {
      Value dst = ctx.sharedPointer(
          tile.view, ctx.add(ref->origin, ctx.idx(p * rows * panelCols)));
      // Coordinates innermost first.
      SmallVector<Value> coords = {i32(ctx.add(col0, ctx.idx(p * panelCols))),
                                   i32(row0)};
      for (int64_t d = rank - 3; d >= 0; --d)
        coords.push_back(i32(offsets[d]));
      ctx.target.emitTensorCopy(b, loc, dst, map, coords, full);
    }
  });
  return success();
}
