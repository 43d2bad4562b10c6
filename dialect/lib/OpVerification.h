//===- OpVerification.h - Shared checks of the tile op verifiers -*- C++
//-*-===//
//
// Private to dialect/lib: limits and helpers the verifiers of the tile ops
// (TileOps.cpp, TileComputeOps.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_LIB_OPVERIFICATION_H
#define TILE_DIALECT_LIB_OPVERIFICATION_H

#include "tile/Dialect/TileOps.h"

namespace mlir::tile::detail {

/// Maximum threads per block on every supported target.
inline constexpr int64_t kMaxThreadsPerBlock = 1024;

/// Tiles and parallel iteration spaces are at most 2^32 elements once each
/// dimension is padded to a power of two (the size layouts work with).
inline constexpr unsigned kMaxPaddedElementBits = 32;

/// Most iterations of a `tile.parallel` that one thread may execute, and
/// most elements of a fragment one thread may hold: the lowering unrolls
/// the body (the accesses) once per element a thread owns. A register tile
/// at the register limit holds at most 255 x 4 = 1020 8-bit elements per
/// thread, so every tile that fits a register file stays below it.
inline constexpr int64_t kMaxParallelIterationsPerThread = 2048;
inline constexpr int64_t kMaxElementsPerThread = 2048;

/// Largest shared tile: 1 MiB, over four times the shared memory of any
/// supported chip (the copies into it are unrolled per thread too).
inline constexpr int64_t kMaxSharedTileBytes = int64_t(1) << 20;

/// "<what> must be in <expected> memory, got <kind> memory".
InFlightDiagnostic emitMemoryKindError(Operation *op, StringRef what,
                                       MemRefType type, StringRef expected);

/// An 8-bit float (isFloat8).
bool isFp8(Type type);

/// Whether tiles (and the global operands they are copied from and to) may
/// hold elements of `type`: the types the lowering can size, store and
/// convert. Signless i8 to i64, f16, bf16, f32, f64 and the two 8-bit floats
/// of `tile.gemm`; i1 (stored as one byte) only in register tiles when
/// `allowI1`. No `index` (no fixed bit width), no sub-byte, wider or
/// non-power-of-two types, no signed/unsigned integers (arith needs
/// signless ones), no tf32/f80/f128 (no NVPTX lowering).
bool isSupportedElementType(Type type, bool allowI1);

/// Emits an error unless `type`, the element type of `what`, is supported
/// (see isSupportedElementType).
/// Block-cooperative ops (copies, gemms, fills, element-wise loops,
/// reductions) run on the threads of a kernel: an error outside one.
LogicalResult verifyInKernel(Operation *op);

LogicalResult verifyElementType(Operation *op, StringRef what, Type type,
                                bool allowI1);

/// Threads that cooperate on `op`: those of the enclosing tile.ws, else the
/// kernel's (at least 1).
int64_t getCooperatingThreadCount(Operation *op);

/// log2 of the element count of `shape` with every dimension padded to a
/// power of two (never overflows).
unsigned getPaddedElementBits(ArrayRef<int64_t> shape);

/// Verifies that `layout` (if any) fits a tile of `type`.
LogicalResult verifyLayoutFor(Operation *op, LayoutAttrInterface layout,
                              ArrayRef<int64_t> shape, Type elementType,
                              std::optional<bool> distributed);

} // namespace mlir::tile::detail

#endif // TILE_DIALECT_LIB_OPVERIFICATION_H
