//===- InsertBarriers.cpp - Barriers around shared writes -------*- C++ -*-===//
//
// `tile-insert-barriers`: the block-cooperative semantics of tile ops made
// explicit. A tile op that writes shared memory must not overwrite data
// other threads still read (`tile.barrier` before) and its results must be
// visible to the next op (`tile.barrier` after; asynchronous copies become
// visible at their wait instead); consecutive writers share barriers.
// Synchronous global -> shared copies first move to the target's
// asynchronous copy engine where it has one: each run of them becomes async
// copies followed by one commit and a wait for everything.
//
// Stage hand-offs (`tile.pipe.*`) need no barrier of their own on targets
// that count asynchronous copies in groups: the barrier placed before a
// slot's copies (the consumers' previous wait, or one inserted here) orders
// the readers' release of that slot before it is overwritten. Tensor copies
// (`tma`) get no barrier: their pipe's barriers order them.
//
// A `tile.ws` region whose ops synchronize gets a hardware barrier of its
// own (`barrier`), so that its barriers involve only the region's threads;
// the warpgroups of a `pingpong` region get one barrier each for their
// turns (`turn_barrier`, the first), and the ring of regions passing turns
// to each other one per region (`region_turn`).
//
// Threads' ordinary writes to shared tiles that asynchronous MMAs (wgmma)
// read need a proxy fence before the barrier that publishes them: the pass
// marks such writes, and the copy-engine waits when copy-engine copies fill
// such tiles, `tile.proxy_fence`.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_INSERTBARRIERS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

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

/// Whether `op` touches only registers (fragments) and does not
/// synchronize the threads: the barriers around a write to shared memory
/// may move across it.
static bool isThreadLocal(Operation *op) {
  bool synchronizes =
      op->walk([](Operation *nested) {
          return isBarrier(nested) || synchronizesThreads(nested)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        }).wasInterrupted();
  return !synchronizes &&
         !mayAccessMemory(
             op, [](MemoryKind kind) { return kind != MemoryKind::Fragment; },
             /*writesOnly=*/false);
}

static void insertBarriers(KernelOp kernel) {
  auto isAsync = [](Operation *op) {
    auto copy = dyn_cast<CopyOp>(op);
    return copy && copy.getAsync();
  };
  // The closest op before or after `op` in its block that is not
  // thread-local: writes to shared memory separated only by such ops share
  // their barriers (their loads overlap).
  auto prevShared = [](Operation *op) {
    Operation *prev = op->getPrevNode();
    while (prev && isThreadLocal(prev))
      prev = prev->getPrevNode();
    return prev;
  };
  auto nextShared = [](Operation *op) {
    Operation *next = op->getNextNode();
    while (next && isThreadLocal(next))
      next = next->getNextNode();
    return next;
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
    Operation *prev = prevShared(op);
    if ((!prev || !(isBarrier(prev) || writesShared(prev))) &&
        !precededByBarrier(op)) {
      b.setInsertionPoint(op);
      BarrierOp::create(b, op->getLoc());
    }
    if (isAsync(op))
      continue;
    Operation *next = nextShared(op);
    if (!next || !writesShared(next) || isAsync(next)) {
      b.setInsertionPointAfter(op);
      BarrierOp::create(b, op->getLoc());
    }
  }
}

