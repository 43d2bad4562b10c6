//===- GemmOp.cpp - Lowering of tile.gemm -----------------------*- C++ -*-===//
//
// A gemm is computed with the instruction its `mma` attribute records (set by
// `tile-select-mma` or layout inference): this file gathers the operands
// (shared tiles, resolved lazily so that the emitter places their address
// arithmetic, or register tiles) and hands them to the target's emitter.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

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
  auto async = ctx.asyncGemms.find(op);
  if (async != ctx.asyncGemms.end()) {
    g.mmaGroupsInFlight = 1;
    g.accumulate = async->second;
  }
  g.passTurn = takeTurn(ctx, op);
  bool passesTurn = g.passTurn && ctx.target.isAsyncMma(mma);
  if (failed(ctx.target.emitGemm(ctx.b, ctx.loc(), g)))
    return failure();
  if (g.passTurn && !passesTurn)
    g.passTurn(ctx.b, ctx.loc());
  return success();
}
