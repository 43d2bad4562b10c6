//===- TileOrder.cpp - Orders of a persistent kernel's tiles ----*- C++ -*-===//
//
// A persistent kernel's blocks take its tiles in rounds, statically. Where
// the tiles' work differs (causal attention: the key loop of query block x
// runs x + 1 times), the launch order can give some blocks twice the work
// of others (8 query blocks over 132 blocks: block b alternates between
// the blocks b mod 8 and (b + 4) mod 8). Taking the longest tiles first,
// and the rounds' tiles in alternating directions, evens the blocks' sums
// out, as a greedy longest-first schedule would; sections of about eight
// rounds keep the operand panels a section reads fewer.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/TileOrder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Rounds of the persistent grid a section of the longest-first order
/// holds: short sections keep the operand panels a section reads few,
/// but where a section ends within a round the rounds' alternating
/// directions no longer pair long tiles with short ones (fewer than about
/// eight rounds a section leaves some blocks 10-20 % more work).
constexpr int64_t kSectionRounds = 8;

/// How a value changes as one block index grows, the others fixed.
enum class Trend { Constant, Up, Down, Unknown };

Trend negate(Trend t) {
  return t == Trend::Up ? Trend::Down : t == Trend::Down ? Trend::Up : t;
}

/// The trend of a sum (or a min, a max) of values with trends `a` and `b`.
Trend combine(Trend a, Trend b) {
  if (a == Trend::Constant)
    return b;
  if (b == Trend::Constant || a == b)
    return a;
  return Trend::Unknown;
}

bool isNonNegativeConstant(Value v) {
  std::optional<int64_t> c = getConstantIntValue(v);
  return c && *c >= 0;
}

/// The trend of `v` (an index or integer, non-negative where it matters)
/// in the block index `dim` of `kernel`. Values from outside the kernel,
/// and the other block indices, are constant; what the kernel computes
/// through ops other than these arithmetic ones, from anything that is not,
/// is unknown.
Trend trendIn(Value v, KernelOp kernel, unsigned dim, int depth = 0) {
  if (v == kernel.getBlockIndex(dim))
    return Trend::Up;
  Operation *def = v.getDefiningOp();
  if (!def) {
    auto arg = cast<BlockArgument>(v);
    return arg.getOwner() == &kernel.getBody().front() ||
                   !kernel->isAncestor(arg.getOwner()->getParentOp())
               ? Trend::Constant
               : Trend::Unknown;
  }
  if (!kernel->isAncestor(def) || matchPattern(v, m_Constant()))
    return Trend::Constant;
  if (depth > 32)
    return Trend::Unknown;
  auto of = [&](Value operand) {
    return trendIn(operand, kernel, dim, depth + 1);
  };
  if (isa<arith::AddIOp, arith::MinUIOp, arith::MinSIOp, arith::MaxUIOp,
          arith::MaxSIOp>(def))
    return combine(of(def->getOperand(0)), of(def->getOperand(1)));
  if (isa<arith::SubIOp>(def))
    return combine(of(def->getOperand(0)), negate(of(def->getOperand(1))));
  if (isa<arith::MulIOp>(def)) {
    for (int i = 0; i < 2; ++i)
      if (isNonNegativeConstant(def->getOperand(i)))
        return of(def->getOperand(1 - i));
  } else if (isa<arith::DivUIOp, arith::CeilDivUIOp, arith::DivSIOp,
                 arith::CeilDivSIOp, arith::FloorDivSIOp>(def)) {
    std::optional<int64_t> divisor = getConstantIntValue(def->getOperand(1));
    if (divisor && *divisor > 0)
      return of(def->getOperand(0));
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
                 arith::ExtSIOp>(def)) {
    return of(def->getOperand(0));
  }
  for (Value operand : def->getOperands())
    if (of(operand) != Trend::Constant)
      return Trend::Unknown;
  return Trend::Constant;
}

