//===- CheckHandoffs.cpp - Static check of the hand-off protocol -*- C++
//-*-===//
//
// `tile-check-handoffs` follows the hand-offs of each pipe of a kernel, per
// role (the threads of a `tile.ws` region, with the kernel-level ops every
// thread runs; the whole block when no region holds pipe ops), over
// straight-line code, `scf.if` and `scf.for`, and checks:
//
//  * consume_wait[s]: the executing threads committed hand-off s before
//    (the same threads when they commit the pipe; otherwise another role
//    commits it, and these threads released hand-off s - slots before,
//    since the producers need that release to fill the slot);
//  * consume_wait[s] in_flight(k): k later hand-offs are committed too (in
//    a role that commits the pipe: cp.async waits for all groups but k);
//  * produce_acquire[s]: hand-off s - slots (the slot's previous use) was
//    released before (by the same threads when they release the pipe;
//    otherwise committed by them, since the consumers release it after);
//    some consume_release of the pipe exists once slots are reused.
//
// What is done is tracked as frontiers of hand-off numbers: a lower bound
// (a set of affine expressions, "every hand-off below one of these is
// committed / released") and an upper bound ("none at or above this one
// is"), over affine expressions of SSA values and of loop iteration
// counters. Hand-offs below the pipe's base are passed (their ops do
// nothing), so the base is always a lower bound. A loop carries the bound
// "hand-off c(n) and all before it at iteration n" when its body starts
// with an op of that kind on c(n) and one iteration ends past c(n + 1)
// (checked on a first, silent run of the body). Provably wrong is an
// error, unproved a warning.
//
//===----------------------------------------------------------------------===//

#include "HandoffBounds.h"

#include "tile/Transforms/Handoffs.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CHECKHANDOFFS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::handoffs;

namespace {
struct State {
  Bound commit, release;
  Expr base;
};

enum Kind { Commit = 0, Release = 1 };

/// The analysis of one pipe in one role.
class Analysis {
public:
  Analysis(Value pipe, WsOp role, bool diagnose,
           llvm::DenseMap<Operation *, int64_t> *laterCommits)
      : pipe(pipe), role(role), diagnose(diagnose), laterCommits(laterCommits) {
    slots = cast<PipeType>(pipe.getType()).getSlots();
    for (Operation *user : pipe.getUsers()) {
      bool mine = inRole(user);
      if (isa<PipeProduceCommitOp>(user)) {
        anyCommits = true;
        roleCommits |= mine;
      }
      if (isa<PipeConsumeReleaseOp>(user)) {
        anyReleases = true;
        roleReleases |= mine;
      }
      if (!mine)
        continue;
      int kind = isa<PipeProduceCommitOp>(user)    ? Commit
                 : isa<PipeConsumeReleaseOp>(user) ? Release
                                                   : -1;
      for (Operation *op = user; op; op = op->getParentOp()) {
        holds.insert(op);
        if (kind >= 0)
          holdsKind[kind].insert(op);
        if (isa<PipeAdvanceOp>(user))
          holdsAdvance.insert(op);
        if (isa<KernelOp>(op))
          break;
      }
    }
  }

  bool failed = false;

  void run(Block &body) {
    State state;
    state.base = Expr::of(0);
    state.commit.lo.push_back(state.base);
    state.commit.hi = state.base;
    state.release = state.commit;
    interpret(body, state);
  }

private:
  Value pipe;
  WsOp role;
  bool diagnose;
  llvm::DenseMap<Operation *, int64_t> *laterCommits;
  int64_t slots = 1;
  bool anyCommits = false, anyReleases = false;
  bool roleCommits = false, roleReleases = false;
  /// Ops that are or hold ops of the pipe in this role.
  llvm::DenseSet<Operation *> holds, holdsKind[2], holdsAdvance;
  /// False during the silent first run of a loop body.
  bool final = true;
  /// Silent runs in progress, at most kMaxDryNesting.
  unsigned dryNesting = 0;
  static constexpr unsigned kMaxDryNesting = 4;
  llvm::DenseMap<Value, Expr> values;
  /// The op each atom belongs to (its definition, loop or join).
  llvm::DenseMap<Key, Operation *> owners;
  llvm::DenseMap<std::pair<Operation *, int>, Key> freshKeys;

  bool inRole(Operation *op) {
    auto ws = op->getParentOfType<WsOp>();
    return !role || !ws || ws == role;
  }

