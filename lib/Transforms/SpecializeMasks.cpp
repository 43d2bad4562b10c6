//===- SpecializeMasks.cpp - Masks applied where tiles need them -*- C++ -*-//
//
// `tile-specialize-masks`: an element-wise mask written on every iteration of
// a loop, `select(cmp(a, b), x, y)` in a `tile.parallel` (FlashAttention's
// causal mask: key <= query), is often true for every element of the tile in
// most iterations: every key block below the diagonal. Where the comparison
// is linear in the loop's induction variable and the parallel loop's indices,
// the iterations whose tiles it holds for entirely form a prefix of the loop
// (the induction variable's coefficient is positive in `a - b <= 0`, so the
// largest element decides). The pass computes the end of that prefix before
// the loop and branches on it in the loop:
//
//   %split = ...                                   // before the loop
//   scf.for %kb = %lb to %ub {
//     scf.if %kb < %split { <the tile.parallel without the select> }
//     else { <the tile.parallel as written> }
//   }
//
// A mask stores back what it loads once its select is gone: that branch is
// then empty, which is the test a hand-written causal kernel has.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileOps.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_SPECIALIZEMASKS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// An index expression as c * iv + sum of coefficient * parallel index +
/// sum of sign * invariant + constant, over the loop's induction variable,
/// the indices of a tile.parallel and values defined outside the loop.
struct Linear {
  int64_t iv = 0;
  SmallVector<int64_t> parallel;
  SmallVector<std::pair<Value, int64_t>> invariants;
  int64_t constant = 0;

  void scale(int64_t factor) {
    iv *= factor;
    for (int64_t &c : parallel)
      c *= factor;
    for (auto &term : invariants)
      term.second *= factor;
    constant *= factor;
  }
  void add(const Linear &other) {
    iv += other.iv;
    for (auto [c, o] : llvm::zip_equal(parallel, other.parallel))
      c += o;
    llvm::append_range(invariants, other.invariants);
    constant += other.constant;
  }
};

class LinearAnalysis {
public:
  LinearAnalysis(scf::ForOp loop, ParallelOp parallel)
      : loop(loop), parallel(parallel) {}

  /// `value` as a Linear, or none.
  std::optional<Linear> decompose(Value value, unsigned depth = 0) {
    if (depth > 16)
      return std::nullopt;
    Linear result;
    result.parallel.assign(parallel.getExtents().size(), 0);
    if (std::optional<int64_t> c = getConstantIntValue(value)) {
      result.constant = *c;
      return result;
    }
    if (value == loop.getInductionVar()) {
      result.iv = 1;
      return result;
    }
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == &parallel.getBody().front()) {
      result.parallel[arg.getArgNumber()] = 1;
      return result;
    }
    if (loop.isDefinedOutsideOfLoop(value)) {
      result.invariants.push_back({value, 1});
      return result;
    }
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (isa<arith::AddIOp, arith::SubIOp>(def)) {
      std::optional<Linear> lhs = decompose(def->getOperand(0), depth + 1);
      std::optional<Linear> rhs = decompose(def->getOperand(1), depth + 1);
      if (!lhs || !rhs)
        return std::nullopt;
      if (isa<arith::SubIOp>(def))
        rhs->scale(-1);
      lhs->add(*rhs);
      return lhs;
    }
    if (auto mul = dyn_cast<arith::MulIOp>(def)) {
      for (unsigned i = 0; i < 2; ++i)
        if (std::optional<int64_t> c =
                getConstantIntValue(mul->getOperand(i))) {
          std::optional<Linear> other =
              decompose(mul->getOperand(1 - i), depth + 1);
          if (!other)
            return std::nullopt;
          other->scale(*c);
          return other;
        }
    }
    return std::nullopt;
  }

  /// Whether `value` is known not to be negative: an unsigned comparison of
  /// such values orders them as a signed one does.
  bool isNonNegative(Value value, unsigned depth = 0) {
    if (depth > 16)
      return false;
    if (std::optional<int64_t> c = getConstantIntValue(value))
      return *c >= 0;
    // The index of this loop, or of one around it (a persistent kernel's
    // tile loop).
    if (auto outer = scf::getForInductionVarOwner(value))
      return isNonNegative(outer.getLowerBound(), depth + 1) &&
             isNonNegative(outer.getStep(), depth + 1);
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg.getOwner() == &parallel.getBody().front() ||
             isa<KernelOp>(arg.getOwner()->getParentOp());
    Operation *def = value.getDefiningOp();
    if (isa_and_present<arith::AddIOp, arith::MulIOp, arith::DivUIOp,
                        arith::CeilDivUIOp, arith::MinUIOp, arith::MaxUIOp,
                        arith::RemUIOp>(def))
      return llvm::all_of(def->getOperands(), [&](Value operand) {
        return isNonNegative(operand, depth + 1);
      });
    // A difference that does not wrap below zero (a position counted from
    // the end of a grid dimension, tile-persistent-blocks' tile orders).
    if (auto sub = dyn_cast_or_null<arith::SubIOp>(def))
      return bitEnumContainsAll(sub.getOverflowFlags(),
                                arith::IntegerOverflowFlags::nuw) &&
             isNonNegative(sub.getLhs(), depth + 1);
    if (auto select = dyn_cast_or_null<arith::SelectOp>(def))
      return isNonNegative(select.getTrueValue(), depth + 1) &&
             isNonNegative(select.getFalseValue(), depth + 1);
    return isa_and_present<memref::DimOp>(def);
  }

