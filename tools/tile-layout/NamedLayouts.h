//===- NamedLayouts.h - The named distributed layouts -----------*- C++ -*-===//
//
// Builds the distributed layouts tile-layout names on its command line
// (--mma-acc, --mma-a, --mma-b, --wgmma-acc, --wgmma-a, --mfma-acc,
// --blocked) from their
// shapes and parameters, reporting invalid ones as tool errors.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_NAMEDLAYOUTS_H
#define TILE_LAYOUT_NAMEDLAYOUTS_H

#include "tile/Dialect/LinearLayout.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tile_layout {

/// The command-line values a named layout is built from.
struct NamedLayoutOptions {
  /// The value of the layout's own option: MxN, MxK, KxN or SHAPE.
  std::string shape;
  /// --warps: WMxWN.
  std::string warps;
  /// --bits, --warpgroups, --instr, --threads, --vector.
  int bits, warpgroups, instr, threads, vector;
  /// --chip.
  std::string chip;
};

/// Builds the layout of option --`source` (one of "mma-acc", "mma-a",
/// "mma-b", "wgmma-acc", "wgmma-a", "mfma-acc", "blocked"), or reports why it
/// cannot and returns std::nullopt.
std::optional<mlir::tile::LinearLayout>
buildNamedLayout(llvm::StringRef source, const NamedLayoutOptions &options);

} // namespace tile_layout

#endif // TILE_LAYOUT_NAMEDLAYOUTS_H
