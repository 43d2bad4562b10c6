//===- CarryRingPositions.cpp - Ring slots stepped through loops -*- C++
//-*-===//
//
// `tile-carry-ring-positions`: each `tile.ring_position` whose offset counts
// the iterations of its innermost `scf.for` (plus a constant) reads a slot
// and a wrap count the loop carries and steps by one slot per iteration (a
// compare and two selects), as CUTLASS's pipeline state does; the others
// are divided out. Positions of one ring from one base share the loop's
// cursor.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/TileOps.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CARRYRINGPOSITIONS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// Whether an op in [from, to) of one block (or nested in one) stores to
/// `memref`.
static bool storedBetween(Operation *from, Operation *to, Value memref) {
  for (Operation *op = from; op && op != to; op = op->getNextNode())
    if (op->walk([&](memref::StoreOp store) {
            return store.getMemRef() == memref ? WalkResult::interrupt()
                                               : WalkResult::advance();
          }).wasInterrupted())
      return true;
  return false;
}

namespace {

/// A sum of values times constants, the loop's iteration count `(iv - lb) /
/// step` times a constant, and a constant.
struct Linear {
  llvm::SmallMapVector<Value, int64_t, 4> terms;
  int64_t iterations = 0;
  int64_t constant = 0;

  void add(const Linear &other, int64_t scale) {
    for (auto [value, coefficient] : other.terms) {
      int64_t &sum = terms[value];
      sum += scale * coefficient;
    }
    terms.remove_if([](auto &term) { return term.second == 0; });
    iterations += scale * other.iterations;
    constant += scale * other.constant;
  }
  bool isConstant() const { return terms.empty() && iterations == 0; }
};

/// Reads offsets and bases of ring positions in terms of one loop's
/// iterations.
class LoopCounts {
public:
  explicit LoopCounts(scf::ForOp loop) : loop(loop) {
    step = getConstantIntValue(loop.getStep());
  }

  /// `value` as a linear form, with the induction variable replaced by `lb +
  /// step * iterations` (a constant step), or nothing.
  std::optional<Linear> linearize(Value value) {
    std::optional<Linear> form = expand(value, 0);
    if (!form)
      return std::nullopt;
    Value iv = loop.getInductionVar();
    auto it = form->terms.find(iv);
    if (it == form->terms.end())
      return form;
    if (!step)
      return std::nullopt;
    int64_t times = it->second;
    form->terms.erase(iv);
    form->iterations += times * *step;
    std::optional<Linear> lb = expand(loop.getLowerBound(), 0);
    if (!lb)
      return std::nullopt;
    form->add(*lb, times);
    return form;
  }

  /// The value that stands for `value` as a term: a pipe's counter for a
  /// load of it that sees the value the counter has on entry to the loop
  /// (stored neither in the loop nor between the load and the loop),
  /// `value` itself otherwise.
  Value termKey(Value value) {
    auto load = value.getDefiningOp<memref::LoadOp>();
    if (!load || !isInvariantCounter(load.getMemRef()))
      return value;
    if (loop->isAncestor(load))
      return load.getMemRef();
    Operation *entry = load->getBlock()->findAncestorOpInBlock(*loop);
    if (!entry || !load->isBeforeInBlock(entry))
      return value;
    if (storedBetween(load->getNextNode(), entry, load.getMemRef()))
      return value;
    return load.getMemRef();
  }

  /// Whether `base` is the same in every iteration.
  bool isInvariant(Value base) {
    return loop.isDefinedOutsideOfLoop(base) || termKey(base) != base;
  }

private:
  /// A one-element private counter (a pipe's base) that the loop does not
  /// store and nothing reads or writes but loads and stores.
  bool isInvariantCounter(Value memref) {
    auto alloca = memref.getDefiningOp<memref::AllocaOp>();
    if (!alloca || loop->isAncestor(alloca) ||
        alloca.getType().getNumElements() != 1)
      return false;
    return llvm::all_of(memref.getUsers(), [&](Operation *user) {
      if (isa<memref::LoadOp>(user))
        return true;
      return isa<memref::StoreOp>(user) &&
             cast<memref::StoreOp>(user).getMemRef() == memref &&
             !loop->isAncestor(user);
    });
  }

