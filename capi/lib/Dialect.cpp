//===- Dialect.cpp - C API for the tile dialect -----------------*- C++ -*-===//

#include "tile-c/Dialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, mlir::tile::TileDialect)

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Loads the tile dialect (and thereby the dialects it depends on, gpu
/// included) into `context`; returns `context`.
static MLIRContext *loadTile(MLIRContext *context) {
  context->getOrLoadDialect<TileDialect>();
  return context;
}

static MLIRContext *loadTile(MlirContext ctx) { return loadTile(unwrap(ctx)); }

/// Returns a builder without insertion point (ops it creates are detached)
/// in the context of `loc`, with the tile dialect loaded.
static OpBuilder getBuilder(MlirLocation loc) {
  return OpBuilder(loadTile(unwrap(loc)->getContext()));
}

static SmallVector<Value> unwrapValues(intptr_t num, const MlirValue *values) {
  SmallVector<Value> result;
  result.reserve(num);
  for (intptr_t i = 0; i < num; ++i)
    result.push_back(unwrap(values[i]));
  return result;
}

static MemoryKind unwrapMemoryKind(TileMemoryKind kind) {
  switch (kind) {
  case TileMemoryKindGlobal:
    return MemoryKind::Global;
  case TileMemoryKindShared:
    return MemoryKind::Shared;
  case TileMemoryKindFragment:
    return MemoryKind::Fragment;
  case TileMemoryKindLocal:
    return MemoryKind::Local;
  case TileMemoryKindUnknown:
    return MemoryKind::Unknown;
  }
  return MemoryKind::Unknown;
}

static TileMemoryKind wrapMemoryKind(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::Global:
    return TileMemoryKindGlobal;
  case MemoryKind::Shared:
    return TileMemoryKindShared;
  case MemoryKind::Fragment:
    return TileMemoryKindFragment;
  case MemoryKind::Local:
    return TileMemoryKindLocal;
  case MemoryKind::Unknown:
    return TileMemoryKindUnknown;
  }
  return TileMemoryKindUnknown;
}

/// Returns the integer value of the discardable kernel attribute `name`, or
/// -1 if the kernel does not carry it.
static int64_t getKernelIntAttr(MlirOperation op, StringRef name) {
  auto attr = unwrap(op)->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : -1;
}

// The C enumerations mirror the ODS enumerations value by value.
static_assert(static_cast<uint32_t>(MemorySpace::Fragment) ==
                      TileMemorySpaceFragment &&
                  static_cast<uint32_t>(MemorySpace::Local) ==
                      TileMemorySpaceLocal,
              "TileMemorySpace is out of sync with tile::MemorySpace");
static_assert(
    static_cast<uint32_t>(WarpPolicy::Square) == TileWarpPolicySquare &&
        static_cast<uint32_t>(WarpPolicy::FullRow) == TileWarpPolicyFullRow &&
        static_cast<uint32_t>(WarpPolicy::FullCol) == TileWarpPolicyFullCol,
    "TileWarpPolicy is out of sync with tile::WarpPolicy");
static_assert(static_cast<uint32_t>(ReduceKind::Sum) == TileReduceKindSum &&
                  static_cast<uint32_t>(ReduceKind::Max) == TileReduceKindMax &&
                  static_cast<uint32_t>(ReduceKind::Min) == TileReduceKindMin &&
                  static_cast<uint32_t>(ReduceKind::AbsSum) ==
                      TileReduceKindAbsSum &&
                  static_cast<uint32_t>(ReduceKind::AbsMax) ==
                      TileReduceKindAbsMax,
              "TileReduceKind is out of sync with tile::ReduceKind");

//===----------------------------------------------------------------------===//
// Memory space attributes
//===----------------------------------------------------------------------===//

bool tileAttributeIsAMemorySpaceAttr(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && isa<MemorySpaceAttr>(unwrap(attr));
}

