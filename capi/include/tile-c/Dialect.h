//===- Dialect.h - C API for the tile dialect ---------------------*- C -*-===//
//
// C bindings for the `tile` dialect: dialect registration, the dialect's
// attributes (memory spaces, warp policies, reduction kinds), memref types in
// each memory space tile ops understand, and builders for the tile ops, so
// that a C host can build a kernel without going through textual IR.
//
// Conventions follow the upstream `mlir-c` API:
//  - functions that create operations return a *detached* operation owned by
//    the caller; insert it into a block with `mlirBlockAppendOwnedOperation`,
//    `mlirBlockInsertOwnedOperationBefore` or `tileBlockInsertOwnedOperation`
//    (the latter keeps the implicit `tile.yield` terminator last);
//  - functions taking an operation of a given kind (for example
//    `tileKernelOpGetBody`) require an operation of that kind; check with the
//    `tileOperationIsA*` queries first when in doubt;
//  - builders that cannot build a valid operation from their arguments emit
//    an error diagnostic at the given location and return a null operation
//    (check with `mlirOperationIsNull`); the remaining invariants are checked
//    by the verifier (`mlirOperationVerify`).
//
// Null and invalid handles: every function accepts them. Builders return a
// null operation for a null location (without a diagnostic: there is no
// context to report to), a null value or type, a NULL array with a positive
// count, a negative count, or an enumeration value outside its enum.
// Queries taking an operation or attribute of a given kind return, for a
// null handle or one of another kind (and for an index out of range): a
// null block or value, an empty string, -1 for integers, false for flags,
// and `(Tile...)-1`, a value outside the enumeration, for enumerations.
// Attribute constructors return a null attribute for a null context.
//
// All functions load the tile dialect into the context when needed.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_DIALECT_H
#define TILE_C_DIALECT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tile, tile);

//===----------------------------------------------------------------------===//
// Enumerations
//===----------------------------------------------------------------------===//

/// Register memory spaces of `#tile.mem<...>`.
enum TileMemorySpace {
  TileMemorySpaceFragment = 0, ///< #tile.mem<fragment>
  TileMemorySpaceLocal = 1,    ///< #tile.mem<local>
};
typedef enum TileMemorySpace TileMemorySpace;

/// Where a memref lives, as seen by tile ops.
enum TileMemoryKind {
  TileMemoryKindGlobal = 0,   ///< no memory space or #gpu.address_space<global>
  TileMemoryKindShared = 1,   ///< #gpu.address_space<workgroup>
  TileMemoryKindFragment = 2, ///< #tile.mem<fragment>
  TileMemoryKindLocal = 3,    ///< #tile.mem<local>
  TileMemoryKindUnknown = 4,  ///< any other memory space
};
typedef enum TileMemoryKind TileMemoryKind;

/// How the warps of a block partition a gemm's M x N accumulator
/// (`#tile.warp_policy<...>`).
enum TileWarpPolicy {
  TileWarpPolicySquare = 0,  ///< square
  TileWarpPolicyFullRow = 1, ///< full_row
  TileWarpPolicyFullCol = 2, ///< full_col
};
typedef enum TileWarpPolicy TileWarpPolicy;

/// Reduction kinds of `tile.reduce` (`#tile.reduce_kind<...>`).
enum TileReduceKind {
  TileReduceKindSum = 0,    ///< sum
  TileReduceKindMax = 1,    ///< max
  TileReduceKindMin = 2,    ///< min
  TileReduceKindAbsSum = 3, ///< abs_sum
  TileReduceKindAbsMax = 4, ///< abs_max
};
typedef enum TileReduceKind TileReduceKind;

//===----------------------------------------------------------------------===//
// Memory space attributes
//===----------------------------------------------------------------------===//

/// Returns true if `attr` is a `#tile.mem<...>` attribute (false for a null
/// attribute).
MLIR_CAPI_EXPORTED bool tileAttributeIsAMemorySpaceAttr(MlirAttribute attr);

/// Returns `#tile.mem<fragment>` or `#tile.mem<local>`; a null attribute
/// for a null context or a value that is not a TileMemorySpace.
MLIR_CAPI_EXPORTED MlirAttribute tileMemorySpaceAttrGet(MlirContext ctx,
                                                        TileMemorySpace value);

/// Returns the value of a `#tile.mem<...>` attribute; (TileMemorySpace)-1
/// for a null attribute or one of another kind.
MLIR_CAPI_EXPORTED TileMemorySpace
tileMemorySpaceAttrGetValue(MlirAttribute attr);

