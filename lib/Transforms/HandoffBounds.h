//===- HandoffBounds.h - Bounds on hand-off numbers -------------*- C++ -*-===//
//
// The algebra of tile-check-handoffs (CheckHandoffs.cpp): affine
// expressions over SSA values and loop iteration counters, and bounds on
// the hand-offs of a pipe that are done (committed or released); loop trip
// counts.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_HANDOFFBOUNDS_H
#define TILE_TRANSFORMS_HANDOFFBOUNDS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <optional>

namespace mlir::tile::handoffs {
using Key = uintptr_t;

/// An affine expression: sum of coefficient x atom, plus a constant. Atoms
/// are SSA values, loop iteration counters and fresh unknowns.
struct Expr {
  SmallVector<std::pair<Key, int64_t>, 2> terms; // sorted, no 0 coefficient
  int64_t constant = 0;

  static Expr of(int64_t value) {
    Expr e;
    e.constant = value;
    return e;
  }
  static Expr atom(Key key) {
    Expr e;
    e.terms.push_back({key, 1});
    return e;
  }
  int64_t coefficient(Key key) const {
    for (auto [k, c] : terms)
      if (k == key)
        return c;
    return 0;
  }
};

/// a + factor * b, or nothing on overflow.
inline std::optional<Expr> add(const Expr &a, const Expr &b,
                               int64_t factor = 1) {
  Expr r;
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    Key key;
    int64_t c;
    if (j == b.terms.size() ||
        (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      key = a.terms[i].first;
      c = a.terms[i++].second;
    } else {
      key = b.terms[j].first;
      if (llvm::MulOverflow(b.terms[j++].second, factor, c))
        return std::nullopt;
      if (i < a.terms.size() && a.terms[i].first == key &&
          llvm::AddOverflow(a.terms[i++].second, c, c))
        return std::nullopt;
    }
    if (c)
      r.terms.push_back({key, c});
  }
  int64_t c;
  if (llvm::MulOverflow(b.constant, factor, c) ||
      llvm::AddOverflow(a.constant, c, r.constant))
    return std::nullopt;
  return r;
}

inline std::optional<Expr> plus(const Expr &a, int64_t value) {
  return add(a, Expr::of(value));
}

/// a - b when it is a constant.
inline std::optional<int64_t> diff(const Expr &a, const Expr &b) {
  int64_t d;
  if (a.terms != b.terms || llvm::SubOverflow(a.constant, b.constant, d))
    return std::nullopt;
  return d;
}

/// What is known of the hand-offs done (committed or released) so far:
/// every hand-off below max(lo) is done, none at or above hi is.
struct Bound {
  SmallVector<Expr, 2> lo;
  std::optional<Expr> hi;

  /// Whether every hand-off below `y` is provably done.
  bool proves(const Expr &y) const {
    return llvm::any_of(lo, [&](const Expr &e) {
      std::optional<int64_t> d = diff(e, y);
      return d && *d >= 0;
    });
  }
  /// The largest proved `d` with every hand-off below y + d done.
  std::optional<int64_t> margin(const Expr &y) const {
    std::optional<int64_t> best;
    for (const Expr &e : lo)
      if (std::optional<int64_t> d = diff(e, y); d && (!best || *d > *best))
        best = d;
    return best;
  }
  /// Whether hand-off `y` is provably not done yet.
  bool excludes(const Expr &y) const {
    std::optional<int64_t> d = hi ? diff(y, *hi) : std::nullopt;
    return d && *d >= 0;
  }
  void addLower(const Expr &e) {
    if (proves(e))
      return;
    llvm::erase_if(lo, [&](const Expr &old) {
      std::optional<int64_t> d = diff(e, old);
      return d && *d >= 0;
    });
    if (lo.size() < 6)
      lo.push_back(e);
  }
  /// Hand-off `s` is done now.
  void record(const Expr &s) {
    std::optional<Expr> next = plus(s, 1);
    if (next && proves(s))
      addLower(*next);
    std::optional<int64_t> d = next && hi ? diff(*next, *hi) : std::nullopt;
    if (!d)
      hi.reset();
    else if (*d > 0)
      hi = next;
  }
};

/// What is known when control joins from two paths.
inline Bound join(const Bound &a, const Bound &b) {
  Bound r;
  for (const Expr &e : a.lo)
    if (b.proves(e))
      r.addLower(e);
  for (const Expr &e : b.lo)
    if (a.proves(e))
      r.addLower(e);
  std::optional<int64_t> d =
      a.hi && b.hi ? diff(*a.hi, *b.hi) : std::optional<int64_t>();
  if (d)
    r.hi = *d >= 0 ? a.hi : b.hi;
  return r;
}

/// The trip count of `loop` when its bounds and step are constants
/// (small enough not to overflow).
inline std::optional<int64_t> constantTrips(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  int64_t span;
  if (!lb || !ub || !step || *step <= 0 || *step > (int64_t(1) << 32) ||
      llvm::SubOverflow(*ub, *lb, span))
    return std::nullopt;
  return span <= 0 ? 0 : llvm::divideCeilSigned(span, *step);
}

} // namespace mlir::tile::handoffs

#endif // TILE_TRANSFORMS_HANDOFFBOUNDS_H
