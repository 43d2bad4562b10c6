//===- Resources.h - On-chip resource accounting ----------------*- C++ -*-===//
//
// Shared helpers that compute how much shared memory and how many registers a
// tile kernel needs. Used by `tile-check-resources`, by the pipeliner (to
// check multi-buffered shared memory) and by the lowering (to decide between
// static and dynamic shared memory).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_RESOURCES_H
#define TILE_TRANSFORMS_RESOURCES_H

#include "tile/Dialect/TileOps.h"

namespace mlir::tile {

/// Default alignment of a shared tile, in bytes: the width of a vectorized
/// (16-byte) access.
constexpr int64_t kDefaultSharedAlignment = 16;

/// Size in bytes of a statically shaped tile.
int64_t getTileSizeInBytes(MemRefType type);

/// Size in bytes of a shared tile, including the padding of its layout.
int64_t getSharedTileSizeInBytes(AllocOp alloc);

/// Byte alignment of a shared tile allocation.
int64_t getSharedAlignment(AllocOp alloc);

/// Bytes of shared memory that `kernel` allocates statically, with every
/// shared tile placed at its alignment in program order.
int64_t computeSharedMemoryBytes(KernelOp kernel);

/// Estimated 32-bit registers per thread taken by the fragment and local
/// tiles of `kernel` (fragments spread evenly over the kernel's threads).
int64_t estimateTileRegisters(KernelOp kernel);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_RESOURCES_H