/// Returns the shared memory space attribute (null for a null context),
/// `#gpu.address_space<workgroup>`.
MLIR_CAPI_EXPORTED MlirAttribute tileSharedMemorySpaceAttrGet(MlirContext ctx);

/// Returns the memory space attribute tile ops use for `kind`: a null
/// attribute for global memory (and for `TileMemoryKindUnknown`, a value
/// outside the enumeration or a null context).
MLIR_CAPI_EXPORTED MlirAttribute
tileMemoryKindGetMemorySpaceAttr(MlirContext ctx, TileMemoryKind kind);

/// Returns the name of a memory kind ("global", "shared", "fragment",
/// "local" or "unknown").
MLIR_CAPI_EXPORTED MlirStringRef tileMemoryKindGetName(TileMemoryKind kind);

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

/// Returns true if `attr` is a tile layout (an attribute implementing the
/// tile layout interface), as accepted by `tileAllocOpCreate` and
/// `tileParallelOpCreate` (false for a null attribute).
MLIR_CAPI_EXPORTED bool tileAttributeIsALayoutAttr(MlirAttribute attr);

/// Returns true if `attr` is a distributed layout (of a fragment tile or a
/// parallel loop), false if it is a memory layout (of a shared tile), a
/// null attribute or an attribute that is not a tile layout.
MLIR_CAPI_EXPORTED bool tileLayoutAttrIsDistributed(MlirAttribute attr);

//===----------------------------------------------------------------------===//
// Warp policy and reduction kind attributes
//===----------------------------------------------------------------------===//

/// Returns true if `attr` is a `#tile.warp_policy<...>` attribute (false
/// for a null attribute).
MLIR_CAPI_EXPORTED bool tileAttributeIsAWarpPolicyAttr(MlirAttribute attr);

/// Returns the `#tile.warp_policy<...>` attribute of `value`; a null
/// attribute for a null context or a value that is not a TileWarpPolicy.
MLIR_CAPI_EXPORTED MlirAttribute tileWarpPolicyAttrGet(MlirContext ctx,
                                                       TileWarpPolicy value);

/// Returns the value of a `#tile.warp_policy<...>` attribute;
/// (TileWarpPolicy)-1 for a null attribute or one of another kind.
MLIR_CAPI_EXPORTED TileWarpPolicy
tileWarpPolicyAttrGetValue(MlirAttribute attr);

/// Returns true if `attr` is a `#tile.reduce_kind<...>` attribute (false
/// for a null attribute).
MLIR_CAPI_EXPORTED bool tileAttributeIsAReduceKindAttr(MlirAttribute attr);

/// Returns the `#tile.reduce_kind<...>` attribute of `value`; a null
/// attribute for a null context or a value that is not a TileReduceKind.
MLIR_CAPI_EXPORTED MlirAttribute tileReduceKindAttrGet(MlirContext ctx,
                                                       TileReduceKind value);

/// Returns the value of a `#tile.reduce_kind<...>` attribute;
/// (TileReduceKind)-1 for a null attribute or one of another kind.
MLIR_CAPI_EXPORTED TileReduceKind
tileReduceKindAttrGetValue(MlirAttribute attr);

//===----------------------------------------------------------------------===//
// MemRef types
//===----------------------------------------------------------------------===//

/// Returns a memref type with the identity layout in the memory space of
/// `kind` (see `tileMemoryKindGetMemorySpaceAttr`). Dimensions equal to
/// `mlirShapedTypeGetDynamicSize()` are dynamic. Emits an error diagnostic
/// and returns a null type if the type is invalid (for example an element
/// type that memrefs cannot hold, `TileMemoryKindUnknown` or a value
/// outside the enumeration, a negative rank or a NULL `shape` with a
/// positive rank); a null type for a null element type.
MLIR_CAPI_EXPORTED MlirType tileMemRefTypeGet(MlirType elementType,
                                              intptr_t rank,
                                              const int64_t *shape,
                                              TileMemoryKind kind);

/// Same as `tileMemRefTypeGet` with `TileMemoryKindGlobal`: a global memory
/// buffer (no memory space).
MLIR_CAPI_EXPORTED MlirType tileGlobalMemRefTypeGet(MlirType elementType,
                                                    intptr_t rank,
                                                    const int64_t *shape);

