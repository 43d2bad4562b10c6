//===- ShapeSpec.h - Entries of tile.shape attributes ----------*- C++ -*-===//
//
// `tile.shape` on a memref argument of a host function holds one string per
// dimension: `"?"` (no constraint), a decimal size (`"128"`), a name shared
// by dimensions of equal size (`"K"`), a name with an upper bound
// (`"N<=4096"`: the size is named N and at most 4096), or a size derived
// from a name (`"ceil(K/128)"`: the size is K divided by 128, rounded up;
// `"2*ceil(K/4)"`: twice that of K divided by 4; `"4*H"`: four times H; K
// and H must name dimensions of the function's arguments). tile-prepare-host
// checks them at each call; the C header, the function table and the tuner
// read them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_SHAPESPEC_H
#define TILE_DIALECT_SHAPESPEC_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tile {

/// One parsed `tile.shape` entry.
struct ShapeEntry {
  enum class Kind { Any, Size, Name, Quotient };
  Kind kind = Kind::Any;
  /// Kind::Size: the size.
  int64_t size = 0;
  /// Kind::Name: the name, and the upper bound if the entry has one.
  /// Kind::Quotient: the name divided, the divisor, and the factor the
  /// rounded-up quotient is multiplied by.
  StringRef name;
  std::optional<int64_t> bound;
  int64_t divisor = 0;
  int64_t factor = 1;
};

/// Parses `text`; on failure returns std::nullopt and sets `error` to what is
/// wrong ("is empty", ...) for a diagnostic that names the dimension.
inline std::optional<ShapeEntry> parseShapeEntry(StringRef text,
                                                 std::string &error) {
  ShapeEntry entry;
  StringRef trimmed = text.trim();
  if (trimmed.empty()) {
    error = "is empty (use \"?\" for no constraint)";
    return std::nullopt;
  }
  if (trimmed == "?")
    return entry;
  int64_t value;
  if (!trimmed.getAsInteger(10, value)) {
    if (value < 0) {
      error = "is a negative size";
      return std::nullopt;
    }
    entry.kind = ShapeEntry::Kind::Size;
    entry.size = value;
    return entry;
  }
  if (auto [factor, rest] = trimmed.split('*'); !rest.empty()) {
    if (factor.trim().getAsInteger(10, entry.factor) || entry.factor <= 0) {
      error = "is not \"FACTOR*NAME\" or \"FACTOR*ceil(NAME/DIVISOR)\" with "
              "a positive factor";
      return std::nullopt;
    }
    trimmed = rest.trim();
    if (!trimmed.starts_with("ceil(")) {
      // FACTOR*NAME: a multiple of a named size (grouped-query attention's
      // query heads, "4*HKV"), the quotient of a divisor of 1.
      entry.kind = ShapeEntry::Kind::Quotient;
      entry.name = trimmed;
      entry.divisor = 1;
      if (entry.name.empty() ||
          entry.name.find_first_of("<>=()/* ") != StringRef::npos) {
        error = "is not \"FACTOR*NAME\" with a name";
        return std::nullopt;
      }
      return entry;
    }
  }
  if (trimmed.consume_front("ceil(")) {
    auto [name, divisor] = trimmed.split('/');
    entry.kind = ShapeEntry::Kind::Quotient;
    entry.name = name.trim();
    if (!divisor.consume_back(")") || entry.name.empty() ||
        divisor.trim().getAsInteger(10, entry.divisor) || entry.divisor <= 0 ||
        entry.name.find_first_of("<>=()/ ") != StringRef::npos) {
      error = "is not \"ceil(NAME/DIVISOR)\" with a positive divisor";
      return std::nullopt;
    }
    return entry;
  }
  entry.kind = ShapeEntry::Kind::Name;
  auto [name, bound] = trimmed.split("<=");
  entry.name = name.trim();
  if (entry.name.empty()) {
    error = "has a bound but no name (write \"N<=4096\")";
    return std::nullopt;
  }
  if (name.size() != trimmed.size()) {
    int64_t limit;
    if (bound.trim().getAsInteger(10, limit) || limit < 0) {
      error = "has a bound that is not a non-negative decimal number";
      return std::nullopt;
    }
    entry.bound = limit;
  }
  if (entry.name.find_first_of("<>=()/") != StringRef::npos) {
    error = "is not a name, a size, \"?\", \"NAME<=BOUND\", "
            "\"FACTOR*NAME\" or \"[FACTOR*]ceil(NAME/DIVISOR)\"";
    return std::nullopt;
  }
  return entry;
}

} // namespace mlir::tile

#endif // TILE_DIALECT_SHAPESPEC_H
