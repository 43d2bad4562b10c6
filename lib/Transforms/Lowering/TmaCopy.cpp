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
//   produce_commit      nothing: full[slot] completes with the bytes
//   consume_wait s      every consumer thread waits on full[slot]
//   consume_release s   one arrival per consumer warp on empty[slot]
//
// Sequence numbers below zero (prologue iterations of the predicated
// pipeline) are hand-offs that never happen: their ops do nothing.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult mlir::tile::lowering::planBarrierPipes(LoweringContext &ctx) {
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
    ++entry.fullArrivals;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  for (auto &[pipe, entry] : ctx.barrierPipes) {
    int64_t consumers = 0;
    for (Operation *user : pipe.getUsers())
      if (isa<PipeConsumeReleaseOp>(user))
        consumers = std::max(consumers, ctx.numThreads(user));
    if (consumers == 0)
      consumers = ctx.numThreads(ctx.kernel);
    entry.emptyArrivals = consumers / ctx.target.getWarpSize();
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
/// Slot and phase parity of a hand-off, and whether it happens.
struct HandOff {
  Value valid;  // i1: seq >= 0
  Value slot;   // index
  Value parity; // i32
};
} // namespace

static HandOff decode(LoweringContext &ctx, Value seq, int64_t slots) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc();
  HandOff h;
  h.valid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, seq, ctx.idx(0));
  // Invalid hand-offs are never used: clamp to 0 to keep the arithmetic
  // unsigned.
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
  if (isa<PipeProduceCommitOp>(op))
    return success();
  Value seq = op->getOperand(1);
  HandOff h = decode(ctx, seq, pipe.slots);
  if (isa<PipeProduceAcquireOp>(op)) {
    Value producer = ctx.andBool(h.valid, isZero(ctx, ctx.threadId(op)));
    emitIf(ctx, producer, [&] {
      Value flipped = arith::XOrIOp::create(
          b, loc, h.parity, arith::ConstantIntOp::create(b, loc, 1, 32));
      ctx.target.emitMbarrierWait(b, loc, barrierAt(ctx, pipe, 1, h.slot),
                                  flipped);
    });
    return success();
  }
  if (isa<PipeConsumeWaitOp>(op)) {
    emitIf(ctx, h.valid, [&] {
      ctx.target.emitMbarrierWait(b, loc, barrierAt(ctx, pipe, 0, h.slot),
                                  h.parity);
    });
    return success();
  }
  // consume_release: the warp's reads are done once all its lanes are here.
  ctx.target.emitWarpSync(b, loc);
  Value lane = ctx.andConst(ctx.threadId(op), ctx.target.getWarpSize() - 1);
  emitIf(ctx, ctx.andBool(h.valid, isZero(ctx, lane)), [&] {
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
  if (!map) {
    OpBuilder host(ctx.kernel);
    map = ctx.target.emitTensorMap(host, ctx.kernel.getLoc(), tensor,
                                   {rows, panelCols}, swizzle);
  }

  HandOff h = decode(ctx, seq, pipe.slots);
  ValueRange offsets = op.getSourceOffsets();
  Value row0 = offsets[0], col0 = offsets[1];
  emitIf(ctx, isZero(ctx, ctx.threadId(op)), [&] {
    Value full = barrierAt(ctx, pipe, 0, h.slot);
    ctx.target.emitMbarrierArriveExpectTx(b, loc, full, rows * cols * bytes);
    auto i32 = [&](Value v) {
      return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
    };
    for (int64_t p = 0; p < panels; ++p) {
      Value dst = ctx.sharedPointer(
          tile.view, ctx.add(ref->origin, ctx.idx(p * rows * panelCols)));
      Value col = ctx.add(col0, ctx.idx(p * panelCols));
      ctx.target.emitTensorCopy(b, loc, dst, map,
                                ValueRange{i32(col), i32(row0)}, full);
    }
  });
  return success();
}
