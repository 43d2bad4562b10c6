//===- WarpSpecializeOrder.h - The producer's one-time hand-offs -*- C++
//-*-===//
//
// Part of tile-warp-specialize: the order in which the producer issues a
// kernel's one-time hand-offs (tile-hand-off-copies).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_WARPSPECIALIZEORDER_H
#define TILE_TRANSFORMS_WARPSPECIALIZEORDER_H

#include "tile/Dialect/TileOps.h"

namespace mlir::tile {

/// Moves the producer's one-time hand-offs (a one-slot pipe's acquire,
/// copies and commit) after the last op holding hand-offs of pipes that
/// the consumers wait for first, at the regions' top level and in their
/// loops over tiles: the producer then issues copies in the order the
/// consumers need them (the rotated loop's last values after the loop's
/// stages, not ahead of them).
void orderOneTimeHandOffs(WsOp producer, WsOp consumer);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_WARPSPECIALIZEORDER_H
