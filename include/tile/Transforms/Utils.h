//===- Utils.h - Helpers shared by tile passes ------------------*- C++ -*-===//

#ifndef TILE_TRANSFORMS_UTILS_H
#define TILE_TRANSFORMS_UTILS_H

#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileOps.h"

namespace mlir::tile {

/// Number of threads that execute `op`: those of the enclosing tile.ws, or
/// the whole block of `kernel`.
int64_t getNumThreads(Operation *op, KernelOp kernel);

/// First thread of the group executing `op` (the first thread of the
/// enclosing tile.ws's first warpgroup, 0 outside one).
int64_t getFirstThread(Operation *op);

/// Each dimension rounded up to a power of two.
SmallVector<int64_t> getPaddedShape(ArrayRef<int64_t> shape);

/// A plain partition of `shape` over `threads` threads: vectors of up to
/// 16 bytes of `elementBits`-bit elements, never so wide that threads go idle.
LinearLayout getPartitionLayout(ArrayRef<int64_t> shape, int64_t threads,
                                int64_t elementBits);

/// The alignment, in elements, that unmasked vector accesses of a copy
/// between global and on-chip memory need: 16 bytes of the global element
/// type, halved until it divides the last dimension of the copy extent. It
/// is a multiple of every vector width the lowering uses for the copy; rows
/// of the global operand and its last offset must be multiples of it.
int64_t getCopyVectorWidth(CopyOp copy);

/// How the warps executing an mma.sync gemm split its accumulator.
struct WarpPartition {
  int64_t warpsM, warpsN;
};

/// Chooses the warp partition of `gemm` over `numWarps` warps following its
/// policy; reports an error on `gemm` if no partition fits.
FailureOr<WarpPartition> partitionWarps(GemmOp gemm, int64_t numWarps);

/// Checks that `gemm` can be computed with mma.sync m16n8k*; reports why not.
LogicalResult verifyMmaSyncShape(GemmOp gemm);

/// The layouts mma.sync needs for each operand of `gemm`.
LinearLayout getMmaAccumulatorLayout(GemmOp gemm, WarpPartition warps);
LinearLayout getMmaOperandALayout(GemmOp gemm, WarpPartition warps);
LinearLayout getMmaOperandBLayout(GemmOp gemm, WarpPartition warps);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_UTILS_H
