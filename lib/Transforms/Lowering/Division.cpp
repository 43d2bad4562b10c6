//===- Division.cpp - Exact divisions by a divisor shared by registers ----===//
//
// A tile.parallel that divides by a value its iterations share along some
// dimension (FlashAttention's O = acc / l, a softmax's normalization) would
// emit one IEEE division per register. On NVIDIA each is a reciprocal
// estimate, its refinement and a quotient correction behind a branch to a
// slow path, recomputed per register and serialized by the branch (about a
// block iteration of FlashAttention's key loop, docs/perf.md run 107).
//
// Here the reciprocal r = 1 / d is computed once per divisor (correctly
// rounded), and each quotient is Markstein's correction of x * r:
//   q0 = RN(x r),  e = x - q0 d  (exact, by a fused multiply-add),
//   q  = RN(q0 + e r)
// which is the correctly rounded x / d when r is the correctly rounded
// reciprocal and nothing overflows or underflows (Markstein 1990; Muller
// et al., Handbook of Floating-Point Arithmetic, "Markstein's theorem").
// The sign is taken from q0, which fixes x = -0. The fast version runs only
// when every numerator is zero or of magnitude in [2^-60, 2^60] and every
// divisor of magnitude in [2^-60, 2^60] (then quotients are normal and the
// remainder is exact); otherwise the thread runs the IEEE divisions.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Transforms/Utils.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// Adds to `slice` the ops of `body` (top level) that `value` needs, and to
/// `args` the loop dimensions it depends on (`deps` remembers them per op,
/// so that an op two operands share counts for both). False where it
/// needs an op the check before the loop cannot run early: anything but
/// pure ops without regions and fragment loads that no earlier store of
/// the body could have changed.
static bool collectSlice(Value value, Block &body,
                         llvm::SmallPtrSetImpl<Operation *> &slice,
                         llvm::SmallBitVector &args,
                         DenseMap<Operation *, llvm::SmallBitVector> &deps) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() == &body)
      args.set(arg.getArgNumber());
    return true;
  }
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &body)
    return true; // defined above the loop: the same for every element
  if (auto it = deps.find(def); it != deps.end()) {
    args |= it->second;
    return true;
  }
  if (auto load = dyn_cast<memref::LoadOp>(def)) {
    if (getMemoryKind(load.getMemRefType()) != MemoryKind::Fragment)
      return false;
    for (Operation *prev = def->getPrevNode(); prev; prev = prev->getPrevNode())
      if (auto store = dyn_cast<memref::StoreOp>(prev))
        if (store.getMemRef() == load.getMemRef())
          return false;
  } else if (!isPure(def) || def->getNumRegions() != 0) {
    return false;
  }
  llvm::SmallBitVector own(args.size());
  for (Value operand : def->getOperands())
    if (!collectSlice(operand, body, slice, own, deps))
      return false;
  slice.insert(def);
  args |= own;
  deps[def] = std::move(own);
  return true;
}

std::optional<SharedDivisions>
mlir::tile::lowering::findSharedDivisions(ParallelOp op,
                                          int64_t registersPerThread) {
  if (registersPerThread < 4)
    return std::nullopt;
  Block &body = op.getBody().front();
  unsigned rank = body.getNumArguments();
  SharedDivisions result;
  llvm::SmallPtrSet<Operation *, 16> slice;
  for (Operation &inner : body.without_terminator()) {
    auto div = dyn_cast<arith::DivFOp>(inner);
    if (!div || !div.getType().isF32())
      continue;
    llvm::SmallBitVector numArgs(rank), denArgs(rank);
    llvm::SmallPtrSet<Operation *, 16> trial = slice;
    DenseMap<Operation *, llvm::SmallBitVector> deps;
    if (!collectSlice(div.getLhs(), body, trial, numArgs, deps) ||
        !collectSlice(div.getRhs(), body, trial, denArgs, deps))
      continue;
    // A divisor that differs in every element gains nothing.
    if (denArgs.count() == rank)
      continue;
    slice = std::move(trial);
    SmallVector<unsigned> dims;
    for (unsigned d = 0; d < rank; ++d)
      if (denArgs.test(d))
        dims.push_back(d);
    result.divisions.push_back({div, std::move(dims)});
  }
  if (result.divisions.empty())
    return std::nullopt;
  for (Operation &inner : body.without_terminator())
    if (slice.contains(&inner))
      result.slice.push_back(&inner);
  return result;
}

