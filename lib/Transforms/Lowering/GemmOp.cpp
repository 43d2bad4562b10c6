//===- GemmOp.cpp - Lowering of tile.gemm -----------------------*- C++ -*-===//
//
// A gemm is computed with the instruction its `mma` attribute records (set by
// `tile-select-mma` or layout inference): this file gathers the operands
// (shared tiles, resolved lazily so that the emitter places their address
// arithmetic, or register tiles) and hands them to the target's emitter.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// The tile.parallel that consumes the product of `op` (`consumer_chunk`):
/// the first one after it in its block that reads its accumulator. It runs
/// at the gemm, so the values it uses must be defined before the gemm and
/// the ops between must not write the fragments it reads
/// (tile-fuse-consumer moved them before the gemm).
static FailureOr<ParallelOp> findChunkConsumer(GemmOp op) {
  ParallelOp consumer = findProductConsumer(op);
  if (!consumer)
    return op.emitOpError("hands its product to a tile.parallel in chunks "
                          "(consumer_chunk), but none after it reads it");
  bool defined = true;
  consumer.getBody().walk([&](Operation *inner) {
    for (Value operand : inner->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == op->getBlock() && !def->isBeforeInBlock(op))
        defined = false;
    }
  });
  if (!defined)
    return op.emitOpError("hands its product to a tile.parallel in chunks "
                          "(consumer_chunk), which uses values defined after "
                          "the gemm: run tile-fuse-consumer");
  for (Operation *between = op->getNextNode(); between != consumer;
       between = between->getNextNode()) {
    bool writes = false;
    for (Value operand : between->getOperands())
      if (auto type = dyn_cast<MemRefType>(operand.getType()))
        writes |= getMemoryKind(type) == MemoryKind::Fragment;
    if (writes)
      return op.emitOpError("hands its product to a tile.parallel in chunks "
                            "(consumer_chunk), but '")
             << between->getName()
             << "' between them uses fragments: run tile-fuse-consumer";
  }
  return consumer;
}

/// Whether the loop around a gemm that promotes one K block late
/// (`partials`) runs two K blocks per pass once `tile-unroll-loops` has run:
/// then the gemm adds the previous block's partial sums after issuing its
/// own MMAs, which overlaps the additions with them. Marks the loop
/// `tile.unroll = 2` unless it says 1; a gemm outside a loop, or in one
/// whose step is not a positive constant, keeps the additions first.
static bool unrollForPartials(LoweringContext &ctx, GemmOp op) {
  auto loop = op->getParentOfType<scf::ForOp>();
  if (!loop || !ctx.kernel->isProperAncestor(loop))
    return false;
  // A block's slot is released one gemm later, once its MMAs are known
  // complete; with the additions after the issue the consumers hold their
  // slots longer, which needs a deep enough pipe.
  if (!hasSlotsForLateAdds(op))
    return false;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0)
    return false;
  if (auto count =
          loop->getAttrOfType<IntegerAttr>(TileDialect::kUnrollAttrName))
    return count.getInt() == 2;
  loop->setAttr(TileDialect::kUnrollAttrName, ctx.b.getI64IntegerAttr(2));
  return true;
}

