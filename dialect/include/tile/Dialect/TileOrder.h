//===- TileOrder.h - The syntax of `tile.tile_order` ------------*- C++ -*-===//
//
// The order in which the blocks of a persistent kernel take its tiles, as
// the kernel attribute `tile.tile_order` spells it. Parsed by the dialect's
// verifier and by tile-persistent-blocks (tile/Transforms/TileOrder.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEORDER_H
#define TILE_DIALECT_TILEORDER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tile {

/// A persistent kernel's order of tiles: the launch order (dim < 0), or
/// the grid's dimension `dim` walked from its last index down (descending)
/// or from 0 up, with the other dimensions fastest (see
/// TileDialect::kTileOrderAttrName).
struct TileOrder {
  int dim = -1;
  bool descending = false;
  bool isLaunchOrder() const { return dim < 0; }
};

/// "launch", or "x-descending", "y-ascending", ...
std::string printTileOrder(TileOrder order);
/// The order `text` names, or failure.
FailureOr<TileOrder> parseTileOrder(StringRef text);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILEORDER_H