MlirAttribute tileMemorySpaceAttrGet(MlirContext ctx, TileMemorySpace value) {
  if (mlirContextIsNull(ctx) ||
      !symbolizeMemorySpace(static_cast<uint32_t>(value)))
    return MlirAttribute{nullptr};
  return wrap(
      MemorySpaceAttr::get(loadTile(ctx), static_cast<MemorySpace>(value)));
}

TileMemorySpace tileMemorySpaceAttrGetValue(MlirAttribute attr) {
  return static_cast<TileMemorySpace>(
      cast<MemorySpaceAttr>(unwrap(attr)).getValue());
}

MlirAttribute tileSharedMemorySpaceAttrGet(MlirContext ctx) {
  return wrap(getMemorySpaceAttr(loadTile(ctx), MemoryKind::Shared));
}

MlirAttribute tileMemoryKindGetMemorySpaceAttr(MlirContext ctx,
                                               TileMemoryKind kind) {
  return wrap(getMemorySpaceAttr(loadTile(ctx), unwrapMemoryKind(kind)));
}

MlirStringRef tileMemoryKindGetName(TileMemoryKind kind) {
  return wrap(stringifyMemoryKind(unwrapMemoryKind(kind)));
}

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

bool tileAttributeIsALayoutAttr(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && isa<LayoutAttrInterface>(unwrap(attr));
}

bool tileLayoutAttrIsDistributed(MlirAttribute attr) {
  return cast<LayoutAttrInterface>(unwrap(attr)).isDistributed();
}

/// Unwraps the optional layout `attr` of an op built at `loc`: returns
/// failure (after reporting an error) if it is set but is not a layout.
static FailureOr<LayoutAttrInterface>
unwrapOptionalLayout(MlirAttribute attr, MlirLocation loc, StringRef opName) {
  if (mlirAttributeIsNull(attr))
    return LayoutAttrInterface();
  auto layout = dyn_cast<LayoutAttrInterface>(unwrap(attr));
  if (!layout) {
    emitError(unwrap(loc)) << opName << " expects a tile layout, got "
                           << unwrap(attr);
    return failure();
  }
  return layout;
}

//===----------------------------------------------------------------------===//
// Warp policy and reduction kind attributes
//===----------------------------------------------------------------------===//

bool tileAttributeIsAWarpPolicyAttr(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && isa<WarpPolicyAttr>(unwrap(attr));
}

MlirAttribute tileWarpPolicyAttrGet(MlirContext ctx, TileWarpPolicy value) {
  if (mlirContextIsNull(ctx) ||
      !symbolizeWarpPolicy(static_cast<uint32_t>(value)))
    return MlirAttribute{nullptr};
  return wrap(
      WarpPolicyAttr::get(loadTile(ctx), static_cast<WarpPolicy>(value)));
}

TileWarpPolicy tileWarpPolicyAttrGetValue(MlirAttribute attr) {
  return static_cast<TileWarpPolicy>(
      cast<WarpPolicyAttr>(unwrap(attr)).getValue());
}

bool tileAttributeIsAReduceKindAttr(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && isa<ReduceKindAttr>(unwrap(attr));
}

MlirAttribute tileReduceKindAttrGet(MlirContext ctx, TileReduceKind value) {
  if (mlirContextIsNull(ctx) ||
      !symbolizeReduceKind(static_cast<uint32_t>(value)))
    return MlirAttribute{nullptr};
  return wrap(
      ReduceKindAttr::get(loadTile(ctx), static_cast<ReduceKind>(value)));
}

TileReduceKind tileReduceKindAttrGetValue(MlirAttribute attr) {
  return static_cast<TileReduceKind>(
      cast<ReduceKindAttr>(unwrap(attr)).getValue());
}

//===----------------------------------------------------------------------===//
// MemRef types
//===----------------------------------------------------------------------===//

