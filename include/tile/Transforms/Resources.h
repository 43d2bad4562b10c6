//===- Resources.h - On-chip resource accounting ----------------*- C++ -*-===//
//
// Shared helpers that compute how much shared memory and how many registers a
// tile kernel needs. Used by `tile-check-resources`, by the pipeliner (to
// check multi-buffered shared memory) and by the lowering (to decide between
// static and dynamic shared memory).
//
// All sizes saturate: a size that does not fit in int64_t is returned as
// kSaturatedSize, which compares greater than every limit, so that no input
// can wrap a size around to a small or negative number. Report such sizes
// with describeSize() ("more than 9223372036854775806").
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_RESOURCES_H
#define TILE_TRANSFORMS_RESOURCES_H

#include "tile/Dialect/ChipDescription.h"
#include "tile/Dialect/TileOps.h"

#include <cstdint>
#include <limits>
#include <string>

namespace mlir::tile {

/// Default alignment of a shared tile, in bytes: the width of a vectorized
/// (16-byte) access.
constexpr int64_t kDefaultSharedAlignment = 16;

/// The value of every size that does not fit in int64_t.
constexpr int64_t kSaturatedSize = std::numeric_limits<int64_t>::max();

/// Saturating a + b and a * b of non-negative sizes.
int64_t addSizes(int64_t a, int64_t b);
int64_t mulSizes(int64_t a, int64_t b);
/// `size` rounded up to a multiple of `alignment` (saturating).
int64_t alignSize(int64_t size, int64_t alignment);

/// "N" or, for kSaturatedSize, "more than N - 1".
std::string describeSize(int64_t size);

/// Bytes one element of `type` occupies in memory (LLVM's allocation size:
/// i1 takes a byte, f16 two); 0 for types without a fixed bit width.
int64_t getElementStorageBytes(Type type);

/// Elements of a statically shaped tile (saturating).
int64_t getNumElements(ArrayRef<int64_t> shape);

/// Size in bytes of a statically shaped tile (saturating).
int64_t getTileSizeInBytes(MemRefType type);

/// Size in bytes of a shared tile, including the padding of its layout
/// (saturating).
int64_t getSharedTileSizeInBytes(AllocOp alloc);

/// Byte alignment of a shared tile allocation.
int64_t getSharedAlignment(AllocOp alloc);

/// Diagnoses shared tiles of `kernel` whose `offset`s overlap, unless one is
/// the scratch tile of a layout conversion and the other a tile of the
/// kernel's own that is dead where the conversion runs (what
/// tile-allocate-shared may decide). Tiles without an offset are ignored.
LogicalResult verifySharedPlacement(KernelOp kernel);

/// Bytes of shared memory that `kernel` allocates statically, with every
/// shared tile placed at its alignment in program order (saturating).
int64_t computeSharedMemoryBytes(KernelOp kernel);

/// Threads that execute `op` together: those of the enclosing `tile.ws`, else
/// the kernel's.
int64_t getCooperatingThreads(Operation *op);

/// Estimated 32-bit registers per thread taken by the fragment and local
/// tiles of `kernel` (fragments spread evenly over the threads that
/// cooperate on them; saturating).
int64_t estimateTileRegisters(KernelOp kernel);

/// Registers per thread a kernel needs besides its register tiles
/// (addresses, loop counters, operand fragments in flight): what the
/// producer warpgroup of a specialized kernel is given, which does nothing
/// else.
constexpr int64_t kAddressRegisters = 40;

/// Estimated registers per thread of `kernel`: its register tiles plus
/// kAddressRegisters, at most what a thread of its target can have.
int64_t estimateKernelRegisters(KernelOp kernel);

/// Blocks of `threads` threads using `registers` each and `sharedBytes` of
/// shared memory that one multiprocessor of `chip` holds at once (at least
/// one: a kernel that fits a block runs).
int64_t residentBlocksPerMultiprocessor(const ChipDescription &chip,
                                        int64_t threads, int64_t registers,
                                        int64_t sharedBytes);

/// The limits resources are checked against: an explicit positive pass
/// option wins, otherwise the target's (`#tile.target` of `op`, else the
/// default chip).
struct ResourceLimits {
  int64_t sharedMemoryPerBlock;
  int64_t registersPerThread;
  int64_t registersPerBlock;
};
ResourceLimits getResourceLimits(Operation *op, int64_t sharedMemoryOption,
                                 int64_t registersOption);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_RESOURCES_H