  //===------------------------------------------------------------------===//
  // Expressions
  //===------------------------------------------------------------------===//

  Expr counter(scf::ForOp loop) {
    Key key = reinterpret_cast<Key>(loop.getOperation());
    owners[key] = loop;
    return Expr::atom(key);
  }
  Expr fresh(Operation *owner, int which) {
    auto [it, inserted] =
        freshKeys.try_emplace({owner, which}, (freshKeys.size() << 1) | 1);
    owners[it->second] = owner;
    return Expr::atom(it->second);
  }
  Expr opaque(Value v) {
    Key key = reinterpret_cast<Key>(v.getAsOpaquePointer());
    owners[key] = v.getDefiningOp() ? v.getDefiningOp()
                                    : v.getParentBlock()->getParentOp();
    return Expr::atom(key);
  }

  Expr eval(Value v, unsigned depth = 0) {
    if (auto it = values.find(v); it != values.end())
      return it->second;
    Expr e = evaluate(v, depth);
    values[v] = e;
    return e;
  }

  Expr evaluate(Value v, unsigned depth) {
    if (depth > 32)
      return opaque(v);
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return Expr::of(*c);
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      std::optional<int64_t> step =
          loop ? getConstantIntValue(loop.getStep()) : std::nullopt;
      if (loop && arg == loop.getInductionVar() && step)
        if (std::optional<Expr> r = add(eval(loop.getLowerBound(), depth + 1),
                                        counter(loop), *step))
          return *r;
      return opaque(v);
    }
    Operation *def = v.getDefiningOp();
    auto operand = [&](unsigned i) {
      return eval(def->getOperand(i), depth + 1);
    };
    std::optional<Expr> r;
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
      r = operand(0);
    else if (isa<arith::AddIOp>(def))
      r = add(operand(0), operand(1));
    else if (isa<arith::SubIOp>(def))
      r = add(operand(0), operand(1), -1);
    else if (isa<arith::MulIOp>(def)) {
      Expr a = operand(0), b = operand(1);
      if (b.terms.empty())
        r = add(Expr::of(0), a, b.constant);
      else if (a.terms.empty())
        r = add(Expr::of(0), b, a.constant);
    } else if (isa<arith::DivSIOp, arith::DivUIOp>(def)) {
      r = evaluateDivision(def, depth);
    }
    return r ? *r : opaque(v);
  }

  /// (iv - lb) / step is the loop's iteration counter; an exact division
  /// by a positive constant divides the expression.
  std::optional<Expr> evaluateDivision(Operation *def, unsigned depth) {
    Value lhs = def->getOperand(0), rhs = def->getOperand(1);
    if (auto sub = lhs.getDefiningOp<arith::SubIOp>())
      if (auto arg = dyn_cast<BlockArgument>(sub.getLhs()))
        if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
          if (arg == loop.getInductionVar() &&
              sub.getRhs() == loop.getLowerBound() &&
              (rhs == loop.getStep() ||
               (getConstantIntValue(rhs) &&
                getConstantIntValue(rhs) ==
                    getConstantIntValue(loop.getStep()))))
            return counter(loop);
    std::optional<int64_t> d = getConstantIntValue(rhs);
    if (!d || *d <= 0 || (isa<arith::DivUIOp>(def) && *d != 1))
      return std::nullopt;
    Expr e = eval(lhs, depth + 1);
    Expr r;
    for (auto [key, c] : e.terms) {
      if (c % *d)
        return std::nullopt;
      r.terms.push_back({key, c / *d});
    }
    if (e.constant % *d)
      return std::nullopt;
    r.constant = e.constant / *d;
    return r;
  }

  /// Whether `e` has an atom other than `except` defined in `loop`.
  bool variesIn(const Expr &e, Operation *loop, Key except) {
    return llvm::any_of(e.terms, [&](auto term) {
      Operation *owner = owners.lookup(term.first);
      return term.first != except && owner && loop->isAncestor(owner);
    });
  }

  //===------------------------------------------------------------------===//
  // Diagnostics
  //===------------------------------------------------------------------===//

