//===- TrimRoleLoops.cpp - One stage per warp-specialized loop --*- C++ -*-===//
//
// `tile-trim-role-loops`: a pipelined loop runs its stages skewed, stage s
// of iteration i in iteration i + s, over D more iterations than the
// original loop (its `tile.pipeline_drain`), with each stage's ops behind a
// test that its iteration is in range. Warp specialization gives each role
// a copy of the loop holding only its own ops; when those all belong to
// one stage s (the producer's copies at stage 0, the consumers' MMAs at the
// last stage), the role runs that stage's iterations only:
//
//   for it in [lb, ub + D * step):        for it' in [lb, ub):
//     wait hand-off base + k(it) - s   ->    wait hand-off base + k(it')
//     if (lb <= it - s * step < ub)          <stage s ops, it -> it' + s*step>
//       <stage s ops, it -> it - s*step>
//
// The iterations left out are those where the stage is out of range: the
// stage's ops do not run in them, and their hand-offs are below the
// pipe's base (which do not happen) or, after the loop, acquisitions and
// commits without copies, which the next pass over the pipe makes again.
// The conditions are checked for every op; a loop that does not meet them
// keeps its shape.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Transforms/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TRIMROLELOOPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// A pipelined loop of a role and the values its stages are written with.
struct SkewedLoop {
  scf::ForOp loop;
  Value it;           // the induction variable
  Value lb, ub, step; // the original loop's bounds (ub without the drain)
  int64_t drain = 0;  // D
  int64_t stage = 0;  // s, the one stage of the role's ops
  bool isUnsigned = false;
};

/// A hand-off number `base + k + offset`, k = (it - lb) / step the loop's
/// iteration number (base null: numbered from 0, a pipe without base).
struct HandOffNumber {
  Value base;
  int64_t iterations = 0;
  int64_t offset = 0;
};
} // namespace

/// Whether `op` is a pipe op numbered by a hand-off (its operand 1).
static bool isHandOff(Operation *op) {
  return isa<PipeProduceAcquireOp, PipeProduceCommitOp, PipeConsumeWaitOp,
             PipeConsumeReleaseOp>(op);
}

/// Matches `x * c` or `c * x` with constant c, for `x` = `step`.
static std::optional<int64_t> stepMultiple(Value v, Value step) {
  APInt c;
  if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
    if (mul.getLhs() == step && matchPattern(mul.getRhs(), m_ConstantInt(&c)))
      return c.getSExtValue();
    if (mul.getRhs() == step && matchPattern(mul.getLhs(), m_ConstantInt(&c)))
      return c.getSExtValue();
  }
  return std::nullopt;
}

/// `v` as a hand-off number of the loop, or nothing when it is not one.
static std::optional<HandOffNumber> analyze(Value v, const SkewedLoop &l) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return HandOffNumber{nullptr, 0, c.getSExtValue()};
  if (v.getDefiningOp<PipeBaseOp>())
    return HandOffNumber{v, 0, 0};
  if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    return analyze(cast.getIn(), l);
  Operation *def = v.getDefiningOp();
  if (def && isa<arith::DivSIOp, arith::DivUIOp>(def) &&
      def->getOperand(1) == l.step)
    if (auto sub = def->getOperand(0).getDefiningOp<arith::SubIOp>())
      if (sub.getLhs() == l.it && sub.getRhs() == l.lb)
        return HandOffNumber{nullptr, 1, 0};
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    auto lhs = analyze(add.getLhs(), l), rhs = analyze(add.getRhs(), l);
    if (!lhs || !rhs || (lhs->base && rhs->base))
      return std::nullopt;
    return HandOffNumber{lhs->base ? lhs->base : rhs->base,
                         lhs->iterations + rhs->iterations,
                         lhs->offset + rhs->offset};
  }
  if (auto sub = v.getDefiningOp<arith::SubIOp>()) {
    auto lhs = analyze(sub.getLhs(), l), rhs = analyze(sub.getRhs(), l);
    if (!lhs || !rhs || rhs->base)
      return std::nullopt;
    return HandOffNumber{lhs->base, lhs->iterations - rhs->iterations,
                         lhs->offset - rhs->offset};
  }
  return std::nullopt;
}

/// Whether `cond` is the range test of stage `l.stage`:
/// `it - s * step < ub`, and with s > 0 `it - s * step >= lb` and'ed to it.
static bool isStageGuard(Value cond, const SkewedLoop &l) {
  Value it = l.it;
  auto isShifted = [&](Value j) {
    if (l.stage == 0 && j == it)
      return true;
    auto sub = j.getDefiningOp<arith::SubIOp>();
    return sub && sub.getLhs() == it &&
           stepMultiple(sub.getRhs(), l.step) == l.stage;
  };
  auto isTest = [&](Value v, arith::CmpIPredicate signedPred,
                    arith::CmpIPredicate unsignedPred, Value bound) {
    auto cmp = v.getDefiningOp<arith::CmpIOp>();
    return cmp &&
           cmp.getPredicate() == (l.isUnsigned ? unsignedPred : signedPred) &&
           isShifted(cmp.getLhs()) && cmp.getRhs() == bound;
  };
  auto below = [&](Value v) {
    return isTest(v, arith::CmpIPredicate::slt, arith::CmpIPredicate::ult,
                  l.ub);
  };
  auto above = [&](Value v) {
    return isTest(v, arith::CmpIPredicate::sge, arith::CmpIPredicate::uge,
                  l.lb);
  };
  if (below(cond))
    return true;
  auto both = cond.getDefiningOp<arith::AndIOp>();
  return both && ((above(both.getLhs()) && below(both.getRhs())) ||
                  (above(both.getRhs()) && below(both.getLhs())));
}

