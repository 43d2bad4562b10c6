//===- TileOrder.cpp - The syntax of `tile.tile_order` ----------*- C++ -*-===//

#include "tile/Dialect/TileOrder.h"

using namespace mlir;
using namespace mlir::tile;

static constexpr llvm::StringLiteral kDimNames = "xyz";

std::string mlir::tile::printTileOrder(TileOrder order) {
  if (order.isLaunchOrder())
    return "launch";
  return std::string(1, kDimNames[order.dim]) +
         (order.descending ? "-descending" : "-ascending");
}

FailureOr<TileOrder> mlir::tile::parseTileOrder(StringRef text) {
  TileOrder order;
  if (text == "launch")
    return order;
  auto [dim, direction] = text.split('-');
  if (dim.size() != 1 || kDimNames.find(dim[0]) == StringRef::npos ||
      (direction != "descending" && direction != "ascending"))
    return failure();
  order.dim = static_cast<int>(kDimNames.find(dim[0]));
  order.descending = direction == "descending";
  return order;
}