private:
  scf::ForOp loop;
  ParallelOp parallel;
};

/// A mask the pass can take off a prefix of `loop`: `select` (in `parallel`)
/// is all true where coefficient * iv + bound <= 0, `bound` being the
/// loop-invariant part with the parallel indices at their worst.
struct Mask {
  arith::SelectOp select;
  Linear bound;
};

/// The select of `op`'s body whose condition is true for every element of
/// the tile on a prefix of `loop`'s iterations, or none with `why` set.
std::optional<Mask> findMask(scf::ForOp loop, ParallelOp op, std::string &why) {
  LinearAnalysis analysis(loop, op);
  for (Operation &inner : op.getBody().front()) {
    auto select = dyn_cast<arith::SelectOp>(inner);
    if (!select)
      continue;
    auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
    if (!cmp || !cmp.getLhs().getType().isIndex()) {
      why = "its condition is not a comparison of indices";
      continue;
    }
    std::optional<Linear> lhs = analysis.decompose(cmp.getLhs());
    std::optional<Linear> rhs = analysis.decompose(cmp.getRhs());
    if (!lhs || !rhs) {
      why = "its comparison is not linear in the loop's and the tile's "
            "indices";
      continue;
    }
    using P = arith::CmpIPredicate;
    P pred = cmp.getPredicate();
    if (llvm::is_contained({P::ult, P::ule, P::ugt, P::uge}, pred) &&
        (!analysis.isNonNegative(cmp.getLhs()) ||
         !analysis.isNonNegative(cmp.getRhs()))) {
      why = "its unsigned comparison has operands that may be negative";
      continue;
    }
    // E <= 0 with E = lhs - rhs (+ 1 for strict), or rhs - lhs for >.
    Linear e = *lhs;
    rhs->scale(-1);
    e.add(*rhs);
    if (llvm::is_contained({P::ugt, P::uge, P::sgt, P::sge}, pred))
      e.scale(-1);
    if (llvm::is_contained({P::ult, P::ugt, P::slt, P::sgt}, pred))
      e.constant += 1;
    else if (!llvm::is_contained({P::ule, P::uge, P::sle, P::sge}, pred)) {
      why = "its comparison is an equality";
      continue;
    }
    if (std::optional<int64_t> step = getConstantIntValue(loop.getStep());
        step && *step <= 0) {
      why = "the loop's step is not positive";
      continue;
    }
    if (e.iv <= 0) {
      why = "it does not hold on a prefix of the loop (the loop index's "
            "coefficient is not positive)";
      continue;
    }
    // The tile's worst element: each parallel index at the end of its
    // range where its coefficient is positive.
    for (auto [c, extent] : llvm::zip_equal(e.parallel, op.getExtents()))
      if (c > 0)
        e.constant += c * (extent - 1);
    return Mask{select, e};
  }
  return std::nullopt; // `why` is empty where the body selects nothing
}

