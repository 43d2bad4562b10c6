//===- Synchronization.cpp - Barriers and the copy engine -------*- C++ -*-===//
//
// The synchronization step of `tile-lower-ops`, run on tile ops before they
// are lowered:
//
// * synchronous global -> shared copies use the target's asynchronous copy
//   engine when it has one (no round trip through registers): each run of
//   consecutive such copies becomes async copies followed by one commit and
//   a wait for everything, which keeps their synchronous semantics;
// * block-cooperative semantics: a tile op that writes shared memory must
//   not overwrite data other threads still read (`tile.barrier` before) and
//   its results must be visible to the next op (`tile.barrier` after;
//   asynchronous copies become visible at their wait instead). Consecutive
//   writers share barriers;
// * `tile.ws` regions whose ops synchronize get a hardware barrier id, so
//   their barriers involve only the region's threads.
//
// Stage hand-offs (`tile.pipe.*`) need no barrier of their own on targets
// that count asynchronous copies in groups: the barrier placed before a
// slot's copies (the consumers' previous wait, or one inserted here) orders
// the readers' release of that slot before it is overwritten. Tensor copies
// (`tma`) get no barrier: their pipe's barriers order them.
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

/// Whether `op` writes shared memory.
static bool writesShared(Operation *op) {
  if (auto copy = dyn_cast<CopyOp>(op))
    return getMemoryKind(copy.getTargetType()) == MemoryKind::Shared;
  if (auto fill = dyn_cast<FillOp>(op))
    return getMemoryKind(cast<MemRefType>(fill.getTarget().getType())) ==
           MemoryKind::Shared;
  return false;
}

static bool isBarrier(Operation *op) {
  return isa<gpu::BarrierOp, BarrierOp>(op);
}

/// Whether a barrier (or an async wait, which ends with one) executes right
/// before `op` with only side-effect-free ops in between, looking through the
/// start of enclosing scf.if regions.
static bool precededByBarrier(Operation *op) {
  Operation *cursor = op;
  while (cursor) {
    // Taking a slot or creating a pipe writes no shared memory: a barrier
    // before them still orders what follows.
    Operation *prev = cursor->getPrevNode();
    while (prev && ((isMemoryEffectFree(prev) && prev->getNumRegions() == 0) ||
                    isa<PipeProduceAcquireOp, PipeCreateOp>(prev)))
      prev = prev->getPrevNode();
    if (prev)
      return isBarrier(prev) || isa<AsyncWaitOp, PipeConsumeWaitOp>(prev);
    cursor = cursor->getParentOp();
    if (!isa_and_nonnull<scf::IfOp>(cursor))
      return false;
  }
  return false;
}

static void useAsyncCopyEngine(KernelOp kernel) {
  // Kernels that already count async groups (pipelined loops) are left
  // alone.
  bool counted = false;
  kernel.walk([&](Operation *op) {
    counted |= isa<AsyncCommitOp, PipeProduceCommitOp>(op);
  });
  if (counted)
    return;
  auto qualifies = [&](Operation *op) {
    auto copy = dyn_cast_or_null<CopyOp>(op);
    return copy && !copy.getAsync() &&
           getMemoryKind(copy.getSourceType()) == MemoryKind::Global &&
           getMemoryKind(copy.getTargetType()) == MemoryKind::Shared &&
           copy.getSourceType().getElementType() ==
               copy.getTargetType().getElementType() &&
           getRootAlloc(copy.getTarget());
  };
  SmallVector<Operation *> runEnds;
  kernel.walk([&](Operation *op) {
    if (!qualifies(op))
      return;
    cast<CopyOp>(op).setAsync(true);
    if (!qualifies(op->getNextNode()))
      runEnds.push_back(op);
  });
  OpBuilder b(kernel.getContext());
  for (Operation *op : runEnds) {
    b.setInsertionPointAfter(op);
    AsyncCommitOp::create(b, op->getLoc());
    AsyncWaitOp::create(b, op->getLoc(), 0);
  }
}

static void insertBarriers(KernelOp kernel) {
  auto isAsync = [](Operation *op) {
    auto copy = dyn_cast<CopyOp>(op);
    return copy && copy.getAsync();
  };
  SmallVector<Operation *> writers;
  kernel.walk([&](Operation *op) {
    if (writesShared(op))
      writers.push_back(op);
  });
  OpBuilder b(kernel.getContext());
  for (Operation *op : writers) {
    // A tensor copy fills a pipe slot its producer acquired: the slot's
    // barriers order it after the previous readers and before the next.
    if (auto copy = dyn_cast<CopyOp>(op); copy && copy.getTma())
      continue;
    Operation *prev = op->getPrevNode();
    if ((!prev || !(isBarrier(prev) || writesShared(prev))) &&
        !precededByBarrier(op)) {
      b.setInsertionPoint(op);
      BarrierOp::create(b, op->getLoc());
    }
    if (isAsync(op))
      continue;
    Operation *next = op->getNextNode();
    if (!next || !writesShared(next) || isAsync(next)) {
      b.setInsertionPointAfter(op);
      BarrierOp::create(b, op->getLoc());
    }
  }
}

void mlir::tile::lowering::insertSynchronization(KernelOp kernel,
                                                 const TargetInfo &target) {
  if (target.asyncCopies())
    useAsyncCopyEngine(kernel);
  insertBarriers(kernel);
}

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