  bool reporting() const { return final && diagnose; }
  void error(Operation *op, const Twine &message) {
    if (!final)
      return;
    failed = true;
    if (diagnose)
      op->emitError(message);
  }
  void warning(Operation *op, const Twine &message) {
    if (reporting())
      op->emitWarning(message);
  }
  std::string previousUse() const {
    return "its slot's previous use (hand-off " +
           std::string(slots == 1 ? "s - 1" : "s - " + std::to_string(slots)) +
           ")";
  }

  //===------------------------------------------------------------------===//
  // Interpretation
  //===------------------------------------------------------------------===//

  void interpret(Block &block, State &state) {
    for (Operation &op : block) {
      if (auto ws = dyn_cast<WsOp>(op)) {
        if (holds.contains(ws) && (!role || ws == role))
          interpret(ws.getBody().front(), state);
        continue;
      }
      if (!holds.contains(&op))
        continue;
      if (auto loop = dyn_cast<scf::ForOp>(op))
        interpretLoop(loop, state);
      else if (auto branch = dyn_cast<scf::IfOp>(op))
        interpretIf(branch, state);
      else if (op.getNumRegions() == 0)
        interpretPipeOp(&op, state);
      else {
        warning(&op, "cannot follow the hand-offs of a pipe through this op: "
                     "its pipe ops are not checked");
        state.commit.hi.reset();
        state.release.hi.reset();
      }
    }
  }

  void interpretIf(scf::IfOp branch, State &state) {
    State other = state;
    interpret(branch.getThenRegion().front(), state);
    if (!branch.getElseRegion().empty())
      interpret(branch.getElseRegion().front(), other);
    state.commit = join(state.commit, other.commit);
    state.release = join(state.release, other.release);
    if (!diff(state.base, other.base) || *diff(state.base, other.base) != 0) {
      state.base = fresh(branch, 0);
      state.commit.lo.push_back(state.base);
      state.release.lo.push_back(state.base);
      state.commit.hi.reset();
      state.release.hi.reset();
    }
  }

  void interpretLoop(scf::ForOp loop, State &state) {
    Block &body = *loop.getBody();
    if (holdsAdvance.contains(loop)) {
      // The base moves in the loop: each iteration starts past an unknown
      // base, which every bound includes.
      State start = state;
      start.base = fresh(loop, 0);
      for (Bound *b : {&start.commit, &start.release}) {
        b->addLower(start.base);
        b->hi.reset();
      }
      interpret(body, start);
      state.base = fresh(loop, 1);
      for (Bound *b : {&state.commit, &state.release}) {
        b->addLower(state.base);
        b->hi.reset();
      }
      return;
    }
    // Induction: an iteration starting with hand-off c(n) done up to it
    // (lower bound) or with none from c(n) on done (upper bound), where
    // c(n) is the hand-off of the body's first op of that kind.
    Key n = reinterpret_cast<Key>(loop.getOperation());
    std::optional<Expr> first[2], next[2];
    bool loCand[2] = {false, false}, hiCand[2] = {false, false};
    State start = state;
    for (int kind : {Commit, Release}) {
      if (!holdsKind[kind].contains(loop))
        continue;
      Bound &b = kind == Commit ? start.commit : start.release;
      for (Operation &op : body) {
        if (!holdsKind[kind].contains(&op))
          continue;
        if (op.getNumRegions() == 0) {
          Expr c = eval(op.getOperand(1));
          // A positive step only (its negation is then exact).
          int64_t m = c.coefficient(n);
          if (m > 0 && add(c, counter(loop), -m) && !variesIn(c, loop, n) &&
              (next[kind] = plus(c, m)))
            first[kind] = c;
        }
        break;
      }
      if (!first[kind]) {
        b.hi.reset();
        continue;
      }
      int64_t m = first[kind]->coefficient(n);
      Expr c0 = *add(*first[kind], counter(loop), -m);
      loCand[kind] = b.proves(c0);
      if (loCand[kind])
        b.lo.push_back(*first[kind]);
      std::optional<int64_t> d = b.hi ? diff(c0, *b.hi) : std::nullopt;
      hiCand[kind] = d && *d >= 0;
      b.hi = hiCand[kind] ? first[kind] : std::nullopt;
    }
    // The silent run that checks the candidates (nested ones fall back to
    // what holds without induction beyond a few levels: each level runs
    // the body twice).
    bool loProved[2] = {false, false};
    bool checked = (loCand[Commit] || loCand[Release] || hiCand[Commit] ||
                    hiCand[Release]) &&
                   dryNesting < kMaxDryNesting;
    State dry = start;
    if (checked) {
      bool wasFinal = final;
      final = false;
      ++dryNesting;
      interpret(body, dry);
      --dryNesting;
      final = wasFinal;
    }
    for (int kind : {Commit, Release}) {
      Bound &end = kind == Commit ? dry.commit : dry.release;
      Bound &b = kind == Commit ? start.commit : start.release;
      loProved[kind] = checked && loCand[kind] && end.proves(*next[kind]);
      if (loCand[kind] && !loProved[kind])
        llvm::erase_if(b.lo, [&](const Expr &e) {
          return diff(e, *first[kind]) == std::optional<int64_t>(0);
        });
      std::optional<int64_t> d = checked && hiCand[kind] && end.hi
                                     ? diff(*next[kind], *end.hi)
                                     : std::nullopt;
      if (hiCand[kind] && (!d || *d < 0))
        b.hi.reset();
    }
    interpret(body, start);
    // After the loop: c(trips) when the trip count is known.
    std::optional<Expr> trips;
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (step && *step > 0)
      if (std::optional<Expr> span =
              add(eval(loop.getUpperBound()), eval(loop.getLowerBound()), -1)) {
        trips = Expr();
        for (auto [key, c] : span->terms) {
          if (c % *step)
            trips.reset();
          else if (trips)
            trips->terms.push_back({key, c / *step});
        }
        if (trips)
          trips->constant = llvm::divideFloorSigned(span->constant, *step);
      }
    for (int kind : {Commit, Release}) {
      if (!holdsKind[kind].contains(loop))
        continue;
      Bound &b = kind == Commit ? state.commit : state.release;
      b.hi.reset();
      if (!loProved[kind] || !trips)
        continue;
      int64_t m = first[kind]->coefficient(n);
      if (std::optional<Expr> c = add(*first[kind], counter(loop), -m))
        if (std::optional<Expr> end = add(*c, *trips, m))
          b.addLower(*end);
    }
  }