MlirType tileMemRefTypeGet(MlirType elementType, intptr_t rank,
                           const int64_t *shape, TileMemoryKind kind) {
  Type element = unwrap(elementType);
  MLIRContext *ctx = loadTile(element.getContext());
  if (kind == TileMemoryKindUnknown) {
    emitError(UnknownLoc::get(ctx))
        << "cannot build a memref type in an unknown memory space";
    return MlirType{nullptr};
  }
  Attribute memorySpace = getMemorySpaceAttr(ctx, unwrapMemoryKind(kind));
  return wrap(
      MemRefType::getChecked(mlir::detail::getDefaultDiagnosticEmitFn(ctx),
                             ArrayRef<int64_t>(shape, rank), element,
                             MemRefLayoutAttrInterface(), memorySpace));
}

MlirType tileGlobalMemRefTypeGet(MlirType elementType, intptr_t rank,
                                 const int64_t *shape) {
  return tileMemRefTypeGet(elementType, rank, shape, TileMemoryKindGlobal);
}

MlirType tileSharedMemRefTypeGet(MlirType elementType, intptr_t rank,
                                 const int64_t *shape) {
  return tileMemRefTypeGet(elementType, rank, shape, TileMemoryKindShared);
}

MlirType tileFragmentMemRefTypeGet(MlirType elementType, intptr_t rank,
                                   const int64_t *shape) {
  return tileMemRefTypeGet(elementType, rank, shape, TileMemoryKindFragment);
}

MlirType tileLocalMemRefTypeGet(MlirType elementType, intptr_t rank,
                                const int64_t *shape) {
  return tileMemRefTypeGet(elementType, rank, shape, TileMemoryKindLocal);
}

TileMemoryKind tileMemRefTypeGetMemoryKind(MlirType type) {
  auto memrefType = dyn_cast<MemRefType>(unwrap(type));
  if (!memrefType)
    return TileMemoryKindUnknown;
  return wrapMemoryKind(getMemoryKind(memrefType));
}

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

void tileBlockInsertOwnedOperation(MlirBlock block, MlirOperation operation) {
  Block *b = unwrap(block);
  Operation *op = unwrap(operation);
  if (!b->empty() && b->back().hasTrait<OpTrait::IsTerminator>())
    b->getOperations().insert(b->back().getIterator(), op);
  else
    b->push_back(op);
}

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

MlirOperation tileKernelOpCreate(MlirLocation loc, MlirStringRef name,
                                 intptr_t gridRank, const int64_t *staticGrid,
                                 intptr_t numDynamicGrid,
                                 const MlirValue *dynamicGrid,
                                 int64_t threads) {
  OpBuilder builder = getBuilder(loc);
  Location location = unwrap(loc);
  SmallVector<OpFoldResult> grid;
  intptr_t nextDynamic = 0;
  for (intptr_t i = 0; i < gridRank; ++i) {
    if (!ShapedType::isDynamic(staticGrid[i])) {
      grid.push_back(builder.getIndexAttr(staticGrid[i]));
      continue;
    }
    if (nextDynamic == numDynamicGrid)
      break;
    grid.push_back(unwrap(dynamicGrid[nextDynamic++]));
  }
  if (static_cast<intptr_t>(grid.size()) != gridRank ||
      nextDynamic != numDynamicGrid) {
    int64_t numDynamic = llvm::count_if(ArrayRef<int64_t>(staticGrid, gridRank),
                                        ShapedType::isDynamic);
    emitError(location) << "tile.kernel with " << numDynamic
                        << " dynamic grid extents needs as many grid values, "
                           "got "
                        << numDynamicGrid;
    return MlirOperation{nullptr};
  }
  return wrap(KernelOp::create(builder, location, unwrap(name), grid, threads)
                  .getOperation());
}

MlirBlock tileKernelOpGetBody(MlirOperation op) {
  return wrap(&cast<KernelOp>(unwrap(op)).getBody().front());
}

MlirValue tileKernelOpGetBlockIndex(MlirOperation op, intptr_t dim) {
  return wrap(
      static_cast<Value>(cast<KernelOp>(unwrap(op)).getBlockIndex(dim)));
}