/// Same as `tileMemRefTypeGet` with `TileMemoryKindShared`: a shared memory
/// tile (`#gpu.address_space<workgroup>`).
MLIR_CAPI_EXPORTED MlirType tileSharedMemRefTypeGet(MlirType elementType,
                                                    intptr_t rank,
                                                    const int64_t *shape);

/// Same as `tileMemRefTypeGet` with `TileMemoryKindFragment`: a register tile
/// distributed over the block (`#tile.mem<fragment>`).
MLIR_CAPI_EXPORTED MlirType tileFragmentMemRefTypeGet(MlirType elementType,
                                                      intptr_t rank,
                                                      const int64_t *shape);

/// Same as `tileMemRefTypeGet` with `TileMemoryKindLocal`: a per-thread
/// register array (`#tile.mem<local>`).
MLIR_CAPI_EXPORTED MlirType tileLocalMemRefTypeGet(MlirType elementType,
                                                   intptr_t rank,
                                                   const int64_t *shape);

/// Classifies the memory space of a memref type. Returns
/// `TileMemoryKindUnknown` for types that are not ranked memrefs (and a
/// null type).
MLIR_CAPI_EXPORTED TileMemoryKind tileMemRefTypeGetMemoryKind(MlirType type);

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

/// Takes ownership of `operation` and inserts it at the end of `block`, but
/// before the block's terminator if it has one (for example the implicit
/// `tile.yield` of kernel, parallel and ws bodies). Returns true if it did;
/// false, doing nothing, for a null block or operation, an operation that
/// is already in a block (it is not the caller's to give), or one that
/// holds `block` (which would make a cycle).
MLIR_CAPI_EXPORTED bool tileBlockInsertOwnedOperation(MlirBlock block,
                                                      MlirOperation operation);

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

/// Creates a detached `tile.kernel` named `name` over a grid of `gridRank`
/// (1 to 3) dimensions, run by `threads` threads per block. `staticGrid`
/// holds the `gridRank` extents; an extent equal to
/// `mlirShapedTypeGetDynamicSize()` is dynamic and takes the next value of
/// `dynamicGrid` (`index` values defined above the kernel), so
/// `numDynamicGrid` must equal the number of dynamic extents. The body has
/// one `index` block argument per grid dimension and ends with an implicit
/// `tile.yield`. A rank outside 1 to 3, a NULL `staticGrid`, or dynamic
/// values that are missing, NULL or null are an error (null operation).
MLIR_CAPI_EXPORTED MlirOperation
tileKernelOpCreate(MlirLocation loc, MlirStringRef name, intptr_t gridRank,
                   const int64_t *staticGrid, intptr_t numDynamicGrid,
                   const MlirValue *dynamicGrid, int64_t threads);

/// Returns the body block of a `tile.kernel` (null for any other
/// operation).
MLIR_CAPI_EXPORTED MlirBlock tileKernelOpGetBody(MlirOperation op);

/// Returns the block index of grid dimension `dim` of a `tile.kernel`; null
/// if `dim` is not in [0, grid rank) or `op` is not a kernel.
MLIR_CAPI_EXPORTED MlirValue tileKernelOpGetBlockIndex(MlirOperation op,
                                                       intptr_t dim);

/// Returns the kernel name of a `tile.kernel` (empty for any other
/// operation).
MLIR_CAPI_EXPORTED MlirStringRef tileKernelOpGetName(MlirOperation op);

/// Returns the number of grid dimensions of a `tile.kernel` (-1 for any
/// other operation).
MLIR_CAPI_EXPORTED intptr_t tileKernelOpGetGridRank(MlirOperation op);

/// Returns the static extent of grid dimension `dim` of a `tile.kernel`, or
/// `mlirShapedTypeGetDynamicSize()` if it is dynamic; -1 if `dim` is not in
/// [0, grid rank) or `op` is not a kernel.
MLIR_CAPI_EXPORTED int64_t tileKernelOpGetStaticGridExtent(MlirOperation op,
                                                           intptr_t dim);

/// Returns the number of threads per block of a `tile.kernel` (-1 for any
/// other operation).
MLIR_CAPI_EXPORTED int64_t tileKernelOpGetThreads(MlirOperation op);

/// Returns the `tile.shared_memory_bytes` a `tile.kernel` allocates, as
/// recorded by the `tile-check-resources` pass, or -1 if it is not recorded
/// (or `op` is not a kernel).
MLIR_CAPI_EXPORTED int64_t tileKernelOpGetSharedMemoryBytes(MlirOperation op);

