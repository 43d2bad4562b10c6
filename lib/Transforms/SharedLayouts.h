//===- SharedLayouts.h - Physical layouts of shared tiles --------*- C++
//-*-===//

#ifndef TILE_LIB_TRANSFORMS_SHAREDLAYOUTS_H
#define TILE_LIB_TRANSFORMS_SHAREDLAYOUTS_H

#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"

namespace mlir::tile {

/// Gives every shared tile of `kernel` without a layout one (for gemm
/// operands the target's choice, with a remark saying why when
/// `emitRemarks`; row-major otherwise) and the alignment it requires.
void assignSharedLayouts(KernelOp kernel, const TargetInfo &target,
                         bool emitRemarks);

} // namespace mlir::tile

#endif // TILE_LIB_TRANSFORMS_SHAREDLAYOUTS_H