  void interpretPipeOp(Operation *op, State &state) {
    if (auto base = dyn_cast<PipeBaseOp>(op)) {
      values[base.getBase()] = state.base;
      return;
    }
    if (auto advance = dyn_cast<PipeAdvanceOp>(op)) {
      std::optional<Expr> base = add(state.base, eval(advance.getCount()));
      state.base = base ? *base : fresh(op, 0);
      for (Bound *b : {&state.commit, &state.release}) {
        b->addLower(state.base);
        std::optional<int64_t> d =
            b->hi ? diff(state.base, *b->hi) : std::nullopt;
        if (!d)
          b->hi.reset();
        else if (*d > 0)
          b->hi = state.base;
      }
      return;
    }
    Expr s = eval(op->getOperand(1));
    std::optional<Expr> previous = plus(s, -slots);
    if (isa<PipeProduceCommitOp>(op))
      return state.commit.record(s);
    if (isa<PipeConsumeReleaseOp>(op))
      return state.release.record(s);
    if (isa<PipeProduceAcquireOp>(op))
      return checkAcquire(op, s, previous, state);
    checkWait(cast<PipeConsumeWaitOp>(op), s, previous, state);
  }

  void checkAcquire(Operation *op, const Expr &s,
                    const std::optional<Expr> &previous, State &state) {
    if (!anyReleases) {
      // Without releases, only the first `slots` hand-offs may be acquired.
      // The largest hand-off number this acquire may name: over loops of
      // constant trip counts, or growing without bound with a loop of
      // unknown trip count.
      int64_t most = s.constant;
      bool grows = false, unknown = false;
      for (auto [key, c] : s.terms) {
        auto loop = dyn_cast_or_null<scf::ForOp>(owners.lookup(key));
        if (!loop || key != reinterpret_cast<Key>(loop.getOperation())) {
          unknown = true;
          continue;
        }
        std::optional<int64_t> trips = constantTrips(loop);
        if (!trips) {
          grows |= c > 0;
          unknown |= c <= 0;
        } else if (int64_t step; c > 0 && *trips > 0 &&
                                 (llvm::MulOverflow(c, *trips - 1, step) ||
                                  llvm::AddOverflow(most, step, most))) {
          grows = true;
        }
      }
      if (grows || (!unknown && most >= slots))
        return error(op, "acquires a slot that is never released: no "
                         "tile.pipe.consume_release of this pipe frees one, "
                         "so the acquire after its " +
                             Twine(slots) + " slots are used waits forever");
      if (unknown)
        warning(op, "cannot prove that this acquire never reuses a slot: no "
                    "tile.pipe.consume_release of this pipe frees one");
      return;
    }
    std::optional<Expr> needed = previous ? plus(*previous, 1) : std::nullopt;
    Bound &b = roleReleases ? state.release : state.commit;
    if (needed && b.proves(*needed))
      return;
    if (previous && b.excludes(*previous))
      return error(op, roleReleases
                           ? "acquires a slot before " + previousUse() +
                                 " is released: the release comes later in "
                                 "the program or never (deadlock)"
                           : "acquires a slot before committing " +
                                 previousUse() +
                                 ", which the consumers must release first "
                                 "(deadlock)");
    warning(op, "cannot prove that " + previousUse() + " is " +
                    (roleReleases ? "released" : "committed") +
                    " before this acquire");
  }