/// Returns the `tile.fragment_registers` estimate of a `tile.kernel`, as
/// recorded by the `tile-check-resources` pass, or -1 if it is not recorded
/// (or `op` is not a kernel).
MLIR_CAPI_EXPORTED int64_t tileKernelOpGetFragmentRegisters(MlirOperation op);

//===----------------------------------------------------------------------===//
// tile.ws
//===----------------------------------------------------------------------===//

/// Creates a detached `tile.ws` executed by the `numWarpgroups` warpgroups
/// listed in `warpgroups`. `registers` is the per-thread register budget of
/// those warpgroups, or 0 for none. The body ends with an implicit
/// `tile.yield`. A negative count or a NULL array with a positive count is
/// an error (null operation).
MLIR_CAPI_EXPORTED MlirOperation tileWsOpCreate(MlirLocation loc,
                                                intptr_t numWarpgroups,
                                                const int64_t *warpgroups,
                                                int64_t registers);

/// Returns the body block of a `tile.ws` (null for any other operation).
MLIR_CAPI_EXPORTED MlirBlock tileWsOpGetBody(MlirOperation op);

//===----------------------------------------------------------------------===//
// tile.alloc
//===----------------------------------------------------------------------===//

/// Creates a detached `tile.alloc` of a tile of memref type `type` (shared,
/// fragment or local). `layout` is the tile's layout, or a null attribute to
/// leave it to layout inference; `alignment` is the byte alignment of a
/// shared tile, or 0 for the default. The tile is result 0 of the operation.
/// A null type, a type that is not a memref or a layout attribute that is
/// not a tile layout is an error (null operation).
MLIR_CAPI_EXPORTED MlirOperation tileAllocOpCreate(MlirLocation loc,
                                                   MlirType type,
                                                   MlirAttribute layout,
                                                   int64_t alignment);

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

/// Creates a detached `tile.copy` from `source` to `target`. At most one of
/// the operands may have offsets (one `index` value per dimension of a
/// global operand); pass 0 and NULL for an operand without offsets. A null
/// operand or offset, a negative count or a NULL array with a positive
/// count is an error (null operation).
MLIR_CAPI_EXPORTED MlirOperation
tileCopyOpCreate(MlirLocation loc, MlirValue source, intptr_t numSourceOffsets,
                 const MlirValue *sourceOffsets, MlirValue target,
                 intptr_t numTargetOffsets, const MlirValue *targetOffsets);

/// Sets the value out-of-bounds elements of a `tile.copy` from global memory
/// read as (its `padding`; zero without one): a float or integer attribute
/// of the destination's element type, e.g. mlirFloatAttrDoubleGet(ctx, f32,
/// -INFINITY). A null attribute removes the padding. Returns failure, and
/// changes nothing, when `op` is not a copy or `padding` is not a float or
/// integer attribute; the verifier checks the rest.
MLIR_CAPI_EXPORTED MlirLogicalResult
tileCopyOpSetPadding(MlirOperation op, MlirAttribute padding);

/// The padding of a `tile.copy`, or a null attribute (none, or not a copy).
MLIR_CAPI_EXPORTED MlirAttribute tileCopyOpGetPadding(MlirOperation op);

//===----------------------------------------------------------------------===//
// tile.gemm
//===----------------------------------------------------------------------===//

/// Creates a detached `tile.gemm` computing `c += op(a) * op(b)` (or
/// `c = op(a) * op(b)` with `clearAccum`), where `op(x)` transposes `x` when
/// the corresponding flag is set. A null operand or a `policy` outside
/// TileWarpPolicy is an error (null operation).
MLIR_CAPI_EXPORTED MlirOperation tileGemmOpCreate(
    MlirLocation loc, MlirValue a, MlirValue b, MlirValue c, bool transposeA,
    bool transposeB, bool clearAccum, TileWarpPolicy policy);

/// The flags and the warp policy of a `tile.gemm`; false and
/// (TileWarpPolicy)-1 for any other operation. The transpose_a flag:
MLIR_CAPI_EXPORTED bool tileGemmOpGetTransposeA(MlirOperation op);

/// Returns the transpose_b flag of a `tile.gemm`.
MLIR_CAPI_EXPORTED bool tileGemmOpGetTransposeB(MlirOperation op);

