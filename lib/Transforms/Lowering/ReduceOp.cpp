//===- ReduceOp.cpp - Lowering of tile.reduce -------------------*- C++ -*-===//
//
// Combines in-thread first, then across lanes with the target's shuffles,
// then across warps through shared memory (with barriers over the threads
// executing the reduce: the block, or the enclosing tile.ws region).
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

static Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                     Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::AbsSum:
    return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                   : arith::AddIOp::create(b, loc, x, y).getResult();
  case ReduceKind::Max:
  case ReduceKind::AbsMax:
    return isFloat ? arith::MaxNumFOp::create(b, loc, x, y).getResult()
                   : arith::MaxSIOp::create(b, loc, x, y).getResult();
  case ReduceKind::Min:
    return isFloat ? arith::MinNumFOp::create(b, loc, x, y).getResult()
                   : arith::MinSIOp::create(b, loc, x, y).getResult();
  }
  llvm_unreachable("unknown reduction");
}

/// The value that `combine` leaves the other operand unchanged with.
static Value identity(OpBuilder &b, Location loc, ReduceKind kind, Type type) {
  if (auto f = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    APFloat value = APFloat::getZero(sem);
    if (kind == ReduceKind::Max)
      value = APFloat::getInf(sem, /*Negative=*/true);
    else if (kind == ReduceKind::Min)
      value = APFloat::getInf(sem);
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  APInt value = APInt::getZero(bits);
  if (kind == ReduceKind::Max)
    value = APInt::getSignedMinValue(bits);
  else if (kind == ReduceKind::Min)
    value = APInt::getSignedMaxValue(bits);
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

LogicalResult mlir::tile::lowering::lowerReduce(LoweringContext &ctx,
                                                ReduceOp op) {
  OpBuilder &b = ctx.b;
  auto loc = [&] { return ctx.loc(); };
  RegisterOperand *src = ctx.getRegTile(op.getSource(), op);
  RegisterOperand *dst = ctx.getRegTile(op.getTarget(), op);
  if (!src || !dst)
    return failure();
  unsigned dim = op.getDim();
  LinearLayout projected = src->layout.projectOut(dim);
  // The target may keep the reduced dimension with size 1.
  if (dst->layout.getBases(LinearLayout::kRegister) !=
          projected.getBases(LinearLayout::kRegister) ||
      dst->layout.getBases(LinearLayout::kLane) !=
          projected.getBases(LinearLayout::kLane) ||
      dst->layout.getBases(LinearLayout::kWarp) !=
          projected.getBases(LinearLayout::kWarp))
    return op.emitOpError("the target's layout is not the source layout "
                          "without the reduced dimension");
  Type elt = src->type.getElementType();
  ReduceKind kind = op.getKind();
  bool abs = kind == ReduceKind::AbsSum || kind == ReduceKind::AbsMax;
  auto loadSrc = [&](int64_t r) -> Value {
    Value v = memref::LoadOp::create(b, loc(), src->regs, ctx.idx(r));
    if (abs)
      v = isa<FloatType>(elt) ? math::AbsFOp::create(b, loc(), v).getResult()
                              : math::AbsIOp::create(b, loc(), v).getResult();
    return v;
  };
  // 1. In-thread: source registers grouped by target register.
  ArrayRef<uint64_t> dstRegs = dst->layout.getBases(LinearLayout::kRegister);
  int64_t numDst = dst->layout.getRegistersPerThread();
  SmallVector<Value> partial(numDst);
  unsigned low = 0;
  for (unsigned d = dim + 1; d < src->layout.getOutRank(); ++d)
    low += llvm::Log2_64(src->layout.getOutShape()[d]);
  unsigned width = llvm::Log2_64(src->layout.getOutShape()[dim]);
  auto drop = [&](uint64_t flat) {
    return (flat & ((uint64_t(1) << low) - 1)) |
           ((flat >> (low + width)) << low);
  };
  // A tile padded to powers of two: registers holding only padded elements
  // (an m64n144 accumulator's past column 144) are left out, and elements
  // of the reduced dimension past its extent count as the identity (some
  // threads may hold them where others hold the tile's).
  ArrayRef<int64_t> shape = src->type.getShape();
  bool paddedDim = getPaddedShape(shape)[dim] != shape[dim];
  SmallVector<uint64_t> masks;
  SmallVector<Value> tcoords;
  if (paddedDim)
    tcoords = ctx.threadCoords(src->layout, ctx.threadId(op), masks);
  for (int64_t r = 0; r < src->layout.getRegistersPerThread(); ++r) {
    if (src->layout.isRegisterOutside(r, shape))
      continue;
    uint64_t flat = src->layout.applyFlat({{LinearLayout::kRegister, r}});
    std::optional<uint64_t> target = solveGF2(dstRegs, drop(flat));
    if (!target)
      return op.emitOpError("inconsistent reduction layouts");
    Value v = loadSrc(r);
    if (paddedDim && !src->layout.isRegisterInside(r, dim, shape[dim])) {
      Value at = ctx.elementCoords(src->layout, r, tcoords, masks)[dim];
      v = arith::SelectOp::create(b, loc(), ctx.ult(at, ctx.idx(shape[dim])), v,
                                  identity(b, loc(), kind, elt));
    }
    Value &slot = partial[*target];
    slot = slot ? combine(b, loc(), kind, slot, v) : v;
  }
  for (Value &slot : partial)
    if (!slot)
      slot = identity(b, loc(), kind, elt);
  // 2. Across lanes: butterfly over the lane bits that move along `dim`.
  ArrayRef<uint64_t> laneBases = src->layout.getBases(LinearLayout::kLane);
  int64_t laneCount = int64_t(1) << laneBases.size();
  for (auto [bit, basis] : llvm::enumerate(laneBases)) {
    if (basis == 0 || drop(basis) != 0)
      continue;
    for (Value &v : partial) {
      Value other =
          ctx.target.emitShuffleXor(b, loc(), v, int64_t(1) << bit, laneCount);
      v = combine(b, loc(), kind, v, other);
    }
  }
  // 3. Across warps through shared memory.
  SmallVector<int64_t> warpBits;
  for (auto [bit, basis] :
       llvm::enumerate(src->layout.getBases(LinearLayout::kWarp)))
    if (basis != 0 && drop(basis) == 0)
      warpBits.push_back(bit);
  if (!warpBits.empty()) {
    Value scratchTile = ctx.scratch.lookup(op);
    if (!scratchTile)
      return op.emitOpError("reduces across warps through shared memory but "
                            "has no scratch tile: run tile-allocate-scratch "
                            "before tile-lower-ops");
    SharedTile &sc = ctx.shared[scratchTile];
    Value tid = ctx.threadId(op);
    Value laneBits = ctx.idx(llvm::Log2_64(laneCount));
    Value warp = arith::ShRUIOp::create(b, loc(), tid, laneBits);
    Value lane = ctx.andConst(tid, laneCount - 1);
    ctx.barrier(op);
    for (int64_t r = 0; r < numDst; ++r)
      memref::StoreOp::create(b, loc(), partial[r], sc.view,
                              ctx.addConst(ctx.mul(tid, ctx.idx(numDst)), r));
    ctx.barrier(op);
    for (int64_t r = 0; r < numDst; ++r) {
      Value acc = partial[r];
      for (int64_t combo = 1; combo < (int64_t(1) << warpBits.size());
           ++combo) {
        int64_t delta = 0;
        for (auto [i, bit] : llvm::enumerate(warpBits))
          if ((combo >> i) & 1)
            delta |= int64_t(1) << bit;
        Value otherWarp = arith::XOrIOp::create(b, loc(), warp, ctx.idx(delta));
        Value otherTid = ctx.add(ctx.mul(otherWarp, ctx.idx(laneCount)), lane);
        Value v = memref::LoadOp::create(
            b, loc(), sc.view,
            ctx.addConst(ctx.mul(otherTid, ctx.idx(numDst)), r));
        acc = combine(b, loc(), kind, acc, v);
      }
      partial[r] = acc;
    }
    ctx.barrier(op);
  }
  // 4. Combine with the target unless it is cleared.
  for (int64_t r = 0; r < numDst; ++r) {
    Value v = partial[r];
    if (!op.getClear()) {
      Value old = memref::LoadOp::create(b, loc(), dst->regs, ctx.idx(r));
      v = combine(b, loc(), kind, old, v);
    }
    memref::StoreOp::create(b, loc(), v, dst->regs, ctx.idx(r));
  }
  return success();
}