MlirStringRef tileKernelOpGetName(MlirOperation op) {
  return wrap(cast<KernelOp>(unwrap(op)).getSymName());
}

intptr_t tileKernelOpGetGridRank(MlirOperation op) {
  return cast<KernelOp>(unwrap(op)).getGridRank();
}

int64_t tileKernelOpGetStaticGridExtent(MlirOperation op, intptr_t dim) {
  return cast<KernelOp>(unwrap(op)).getStaticGrid()[dim];
}

int64_t tileKernelOpGetThreads(MlirOperation op) {
  return cast<KernelOp>(unwrap(op)).getThreads();
}

int64_t tileKernelOpGetSharedMemoryBytes(MlirOperation op) {
  return getKernelIntAttr(op, TileDialect::kSharedMemoryBytesAttrName);
}

int64_t tileKernelOpGetFragmentRegisters(MlirOperation op) {
  return getKernelIntAttr(op, TileDialect::kFragmentRegistersAttrName);
}

//===----------------------------------------------------------------------===//
// tile.ws
//===----------------------------------------------------------------------===//

MlirOperation tileWsOpCreate(MlirLocation loc, intptr_t numWarpgroups,
                             const int64_t *warpgroups, int64_t registers) {
  OpBuilder builder = getBuilder(loc);
  auto op = WsOp::create(builder, unwrap(loc),
                         ArrayRef<int64_t>(warpgroups, numWarpgroups));
  if (registers != 0)
    op.setRegistersAttr(builder.getI64IntegerAttr(registers));
  return wrap(op.getOperation());
}

MlirBlock tileWsOpGetBody(MlirOperation op) {
  return wrap(&cast<WsOp>(unwrap(op)).getBody().front());
}

//===----------------------------------------------------------------------===//
// tile.alloc
//===----------------------------------------------------------------------===//

MlirOperation tileAllocOpCreate(MlirLocation loc, MlirType type,
                                MlirAttribute layout, int64_t alignment) {
  auto memrefType = dyn_cast<MemRefType>(unwrap(type));
  if (!memrefType) {
    emitError(unwrap(loc)) << "tile.alloc expects a memref type, got "
                           << unwrap(type);
    return MlirOperation{nullptr};
  }
  FailureOr<LayoutAttrInterface> layoutAttr =
      unwrapOptionalLayout(layout, loc, "tile.alloc");
  if (failed(layoutAttr))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  auto op = AllocOp::create(builder, unwrap(loc), memrefType);
  if (*layoutAttr)
    op.setLayoutAttr(*layoutAttr);
  if (alignment != 0)
    op.setAlignmentAttr(builder.getI64IntegerAttr(alignment));
  return wrap(op.getOperation());
}

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

MlirOperation tileCopyOpCreate(MlirLocation loc, MlirValue source,
                               intptr_t numSourceOffsets,
                               const MlirValue *sourceOffsets, MlirValue target,
                               intptr_t numTargetOffsets,
                               const MlirValue *targetOffsets) {
  OpBuilder builder = getBuilder(loc);
  return wrap(CopyOp::create(builder, unwrap(loc), unwrap(source),
                             unwrapValues(numSourceOffsets, sourceOffsets),
                             unwrap(target),
                             unwrapValues(numTargetOffsets, targetOffsets))
                  .getOperation());
}

//===----------------------------------------------------------------------===//
// tile.gemm
//===----------------------------------------------------------------------===//

MlirOperation tileGemmOpCreate(MlirLocation loc, MlirValue a, MlirValue b,
                               MlirValue c, bool transposeA, bool transposeB,
                               bool clearAccum, TileWarpPolicy policy) {
  OpBuilder builder = getBuilder(loc);
  return wrap(GemmOp::create(builder, unwrap(loc), unwrap(a), unwrap(b),
                             unwrap(c), transposeA, transposeB, clearAccum,
                             static_cast<WarpPolicy>(policy), MmaAttr())
                  .getOperation());
}

bool tileGemmOpGetTransposeA(MlirOperation op) {
  return cast<GemmOp>(unwrap(op)).getTransposeA();
}