LogicalResult mlir::tile::lowering::lowerGemm(LoweringContext &ctx, GemmOp op) {
  MmaAttr mma = op.getMmaAttr();
  if (!mma)
    return op.emitOpError("has no matrix-multiply instruction chosen: run "
                          "tile-select-mma (or tile-layout-inference) before "
                          "tile-lower-ops");
  GemmEmission g;
  g.op = op;
  g.mma = mma;
  g.c = ctx.getRegTile(op.getC(), op);
  if (!g.c)
    return failure();
  if (Value partials = op.getPartials()) {
    g.partials = ctx.getRegTile(partials, op);
    if (!g.partials)
      return failure();
  }
  auto operand = [&](Value value) -> FailureOr<GemmOperand> {
    GemmOperand result;
    if (getMemoryKind(cast<MemRefType>(value.getType())) ==
        MemoryKind::Fragment) {
      result.regs = ctx.getRegTile(value, op);
      if (!result.regs)
        return failure();
      return result;
    }
    result.resolveShared = [&ctx, op, value]() -> FailureOr<SharedOperand> {
      FailureOr<SharedRef> ref = ctx.resolveShared(value, op);
      if (failed(ref))
        return failure();
      SharedOperand shared = ctx.toOperand(*ref);
      shared.address = ctx.sharedAddress(shared.view);
      return shared;
    };
    return result;
  };
  FailureOr<GemmOperand> a = operand(op.getA()), b = operand(op.getB());
  if (failed(a) || failed(b))
    return failure();
  g.a = *a;
  g.b = *b;
  if (Value meta = op.getSparseMeta()) {
    FailureOr<GemmOperand> m = operand(meta);
    if (failed(m))
      return failure();
    g.meta = *m;
  }
  g.tid = ctx.threadId(op);
  // Under warp specialization the producers refill a slot only once every
  // consumer warp has released it, each after its own reads: no barrier.
  if (!op->getParentOfType<WsOp>())
    g.barrier = [&ctx, op]() { ctx.barrier(op); };
  g.carriedArrays = [&ctx, op](MemRefType type) mutable {
    auto found = ctx.carriedArrays.find(op);
    if (found != ctx.carriedArrays.end())
      return found->second;
    // The gemms into this accumulator in the loop body, in order: each
    // takes over the previous one's array, the first the last one's.
    Operation *acc = getRootAlloc(op.getC());
    SmallVector<Operation *> gemms;
    Operation *scope = op->getParentOfType<scf::ForOp>();
    (scope ? scope : op.getOperation())->walk([&](GemmOp other) {
      if (getRootAlloc(other.getC()) == acc)
        gemms.push_back(other);
    });
    SmallVector<Value> arrays;
    OpBuilder::InsertionGuard guard(ctx.b);
    ctx.b.setInsertionPointToStart(&ctx.kernel.getBody().front());
    Location loc = op.getLoc();
    Value zero = arith::ConstantOp::create(
        ctx.b, loc, ctx.b.getZeroAttr(type.getElementType()));
    for (size_t i = 0; i < gemms.size(); ++i) {
      arrays.push_back(memref::AllocaOp::create(ctx.b, loc, type));
      for (int64_t j = 0; j < type.getNumElements(); ++j)
        memref::StoreOp::create(ctx.b, loc, zero, arrays.back(),
                                ValueRange{ctx.idx(j)});
    }
    for (size_t i = 0; i < gemms.size(); ++i)
      ctx.carriedArrays[gemms[i]] = {
          arrays[(i + gemms.size() - 1) % gemms.size()], arrays[i]};
    return ctx.carriedArrays[op];
  };
  g.warpgroup = ctx.uniformWarpgroupId(op);
  // MMA groups left in flight and a predicated accumulation: tile-plan-pipes'
  // decision for gemms whose pipe release is deferred.
  g.mmaGroupsInFlight = op.getMmaGroupsInFlight().value_or(0);
  g.accumulate = op.getAccumulate();
  if ((g.mmaGroupsInFlight || g.accumulate) && !ctx.target.isAsyncMma(mma))
    return op.emitOpError("leaves MMA groups in flight or accumulates on a "
                          "condition, which needs an asynchronous MMA; ")
           << stringifyMmaKind(mma.getKind()) << " is not one";
  g.passTurn = takeTurn(ctx, op);
  bool passesTurn = g.passTurn && ctx.target.isAsyncMma(mma);
  // A consumer taking the product in chunks runs inside the gemm, one chunk
  // after each instruction's MMAs (asynchronous MMAs only; elsewhere it
  // stays in its place).
  ParallelOp consumer;
  auto consumed = std::make_shared<bool>(false);
  // A product consumed one gemm late (tile.consumer_late, its MMAs left in
  // flight by tile-plan-pipes): the gemm runs the previous gemm's consumer
  // on the product it left in C, from the second gemm of the loop on, and
  // the last one runs after the loop.
  bool late = consumesLate(op) && g.mmaGroupsInFlight;
  Value hasPrevious;
  if (late) {
    // (tile-lower-ops checked the rule on the tile IR: checkLateConsumers.)
    consumer = findProductConsumer(op);
    auto loop = op->getParentOfType<scf::ForOp>();
    if (!consumer || !loop || !ctx.kernel->isProperAncestor(loop))
      return op.emitOpError("consumes its product one gemm late "
                            "(tile.consumer_late), but no tile.parallel in "
                            "a loop of its kernel consumes it");
    int64_t stage = std::max<int64_t>(0, getPipelineStage(op->getParentOp()));
    Value first = createStageStart(ctx.b, ctx.loc(), loop, stage);
    hasPrevious =
        arith::CmpIOp::create(ctx.b, ctx.loc(), arith::CmpIPredicate::ne,
                              loop.getInductionVar(), first);
    g.consumeChunk = [&ctx, consumer, hasPrevious,
                      consumed](OpBuilder &, Location loc,
                                const llvm::BitVector &) -> LogicalResult {
      *consumed = true;
      auto guard =
          scf::IfOp::create(ctx.b, loc, hasPrevious, /*withElse=*/false);
      OpBuilder::InsertionGuard inside(ctx.b);
      ctx.b.setInsertionPointToStart(guard.thenBlock());
      return lowerParallel(ctx, consumer);
    };
  } else if (op.getConsumerChunk()) {
    FailureOr<ParallelOp> found = findChunkConsumer(op);
    if (failed(found))
      return failure();
    consumer = *found;
    const RegisterOperand *tile = g.c;
    g.consumeChunk = [&ctx, consumer, tile,
                      consumed](OpBuilder &, Location,
                                const llvm::BitVector &registers) {
      *consumed = true;
      ParallelChunk chunk{tile, registers};
      return lowerParallel(ctx, consumer, &chunk);
    };
  }
  if (g.partials || late)
    g.addPartialsAfterIssue = unrollForPartials(ctx, op);
  if (failed(ctx.target.emitGemm(ctx.b, ctx.loc(), g)))
    return failure();
  if (*consumed)
    ctx.loweredEarly.insert(consumer);
  if (g.passTurn && !passesTurn)
    g.passTurn(ctx.b, ctx.loc());
  // The groups left in flight complete after the gemm's loop (after the
  // gemm itself outside a loop), before anything there reads the
  // accumulator: one wait per loop.
  if (g.mmaGroupsInFlight) {
    Operation *after = op;
    if (auto loop = op->getParentOfType<scf::ForOp>();
        loop && ctx.kernel->isProperAncestor(loop))
      after = loop;
    OpBuilder::InsertionGuard guard(ctx.b);
    ctx.b.setInsertionPointAfter(after);
    if (ctx.mmaWaitLoops.insert(after).second)
      ctx.target.asyncMma()->emitMmaWait(ctx.b, after->getLoc(), 0);
    else
      ctx.b.setInsertionPointAfter(after->getNextNode());
    // Deferred promotion: the last partial sums, now complete, join the
    // accumulator (after the wait, which is the op right after `after`);
    // a late consumer takes the last product. Both only if the gemm ran: a
    // gemm of pipeline stage r runs from iteration lb + r * step on.
    OpBuilder &b = ctx.b;
    Location loc = after->getLoc();
    if (auto loop = dyn_cast<scf::ForOp>(after); loop && (late || g.partials)) {
      int64_t stage = std::max<int64_t>(0, getPipelineStage(op->getParentOp()));
      Value first = createStageStart(b, loc, loop, stage);
      Value ran = arith::CmpIOp::create(b, loc,
                                        loop.getUnsignedCmp()
                                            ? arith::CmpIPredicate::ult
                                            : arith::CmpIPredicate::slt,
                                        first, loop.getUpperBound());
      auto ranGuard = scf::IfOp::create(b, loc, ran, /*withElse=*/false);
      b.setInsertionPointToStart(ranGuard.thenBlock());
    }
    if (late) {
      *consumed = true;
      if (failed(lowerParallel(ctx, consumer)))
        return failure();
    }
    if (g.partials) {
      int64_t count = g.c->layout.getRegistersPerThread();
      for (int64_t i = 0; i < count; ++i) {
        Value at = arith::ConstantIndexOp::create(b, loc, i);
        Value partial = memref::LoadOp::create(b, loc, g.partials->regs, at);
        Value acc = memref::LoadOp::create(b, loc, g.c->regs, at);
        Value sum = arith::AddFOp::create(b, loc, acc, partial);
        memref::StoreOp::create(b, loc, sum, g.c->regs, at);
      }
    }
  }
  return success();
}
