//===- SpecializeBounds.cpp - Loop versions for interior tiles --*- C++ -*-===//
//
// A copy between global memory and a tile must mask the elements outside the
// tensor, but almost every tile of a large problem lies inside it. For a loop
// whose copies walk the tensor with the induction variable, one uniform test
// before the loop can prove that every copy of every iteration is in bounds
// and aligned; this pass then runs a version of the loop whose copies are
// marked `in_bounds` (the lowering emits no masks and no per-iteration tests)
// and keeps the original loop for the other case:
//
//   scf.if %interior {
//     scf.for ... { tile.copy in_bounds %A[%m0, %k0], %As ... }
//   } else {
//     scf.for ... { tile.copy %A[%m0, %k0], %As ... }
//   }
//
// The offsets must be non-decreasing in the induction variable: built from
// it and loop-invariant values by arith.addi and arith.muli by non-negative
// constants. They are then smallest in the first iteration (the test checks
// that they are not negative) and largest in the last (the test checks that
// the regions end within the tensor), and form an arithmetic progression,
// whose first two terms decide the alignment.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tile {
#define GEN_PASS_DEF_SPECIALIZEBOUNDS
#include "tile/Transforms/Passes.h.inc"

namespace {

/// Builds index arithmetic, folding constants and identities as it goes (the
/// test mostly combines constants: bounds, tile sizes, vector widths).
class IndexBuilder {
public:
  IndexBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value constant(int64_t v) {
    auto op = arith::ConstantIndexOp::create(b, loc, v);
    constants.push_back(op);
    return op;
  }
  Value boolean(bool v) {
    auto op = arith::ConstantIntOp::create(b, loc, v, 1);
    constants.push_back(op);
    return op;
  }
  Value add(Value x, Value y) {
    std::optional<int64_t> cx = getConstantIntValue(x),
                           cy = getConstantIntValue(y);
    // Index arithmetic wraps (two's complement), as arith.addi does.
    if (cx && cy)
      return constant(static_cast<int64_t>(static_cast<uint64_t>(*cx) +
                                           static_cast<uint64_t>(*cy)));
    if (cx == 0)
      return y;
    if (cy == 0)
      return x;
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value mul(Value x, Value y) {
    std::optional<int64_t> cx = getConstantIntValue(x),
                           cy = getConstantIntValue(y);
    if (cx && cy)
      return constant(static_cast<int64_t>(static_cast<uint64_t>(*cx) *
                                           static_cast<uint64_t>(*cy)));
    if (cx == 1)
      return y;
    if (cy == 1)
      return x;
    if (cx == 0 || cy == 0)
      return constant(0);
    return arith::MulIOp::create(b, loc, x, y);
  }
  /// Whether `v` is a multiple of `n`, folded for constants.
  Value isMultiple(Value v, int64_t n) {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return boolean(*c % n == 0);
    Value &known = multiples[{v, n}];
    if (!known) {
      Value zero = constant(0);
      Value rem = arith::RemUIOp::create(b, loc, v, constant(n));
      known =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem, zero);
    }
    return known;
  }
  /// Whether `v`, as a signed index, is not negative (folded for constants).
  Value isNonNegative(Value v) {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return boolean(*c >= 0);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v,
                                 constant(0));
  }
  /// Erases the constants that folding left unused.
  void eraseUnusedConstants() {
    for (Operation *op : llvm::reverse(constants))
      if (op->use_empty())
        op->erase();
  }

private:
  OpBuilder &b;
  Location loc;
  SmallVector<Operation *> constants;
  DenseMap<std::pair<Value, int64_t>, Value> multiples;
};

/// Offsets of copies in a loop body as functions of the induction variable.
class OffsetAnalysis {
public:
  explicit OffsetAnalysis(scf::ForOp loop) : loop(loop) {}