  std::optional<Linear> expand(Value value, unsigned depth) {
    Linear form;
    if (std::optional<int64_t> c = getConstantIntValue(value)) {
      form.constant = *c;
      return form;
    }
    Operation *def = value.getDefiningOp();
    if (depth > 16 || !def) {
      form.terms[termKey(value)] = 1;
      return form;
    }
    auto both = [&](int64_t scale) -> std::optional<Linear> {
      std::optional<Linear> lhs = expand(def->getOperand(0), depth + 1);
      std::optional<Linear> rhs = expand(def->getOperand(1), depth + 1);
      if (!lhs || !rhs)
        return std::nullopt;
      lhs->add(*rhs, scale);
      return lhs;
    };
    if (isa<arith::AddIOp>(def))
      return both(1);
    if (isa<arith::SubIOp>(def))
      return both(-1);
    // Casts between index and the 32-bit numbers hand-offs are counted in
    // keep the value (tile-lower-ops: counts below 2^31).
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(def))
      return expand(def->getOperand(0), depth + 1);
    if (auto mul = dyn_cast<arith::MulIOp>(def)) {
      for (int side : {0, 1})
        if (std::optional<int64_t> c =
                getConstantIntValue(def->getOperand(1 - side))) {
          std::optional<Linear> other = expand(def->getOperand(side), depth);
          if (!other)
            return std::nullopt;
          Linear scaled;
          scaled.add(*other, *c);
          return scaled;
        }
    }
    if (isa<arith::DivSIOp, arith::DivUIOp>(def))
      if (std::optional<Linear> count = iterationCount(def, depth))
        return count;
    form.terms[termKey(value)] = 1;
    return form;
  }

  /// `(iv - lb + k * step) / step` as `iterations + k`.
  std::optional<Linear> iterationCount(Operation *div, unsigned depth) {
    Value divisor = div->getOperand(1);
    std::optional<int64_t> by = getConstantIntValue(divisor);
    if (by == 1)
      return expand(div->getOperand(0), depth + 1);
    if (divisor != loop.getStep() && (!by || by != step))
      return std::nullopt;
    std::optional<Linear> dividend = expand(div->getOperand(0), depth + 1);
    std::optional<Linear> lb = expand(loop.getLowerBound(), depth + 1);
    if (!dividend || !lb)
      return std::nullopt;
    Linear rest = *dividend;
    Linear fromLb;
    fromLb.terms[loop.getInductionVar()] = 1;
    fromLb.add(*lb, -1);
    rest.add(fromLb, -1);
    if (!rest.isConstant())
      return std::nullopt;
    Linear count;
    count.iterations = 1;
    if (rest.constant == 0)
      return count;
    if (!by || rest.constant % *by != 0)
      return std::nullopt;
    count.constant = rest.constant / *by;
    return count;
  }

  scf::ForOp loop;
  std::optional<int64_t> step;
};

/// A ring position read from a loop's cursor: the slot of the iteration's
/// own entry moved by `shift`.
struct Carried {
  RingPositionOp position;
  int64_t shift;
};

/// One cursor of a loop: the ring of `slots` slots counted from `base`.
struct Cursor {
  Value base;    // the base's value on entry, or null
  Value counter; // the pipe counter `base` is a load of, or null
  int64_t slots;
  SmallVector<Carried> positions;
};

using CursorKey = std::pair<Value, int64_t>;
using Position = std::pair<Value, Value>; // slot and wraps, i32

} // namespace

static Value c32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

/// The position of `count` (index), divided (64 bits).
static Position dividePosition(OpBuilder &b, Location loc, Value count,
                               int64_t slots) {
  Type i32 = b.getI32Type();
  Value divisor = arith::ConstantIndexOp::create(b, loc, slots);
  return {arith::IndexCastUIOp::create(
              b, loc, i32, arith::RemUIOp::create(b, loc, count, divisor)),
          arith::IndexCastOp::create(
              b, loc, i32, arith::DivUIOp::create(b, loc, count, divisor))};
}

/// `op`'s slot and wraps by division: the base (64 bits) and the offset
/// added to its remainder (32 bits: the remainder plus an offset below 2^31
/// is exact as an unsigned 32-bit number).
static Position dividedPosition(OpBuilder &b, RingPositionOp op) {
  Location loc = op.getLoc();
  int64_t slots = op.getSlots();
  Value count = c32(b, loc, slots);
  Value narrow = arith::MaxSIOp::create(
      b, loc,
      arith::IndexCastOp::create(b, loc, b.getI32Type(), op.getOffset()),
      c32(b, loc, 0));
  Position base = op.getBase() ? dividePosition(b, loc, op.getBase(), slots)
                               : Position{c32(b, loc, 0), c32(b, loc, 0)};
  Value sum = arith::AddIOp::create(b, loc, base.first, narrow);
  return {arith::RemUIOp::create(b, loc, sum, count),
          arith::AddIOp::create(b, loc, base.second,
                                arith::DivUIOp::create(b, loc, sum, count))};
}

