//===- Layout.h - C API for tile layouts --------------------------*- C -*-===//
//
// Build and query layouts: the named distributed layouts (mma.sync, wgmma,
// MFMA, blocked) as `#tile.linear` attributes, shared layouts
// (`#tile.shared`), and queries answering which thread and register hold an
// element, which element a thread's register holds, and how much a layout
// replicates.
//
// Threads are numbered warp * lanes + lane within the threads the layout is
// distributed over. Functions taking a layout attribute return -1 (or
// false) when given a null attribute or an attribute of another kind, NULL
// arrays or out-pointers, or indices or coordinates out of range.
//
// Limits: the named layouts take sizes and counts that are powers of two of
// at most 2^30 (a blocked layout's sizes are rounded up to one), at most 16
// dimensions, and cover at most 2^62 elements (as `#tile.linear` does);
// other arguments, and a null context, give a null attribute. Every query
// takes time polynomial in the layout's bits (at most 62), whatever its
// number of threads and registers.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_LAYOUT_H
#define TILE_C_LAYOUT_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Named distributed layouts
//===----------------------------------------------------------------------===//

/// The mma.sync m16n8k* accumulator of an M x N tile, warps arranged
/// warpsM x warpsN. Each constructor returns a null attribute for
/// arguments its instruction cannot tile (or beyond the limits above).
MLIR_CAPI_EXPORTED MlirAttribute tileLinearLayoutGetMmaSyncAccumulator(
    MlirContext ctx, int64_t m, int64_t n, int64_t warpsM, int64_t warpsN);
/// The mma.sync A operand of an M x K tile of `elementBits`-bit elements.
MLIR_CAPI_EXPORTED MlirAttribute tileLinearLayoutGetMmaSyncOperandA(
    MlirContext ctx, int64_t m, int64_t k, int64_t elementBits,
    int64_t warpsM, int64_t warpsN);
/// The mma.sync B operand of a K x N tile of `elementBits`-bit elements.
MLIR_CAPI_EXPORTED MlirAttribute tileLinearLayoutGetMmaSyncOperandB(
    MlirContext ctx, int64_t k, int64_t n, int64_t elementBits,
    int64_t warpsM, int64_t warpsN);
/// The wgmma m64nNk* accumulator of an M x N tile over `warpgroups`.
MLIR_CAPI_EXPORTED MlirAttribute tileLinearLayoutGetWgmmaAccumulator(
    MlirContext ctx, int64_t m, int64_t n, int64_t warpgroups);
/// The MFMA (instr = 32 or 16) accumulator of an M x N tile, 64-wide waves.
MLIR_CAPI_EXPORTED MlirAttribute tileLinearLayoutGetMfmaAccumulator(
    MlirContext ctx, int64_t m, int64_t n, int64_t instr, int64_t wavesM,
    int64_t wavesN);
/// A blocked element-wise layout of a tile (`rank` sizes, each rounded up to
/// a power of two) over `threads` threads in warps of `warpSize` lanes (32 on
/// NVIDIA, 64 on AMD CDNA) with `vector` consecutive elements per thread.
MLIR_CAPI_EXPORTED MlirAttribute
tileLinearLayoutGetBlocked(MlirContext ctx, intptr_t rank,
                           const int64_t *shape, int64_t threads,
                           int64_t vector, int64_t warpSize);

//===----------------------------------------------------------------------===//
// Queries on #tile.linear
//===----------------------------------------------------------------------===//
//
// The integer queries return -1, and the boolean ones false, for an attribute
// that is not a `#tile.linear` layout (or a dimension out of range).

/// Whether `attr` is a `#tile.linear` layout (false for a null attribute).
MLIR_CAPI_EXPORTED bool tileAttributeIsALinearLayout(MlirAttribute attr);
/// Rank of the tile the layout covers.
MLIR_CAPI_EXPORTED intptr_t tileLinearLayoutGetRank(MlirAttribute layout);
/// Size (a power of two) of dimension `dim` of the tile the layout covers.
MLIR_CAPI_EXPORTED int64_t tileLinearLayoutGetDimSize(MlirAttribute layout,
                                                      intptr_t dim);
/// Threads the layout is distributed over.
MLIR_CAPI_EXPORTED int64_t tileLinearLayoutGetNumThreads(MlirAttribute layout);
/// Registers each thread holds.
MLIR_CAPI_EXPORTED int64_t
tileLinearLayoutGetRegistersPerThread(MlirAttribute layout);
/// Threads holding each element (1: no replication).
MLIR_CAPI_EXPORTED int64_t tileLinearLayoutGetReplication(MlirAttribute layout);
/// Consecutive elements of the last dimension in consecutive registers.
MLIR_CAPI_EXPORTED int64_t tileLinearLayoutGetVectorWidth(MlirAttribute layout);
/// The element (`rank` coordinates written to `coord`) held by register
/// `reg` of thread `thread`. Returns false if out of range.
MLIR_CAPI_EXPORTED bool tileLinearLayoutGetElement(MlirAttribute layout,
                                                   int64_t thread, int64_t reg,
                                                   int64_t *coord);
/// The lowest-numbered thread holding the element at `coord`, and the
/// lowest register of that thread holding it. Returns false if no thread
/// holds it. Solved over GF(2): immediate on any layout.
MLIR_CAPI_EXPORTED bool tileLinearLayoutGetHolder(MlirAttribute layout,
                                                  const int64_t *coord,
                                                  int64_t *thread,
                                                  int64_t *reg);
/// Whether every thread holding an element in `layout` also holds it in
/// `other`.
MLIR_CAPI_EXPORTED bool tileLinearLayoutIsContainedIn(MlirAttribute layout,
                                                      MlirAttribute other);

//===----------------------------------------------------------------------===//
// #tile.shared
//===----------------------------------------------------------------------===//

/// A shared-memory layout: swizzle in bytes (0, 32, 64, 128) or row padding
/// in bytes (not both, at most 1 MiB); otherwise an error diagnostic and a
/// null attribute (also for a null context, without the diagnostic).
MLIR_CAPI_EXPORTED MlirAttribute tileSharedLayoutGet(MlirContext ctx,
                                                     int64_t swizzle,
                                                     int64_t pad);
/// Whether `attr` is a `#tile.shared` layout (false for a null attribute).
MLIR_CAPI_EXPORTED bool tileAttributeIsASharedLayout(MlirAttribute attr);
/// The layout's swizzle in bytes (0: none; -1 for an attribute that is not
/// a `#tile.shared` layout).
MLIR_CAPI_EXPORTED int64_t tileSharedLayoutGetSwizzle(MlirAttribute layout);
/// The layout's row padding in bytes (0: none; -1 as above).
MLIR_CAPI_EXPORTED int64_t tileSharedLayoutGetPad(MlirAttribute layout);
/// Physical byte offset of the element at `coord` of a tile of `shape`
/// (`rank` dimensions, 1 to 16) with `elementBits`-bit elements (1 to 64);
/// -1 for a coordinate outside the shape, a size that is not positive, or a
/// tile of more than 2^62 bytes.
MLIR_CAPI_EXPORTED int64_t tileSharedLayoutGetByteOffset(
    MlirAttribute layout, intptr_t rank, const int64_t *shape,
    const int64_t *coord, int64_t elementBits);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_LAYOUT_H