/// The trend in block index `dim` of the work of the pipelined loops of
/// `kernel`: their trip counts, and whether they run at all.
Trend workTrend(KernelOp kernel, unsigned dim) {
  Trend trend = Trend::Constant;
  kernel.walk([&](scf::ForOp loop) {
    if (!loop->hasAttr(TileDialect::kNumStagesAttrName))
      return;
    if (trendIn(loop.getStep(), kernel, dim) != Trend::Constant)
      trend = Trend::Unknown;
    trend = combine(trend, trendIn(loop.getUpperBound(), kernel, dim));
    trend = combine(trend, negate(trendIn(loop.getLowerBound(), kernel, dim)));
    // Conditions and loops around it: their trend is not the loop's.
    for (Operation *op = loop->getParentOp(); op != kernel;
         op = op->getParentOp())
      for (Value operand : op->getOperands())
        if (trendIn(operand, kernel, dim) != Trend::Constant)
          trend = Trend::Unknown;
  });
  return trend;
}

} // namespace

TileOrder mlir::tile::findLongestFirstOrder(KernelOp kernel, std::string &why) {
  TileOrder order;
  for (unsigned dim = 0; dim < kernel.getGridRank(); ++dim) {
    Trend trend = workTrend(kernel, dim);
    if (trend == Trend::Constant)
      continue;
    if (trend == Trend::Unknown || !order.isLaunchOrder()) {
      why = "its loops' trip counts vary with the grid position in ways not "
            "followed";
      return TileOrder();
    }
    order.dim = static_cast<int>(dim);
    order.descending = trend == Trend::Up;
  }
  return order;
}

Value mlir::tile::emitAlternatingTile(OpBuilder &b, Location loc, Value round,
                                      Value grid, Value block) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value low = arith::AndIOp::create(b, loc, round, one);
  Value odd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, low, zero);
  // (grid - 1) - block: block < grid, no wrap.
  auto nuw = arith::IntegerOverflowFlags::nuw;
  Value mirrored = arith::SubIOp::create(
      b, loc, arith::SubIOp::create(b, loc, grid, one, nuw), block, nuw);
  Value lane = arith::SelectOp::create(b, loc, odd, mirrored, block);
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, round, grid), lane);
}

SmallVector<Value> mlir::tile::emitOrderedPosition(OpBuilder &b, Location loc,
                                                   Value tile,
                                                   ArrayRef<Value> extents,
                                                   Value grid,
                                                   TileOrder order) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value length = extents[order.dim];
  Value planes = c(1);
  for (auto [dim, extent] : llvm::enumerate(extents))
    if (static_cast<int>(dim) != order.dim)
      planes = arith::MulIOp::create(b, loc, planes, extent);
  // Sections of about kSectionRounds rounds: ceil(rounds * grid / length)
  // planes (at least one), the last one holding what is left.
  Value perSection = arith::MaxUIOp::create(
      b, loc, c(1),
      arith::CeilDivUIOp::create(
          b, loc, arith::MulIOp::create(b, loc, grid, c(kSectionRounds)),
          length));
  Value sectionTiles = arith::MulIOp::create(b, loc, perSection, length);
  Value section = arith::DivUIOp::create(b, loc, tile, sectionTiles);
  Value within = arith::RemUIOp::create(b, loc, tile, sectionTiles);
  Value first = arith::MulIOp::create(b, loc, section, perSection);
  Value count = arith::MinUIOp::create(
      b, loc, perSection,
      arith::SubIOp::create(b, loc, planes, first,
                            arith::IntegerOverflowFlags::nuw));
  Value step = arith::DivUIOp::create(b, loc, within, count);
  Value plane = arith::AddIOp::create(
      b, loc, first, arith::RemUIOp::create(b, loc, within, count));
  SmallVector<Value> position(extents.size());
  // (length - 1) - step: the tile exists, so step < length; no wrap, which
  // the flags say for analyses that need the position non-negative
  // (tile-specialize-masks).
  auto nuw = arith::IntegerOverflowFlags::nuw;
  position[order.dim] =
      order.descending
          ? arith::SubIOp::create(
                b, loc, arith::SubIOp::create(b, loc, length, c(1), nuw), step,
                nuw)
          : step;
  // The plane's own position, its first dimension fastest.
  for (auto [dim, extent] : llvm::enumerate(extents)) {
    if (static_cast<int>(dim) == order.dim)
      continue;
    position[dim] = arith::RemUIOp::create(b, loc, plane, extent);
    plane = arith::DivUIOp::create(b, loc, plane, extent);
  }
  return position;
}