/// The first induction value of `loop` at which `mask` is no longer all
/// true, clamped to the loop's range, computed before the loop.
Value splitPoint(OpBuilder &b, Location loc, scf::ForOp loop,
                 const Mask &mask) {
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  // B = invariants + constant; all true while c * iv + B <= 0.
  Value bound = index(mask.bound.constant);
  for (auto [value, sign] : mask.bound.invariants) {
    Value factor = index(sign);
    Value term = arith::MulIOp::create(b, loc, value, factor);
    bound = arith::AddIOp::create(b, loc, bound, term);
  }
  Value c = index(mask.bound.iv);
  Value lb = loop.getLowerBound(), step = loop.getStep();
  // Iterations t >= 0 with c (lb + t step) + B <= 0: t <= (-B - c lb) /
  // (c step), so n = floor(that) + 1 of them where it is not negative.
  Value start = arith::MulIOp::create(b, loc, c, lb);
  Value atStart = arith::AddIOp::create(b, loc, bound, start);
  Value zero = index(0);
  Value room = arith::SubIOp::create(b, loc, zero, atStart);
  Value stride = arith::MulIOp::create(b, loc, c, step);
  Value whole = arith::FloorDivSIOp::create(b, loc, room, stride);
  Value one = index(1);
  Value count = arith::AddIOp::create(b, loc, whole, one);
  count = arith::MaxSIOp::create(b, loc, count, zero);
  Value advance = arith::MulIOp::create(b, loc, count, step);
  Value split = arith::AddIOp::create(b, loc, lb, advance);
  Value low = arith::MaxSIOp::create(b, loc, split, lb);
  Value high = arith::MaxSIOp::create(b, loc, loop.getUpperBound(), lb);
  return arith::MinSIOp::create(b, loc, low, high);
}

/// Whether `op` only stores back, at the same indices, what it loads: a
/// mask whose select is gone.
bool storesWhatItLoads(ParallelOp op) {
  for (Operation &inner : op.getBody().front().without_terminator()) {
    if (isa<memref::LoadOp>(inner) || isPure(&inner))
      continue;
    auto store = dyn_cast<memref::StoreOp>(inner);
    auto load = store ? store.getValueToStore().getDefiningOp<memref::LoadOp>()
                      : nullptr;
    if (!load || load.getMemRef() != store.getMemRef() ||
        load.getIndices() != store.getIndices())
      return false;
  }
  return true;
}

struct SpecializeMasksPass
    : public tile::impl::SpecializeMasksBase<SpecializeMasksPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, ParallelOp>> candidates;
    getOperation().walk([&](scf::ForOp loop) {
      if (!loop->getParentOfType<KernelOp>())
        return;
      for (Operation &op : *loop.getBody())
        if (auto parallel = dyn_cast<ParallelOp>(op))
          candidates.push_back({loop, parallel});
    });
    for (auto [loop, parallel] : candidates) {
      std::string why;
      std::optional<Mask> mask = findMask(loop, parallel, why);
      if (!mask) {
        if (emitRemarks && !why.empty())
          parallel.emitRemark() << "mask kept on every iteration: " << why;
        continue;
      }
      OpBuilder b(loop);
      Location loc = parallel.getLoc();
      Value split = splitPoint(b, loc, loop, *mask);
      // In the loop: below the split, the tile without the mask.
      b.setInsertionPoint(parallel);
      Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          loop.getInductionVar(), split);
      auto branch = scf::IfOp::create(b, loc, below, /*withElseRegion=*/true);
      parallel->moveBefore(branch.elseBlock()->getTerminator());
      b.setInsertionPoint(branch.thenBlock()->getTerminator());
      IRMapping mapping;
      auto unmasked = cast<ParallelOp>(b.clone(*parallel, mapping));
      auto select =
          cast<arith::SelectOp>(mapping.lookup(mask->select.getOperation()));
      Operation *cmp = select.getCondition().getDefiningOp();
      select.replaceAllUsesWith(select.getTrueValue());
      select.erase();
      if (cmp && cmp->use_empty())
        cmp->erase();
      bool nothing = storesWhatItLoads(unmasked);
      if (nothing)
        unmasked.erase();
      if (emitRemarks)
        parallel.emitRemark()
            << "mask applied only from the first iteration where a tile may "
               "fail it (computed before the loop)"
            << (nothing ? "; the iterations before it skip the tile.parallel"
                        : "");
    }
  }
};

} // namespace
