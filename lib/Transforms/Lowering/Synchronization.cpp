//===- Synchronization.cpp - Barrier ids of warpgroup regions ---*- C++ -*-===//
//
// `tile.ws` regions whose ops synchronize get a hardware barrier id, so that
// their barriers (placed by tile-insert-barriers) involve only the region's
// threads; warpgroups taking turns get one barrier each.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Pipelining.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// Whether lowering `op` synchronizes the threads executing it.
static bool needsBarrier(Operation *op) {
  if (isa<BarrierOp, AsyncWaitOp, PipeConsumeWaitOp>(op))
    return true;
  if (auto copy = dyn_cast<CopyOp>(op)) {
    auto src = copy.getSource().getDefiningOp<AllocOp>();
    auto dst = copy.getTarget().getDefiningOp<AllocOp>();
    return src && dst && getMemoryKind(src.getType()) == MemoryKind::Fragment &&
           getMemoryKind(dst.getType()) == MemoryKind::Fragment &&
           src.getLayoutAttr() != dst.getLayoutAttr();
  }
  if (auto reduce = dyn_cast<ReduceOp>(op))
    if (auto src = reduce.getSource().getDefiningOp<AllocOp>())
      if (auto layout = dyn_cast_or_null<LinearLayoutAttr>(src.getLayoutAttr()))
        return reducesAcrossWarps(reduce, layout.getLinearLayout());
  return false;
}

LogicalResult mlir::tile::lowering::assignBarrierIds(LoweringContext &ctx) {
  int64_t next = 1;
  // The ring of regions with turns between them, and each one's barrier.
  SmallVector<WsOp> ring;
  DenseMap<Operation *, int64_t> ringBarriers;
  auto take = [&](WsOp ws, int64_t count, const Twine &what) -> int64_t {
    if (next + count - 1 > ctx.target.getNumNamedBarriers()) {
      ws.emitOpError("needs ")
          << what << ", but " << ctx.target.getChipName() << " has "
          << ctx.target.getNumNamedBarriers()
          << " barriers for subsets of the block and earlier tile.ws "
             "regions use them all";
      return 0;
    }
    next += count;
    return next - count;
  };
  WalkResult result = ctx.kernel.walk([&](WsOp ws) {
    bool syncs = false;
    ws.walk([&](Operation *op) { syncs |= needsBarrier(op); });
    if (syncs &&
        !(ctx.barrierIds[ws] = take(ws, 1, "a barrier over its warpgroups")))
      return WalkResult::interrupt();
    // One barrier per warpgroup taking turns: warpgroup i waits at the
    // i-th for its turn (Turns.cpp).
    int64_t groups = ws.getWarpgroups().size();
    if (ws.getPingpong() &&
        !(ctx.turnBarriers[ws] =
              take(ws, groups, Twine(groups).concat(" barriers for turns"))))
      return WalkResult::interrupt();
    // One barrier per region of the ring of turns between regions.
    bool turns = ws.walk([](Operation *op) {
                     return isa<TurnWaitOp, TurnPassOp>(op)
                                ? WalkResult::interrupt()
                                : WalkResult::advance();
                   }).wasInterrupted();
    if (turns) {
      if (!(ringBarriers[ws] = take(ws, 1, "a barrier for its turns")))
        return WalkResult::interrupt();
      ring.push_back(ws);
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  llvm::sort(ring, [](WsOp a, WsOp b) {
    return a.getWarpgroups().front() < b.getWarpgroups().front();
  });
  // Region r waits at its own barrier with region r - 1, and passes at
  // region r + 1's (turns with a single region are diagnosed when lowered).
  size_t count = ring.size();
  for (auto [index, ws] : llvm::enumerate(ring)) {
    if (count < 2)
      break;
    WsOp prev = ring[(index + count - 1) % count];
    WsOp succ = ring[(index + 1) % count];
    LoweringContext::RegionTurn &turn = ctx.regionTurns[ws];
    turn.waitBarrier = ringBarriers.lookup(ws);
    turn.waitThreads = ws.getNumThreads() + prev.getNumThreads();
    turn.passBarrier = ringBarriers.lookup(succ);
    turn.passThreads = ws.getNumThreads() + succ.getNumThreads();
  }
  return success();
}