/// Whether the tensor stores of `ws` (one at least) may each be stored by
/// the region's warpgroups apart, every warpgroup its own rows.
static bool storesByWarpgroup(WsOp ws) {
  auto kernel = ws->getParentOfType<KernelOp>();
  auto asked = kernel ? kernel->getAttrOfType<BoolAttr>(
                            TileDialect::kWarpgroupStoresAttrName)
                      : BoolAttr();
  if (asked && !asked.getValue())
    return false;
  int64_t groups = ws.getWarpgroups().size();
  int64_t warpgroupSize = ws.getNumThreads() / groups;
  // Stores whose staging may share storage (tile-allocate-shared) must
  // put each warpgroup's slab in the same bytes: the same rows and panels.
  std::optional<std::pair<int64_t, int64_t>> shape;
  WalkResult walk = ws.walk([&](CopyOp copy) {
    if (getTmaStoreBuffers(copy) == 0)
      return WalkResult::advance();
    std::pair<int64_t, int64_t> mine = {copy.getSourceType().getShape()[0],
                                        getTmaStorePanelBytes(copy)};
    if ((shape && *shape != mine) ||
        !storesRowsByWarpgroup(copy, groups, warpgroupSize))
      return WalkResult::interrupt();
    shape = mine;
    return WalkResult::advance();
  });
  return shape && !walk.wasInterrupted();
}

/// Gives the tile.ws regions of `kernel` their hardware barriers (see the
/// file comment), numbered from 1 in program order.
static LogicalResult assignBarrierIds(KernelOp kernel,
                                      const TargetInfo &target) {
  int64_t next = 1;
  // The ring of regions with turns between them, and each one's barrier.
  SmallVector<WsOp> ring;
  DenseMap<Operation *, int64_t> ringBarriers;
  auto take = [&](WsOp ws, int64_t count, const Twine &what) -> int64_t {
    if (next + count - 1 > target.getNumNamedBarriers()) {
      ws.emitOpError("needs ")
          << what << ", but " << target.getChipName() << " has "
          << target.getNumNamedBarriers()
          << " barriers for subsets of the block and earlier tile.ws "
             "regions use them all";
      return 0;
    }
    next += count;
    return next - count;
  };
  OpBuilder b(kernel.getContext());
  WalkResult result = kernel.walk([&](WsOp ws) {
    bool syncs = false;
    ws.walk([&](Operation *op) { syncs |= synchronizesThreads(op); });
    if (syncs) {
      int64_t id = take(ws, 1, "a barrier over its warpgroups");
      if (!id)
        return WalkResult::interrupt();
      ws.setBarrierAttr(b.getI64IntegerAttr(id));
    }
    // One barrier per warpgroup taking turns: warpgroup i waits at the
    // i-th for its turn.
    int64_t groups = ws.getWarpgroups().size();
    if (ws.getPingpong()) {
      int64_t first =
          take(ws, groups, Twine(groups).concat(" barriers for turns"));
      if (!first)
        return WalkResult::interrupt();
      ws.setTurnBarrierAttr(b.getI64IntegerAttr(first));
    }
    // One barrier per warpgroup for tensor stores each stores its own rows
    // of: a warpgroup done with its main loop stores while the others
    // finish theirs.
    if (groups > 1 && !ws.getStoreBarrier() && storesByWarpgroup(ws)) {
      int64_t first = take(ws, groups,
                           Twine(groups).concat(" barriers for its "
                                                "warpgroups' tensor stores"));
      if (!first)
        return WalkResult::interrupt();
      ws.setStoreBarrierAttr(b.getI64IntegerAttr(first));
    }
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
    ws.setRegionTurn(ArrayRef<int64_t>{
        ringBarriers.lookup(ws), ws.getNumThreads() + prev.getNumThreads(),
        ringBarriers.lookup(succ), ws.getNumThreads() + succ.getNumThreads()});
  }
  return success();
}

/// Marks where the threads' ordinary writes to shared tiles that
/// asynchronous MMAs read need a proxy fence (`tile.proxy_fence`): wgmma
/// reads through the async proxy. A write gets it (after the write, before
/// the barrier that publishes it: the barrier placed after it); when
/// copy-engine copies fill such tiles, every copy-engine wait gets it
/// (their copies complete at the wait).
static void planProxyFences(KernelOp kernel, const TargetInfo &target) {
  // Shared tiles read by asynchronous MMAs (null: one not resolved to an
  // allocation, which any write may alias).
  llvm::DenseSet<Operation *> asyncRead;
  kernel.walk([&](GemmOp gemm) {
    MmaAttr mma = gemm.getMmaAttr();
    if (!mma || !target.isAsyncMma(mma))
      return;
    for (Value operand : {gemm.getA(), gemm.getB()})
      if (getMemoryKind(cast<MemRefType>(operand.getType())) ==
          MemoryKind::Shared)
        asyncRead.insert(getRootAlloc(operand));
  });
  if (asyncRead.empty())
    return;
  auto readAsync = [&](Value target) {
    return asyncRead.contains(nullptr) ||
           asyncRead.contains(getRootAlloc(target));
  };
  // Ordinary writes: copies other than tensor copies (which write through
  // the async proxy), fills, and stores (in element-wise bodies: the fence
  // follows the whole body).
  bool fenceWaits = false;
  SmallVector<Operation *> writes;
  llvm::SmallPtrSet<Value, 4> tensorPipes;
  kernel.walk([&](Operation *op) {
    Value written;
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (copy.getTma()) {
        if (PipeProduceAcquireOp handOff = getHandOff(copy))
          tensorPipes.insert(handOff.getPipe());
        return;
      }
      if (getMemoryKind(copy.getTargetType()) != MemoryKind::Shared)
        return;
      if (copy.getAsync() && target.asyncCopies()) {
        // Complete at its wait, where the fence goes.
        fenceWaits |= readAsync(copy.getTarget());
        return;
      }
      written = copy.getTarget();
    } else if (auto fill = dyn_cast<FillOp>(op)) {
      written = fill.getTarget();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      written = store.getMemRef();
    } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
      written = store.getBase();
    } else {
      return;
    }
    if (getMemoryKind(cast<MemRefType>(written.getType())) !=
            MemoryKind::Shared ||
        !readAsync(written))
      return;
    if (auto parallel = op->getParentOfType<ParallelOp>())
      op = parallel;
    writes.push_back(op);
  });
  UnitAttr unit = UnitAttr::get(kernel.getContext());
  for (Operation *op : writes)
    op->setAttr(TileDialect::kProxyFenceAttrName, unit);
  if (!fenceWaits)
    return;
  // The copy-engine waits (those of tensor-copy pipes wait on barriers).
  kernel.walk([&](Operation *op) {
    auto wait = dyn_cast<PipeConsumeWaitOp>(op);
    if (isa<AsyncWaitOp>(op) || (wait && !tensorPipes.contains(wait.getPipe())))
      op->setAttr(TileDialect::kProxyFenceAttrName, unit);
  });
}