/// `position` moved by `shift` entries: a compare and a select.
static Position shiftPosition(OpBuilder &b, Location loc, Position position,
                              int64_t shift, int64_t slots) {
  auto [slot, wraps] = position;
  int64_t turns = llvm::divideFloorSigned(shift, slots);
  if (int64_t ahead = shift - turns * slots) { // in [0, slots)
    Value moved = arith::AddIOp::create(b, loc, slot, c32(b, loc, ahead));
    Value over = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, moved,
                                       c32(b, loc, slots));
    slot = arith::SelectOp::create(
        b, loc, over, arith::SubIOp::create(b, loc, moved, c32(b, loc, slots)),
        moved);
    wraps = arith::AddIOp::create(
        b, loc, wraps, arith::ExtUIOp::create(b, loc, b.getI32Type(), over));
  }
  if (turns)
    wraps = arith::AddIOp::create(b, loc, wraps, c32(b, loc, turns));
  return {slot, wraps};
}

/// Replaces `carried` by the cursor `position` moved by its shift; shifted
/// before the base, it is the base's own position (`entry`).
static void replaceCarried(OpBuilder &b, const Carried &carried, int64_t slots,
                           Position position, Position entry) {
  RingPositionOp op = carried.position;
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  auto [slot, wraps] = shiftPosition(b, loc, position, carried.shift, slots);
  if (carried.shift < 0) {
    Value before = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt,
        arith::IndexCastOp::create(b, loc, b.getI32Type(), op.getOffset()),
        c32(b, loc, 0));
    slot = arith::SelectOp::create(b, loc, before, entry.first, slot);
    wraps = arith::SelectOp::create(b, loc, before, entry.second, wraps);
  }
  op.getSlot().replaceAllUsesWith(
      arith::IndexCastUIOp::create(b, loc, b.getIndexType(), slot));
  op.getWraps().replaceAllUsesWith(wraps);
  op.erase();
}

/// Gives `loop` one carried slot and wrap count per cursor, started from
/// `inits` and stepped by one entry per iteration, and replaces the
/// cursors' positions. Returns the new loop.
static scf::ForOp carry(scf::ForOp loop, ArrayRef<Cursor> cursors,
                        ArrayRef<Position> inits) {
  IRRewriter rewriter(loop.getContext());
  SmallVector<Value> initValues;
  for (const Position &init : inits)
    initValues.append({init.first, init.second});
  NamedAttrList attrs(loop->getDiscardableAttrDictionary());
  auto stepCursors = [&](OpBuilder &b, Location l,
                         ArrayRef<BlockArgument> args) {
    SmallVector<Value> next;
    for (auto [i, cursor] : llvm::enumerate(cursors)) {
      Value moved = arith::AddIOp::create(b, l, args[2 * i], c32(b, l, 1));
      Value wrapped = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            moved, c32(b, l, cursor.slots));
      next.push_back(
          arith::SelectOp::create(b, l, wrapped, c32(b, l, 0), moved));
      next.push_back(arith::AddIOp::create(
          b, l, args[2 * i + 1],
          arith::ExtUIOp::create(b, l, b.getI32Type(), wrapped)));
    }
    return next;
  };
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, initValues, /*replaceInitOperandUsesInLoop=*/false,
      stepCursors);
  assert(succeeded(replaced) && "scf.for takes any iter_args");
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  for (NamedAttribute attr : attrs)
    newLoop->setAttr(attr.getName(), attr.getValue());
  unsigned first = newLoop.getNumRegionIterArgs() - 2 * cursors.size();
  for (auto [i, cursor] : llvm::enumerate(cursors))
    for (const Carried &carried : cursor.positions)
      replaceCarried(rewriter, carried, cursor.slots,
                     {newLoop.getRegionIterArg(first + 2 * i),
                      newLoop.getRegionIterArg(first + 2 * i + 1)},
                     inits[i]);
  return newLoop;
}

