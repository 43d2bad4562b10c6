//===- TileSyncOps.cpp - Synchronization ops --------------------*- C++ -*-===//

#include "tile/Dialect/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult BarrierOp::verify() {
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError("must be nested in a tile.kernel");
  if ((*this)->getParentOfType<ParallelOp>())
    return emitOpError("cannot be nested in a tile.parallel: its threads "
                       "execute different numbers of iterations");
  return success();
}
