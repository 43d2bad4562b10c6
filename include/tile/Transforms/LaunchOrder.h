//===- LaunchOrder.h - Launch orders of tile kernels ------------*- C++ -*-===//
//
// What tile-launch-order, tile-persistent-blocks and convert-tile-to-gpu
// share: which kernels read operand panels along both grid dimensions, and
// the grouped order of grid positions.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_LAUNCHORDER_H
#define TILE_TRANSFORMS_LAUNCHORDER_H

#include "tile/Dialect/TileOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::tile {

/// Whether the blocks of `kernel` (a grid of at least two dimensions) share
/// operand panels along grid rows and columns: a copy from global memory
/// whose position follows the block's y index alone and another that
/// follows x alone (the A and B panels of a GEMM).
bool sharesOperandPanels(KernelOp kernel);

/// Whether the blocks of `kernel` (a grid of at least two dimensions) share
/// an operand panel along one of them: a copy from global memory whose
/// position follows the block's y index but not x, or x but not y (the key
/// and value panels of attention, read by every query block of a head).
bool sharesOperandPanel(KernelOp kernel);

/// Whether `value`, computed in `kernel`, depends on the block's y index.
bool dependsOnBlockY(Value value, KernelOp kernel);

/// The grid position (x, y) of the block run `linear`-th (y * gx + x in
/// the hardware's order) in the grouped order of `group` grid rows:
/// consecutive blocks walk down `group` rows (fewer in the last group),
/// then move one column right. A bijection of the gx x gy grid onto
/// itself.
std::pair<Value, Value> emitGroupedPosition(OpBuilder &b, Location loc,
                                            Value linear, Value gx, Value gy,
                                            int64_t group);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_LAUNCHORDER_H