bool tileGemmOpGetTransposeB(MlirOperation op) {
  return cast<GemmOp>(unwrap(op)).getTransposeB();
}

bool tileGemmOpGetClearAccum(MlirOperation op) {
  return cast<GemmOp>(unwrap(op)).getClearAccum();
}

TileWarpPolicy tileGemmOpGetPolicy(MlirOperation op) {
  return static_cast<TileWarpPolicy>(cast<GemmOp>(unwrap(op)).getPolicy());
}

//===----------------------------------------------------------------------===//
// tile.fill
//===----------------------------------------------------------------------===//

MlirOperation tileFillOpCreate(MlirLocation loc, MlirValue target,
                               MlirValue value) {
  OpBuilder builder = getBuilder(loc);
  return wrap(
      FillOp::create(builder, unwrap(loc), unwrap(target), unwrap(value))
          .getOperation());
}

//===----------------------------------------------------------------------===//
// tile.parallel
//===----------------------------------------------------------------------===//

MlirOperation tileParallelOpCreate(MlirLocation loc, intptr_t rank,
                                   const int64_t *extents,
                                   MlirAttribute layout) {
  FailureOr<LayoutAttrInterface> layoutAttr =
      unwrapOptionalLayout(layout, loc, "tile.parallel");
  if (failed(layoutAttr))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  auto op = ParallelOp::create(builder, unwrap(loc),
                               ArrayRef<int64_t>(extents, rank));
  if (*layoutAttr)
    op.setLayoutAttr(*layoutAttr);
  return wrap(op.getOperation());
}

MlirBlock tileParallelOpGetBody(MlirOperation op) {
  return wrap(&cast<ParallelOp>(unwrap(op)).getBody().front());
}

MlirValue tileParallelOpGetInductionVar(MlirOperation op, intptr_t dim) {
  return wrap(
      static_cast<Value>(cast<ParallelOp>(unwrap(op)).getInductionVars()[dim]));
}

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

MlirOperation tileReduceOpCreate(MlirLocation loc, TileReduceKind kind,
                                 MlirValue source, MlirValue target,
                                 int64_t dim, bool clear) {
  OpBuilder builder = getBuilder(loc);
  return wrap(ReduceOp::create(builder, unwrap(loc),
                               static_cast<ReduceKind>(kind), unwrap(source),
                               unwrap(target), static_cast<uint64_t>(dim),
                               clear)
                  .getOperation());
}

TileReduceKind tileReduceOpGetKind(MlirOperation op) {
  return static_cast<TileReduceKind>(cast<ReduceOp>(unwrap(op)).getKind());
}

int64_t tileReduceOpGetDim(MlirOperation op) {
  return cast<ReduceOp>(unwrap(op)).getDim();
}

//===----------------------------------------------------------------------===//
// Operation kind queries
//===----------------------------------------------------------------------===//

bool tileOperationIsAKernelOp(MlirOperation op) {
  return isa<KernelOp>(unwrap(op));
}

bool tileOperationIsAWsOp(MlirOperation op) { return isa<WsOp>(unwrap(op)); }

bool tileOperationIsAYieldOp(MlirOperation op) {
  return isa<YieldOp>(unwrap(op));
}

bool tileOperationIsAAllocOp(MlirOperation op) {
  return isa<AllocOp>(unwrap(op));
}

bool tileOperationIsACopyOp(MlirOperation op) {
  return isa<CopyOp>(unwrap(op));
}

bool tileOperationIsAGemmOp(MlirOperation op) {
  return isa<GemmOp>(unwrap(op));
}

bool tileOperationIsAFillOp(MlirOperation op) {
  return isa<FillOp>(unwrap(op));
}

bool tileOperationIsAParallelOp(MlirOperation op) {
  return isa<ParallelOp>(unwrap(op));
}

bool tileOperationIsAReduceOp(MlirOperation op) {
  return isa<ReduceOp>(unwrap(op));
}
