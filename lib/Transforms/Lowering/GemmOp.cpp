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

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

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
      return ctx.toOperand(*ref);
    };
    return result;
  };
  FailureOr<GemmOperand> a = operand(op.getA()), b = operand(op.getB());
  if (failed(a) || failed(b))
    return failure();
  g.a = *a;
  g.b = *b;
  g.tid = ctx.threadId(op);
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
  if (failed(ctx.target.emitGemm(ctx.b, ctx.loc(), g)))
    return failure();
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
    if (ctx.mmaWaitLoops.insert(after).second) {
      OpBuilder::InsertionGuard guard(ctx.b);
      ctx.b.setInsertionPointAfter(after);
      ctx.target.asyncMma()->emitMmaWait(ctx.b, after->getLoc(), 0);
    }
  }
  return success();
}