  /// Whether `v` is a non-decreasing function of the induction variable
  /// that can be evaluated before the loop: the induction variable, a
  /// loop-invariant value, or their sums and products by non-negative
  /// constants.
  bool isNonDecreasing(Value v) {
    if (v == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(v) ||
        matchPattern(v, m_Constant()))
      return true;
    if (auto add = v.getDefiningOp<arith::AddIOp>())
      return isNonDecreasing(add.getLhs()) && isNonDecreasing(add.getRhs());
    if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
      APInt c;
      if (matchPattern(mul.getRhs(), m_ConstantInt(&c)) && !c.isNegative())
        return isNonDecreasing(mul.getLhs());
      if (matchPattern(mul.getLhs(), m_ConstantInt(&c)) && !c.isNegative())
        return isNonDecreasing(mul.getRhs());
    }
    return false;
  }

  /// The value of `v` (accepted by isNonDecreasing) when the induction
  /// variable is `iv`, computed with `ib` before the loop.
  Value evaluateAt(IndexBuilder &ib, Value v, Value iv) {
    if (v == loop.getInductionVar())
      return iv;
    if (loop.isDefinedOutsideOfLoop(v))
      return v;
    if (Value known = evaluated.lookup({v, iv}))
      return known;
    // (The operands are evaluated before the map takes the result: they
    // insert into it. Right operand first, one op a statement: the op order
    // must not depend on the order the C++ compiler evaluates arguments in.)
    Value result;
    if (std::optional<int64_t> c = getConstantIntValue(v)) {
      result = ib.constant(*c);
    } else if (auto add = v.getDefiningOp<arith::AddIOp>()) {
      Value rhs = evaluateAt(ib, add.getRhs(), iv);
      Value lhs = evaluateAt(ib, add.getLhs(), iv);
      result = ib.add(lhs, rhs);
    } else if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
      Value rhs = evaluateAt(ib, mul.getRhs(), iv);
      Value lhs = evaluateAt(ib, mul.getLhs(), iv);
      result = ib.mul(lhs, rhs);
    }
    evaluated[{v, iv}] = result;
    return result;
  }

private:
  scf::ForOp loop;
  /// Values already computed, per (value, induction variable value).
  DenseMap<std::pair<Value, Value>, Value> evaluated;
};

/// The global operand of a copy between global and on-chip memory, with its
/// offsets; null when the copy has none.
static std::pair<Value, ValueRange> getGlobalRegion(CopyOp copy) {
  bool globalSource = getMemoryKind(copy.getSourceType()) == MemoryKind::Global;
  bool globalTarget = getMemoryKind(copy.getTargetType()) == MemoryKind::Global;
  if (globalSource == globalTarget)
    return {};
  if (globalSource)
    return {copy.getSource(), copy.getSourceOffsets()};
  return {copy.getTarget(), copy.getTargetOffsets()};
}

