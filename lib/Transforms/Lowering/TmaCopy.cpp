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
//                       flight (the plan's `deferred`); else one arrival
//                       per consumer warp, or per consumer thread
//                       (`per_thread`), for s
//
// What the barriers count is the pipe's `#tile.pipe_plan`, decided by
// tile-plan-pipes (PlanPipes.cpp); this file emits what it says.
//
// In a cluster of two blocks (`tile.cluster = 2`), a copy marked
// `tile.multicast` is issued half by each block, every box landing in both
// (its bytes completing both blocks' full[slot]); the pipe's releases then
// arrive on empty[slot] of both blocks, which counts both blocks'
// consumers, so neither block refills a slot the other still reads. The
// blocks synchronize as a cluster after initializing the barriers and
// before exiting.
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

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult mlir::tile::lowering::collectBarrierPipes(LoweringContext &ctx) {
  // In the order of the pipes' first tensor copies (their barriers' place
  // in shared memory).
  WalkResult result = ctx.kernel.walk([&](CopyOp copy) {
    if (!copy.getTma())
      return WalkResult::advance();
    FailureOr<PipeProduceAcquireOp> handOff =
        getTensorCopyHandOff(copy, ctx.tensorCopies, ctx.target.getChipName());
    if (failed(handOff))
      return WalkResult::interrupt();
    Value pipe = handOff->getPipe();
    auto create = pipe.getDefiningOp<PipeCreateOp>();
    PipePlanAttr plan = create ? create.getPlanAttr() : PipePlanAttr();
    if (!plan) {
      copy.emitOpError("fills a pipe without a plan for its barriers: run "
                       "tile-plan-pipes before tile-lower-ops");
      return WalkResult::interrupt();
    }
    ctx.tmaHandOffs[copy] = {pipe, handOff->getOperation()};
    if (ctx.barrierPipes.contains(pipe))
      return WalkResult::advance();
    BarrierPipe &entry = ctx.barrierPipes[pipe];
    entry.slots = cast<PipeType>(pipe.getType()).getSlots();
    entry.fullArrivals = plan.getFull();
    entry.emptyArrivals = plan.getEmpty();
    entry.engineThreads = plan.getEngineThreads();
    entry.threadRelease = plan.getPerThread();
    entry.deferredRelease = plan.getDeferred();
    entry.clusterRelease = plan.getCluster();
    if (entry.clusterRelease && ctx.clusterSize < 2) {
      create.emitOpError("plans releases across a cluster, but the kernel "
                         "does not run in clusters");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
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
        ctx.tensorCopies->emitMbarrierInit(
            b, ctx.loc(), barrierAt(ctx, entry, 0, ctx.idx(slot)),
            entry.fullArrivals);
        ctx.tensorCopies->emitMbarrierInit(
            b, ctx.loc(), barrierAt(ctx, entry, 1, ctx.idx(slot)),
            entry.emptyArrivals);
      }
    ctx.tensorCopies->emitMbarrierInitFence(b, ctx.loc());
  }
  // Blocks of a cluster arrive on each other's barriers: all must be
  // initialized before any block goes on (and no block may exit while
  // another can still arrive on its barriers: lowerKernel ends the kernel
  // with the same barrier).
  if (llvm::any_of(ctx.barrierPipes,
                   [](auto &entry) { return entry.second.clusterRelease; })) {
    ctx.clusterRank = ctx.clusters->emitClusterRank(b, ctx.loc());
    ctx.clusters->emitClusterBarrier(b, ctx.loc());
    return;
  }
  ctx.target.emitBarrier(b, ctx.loc(), BarrierScope{});
}

/// The arrival of a release on the empty barrier at `addr`: this block's,
/// and with clusterRelease the same barrier in the other blocks of the
/// cluster.
static void emitReleaseArrive(LoweringContext &ctx, BarrierPipe &pipe,
                              Value addr) {
  OpBuilder &b = ctx.b;
  ctx.tensorCopies->emitMbarrierArrive(b, ctx.loc(), addr);
  if (!pipe.clusterRelease)
    return;
  for (int64_t other = 1; other < ctx.clusterSize; ++other) {
    // (One op a statement, here and below: the op order must not depend
    // on the order the C++ compiler evaluates arguments in; design.md 9.)
    Value size =
        arith::ConstantIntOp::create(b, ctx.loc(), ctx.clusterSize, 32);
    Value step = arith::ConstantIntOp::create(b, ctx.loc(), other, 32);
    Value sum = arith::AddIOp::create(b, ctx.loc(), ctx.clusterRank, step);
    Value rank = arith::RemUIOp::create(b, ctx.loc(), sum, size);
    ctx.clusters->emitRemoteMbarrierArrive(b, ctx.loc(), addr, rank);
  }
}

namespace {
/// Slot and phase parity of a hand-off.
struct HandOff {
  Value slot;   // index
  Value parity; // i32
};
} // namespace

/// Whether hand-off `seq` of `pipeValue` is one the executing threads
/// make: at or above their base. A sequence number and the base it is
/// counted from are at most a loop's trip count apart: their difference is
/// exact in 32 bits, which saves the 64-bit comparison in every K step.
static Value happens(LoweringContext &ctx, Value seq, Value pipeValue) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc();
  Type i32 = b.getI32Type();
  Value base = arith::IndexCastOp::create(b, loc, i32, ctx.pipeBase(pipeValue));
  Value number = arith::IndexCastOp::create(b, loc, i32, seq);
  Value ahead = arith::SubIOp::create(b, loc, number, base);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, ahead,
                               arith::ConstantIntOp::create(b, loc, 0, 32));
}