/// Returns the clear_accum flag of a `tile.gemm`.
MLIR_CAPI_EXPORTED bool tileGemmOpGetClearAccum(MlirOperation op);

/// Returns the warp policy of a `tile.gemm`.
MLIR_CAPI_EXPORTED TileWarpPolicy tileGemmOpGetPolicy(MlirOperation op);

//===----------------------------------------------------------------------===//
// tile.fill
//===----------------------------------------------------------------------===//

/// Creates a detached `tile.fill` writing the scalar `value` to every
/// element of the tile `target`. A null operand is an error (null
/// operation).
MLIR_CAPI_EXPORTED MlirOperation tileFillOpCreate(MlirLocation loc,
                                                  MlirValue target,
                                                  MlirValue value);

//===----------------------------------------------------------------------===//
// tile.parallel
//===----------------------------------------------------------------------===//

/// Creates a detached `tile.parallel` over the static iteration space
/// `extents` (`rank` dimensions). `layout` is the distributed layout of the
/// iteration space, or a null attribute to leave it to layout inference. The
/// body has one `index` induction variable per dimension and ends with an
/// implicit `tile.yield`. A rank below 1, NULL `extents` or a layout
/// attribute that is not a tile layout is an error (null operation).
MLIR_CAPI_EXPORTED MlirOperation tileParallelOpCreate(MlirLocation loc,
                                                      intptr_t rank,
                                                      const int64_t *extents,
                                                      MlirAttribute layout);

/// Returns the body block of a `tile.parallel` (null for any other
/// operation).
MLIR_CAPI_EXPORTED MlirBlock tileParallelOpGetBody(MlirOperation op);

/// Returns the induction variable of dimension `dim` of a `tile.parallel`;
/// null if `dim` is not in [0, rank) or `op` is not a `tile.parallel`.
MLIR_CAPI_EXPORTED MlirValue tileParallelOpGetInductionVar(MlirOperation op,
                                                           intptr_t dim);

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

/// Creates a detached `tile.reduce` reducing `source` along `dim` into
/// `target`; with `clear` the target is overwritten, otherwise combined with.
/// A null operand, a `kind` outside TileReduceKind or a negative `dim` is an
/// error (null operation).
MLIR_CAPI_EXPORTED MlirOperation tileReduceOpCreate(MlirLocation loc,
                                                    TileReduceKind kind,
                                                    MlirValue source,
                                                    MlirValue target,
                                                    int64_t dim, bool clear);

/// Returns the reduction kind of a `tile.reduce` ((TileReduceKind)-1 for
/// any other operation).
MLIR_CAPI_EXPORTED TileReduceKind tileReduceOpGetKind(MlirOperation op);

/// Returns the reduced dimension of a `tile.reduce` (-1 for any other
/// operation).
MLIR_CAPI_EXPORTED int64_t tileReduceOpGetDim(MlirOperation op);

//===----------------------------------------------------------------------===//
// Operation kind queries
//===----------------------------------------------------------------------===//

/// The kind queries are false for a null operation. Returns true if `op` is
/// a `tile.kernel`.
MLIR_CAPI_EXPORTED bool tileOperationIsAKernelOp(MlirOperation op);

/// Returns true if `op` is a `tile.ws`.
MLIR_CAPI_EXPORTED bool tileOperationIsAWsOp(MlirOperation op);

/// Returns true if `op` is a `tile.yield`.
MLIR_CAPI_EXPORTED bool tileOperationIsAYieldOp(MlirOperation op);

/// Returns true if `op` is a `tile.alloc`.
MLIR_CAPI_EXPORTED bool tileOperationIsAAllocOp(MlirOperation op);

/// Returns true if `op` is a `tile.copy`.
MLIR_CAPI_EXPORTED bool tileOperationIsACopyOp(MlirOperation op);

/// Returns true if `op` is a `tile.gemm`.
MLIR_CAPI_EXPORTED bool tileOperationIsAGemmOp(MlirOperation op);

/// Returns true if `op` is a `tile.fill`.
MLIR_CAPI_EXPORTED bool tileOperationIsAFillOp(MlirOperation op);

/// Returns true if `op` is a `tile.parallel`.
MLIR_CAPI_EXPORTED bool tileOperationIsAParallelOp(MlirOperation op);

/// Returns true if `op` is a `tile.reduce`.
MLIR_CAPI_EXPORTED bool tileOperationIsAReduceOp(MlirOperation op);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_DIALECT_H