namespace {
struct InsertBarriersPass
    : public tile::impl::InsertBarriersBase<InsertBarriersPass> {
  void runOnOperation() override {
    bool anyFailed = false;
    getOperation().walk([&](KernelOp kernel) {
      if (kernel->hasAttr(TileDialect::kSynchronizedAttrName))
        return;
      // A schedule counts the loop body's ops: barriers placed into it now
      // would break it. The pipeline is expanded first.
      WalkResult scheduled = kernel.walk([&](scf::ForOp loop) {
        if (!loop->hasAttr(TileDialect::kStageAttrName) &&
            !loop->hasAttr(TileDialect::kOrderAttrName))
          return WalkResult::advance();
        loop.emitOpError("still carries a software-pipeline schedule ('")
            << TileDialect::kStageAttrName << "' / '"
            << TileDialect::kOrderAttrName
            << "'): run tile-inject-pipeline before tile-insert-barriers";
        return WalkResult::interrupt();
      });
      if (scheduled.wasInterrupted()) {
        anyFailed = true;
        return;
      }
      std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
      if (target->asyncCopies())
        useAsyncCopyEngine(kernel);
      insertBarriers(kernel);
      planProxyFences(kernel, *target);
      if (failed(assignBarrierIds(kernel, *target))) {
        anyFailed = true;
        return;
      }
      kernel->setAttr(TileDialect::kSynchronizedAttrName,
                      UnitAttr::get(kernel.getContext()));
    });
    if (anyFailed)
      signalPassFailure();
  }
};
} // namespace
