//===- SyncOps.cpp - Lowering of the synchronization ops --------*- C++ -*-===//
//
// `tile.barrier` becomes the target's barrier over the threads executing it
// (the block, or the enclosing tile.ws region's warps); async groups become
// the target's copy-engine commit and wait (the wait ends with a barrier, so
// the copied data is visible to every thread of the scope). Pipe hand-offs
// on targets without a copy engine are barriers over multi-buffered slots
// filled by synchronous copies.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Handoffs.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult mlir::tile::lowering::lowerBarrier(LoweringContext &ctx,
                                                 BarrierOp op) {
  ctx.barrier(op);
  return success();
}

// Synchronous MMAs are complete when their gemm returns.
LogicalResult mlir::tile::lowering::lowerMmaWait(LoweringContext &ctx,
                                                 MmaWaitOp op) {
  if (const AsyncMmaInfo *mma = ctx.target.asyncMma())
    mma->emitMmaWait(ctx.b, ctx.loc(), op.getPending());
  return success();
}

// Without a copy engine, `async` copies are complete when they end
// (CopyOp.cpp): a commit has nothing to close and a wait only makes the
// copied data visible to the other threads.
LogicalResult mlir::tile::lowering::lowerAsyncCommit(LoweringContext &ctx,
                                                     AsyncCommitOp op) {
  if (const AsyncCopyInfo *copies = ctx.target.asyncCopies())
    copies->emitAsyncCommit(ctx.b, ctx.loc());
  return success();
}

LogicalResult mlir::tile::lowering::lowerAsyncWait(LoweringContext &ctx,
                                                   AsyncWaitOp op) {
  if (const AsyncCopyInfo *copies = ctx.target.asyncCopies()) {
    copies->emitAsyncWait(ctx.b, ctx.loc(), op.getPending());
    if (op->hasAttr(TileDialect::kProxyFenceAttrName))
      ctx.target.emitAsyncProxyFence(ctx.b, ctx.loc());
  }
  ctx.barrier(op);
  return success();
}

// The hand-off on targets that count asynchronous copies in groups (the
// cp.async engine): a commit closes the slot's group, a wait waits for all
// but the `in_flight` later groups (at most those provably committed,
// checkPipes) and then synchronizes the consumers;
// acquiring and releasing a slot need nothing beyond the barriers the
// synchronization step placed before shared writes. On targets without a
// copy engine (AMD CDNA) the wait is the barrier alone.
LogicalResult mlir::tile::lowering::lowerPipeOp(LoweringContext &ctx,
                                                Operation *op) {
  // The base of the hand-off numbering: the thread's counter.
  if (auto base = dyn_cast<PipeBaseOp>(op)) {
    base.getBase().replaceAllUsesWith(ctx.pipeBase(base.getPipe()));
    return success();
  }
  if (auto advance = dyn_cast<PipeAdvanceOp>(op)) {
    Value counter = ctx.pipeCounters.lookup(advance.getPipe());
    Value next = ctx.add(ctx.pipeBase(advance.getPipe()), advance.getCount());
    memref::StoreOp::create(ctx.b, ctx.loc(), next, counter,
                            ValueRange{ctx.idx(0)});
    return success();
  }
  // Pipes fed by tensor copies hand off through barriers (TmaCopy.cpp).
  auto barrierPipe = ctx.barrierPipes.find(op->getOperand(0));
  if (barrierPipe != ctx.barrierPipes.end())
    return lowerBarrierPipeOp(ctx, op, barrierPipe->second);
  // Without a copy engine the slot's copies were synchronous (through
  // registers, CopyOp.cpp): the consumers only wait for the producers'
  // writes to shared memory to be visible.
  const AsyncCopyInfo *copies = ctx.target.asyncCopies();
  if (!copies) {
    if (isa<PipeConsumeWaitOp>(op))
      ctx.barrier(op);
    return success();
  }
  if (isa<PipeProduceCommitOp>(op))
    copies->emitAsyncCommit(ctx.b, ctx.loc());
  if (auto wait = dyn_cast<PipeConsumeWaitOp>(op)) {
    copies->emitAsyncWait(ctx.b, ctx.loc(), wait.getInFlight());
    if (op->hasAttr(TileDialect::kProxyFenceAttrName))
      ctx.target.emitAsyncProxyFence(ctx.b, ctx.loc());
    ctx.barrier(op);
  }
  return success();
}

LogicalResult mlir::tile::lowering::checkPipes(LoweringContext &ctx) {
  // Copy-engine waits: tile-plan-pipes lowered each `in_flight(k)` to the
  // later hand-offs provably committed before the wait and rejected waits
  // for other warps' copies. A count above what is proved would leave the
  // waited group in flight: refuse it rather than emit it.
  if (!ctx.target.asyncCopies())
    return success();
  llvm::DenseMap<Operation *, int64_t> laterCommits;
  (void)analyzeHandoffs(ctx.kernel, /*diagnose=*/false, &laterCommits);
  WalkResult result = ctx.kernel.walk([&](PipeConsumeWaitOp wait) {
    if (ctx.barrierPipes.contains(wait.getPipe()))
      return WalkResult::advance();
    if (failed(verifyCopyEngineWaitThreads(wait)))
      return WalkResult::interrupt();
    int64_t proved = laterCommits.lookup(wait);
    if (static_cast<int64_t>(wait.getInFlight()) <= proved)
      return WalkResult::advance();
    wait.emitOpError("leaves ")
        << wait.getInFlight() << " copy groups in flight, but only " << proved
        << " later hand-offs are proved committed before it: the waited "
           "copies could still be in flight (tile-plan-pipes lowers the "
           "count)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}