static HandOff decode(LoweringContext &ctx, Value seq, Value pipeValue,
                      int64_t slots) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc();
  HandOff h;
  Type i32 = b.getI32Type();
  if (llvm::isPowerOf2_64(slots)) {
    // The slot and phase bits are the low bits of the number, the same in
    // its low word: 32-bit instructions, no clamp (numbers below the base
    // decode to a slot their guard never uses).
    Value narrow = arith::IndexCastOp::create(b, loc, i32, seq);
    h.slot = arith::IndexCastUIOp::create(
        b, loc, b.getIndexType(),
        arith::AndIOp::create(
            b, loc, narrow,
            arith::ConstantIntOp::create(b, loc, slots - 1, 32)));
    Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
    Value phase = arith::ShRUIOp::create(
        b, loc, narrow,
        arith::ConstantIntOp::create(b, loc, llvm::Log2_64(slots), 32));
    h.parity = arith::AndIOp::create(b, loc, phase, one);
    return h;
  }
  // Counted from the pipe's base, which stays the same over the loop: the
  // number's distance from it (exact in 32 bits, see `happens`) divides in
  // 32 bits. Numbers below the base (hand-offs that do not happen) decode as
  // the base.
  Value base = ctx.pipeBase(pipeValue);
  Value narrowBase = arith::IndexCastOp::create(b, loc, i32, base);
  Value number = arith::IndexCastOp::create(b, loc, i32, seq);
  Value offset = arith::SubIOp::create(b, loc, number, narrowBase);
  auto [slot, wraps] = emitRingPosition(
      b, loc, base,
      arith::IndexCastOp::create(b, loc, b.getIndexType(), offset), slots);
  h.slot = slot;
  h.parity = arith::AndIOp::create(b, loc, wraps,
                                   arith::ConstantIntOp::create(b, loc, 1, 32));
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
      HandOff h = decode(ctx, seq, op->getOperand(0), pipe.slots);
      emitIf(ctx, valid, [&] {
        ctx.tensorCopies->emitAsyncCopyArrive(b, loc,
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
  HandOff h = decode(ctx, seq, op->getOperand(0), pipe.slots);
  if (isa<PipeProduceAcquireOp>(op)) {
    ctx.acquiredSeqs[op] = seq;
    // The warp of the thread issuing the tensor copies waits for the slot
    // (that thread alone without a uniform warp index), and so do the
    // threads of copy-engine copies.
    Value warp = ctx.uniformWarpId(op);
    Value first = isZero(ctx, warp ? warp : ctx.threadId(op));
    Value producer = pipe.engineThreads ? valid : ctx.andBool(valid, first);
    emitIf(ctx, producer, [&] {
      Value flipped = arith::XOrIOp::create(
          b, loc, h.parity, arith::ConstantIntOp::create(b, loc, 1, 32));
      ctx.tensorCopies->emitMbarrierWait(
          b, loc, barrierAt(ctx, pipe, 1, h.slot), flipped);
    });
    return success();
  }
  if (isa<PipeConsumeWaitOp>(op)) {
    emitIf(ctx, valid, [&] {
      ctx.tensorCopies->emitMbarrierWait(
          b, loc, barrierAt(ctx, pipe, 0, h.slot), h.parity);
    });
    return success();
  }
  // consume_release: each thread after its own reads, or one lane per warp
  // once all its lanes are here.
  if (pipe.threadRelease) {
    emitIf(ctx, valid, [&] {
      emitReleaseArrive(ctx, pipe, barrierAt(ctx, pipe, 1, h.slot));
    });
    return success();
  }
  ctx.target.emitWarpSync(b, loc);
  Value lane = ctx.andConst(ctx.threadId(op), ctx.target.getWarpSize() - 1);
  emitIf(ctx, ctx.andBool(valid, isZero(ctx, lane)), [&] {
    emitReleaseArrive(ctx, pipe, barrierAt(ctx, pipe, 1, h.slot));
  });
  return success();
}

Value mlir::tile::lowering::getTensorMap(LoweringContext &ctx, Value tensor,
                                         int64_t rows, int64_t cols,
                                         int64_t swizzle) {
  auto key = std::make_tuple(tensor.getAsOpaquePointer(), rows, cols, swizzle);
  Value &map = ctx.tensorMaps[key];
  if (!map) {
    // Boxes of one element along the tensor's leading dimensions.
    SmallVector<int64_t> box(cast<MemRefType>(tensor.getType()).getRank() - 2,
                             1);
    box.append({rows, cols});
    OpBuilder host(ctx.kernel);
    map = ctx.tensorCopies->emitTensorMap(host, ctx.kernel.getLoc(), tensor,
                                          box, swizzle);
  }
  return map;
}

LogicalResult mlir::tile::lowering::lowerTmaCopy(LoweringContext &ctx,
                                                 CopyOp op) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc();
  auto [pipeValue, acquire] = ctx.tmaHandOffs.lookup(op);
  auto pipeIt = ctx.barrierPipes.find(pipeValue);
  // The hand-off's number as its acquire saw it when lowered (it comes
  // first); an acquire not lowered yet still holds its own.
  Value seq = acquire ? ctx.acquiredSeqs.lookup(acquire) : Value();
  if (acquire && !seq)
    seq = acquire->getOperand(1);
  if (!pipeValue || pipeIt == ctx.barrierPipes.end())
    return op.emitOpError("is a tensor copy (tma) outside a pipe hand-off: a "
                          "tensor copy completes on the barrier of a pipe "
                          "slot, so it must be issued between "
                          "tile.pipe.produce_acquire and "
                          "tile.pipe.produce_commit");
  BarrierPipe &pipe = pipeIt->second;
  FailureOr<SharedRef> ref = ctx.resolveShared(op.getTarget(), op);
  if (failed(ref))
    return failure();
  SharedTile &tile = *ref->tile;
  if (tile.layout.getPad() != 0 || tile.layout.getUnit() != 16)
    return op.emitOpError("a tensor copy (tma) needs a row-major shared tile "
                          "or one swizzled in 16-byte chunks");
  int64_t bytes = tile.elementBits / 8;
  int64_t rows = ref->shape[0], cols = ref->shape[1];
  int64_t swizzle = tile.layout.getSwizzle();
  int64_t panelCols = swizzle ? std::min(cols, swizzle / bytes) : cols;
  int64_t panels = cols / panelCols;

  // A multicast copy: each block of the cluster copies its share of the
  // panels (or, with one panel, of the rows) into every block. Rows are
  // split in multiples of 8, the swizzle's period.
  int64_t share = 1;
  bool splitRows = false;
  if (op->hasAttr(TileDialect::kMulticastAttrName) && pipe.clusterRelease) {
    share = ctx.clusterSize;
    if (panels % share != 0) {
      splitRows = rows % (8 * share) == 0;
      if (!splitRows)
        share = 1; // every block copies the whole tile for itself
    }
  }
  int64_t boxRows = splitRows ? rows / share : rows;
  Value map = getTensorMap(ctx, op.getSource(), boxRows, panelCols, swizzle);
  int64_t rank = op.getSourceType().getRank();

  HandOff h = decode(ctx, seq, pipeValue, pipe.slots);
  ValueRange offsets = op.getSourceOffsets();
  Value row0 = offsets[rank - 2], col0 = offsets[rank - 1];
  emitIf(ctx, isZero(ctx, ctx.threadId(op)), [&] {
    Value full = barrierAt(ctx, pipe, 0, h.slot);
    ctx.tensorCopies->emitMbarrierArriveExpectTx(b, loc, full,
                                                 rows * cols * bytes);
    auto i32 = [&](Value v) {
      return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
    };
    Value mask, part = ctx.idx(0);
    if (share > 1) {
      mask = arith::ConstantIntOp::create(b, loc, (1 << share) - 1, 16);
      part = arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                          ctx.clusterRank);
    }
    // Panel p (rows r0 ...) of this block's share.
    auto copyBox = [&](Value p, Value r0) {
      Value inPanel = ctx.mul(r0, ctx.idx(panelCols));
      Value element = ctx.add(ctx.mul(p, ctx.idx(rows * panelCols)), inPanel);
      Value dst = ctx.sharedPointer(tile.view, ctx.add(ref->origin, element));
      // Coordinates innermost first.
      SmallVector<Value> coords = {
          i32(ctx.add(col0, ctx.mul(p, ctx.idx(panelCols)))),
          i32(ctx.add(row0, r0))};
      for (int64_t d = rank - 3; d >= 0; --d)
        coords.push_back(i32(offsets[d]));
      ctx.tensorCopies->emitTensorCopy(b, loc, dst, map, coords, full, mask);
    };
    if (splitRows) {
      for (int64_t p = 0; p < panels; ++p) {
        Value r0 = ctx.mul(part, ctx.idx(boxRows));
        copyBox(ctx.idx(p), r0);
      }
      return;
    }
    for (int64_t q = 0; q < panels; q += share) {
      Value r0 = ctx.idx(0);
      copyBox(ctx.add(ctx.idx(q), part), r0);
    }
  });
  return success();
}
