//===- Turns.cpp - Warpgroups taking turns at the MMAs ----------*- C++ -*-===//
//
// The warpgroups of a `tile.ws ... pingpong` region issue the MMAs of each
// gemm (of each run of gemms adjacent in their block: a rotated loop's two,
// FlashAttention-3's turn) one after the other, in a ring: warpgroup i
// waits at barrier `first + i` for its turn and, once its MMAs are issued,
// passes the turn to warpgroup i + 1 (mod G) by arriving at that one's
// barrier without waiting. Each barrier counts the threads of two warpgroups
// (the waiting one and the passing one). The last warpgroup hands the first
// turn to the first one when the region starts, and the first warpgroup takes
// the last turn when it ends, so every arrival is matched by a wait.
//
// Deadlock freedom: every warpgroup runs every gemm of the region (gemms
// are block-cooperative), so the k-th wait of warpgroup i + 1 matches the
// k-th pass of warpgroup i, which follows its k-th wait; passes never
// block, and a barrier over the region's threads between two turns is
// reached by each warpgroup after its own pass. (Only index arithmetic
// separates the gemms of one turn.)
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
/// The turns of one pingpong region as the executing thread sees them.
struct Turns {
  int64_t first = 0;  // barrier of warpgroup 0's turn
  int64_t groups = 0; // warpgroups in the ring
  int64_t numThreads = 0;
  Value group; // the executing thread's warpgroup within the region (index)
};
} // namespace

static std::optional<Turns> turnsOf(LoweringContext &ctx, WsOp ws, Value tid) {
  if (!ws || !ws.getPingpong())
    return std::nullopt;
  int64_t size = ctx.target.getWarpgroupSize();
  Turns t;
  t.first = ws.getTurnBarrier().value_or(0);
  t.groups = ws.getWarpgroups().size();
  t.numThreads = 2 * size;
  t.group = ctx.ib().divConst(tid, size);
  return t;
}

/// Barrier `first + (group + offset) mod groups` as an i32.
static Value turnBarrier(LoweringContext &ctx, const Turns &t, int64_t offset) {
  IndexBuilder ib = ctx.ib();
  Value g = t.group;
  if (offset) {
    Value groups = ib.idx(t.groups);
    g = arith::RemUIOp::create(ctx.b, ctx.loc(), ib.addConst(g, offset),
                               groups);
  }
  Value id = ib.addConst(g, t.first);
  return arith::IndexCastUIOp::create(ctx.b, ctx.loc(), ctx.b.getI32Type(), id);
}

/// The gemm right after `gemm` in its block, with only ops that neither
/// touch memory nor have regions between them, or null.
static GemmOp nextAdjacentGemm(GemmOp gemm) {
  Operation *op = gemm->getNextNode();
  while (op && isMemoryEffectFree(op) && op->getNumRegions() == 0)
    op = op->getNextNode();
  return dyn_cast_or_null<GemmOp>(op);
}

std::function<void(OpBuilder &, Location)>
mlir::tile::lowering::takeTurn(LoweringContext &ctx, GemmOp gemm) {
  std::optional<Turns> t =
      turnsOf(ctx, gemm->getParentOfType<WsOp>(), ctx.threadId(gemm));
  if (!t)
    return nullptr;
  // A run of adjacent gemms is one turn: its first waits, its last passes
  // (gemms are lowered in order, the ones before already replaced).
  if (!ctx.turnHeld.erase(gemm))
    ctx.namedBarriers->emitTurnWait(ctx.b, ctx.loc(), turnBarrier(ctx, *t, 0),
                                    t->numThreads);
  if (GemmOp next = nextAdjacentGemm(gemm)) {
    ctx.turnHeld.insert(next);
    return [](OpBuilder &, Location) {};
  }
  Value next = turnBarrier(ctx, *t, 1);
  const NamedBarrierInfo *named = ctx.namedBarriers;
  int64_t numThreads = t->numThreads;
  return [named, next, numThreads](OpBuilder &b, Location loc) {
    named->emitTurnPass(b, loc, next, numThreads);
  };
}

/// Emits `emit` for warpgroup `group` of the region only.
static void onGroup(LoweringContext &ctx, const Turns &t, int64_t group,
                    function_ref<void()> emit) {
  Value is = arith::CmpIOp::create(ctx.b, ctx.loc(), arith::CmpIPredicate::eq,
                                   t.group, ctx.idx(group));
  auto branch = scf::IfOp::create(ctx.b, ctx.loc(), is, false);
  OpBuilder::InsertionGuard guard(ctx.b);
  ctx.b.setInsertionPoint(branch.thenBlock()->getTerminator());
  emit();
}

void mlir::tile::lowering::beginTurns(LoweringContext &ctx, WsOp ws,
                                      Value tid) {
  std::optional<Turns> t = turnsOf(ctx, ws, tid);
  if (!t)
    return;
  onGroup(ctx, *t, t->groups - 1, [&] {
    ctx.namedBarriers->emitTurnPass(
        ctx.b, ctx.loc(),
        ctx.b.createOrFold<arith::ConstantIntOp>(ctx.loc(), t->first, 32),
        t->numThreads);
  });
}

void mlir::tile::lowering::endTurns(LoweringContext &ctx, WsOp ws, Value tid) {
  std::optional<Turns> t = turnsOf(ctx, ws, tid);
  if (!t)
    return;
  onGroup(ctx, *t, 0, [&] {
    ctx.namedBarriers->emitTurnWait(
        ctx.b, ctx.loc(),
        ctx.b.createOrFold<arith::ConstantIntOp>(ctx.loc(), t->first, 32),
        t->numThreads);
  });
}

// Turns between regions: the ring of tile.ws regions holding turn ops
// (tile.turn_wait / tile.turn_pass, written by tile-warp-specialize for
// regions that take tiles in turn). Region r waits at its own barrier and
// passes to region r + 1 (mod R) by arriving at that one's; each barrier
// counts the threads of the waiting region and of the one before it.
LogicalResult mlir::tile::lowering::lowerRegionTurn(LoweringContext &ctx,
                                                    Operation *op) {
  auto ws = op->getParentOfType<WsOp>();
  std::optional<ArrayRef<int64_t>> turn =
      ws ? ws.getRegionTurn() : std::nullopt;
  if (!turn)
    return op->emitOpError("needs another tile.ws region with turns to "
                           "take turns with (tile-insert-barriers gives a "
                           "ring of such regions their 'region_turn')");
  // [wait barrier, threads, pass barrier, threads]
  bool wait = isa<TurnWaitOp>(op);
  int64_t barrier = wait ? (*turn)[0] : (*turn)[2];
  int64_t threads = wait ? (*turn)[1] : (*turn)[3];
  Value id = arith::ConstantIntOp::create(ctx.b, ctx.loc(), barrier, 32);
  if (wait)
    ctx.namedBarriers->emitTurnWait(ctx.b, ctx.loc(), id, threads);
  else
    ctx.namedBarriers->emitTurnPass(ctx.b, ctx.loc(), id, threads);
  return success();
}
