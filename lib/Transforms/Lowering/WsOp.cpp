//===- WsOp.cpp - Lowering of tile.ws ---------------------------*- C++ -*-===//
//
// A warp-specialized region becomes a branch on the thread's warpgroup; its
// body is already lowered (innermost ops first). A register budget becomes
// the target's register-budget instruction at the start of the branch; the
// turns of a `pingpong` region start after it and end with the branch.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult mlir::tile::lowering::lowerWs(LoweringContext &ctx, WsOp op) {
  OpBuilder &b = ctx.b;
  auto loc = [&] { return ctx.loc(); };
  ArrayRef<int64_t> groups = op.getWarpgroups();
  for (auto [i, g] : llvm::enumerate(groups))
    if (g != groups.front() + static_cast<int64_t>(i))
      return op.emitOpError("the lowering supports only consecutive "
                            "warpgroups");
  int64_t groupSize = ctx.target.getWarpgroupSize();
  Value lo = ctx.idx(groupSize * groups.front());
  // The warpgroup test, uniform in each warp where the kernel has a
  // uniform warp index.
  Value inGroup;
  if (Value group = ctx.uniformWarpgroupId(op)) {
    Value count = ctx.idx(groups.size());
    inGroup = ctx.ult(
        arith::SubIOp::create(b, loc(), group, ctx.idx(groups.front())), count);
  } else {
    Value hi = ctx.idx(groupSize * (groups.back() + 1));
    Value below = ctx.ult(ctx.tidValue, hi);
    Value above = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::uge,
                                        ctx.tidValue, lo);
    inGroup = ctx.andBool(above, below);
  }
  auto branch = scf::IfOp::create(b, loc(), inGroup, false);
  Block *then = branch.thenBlock();
  // Move the body (already lowered) into the branch.
  Block &body = op.getBody().front();
  then->getOperations().splice(then->begin(), body.getOperations(),
                               body.begin(), std::prev(body.end()));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(then);
  if (std::optional<int64_t> regs = op.getRegisters()) {
    const RegisterBudgetInfo *budgets = ctx.target.registerBudgets();
    if (!budgets)
      return op.emitOpError("register budgets are not supported on ")
             << ctx.target.getChipName();
    budgets->emitRegisterBudget(b, loc(), *regs,
                                ctx.target.getEntryRegisters(ctx.kernel));
  }
  if (op.getPingpong()) {
    Value tid = arith::SubIOp::create(b, loc(), ctx.tidValue, lo);
    beginTurns(ctx, op, tid);
    b.setInsertionPoint(then->getTerminator());
    endTurns(ctx, op, tid);
  }
  return success();
}