/// The number of iterations `count` gives for `loop` minus `extra`, where
/// `count` is `tile-inject-pipeline`'s trip count of `[lb, ub)` (`ub <= lb ?
/// 0 : ceildiv(ub - lb, step)`) and `loop` runs from `lb` to `ub + extra *
/// step` (its drain): `extra`, or nothing.
static std::optional<int64_t> matchTripCount(Value count, scf::ForOp loop) {
  auto select = count.getDefiningOp<arith::SelectOp>();
  if (!select || getConstantIntValue(select.getTrueValue()) != 0)
    return std::nullopt;
  auto none = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!none || (none.getPredicate() != arith::CmpIPredicate::sle &&
                none.getPredicate() != arith::CmpIPredicate::ule))
    return std::nullopt;
  Value ub = none.getLhs(), lb = none.getRhs();
  Operation *trips = select.getFalseValue().getDefiningOp();
  if (!isa_and_present<arith::CeilDivSIOp, arith::CeilDivUIOp>(trips))
    return std::nullopt;
  auto span = trips->getOperand(0).getDefiningOp<arith::SubIOp>();
  Value step = trips->getOperand(1);
  std::optional<int64_t> by = getConstantIntValue(step);
  if (!span || span.getLhs() != ub || span.getRhs() != lb ||
      (step != loop.getStep() &&
       (!by || by != getConstantIntValue(loop.getStep()))))
    return std::nullopt;
  LoopCounts counts(loop);
  std::optional<Linear> ownLb = counts.linearize(loop.getLowerBound());
  std::optional<Linear> lbForm = counts.linearize(lb);
  std::optional<Linear> extra = counts.linearize(loop.getUpperBound());
  std::optional<Linear> ubForm = counts.linearize(ub);
  if (!ownLb || !lbForm || !extra || !ubForm)
    return std::nullopt;
  ownLb->add(*lbForm, -1);
  extra->add(*ubForm, -1);
  if (!ownLb->isConstant() || ownLb->constant != 0 || !extra->isConstant())
    return std::nullopt;
  if (extra->constant == 0)
    return 0;
  if (!by || *by <= 0 || extra->constant % *by != 0 || extra->constant < 0)
    return std::nullopt;
  return extra->constant / *by;
}

namespace {
/// The position of a pipe counter's value for one ring size, kept in two
/// i32 cells next to it: every store of the counter stores its position,
/// stepped from a loop's final cursor where the counter advances by the
/// loop's iterations, so that the next loop's cursor starts from a value
/// that was never divided.
struct CounterCells {
  Value counter;
  int64_t slots;
  Value slot, wraps; // memref<1xi32>
  /// The final cursors of the loops that count from the counter.
  DenseMap<Operation *, Position> finals;

  Position load(OpBuilder &b, Location loc) const {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    return {memref::LoadOp::create(b, loc, slot, zero),
            memref::LoadOp::create(b, loc, wraps, zero)};
  }

  /// Stores the position of the value `store` writes, before it.
  void update(memref::StoreOp store) {
    OpBuilder b(store);
    Location loc = store.getLoc();
    Position position = positionOf(b, store);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    memref::StoreOp::create(b, loc, position.first, slot, zero);
    memref::StoreOp::create(b, loc, position.second, wraps, zero);
  }

private:
  Position positionOf(OpBuilder &b, memref::StoreOp store) {
    Location loc = store.getLoc();
    Value value = store.getValue();
    if (std::optional<int64_t> c = getConstantIntValue(value))
      return {c32(b, loc, *c % slots), c32(b, loc, *c / slots)};
    if (auto add = value.getDefiningOp<arith::AddIOp>())
      for (auto [from, by] : {std::pair(add.getLhs(), add.getRhs()),
                              std::pair(add.getRhs(), add.getLhs())}) {
        auto load = from.getDefiningOp<memref::LoadOp>();
        if (!load || load.getMemRef() != counter ||
            load->getBlock() != store->getBlock() ||
            !load->isBeforeInBlock(store) ||
            storedBetween(load->getNextNode(), store, counter))
          continue;
        // The cells hold the position of the value `load` read.
        if (std::optional<int64_t> c = getConstantIntValue(by))
          return shiftPosition(b, loc, this->load(b, loc), *c, slots);
        // A loop since the counter's last store, counting from its value.
        for (Operation *op = store->getPrevNode(); op; op = op->getPrevNode()) {
          if (storedBetween(op, op->getNextNode(), counter))
            break;
          auto loop = dyn_cast<scf::ForOp>(op);
          auto final = loop ? finals.find(loop) : finals.end();
          if (final == finals.end())
            continue;
          std::optional<int64_t> extra = matchTripCount(by, loop);
          if (!extra)
            continue;
          Position position =
              shiftPosition(b, loc, final->second, -*extra, slots);
          if (*extra == 0)
            return position;
          // An empty range runs the drain's iterations only if it is short.
          Value none =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, by,
                                    arith::ConstantIndexOp::create(b, loc, 0));
          Position before = this->load(b, loc);
          return {arith::SelectOp::create(b, loc, none, before.first,
                                          position.first),
                  arith::SelectOp::create(b, loc, none, before.second,
                                          position.second)};
        }
      }
    return dividePosition(b, loc, value, slots);
  }
};