  void checkWait(PipeConsumeWaitOp wait, const Expr &s,
                 const std::optional<Expr> &previous, State &state) {
    int64_t k = wait.getInFlight();
    if (!anyCommits)
      return error(wait, "waits for a hand-off that nothing commits: no "
                         "tile.pipe.produce_commit of this pipe");
    if (!roleCommits) {
      // Another role commits it, once these threads released the slot's
      // previous use (in_flight counts this role's own groups only).
      std::optional<Expr> needed = previous ? plus(*previous, 1) : std::nullopt;
      if (!roleReleases || (needed && state.release.proves(*needed)))
        return;
      if (previous && state.release.excludes(*previous))
        return error(wait, "waits for a hand-off before releasing " +
                               previousUse() +
                               ", which the producers need to fill the slot "
                               "(deadlock)");
      return warning(wait, "cannot prove that " + previousUse() +
                               " is released before this wait");
    }
    std::optional<Expr> after = plus(s, 1);
    std::optional<int64_t> margin =
        after ? state.commit.margin(*after) : std::nullopt;
    if (final && laterCommits) {
      int64_t later = margin ? std::max<int64_t>(*margin, 0) : 0;
      auto [it, inserted] = laterCommits->try_emplace(wait, later);
      if (!inserted)
        it->second = std::min(it->second, later);
    }
    if (margin && *margin >= k)
      return;
    if (state.commit.excludes(s))
      return error(wait, "waits for a hand-off before it is committed: its "
                         "tile.pipe.produce_commit comes later in the program "
                         "or never (a deadlock on barriers, a race on "
                         "cp.async)");
    std::optional<int64_t> most = after && state.commit.hi
                                      ? diff(*state.commit.hi, *after)
                                      : std::nullopt;
    if (most && *most < k)
      return error(wait, "in_flight(" + Twine(k) + "), but at most " +
                             Twine(std::max<int64_t>(*most, 0)) +
                             " later hand-offs of the pipe are committed "
                             "when it executes: the waited copies could "
                             "still be in flight");
    if (margin && *margin >= 0)
      return warning(wait, "cannot prove that " + Twine(k) +
                               " later hand-offs are committed before this "
                               "wait (in_flight)");
    warning(wait, "cannot prove that the hand-off is committed before this "
                  "wait");
  }
};
} // namespace

LogicalResult mlir::tile::analyzeHandoffs(
    KernelOp kernel, bool diagnose,
    llvm::DenseMap<Operation *, int64_t> *laterCommits) {
  bool failed = false;
  Block &body = kernel.getBody().front();
  for (auto create : body.getOps<PipeCreateOp>()) {
    Value pipe = create.getPipe();
    llvm::SetVector<WsOp> roles;
    for (Operation *user : pipe.getUsers())
      if (auto ws = user->getParentOfType<WsOp>())
        roles.insert(ws);
    if (roles.empty())
      roles.insert(WsOp());
    for (WsOp role : roles) {
      Analysis analysis(pipe, role, diagnose, laterCommits);
      analysis.run(body);
      failed |= analysis.failed;
    }
  }
  return failure(failed);
}

namespace {
struct CheckHandoffsPass
    : public mlir::tile::impl::CheckHandoffsBase<CheckHandoffsPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](KernelOp kernel) {
      failed |= mlir::failed(analyzeHandoffs(kernel, /*diagnose=*/true));
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