/// Recognizes a loop of the pipeliner's shape in a role whose ops belong to
/// one stage; fills `l`.
static bool matchSkewedLoop(scf::ForOp loop, SkewedLoop &l) {
  auto drain =
      loop->getAttrOfType<IntegerAttr>(TileDialect::kPipelineDrainAttrName);
  if (!drain || drain.getInt() <= 0 || loop.getNumResults() != 0 ||
      !loop->getParentOfType<WsOp>())
    return false;
  l.loop = loop;
  l.it = loop.getInductionVar();
  l.drain = drain.getInt();
  l.lb = loop.getLowerBound();
  l.step = loop.getStep();
  l.isUnsigned = loop.getUnsignedCmp();
  APInt step;
  if (!matchPattern(l.step, m_ConstantInt(&step)) || !step.isStrictlyPositive())
    return false;
  auto extended = loop.getUpperBound().getDefiningOp<arith::AddIOp>();
  if (!extended || stepMultiple(extended.getRhs(), l.step) != l.drain)
    return false;
  l.ub = extended.getLhs();
  std::optional<int64_t> stage;
  for (Operation &op : loop.getBody()->without_terminator()) {
    int64_t s = getPipelineStage(&op);
    if (s < 0)
      continue;
    if (stage && *stage != s)
      return false;
    stage = s;
  }
  if (!stage)
    return false;
  l.stage = *stage;
  return true;
}

/// Whether leaving out the iterations where stage `l.stage` is out of range
/// keeps what the loop does (the conditions in the file comment).
static bool canTrim(SkewedLoop &l) {
  for (Operation &op : l.loop.getBody()->without_terminator()) {
    if (auto guard = dyn_cast<scf::IfOp>(&op);
        guard && getPipelineStage(guard) == l.stage) {
      if (!isStageGuard(guard.getCondition(), l) || guard.getNumResults())
        return false;
      continue;
    }
    if (isHandOff(&op)) {
      // Hand-off base + k + offset; the iterations k in [0, s) are left out
      // at the start, k in [n + s, n + D) at the end.
      std::optional<HandOffNumber> seq = analyze(op.getOperand(1), l);
      if (!seq || seq->iterations != 1 ||
          (seq->base &&
           seq->base.getDefiningOp<PipeBaseOp>().getPipe() != op.getOperand(0)))
        return false;
      if (l.stage > 0 && seq->offset + l.stage - 1 >= 0)
        return false;
      if (l.stage < l.drain &&
          !isa<PipeProduceAcquireOp, PipeProduceCommitOp>(&op))
        return false;
      continue;
    }
    if (op.getNumRegions() || !isMemoryEffectFree(&op))
      return false;
  }
  return true;
}

static void trim(const SkewedLoop &l) {
  scf::ForOp loop = l.loop;
  OpBuilder b(loop.getContext());
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  // The hand-off numbers, read before the induction variable changes.
  DenseMap<Operation *, HandOffNumber> numbers;
  for (Operation &op : body->without_terminator())
    if (isHandOff(&op))
      numbers[&op] = *analyze(op.getOperand(1), l);
  b.setInsertionPointToStart(body);
  Value it = loop.getInductionVar();
  Type ivType = it.getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(ivType, value));
  };
  // The old induction variable, it' + s * step, for the ops that use it.
  if (l.stage > 0) {
    auto shifted = arith::AddIOp::create(
        b, loc, it, arith::MulIOp::create(b, loc, l.step, constant(l.stage)));
    it.replaceAllUsesExcept(shifted, shifted);
  }
  // The hand-off numbers, counted from the new iterations.
  Value fromLb = arith::SubIOp::create(b, loc, it, l.lb);
  Value k = l.isUnsigned
                ? arith::DivUIOp::create(b, loc, fromLb, l.step).getResult()
                : arith::DivSIOp::create(b, loc, fromLb, l.step).getResult();
  if (!k.getType().isIndex())
    k = arith::IndexCastOp::create(b, loc, b.getIndexType(), k);
  SmallVector<Operation *> guards;
  for (Operation &op : body->without_terminator()) {
    if (isHandOff(&op)) {
      HandOffNumber seq = numbers.lookup(&op);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(&op);
      Value number =
          seq.base ? arith::AddIOp::create(b, loc, seq.base, k).getResult() : k;
      if (int64_t offset = seq.offset + l.stage)
        number = arith::AddIOp::create(
            b, loc, number, arith::ConstantIndexOp::create(b, loc, offset));
      op.setOperand(1, number);
    }
    if (isa<scf::IfOp>(&op) && getPipelineStage(&op) == l.stage)
      guards.push_back(&op);
    op.removeAttr(TileDialect::kPipelineStageAttrName);
  }
  // The stage's ops run in every remaining iteration.
  for (Operation *op : guards) {
    auto guard = cast<scf::IfOp>(op);
    Block *then = guard.thenBlock();
    then->getTerminator()->erase();
    body->getOperations().splice(Block::iterator(guard), then->getOperations());
    guard.erase();
  }
  loop.setUpperBound(l.ub);
  loop->removeAttr(TileDialect::kPipelineDrainAttrName);
}

namespace {
struct TrimRoleLoopsPass
    : public tile::impl::TrimRoleLoopsBase<TrimRoleLoopsPass> {
  void runOnOperation() override {
    SmallVector<SkewedLoop> loops;
    getOperation().walk([&](scf::ForOp loop) {
      SkewedLoop l;
      if (matchSkewedLoop(loop, l) && canTrim(l))
        loops.push_back(l);
    });
    for (const SkewedLoop &l : loops)
      trim(l);
  }
};
} // namespace