struct CarryRingPositionsPass
    : public tile::impl::CarryRingPositionsBase<CarryRingPositionsPass> {
  void runOnOperation() override {
    SmallVector<RingPositionOp> positions;
    getOperation()->walk([&](RingPositionOp op) { positions.push_back(op); });
    // Cursors per loop, in the order their loops were first seen.
    llvm::MapVector<Operation *, llvm::MapVector<CursorKey, Cursor>> loops;
    SmallVector<RingPositionOp> divided;
    for (RingPositionOp op : positions) {
      auto loop = op->getParentOfType<scf::ForOp>();
      if (!loop || !place(loop, op, loops[loop]))
        divided.push_back(op);
    }
    // Cells for the counters cursors start from.
    llvm::MapVector<CursorKey, CounterCells> cells;
    for (auto &[loop, cursors] : loops)
      for (auto &[key, cursor] : cursors)
        if (cursor.counter && !cells.count(key))
          cells.insert({key, makeCells(cursor.counter, cursor.slots)});
    for (auto &[op, cursors] : loops) {
      if (cursors.empty())
        continue;
      auto loop = cast<scf::ForOp>(op);
      OpBuilder b(loop);
      SmallVector<Cursor> list(llvm::make_second_range(cursors));
      SmallVector<Position> inits;
      for (Cursor &cursor : list)
        inits.push_back(
            cursor.counter ? cells.find({cursor.counter, cursor.slots})
                                 ->second.load(b, loop.getLoc())
            : cursor.base
                ? dividePosition(b, loop.getLoc(), cursor.base, cursor.slots)
                : Position{c32(b, loop.getLoc(), 0), c32(b, loop.getLoc(), 0)});
      scf::ForOp newLoop = carry(loop, list, inits);
      unsigned first = newLoop.getNumResults() - 2 * list.size();
      for (auto [i, cursor] : llvm::enumerate(list))
        if (cursor.counter)
          cells.find({cursor.counter, cursor.slots})->second.finals[newLoop] = {
              newLoop.getResult(first + 2 * i),
              newLoop.getResult(first + 2 * i + 1)};
    }
    for (auto &[key, counterCells] : cells)
      for (Operation *user : llvm::to_vector(key.first.getUsers()))
        if (auto store = dyn_cast<memref::StoreOp>(user))
          counterCells.update(store);
    OpBuilder b(&getContext());
    for (RingPositionOp op : divided) {
      b.setInsertionPoint(op);
      auto [slot, wraps] = dividedPosition(b, op);
      op.getSlot().replaceAllUsesWith(
          arith::IndexCastUIOp::create(b, op.getLoc(), b.getIndexType(), slot));
      op.getWraps().replaceAllUsesWith(wraps);
      op.erase();
    }
  }

  static CounterCells makeCells(Value counter, int64_t slots) {
    OpBuilder b(counter.getDefiningOp()->getNextNode());
    auto type = MemRefType::get({1}, b.getI32Type());
    Location loc = counter.getLoc();
    CounterCells cells;
    cells.counter = counter;
    cells.slots = slots;
    cells.slot = memref::AllocaOp::create(b, loc, type);
    cells.wraps = memref::AllocaOp::create(b, loc, type);
    return cells;
  }

  /// Adds `op` to a cursor of `loop` if its offset counts the loop's
  /// iterations from a base that stays the same in it.
  static bool place(scf::ForOp loop, RingPositionOp op,
                    llvm::MapVector<CursorKey, Cursor> &cursors) {
    LoopCounts counts(loop);
    std::optional<Linear> offset = counts.linearize(op.getOffset());
    if (!offset || !offset->terms.empty() || offset->iterations != 1)
      return false;
    Value base = op.getBase(), key;
    // A base of 0 (a pipe with no counter) is none.
    if (base && getConstantIntValue(base) == 0)
      base = Value();
    if (base) {
      if (!counts.isInvariant(base))
        return false;
      key = counts.termKey(base);
    }
    Cursor &cursor = cursors[{key, op.getSlots()}];
    if (cursor.positions.empty()) {
      cursor.slots = op.getSlots();
      cursor.base = base;
      if (key && key != base)
        cursor.counter = key;
    }
    cursor.positions.push_back({op, offset->constant});
    return true;
  }
};
} // namespace
