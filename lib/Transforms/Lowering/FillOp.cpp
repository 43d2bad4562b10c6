//===- FillOp.cpp - Lowering of tile.fill -----------------------*- C++ -*-===//
//
// Fragments: every thread stores the value into each of its registers.
// Shared tiles: each thread stores every `threads`-th element.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult mlir::tile::lowering::lowerFill(LoweringContext &ctx, FillOp op) {
  Value target = op.getTarget();
  if (ctx.frags.count(target)) {
    RegisterOperand &tile = ctx.frags[target];
    for (int64_t r = 0; r < tile.layout.getRegistersPerThread(); ++r)
      memref::StoreOp::create(ctx.b, ctx.loc(), op.getValue(), tile.regs,
                              ctx.idx(r));
    return success();
  }
  FailureOr<SharedRef> ref = ctx.resolveShared(target, op);
  if (failed(ref))
    return failure();
  // Each thread stores every `threads`-th element.
  int64_t threads = ctx.numThreads(op);
  ArrayRef<int64_t> shape = ref->shape;
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  Value tid = ctx.threadId(op);
  Value step = ctx.idx(threads), end = ctx.idx(numel);
  auto loop = scf::ForOp::create(ctx.b, ctx.loc(), tid, end, step);
  OpBuilder::InsertionGuard guard(ctx.b);
  ctx.b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  SmallVector<Value> coords(shape.size());
  for (int d = shape.size() - 1; d >= 0; --d) {
    coords[d] = arith::RemUIOp::create(ctx.b, ctx.loc(), e, ctx.idx(shape[d]));
    e = arith::DivUIOp::create(ctx.b, ctx.loc(), e, ctx.idx(shape[d]));
  }
  memref::StoreOp::create(ctx.b, ctx.loc(), op.getValue(), ref->tile->view,
                          ctx.sharedIndex(*ref, coords));
  return success();
}
