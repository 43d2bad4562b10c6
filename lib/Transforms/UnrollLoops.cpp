//===- UnrollLoops.cpp - Loops unrolled by two where marked ----*- C++ -*-===//
//
// `tile-unroll-loops`: each `scf.for` marked `tile.unroll = 2` runs two
// iterations per pass of its body, after the first iteration alone behind
// an `scf.if` where the count is odd. The ops that end the loop's
// asynchronous work (placed right after it, taking no operands and giving no
// results) also end that lone iteration, so that the values merged with the
// loop's initial ones are complete.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tile {
#define GEN_PASS_DEF_UNROLLLOOPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// Clones the body of `loop` at `b` for the iteration `iv` with the
/// iter_args `args`; returns what it yields.
static SmallVector<Value> cloneIteration(OpBuilder &b, scf::ForOp loop,
                                         Value iv, ValueRange args) {
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  map.map(loop.getRegionIterArgs(), args);
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, map);
  SmallVector<Value> yields;
  for (Value v : loop.getBody()->getTerminator()->getOperands())
    yields.push_back(map.lookupOrDefault(v));
  return yields;
}

/// The ops right after `loop` that end its asynchronous work: no operands,
/// no results, no regions (a wait for MMA groups in flight).
static SmallVector<Operation *> findClosingOps(scf::ForOp loop) {
  SmallVector<Operation *> ops;
  for (Operation *op = loop->getNextNode();
       op && op->getNumOperands() == 0 && op->getNumResults() == 0 &&
       op->getNumRegions() == 0 && !op->hasTrait<OpTrait::IsTerminator>();
       op = op->getNextNode())
    ops.push_back(op);
  return ops;
}

static void unrollByTwo(scf::ForOp loop) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0) {
    loop.emitRemark("not unrolled by two: the step is not a positive "
                    "constant");
    return;
  }
  SmallVector<Operation *> closing = findClosingOps(loop);
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Type type = lb.getType();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
  };
  bool isUnsigned = loop.getUnsignedCmp();
  // The trip count: the bounds' distance (0 where the range is empty) over
  // the step, rounded up. An odd count runs its first iteration alone.
  Value above = arith::CmpIOp::create(b, loc,
                                      isUnsigned ? arith::CmpIPredicate::ugt
                                                 : arith::CmpIPredicate::sgt,
                                      ub, lb);
  // (One op a statement: the op order must not depend on the order the C++
  // compiler evaluates arguments in; design.md 9.)
  Value none = constant(0);
  Value distance = arith::SubIOp::create(b, loc, ub, lb);
  Value span = arith::SelectOp::create(b, loc, above, distance, none);
  Value stepValue = constant(*step);
  Value rounded = arith::AddIOp::create(b, loc, span, constant(*step - 1));
  Value count = arith::DivUIOp::create(b, loc, rounded, stepValue);
  Value zero = constant(0);
  Value low = arith::AndIOp::create(b, loc, count, constant(1));
  Value odd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, low, zero);
  // The ops that end the loop's asynchronous work close the lone iteration
  // too, before its results meet the loop's initial values: a copy there
  // must not read registers still being written.
  auto first = scf::IfOp::create(
      b, loc, odd,
      [&](OpBuilder &b, Location loc) {
        SmallVector<Value> results =
            cloneIteration(b, loop, lb, loop.getInitArgs());
        for (Operation *op : closing)
          b.clone(*op);
        scf::YieldOp::create(b, loc, results);
      },
      [&](OpBuilder &b, Location loc) {
        scf::YieldOp::create(b, loc, loop.getInitArgs());
      });
  Value start = arith::SelectOp::create(
      b, loc, odd, arith::AddIOp::create(b, loc, lb, loop.getStep()), lb);
  auto pairs = scf::ForOp::create(
      b, loc, start, ub, constant(2 * *step), first.getResults(),
      [&](OpBuilder &b, Location loc, Value iv, ValueRange args) {
        SmallVector<Value> results = cloneIteration(b, loop, iv, args);
        Value next = arith::AddIOp::create(b, loc, iv, loop.getStep());
        scf::YieldOp::create(b, loc, cloneIteration(b, loop, next, results));
      });
  pairs.setUnsignedCmp(isUnsigned);
  loop.replaceAllUsesWith(pairs.getResults());
  loop.erase();
}

namespace {
struct UnrollLoopsPass : public tile::impl::UnrollLoopsBase<UnrollLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> marked;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->hasAttr(TileDialect::kUnrollAttrName))
        marked.push_back(loop);
    });
    // Innermost first (the walk is post-order), so that an outer loop
    // clones its inner loops unrolled.
    for (scf::ForOp loop : marked) {
      auto count =
          loop->getAttrOfType<IntegerAttr>(TileDialect::kUnrollAttrName);
      loop->removeAttr(TileDialect::kUnrollAttrName);
      if (count && count.getInt() == 2)
        unrollByTwo(loop);
    }
  }
};
} // namespace