static Value i32Const(OpBuilder &b, Location loc, uint32_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
}

/// The magnitude's bits of an f32.
static Value magnitudeBits(OpBuilder &b, Location loc, Value x) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
  return arith::AndIOp::create(b, loc, bits, i32Const(b, loc, 0x7fffffffu));
}

/// Adds `value` to the balanced tree of `OpTy` that `tree` holds as
/// partial results per level, combining equal levels at once (so that the
/// terms do not all stay live until the end).
template <typename OpTy>
static void addTerm(OpBuilder &b, Location loc,
                    SmallVectorImpl<std::pair<Value, unsigned>> &tree,
                    Value value) {
  unsigned level = 0;
  while (!tree.empty() && tree.back().second == level) {
    value = OpTy::create(b, loc, tree.pop_back_val().first, value);
    ++level;
  }
  tree.push_back({value, level});
}

/// The tree's result.
template <typename OpTy>
static Value combine(OpBuilder &b, Location loc,
                     ArrayRef<std::pair<Value, unsigned>> tree) {
  Value result = tree.back().first;
  for (auto &[value, level] : llvm::reverse(tree.drop_back()))
    result = OpTy::create(b, loc, value, result);
  return result;
}

void ExactDivision::checkDivisor(OpBuilder &b, Location loc, Value d) {
  Value bits = magnitudeBits(b, loc, d);
  addTerm<arith::MaxUIOp>(b, loc, high, bits);
  addTerm<arith::MinUIOp>(b, loc, lowDivisors, bits);
}

void ExactDivision::checkNumerator(OpBuilder &b, Location loc, Value x) {
  Value bits = magnitudeBits(b, loc, x);
  addTerm<arith::MaxUIOp>(b, loc, high, bits);
  // Zero wraps around to the largest value and passes the lower bound.
  addTerm<arith::MinUIOp>(
      b, loc, lowNumerators,
      arith::SubIOp::create(b, loc, bits, i32Const(b, loc, 1)));
}

Value ExactDivision::reciprocal(OpBuilder &b, Location loc, Value d) {
  Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f));
  return arith::DivFOp::create(b, loc, one, d);
}

Value ExactDivision::quotient(OpBuilder &b, Location loc, Value x, Value d,
                              Value r) {
  Value q0 = arith::MulFOp::create(b, loc, x, r);
  Value negQ0 = arith::NegFOp::create(b, loc, q0);
  Value e = math::FmaOp::create(b, loc, negQ0, d, x);
  Value q1 = math::FmaOp::create(b, loc, e, r, q0);
  return math::CopySignOp::create(b, loc, q1, q0);
}

Value ExactDivision::inRange(OpBuilder &b, Location loc) const {
  // Biased exponents of 2^-60 and 2^60.
  const uint32_t lo = (127u - 60u) << 23, hi = (127u + 60u) << 23;
  // (The bound first, one op a statement: the op order must not depend on
  // the order the C++ compiler evaluates arguments in; design.md 9.)
  Value highBound = i32Const(b, loc, hi);
  Value ok =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                            combine<arith::MaxUIOp>(b, loc, high), highBound);
  auto atLeast = [&](ArrayRef<std::pair<Value, unsigned>> tree,
                     uint32_t bound) {
    Value least = i32Const(b, loc, bound);
    Value cmp =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                              combine<arith::MinUIOp>(b, loc, tree), least);
    ok = arith::AndIOp::create(b, loc, ok, cmp);
  };
  atLeast(lowNumerators, lo - 1);
  atLeast(lowDivisors, lo);
  return ok;
}
