//===- TileOrder.h - Orders of a persistent kernel's tiles ------*- C++ -*-===//
//
// Which order the blocks of a persistent kernel take its tiles in
// (`tile.tile_order`): the launch order, or the longest-running tiles first
// where the trip counts of the kernel's pipelined loops grow or shrink
// along one grid dimension. Used by tile-persistent-blocks.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_TILEORDER_H
#define TILE_TRANSFORMS_TILEORDER_H

#include "tile/Dialect/TileOps.h"
#include "tile/Dialect/TileOrder.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::tile {

/// The longest-running tiles first, where the trip counts of the
/// pipelined loops of `kernel` (the `tile.num_stages` ones) grow, or
/// shrink, along one grid dimension and no other; else the launch order,
/// with `why` saying why where the trip counts vary otherwise.
TileOrder findLongestFirstOrder(KernelOp kernel, std::string &why);

/// The tile that block `block` of a persistent grid of `grid` blocks takes
/// in round `round` of its tile loop: round * grid + block in even rounds,
/// round * grid + grid - 1 - block in odd ones.
Value emitAlternatingTile(OpBuilder &b, Location loc, Value round, Value grid,
                          Value block);

/// The grid position (one index per dimension of `extents`) of tile
/// `tile` in the order `order` (not the launch order): sections of
/// ceil(8 * grid / extents[dim]) planes across `order.dim` (fewer in the
/// last), each walked along `order.dim` in its direction with the planes
/// fastest (their own position x fastest).
SmallVector<Value> emitOrderedPosition(OpBuilder &b, Location loc, Value tile,
                                       ArrayRef<Value> extents, Value grid,
                                       TileOrder order);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_TILEORDER_H