/// Whether `loop` hands off stages itself (`tile.pipe` ops written by hand).
static bool hasHandOffs(scf::ForOp loop) {
  WalkResult result = loop.getBody()->walk([](Operation *op) {
    if (isa<PipeProduceAcquireOp, PipeProduceCommitOp, PipeConsumeWaitOp,
            PipeConsumeReleaseOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

struct SpecializeBoundsPass
    : public impl::SpecializeBoundsBase<SpecializeBoundsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->getParentOfType<KernelOp>())
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      specialize(loop);
  }

  /// The copies of `loop`'s body that its interior version can mark. Tensor
  /// copies (`tma`) have none: the copy engine handles the edges. A loop
  /// with stage hand-offs of its own (`tile.pipe` ops written by hand) is
  /// left alone: both versions would hand off on the same pipe, and a pipe
  /// whose copies become tensor copies counts them per hand-off.
  SmallVector<CopyOp> getCandidates(scf::ForOp loop) {
    if (hasHandOffs(loop))
      return {};
    OffsetAnalysis offsets(loop);
    SmallVector<CopyOp> copies;
    for (auto copy : loop.getBody()->getOps<CopyOp>()) {
      auto [global, region] = getGlobalRegion(copy);
      if (!global || region.empty() || copy.getInBounds() || copy.getTma() ||
          !loop.isDefinedOutsideOfLoop(global) ||
          !cast<MemRefType>(global.getType()).getLayout().isIdentity())
        continue;
      if (llvm::all_of(region,
                       [&](Value v) { return offsets.isNonDecreasing(v); }))
        copies.push_back(copy);
    }
    return copies;
  }

  void specialize(scf::ForOp loop) {
    SmallVector<CopyOp> copies = getCandidates(loop);
    if (copies.empty())
      return;
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    IndexBuilder ib(b, loc);
    std::unique_ptr<TargetInfo> target = getTargetInfo(loop);
    auto cmp = [&](arith::CmpIPredicate pred, Value x, Value y) -> Value {
      return arith::CmpIOp::create(b, loc, pred, x, y);
    };
    Value interior;
    llvm::DenseSet<Value> conjoined;
    auto conjoin = [&](Value c) {
      if (!conjoined.insert(c).second)
        return;
      if (std::optional<int64_t> known = getConstantIntValue(c);
          known && *known)
        return;
      interior = interior ? arith::AndIOp::create(b, loc, interior, c) : c;
    };
    // The first, second and last values of the induction variable (the
    // last computed as if the loop ran at least once).
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
          step = loop.getStep();
    Value runs = cmp(loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                           : arith::CmpIPredicate::slt,
                     lb, ub);
    Value afterFirst = ib.add(lb, ib.constant(1));
    Value span = arith::SubIOp::create(
        b, loc, arith::SelectOp::create(b, loc, runs, ub, afterFirst),
        afterFirst);
    Value trips = getConstantIntValue(step) == 1
                      ? span
                      : arith::DivUIOp::create(b, loc, span, step);
    Value last = ib.add(lb, ib.mul(trips, step));
    Value second = ib.add(lb, step);

    OffsetAnalysis analysis(loop);
    DenseMap<std::pair<Value, unsigned>, Value> dims;
    DenseMap<Value, Value> bases;
    for (CopyOp copy : copies) {
      auto [global, region] = getGlobalRegion(copy);
      ArrayRef<int64_t> extent = copy.getExtent();
      unsigned rank = region.size(), lead = rank - extent.size();
      for (unsigned d = 0; d < rank; ++d) {
        Value &dim = dims[{global, d}];
        if (!dim)
          dim = memref::DimOp::create(b, loc, global, d);
        // In bounds in every iteration: the offsets of the first are not
        // negative, and the regions of the last, where the offsets are
        // largest, end within the tensor.
        conjoin(ib.isNonNegative(analysis.evaluateAt(ib, region[d], lb)));
        Value size = ib.constant(d < lead ? 1 : extent[d - lead]);
        Value end = ib.add(analysis.evaluateAt(ib, region[d], last), size);
        conjoin(cmp(arith::CmpIPredicate::ule, end, dim));
        // Aligned rows, and aligned last offsets in every iteration.
        int64_t vec = getCopyVectorWidth(copy, *target);
        if (d + 1 < rank || vec == 1)
          continue;
        conjoin(ib.isMultiple(dim, vec));
        // The data pointer (a view may start at any element): vectors of
        // the global element type must be aligned to their size.
        Value &base = bases[global];
        if (!base) {
          base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, global);
          int64_t bytes =
              vec *
              cast<MemRefType>(global.getType()).getElementTypeBitWidth() / 8;
          conjoin(ib.isMultiple(base, std::max<int64_t>(bytes, 1)));
        }
        conjoin(ib.isMultiple(analysis.evaluateAt(ib, region[d], lb), vec));
        conjoin(ib.isMultiple(analysis.evaluateAt(ib, region[d], second), vec));
      }
    }
    // A loop that does not run may take either version.
    Value notRuns = arith::XOrIOp::create(b, loc, runs, ib.boolean(true));
    interior = interior
                   ? arith::OrIOp::create(b, loc, interior, notRuns).getResult()
                   : ib.boolean(true);
    ib.eraseUnusedConstants();

    auto branch = scf::IfOp::create(b, loc, loop.getResultTypes(), interior,
                                    /*withElseRegion=*/true);
    loop->replaceAllUsesWith(branch.getResults());
    // Then: the interior version, whose copies need no masks.
    b.setInsertionPointToStart(branch.thenBlock());
    IRMapping map;
    auto fast = cast<scf::ForOp>(b.clone(*loop, map));
    for (CopyOp copy : copies)
      cast<CopyOp>(map.lookup(copy.getOperation())).setInBounds(true);
    if (!loop.getResultTypes().empty())
      scf::YieldOp::create(b, loc, fast.getResults());
    // Else: the original loop.
    Block *elseBlock = branch.elseBlock();
    if (loop.getResultTypes().empty()) {
      loop->moveBefore(elseBlock->getTerminator());
    } else {
      loop->moveBefore(elseBlock, elseBlock->end());
      b.setInsertionPointToEnd(elseBlock);
      scf::YieldOp::create(b, loc, loop.getResults());
    }
  }
};
} // namespace
} // namespace mlir::tile
