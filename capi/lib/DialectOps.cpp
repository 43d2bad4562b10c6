//===- DialectOps.cpp - C API for the tile ops ------------------*- C++ -*-===//
//
// Builders and queries of the tile ops (tile-c/Dialect.h). Every function
// accepts null handles and operations of another kind: builders return a
// null operation (after an error at the location, when there is one),
// queries a null handle, -1 or false.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Dialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "tile/Dialect/TileOps.h"

#include "DialectHelpers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::capi;

/// Returns the integer value of the discardable kernel attribute `name`, or
/// -1 if the kernel does not carry it.
static int64_t getKernelIntAttr(MlirOperation op, StringRef name) {
  auto kernel = getOp<KernelOp>(op);
  if (!kernel)
    return -1;
  auto attr = kernel->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : -1;
}

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

MlirOperation tileKernelOpCreate(MlirLocation loc, MlirStringRef name,
                                 intptr_t gridRank, const int64_t *staticGrid,
                                 intptr_t numDynamicGrid,
                                 const MlirValue *dynamicGrid,
                                 int64_t threads) {
  if (mlirLocationIsNull(loc))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  Location location = unwrap(loc);
  if (gridRank < 1 || gridRank > 3 || !staticGrid) {
    emitError(location) << "tile.kernel needs 1 to 3 grid extents, got "
                        << gridRank << (staticGrid ? "" : " at NULL");
    return MlirOperation{nullptr};
  }
  if (!name.data && name.length) {
    emitError(location) << "tile.kernel name is NULL";
    return MlirOperation{nullptr};
  }
  FailureOr<SmallVector<Value>> dynamic = unwrapValues(
      location, "tile.kernel dynamic grid extent", numDynamicGrid, dynamicGrid);
  if (failed(dynamic))
    return MlirOperation{nullptr};
  SmallVector<OpFoldResult> grid;
  intptr_t nextDynamic = 0;
  for (intptr_t i = 0; i < gridRank; ++i) {
    if (!ShapedType::isDynamic(staticGrid[i])) {
      grid.push_back(builder.getIndexAttr(staticGrid[i]));
      continue;
    }
    if (nextDynamic == numDynamicGrid)
      break;
    grid.push_back((*dynamic)[nextDynamic++]);
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
  return getBody(getOp<KernelOp>(op));
}

MlirValue tileKernelOpGetBlockIndex(MlirOperation op, intptr_t dim) {
  auto kernel = getOp<KernelOp>(op);
  if (!kernel || dim < 0 || dim >= static_cast<intptr_t>(kernel.getGridRank()))
    return MlirValue{nullptr};
  return getBodyArgument(kernel, dim);
}

MlirStringRef tileKernelOpGetName(MlirOperation op) {
  auto kernel = getOp<KernelOp>(op);
  return kernel ? wrap(kernel.getSymName()) : mlirStringRefCreate(nullptr, 0);
}

intptr_t tileKernelOpGetGridRank(MlirOperation op) {
  auto kernel = getOp<KernelOp>(op);
  return kernel ? static_cast<intptr_t>(kernel.getGridRank()) : -1;
}

int64_t tileKernelOpGetStaticGridExtent(MlirOperation op, intptr_t dim) {
  auto kernel = getOp<KernelOp>(op);
  if (!kernel || dim < 0 || dim >= static_cast<intptr_t>(kernel.getGridRank()))
    return -1;
  return kernel.getStaticGrid()[dim];
}

int64_t tileKernelOpGetThreads(MlirOperation op) {
  auto kernel = getOp<KernelOp>(op);
  return kernel ? kernel.getThreads() : -1;
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
  if (mlirLocationIsNull(loc))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  if (numWarpgroups < 0 || (numWarpgroups > 0 && !warpgroups)) {
    emitError(unwrap(loc)) << "tile.ws: " << numWarpgroups << " warpgroups at "
                           << (warpgroups ? "an array" : "NULL");
    return MlirOperation{nullptr};
  }
  auto op = WsOp::create(builder, unwrap(loc),
                         ArrayRef<int64_t>(warpgroups, numWarpgroups));
  if (registers != 0)
    op.setRegistersAttr(builder.getI64IntegerAttr(registers));
  return wrap(op.getOperation());
}

MlirBlock tileWsOpGetBody(MlirOperation op) { return getBody(getOp<WsOp>(op)); }

//===----------------------------------------------------------------------===//
// tile.alloc
//===----------------------------------------------------------------------===//

MlirOperation tileAllocOpCreate(MlirLocation loc, MlirType type,
                                MlirAttribute layout, int64_t alignment) {
  if (mlirLocationIsNull(loc))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  auto memrefType = dyn_cast_if_present<MemRefType>(unwrap(type));
  if (!memrefType) {
    InFlightDiagnostic diag = emitError(unwrap(loc))
                              << "tile.alloc expects a memref type, got ";
    if (mlirTypeIsNull(type))
      diag << "a null type";
    else
      diag << unwrap(type);
    return MlirOperation{nullptr};
  }
  FailureOr<LayoutAttrInterface> layoutAttr =
      unwrapOptionalLayout(layout, unwrap(loc), "tile.alloc");
  if (failed(layoutAttr))
    return MlirOperation{nullptr};
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
  if (mlirLocationIsNull(loc))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  Location location = unwrap(loc);
  FailureOr<Value> from = unwrapValue(location, "tile.copy source", source);
  FailureOr<Value> to = unwrapValue(location, "tile.copy target", target);
  if (failed(from) || failed(to))
    return MlirOperation{nullptr};
  FailureOr<SmallVector<Value>> fromOffsets = unwrapValues(
      location, "tile.copy source offset", numSourceOffsets, sourceOffsets);
  if (failed(fromOffsets))
    return MlirOperation{nullptr};
  FailureOr<SmallVector<Value>> toOffsets = unwrapValues(
      location, "tile.copy target offset", numTargetOffsets, targetOffsets);
  if (failed(toOffsets))
    return MlirOperation{nullptr};
  return wrap(
      CopyOp::create(builder, location, *from, *fromOffsets, *to, *toOffsets)
          .getOperation());
}

MlirLogicalResult tileCopyOpSetPadding(MlirOperation op,
                                       MlirAttribute padding) {
  auto copy = getOp<CopyOp>(op);
  if (!copy)
    return mlirLogicalResultFailure();
  if (mlirAttributeIsNull(padding)) {
    copy.removePaddingAttr();
    return mlirLogicalResultSuccess();
  }
  auto value = dyn_cast<TypedAttr>(unwrap(padding));
  if (!isa_and_nonnull<FloatAttr, IntegerAttr>(value))
    return mlirLogicalResultFailure();
  copy.setPaddingAttr(value);
  return mlirLogicalResultSuccess();
}

MlirAttribute tileCopyOpGetPadding(MlirOperation op) {
  auto copy = getOp<CopyOp>(op);
  return wrap(copy ? Attribute(copy.getPaddingAttr()) : Attribute());
}

//===----------------------------------------------------------------------===//
// tile.gemm
//===----------------------------------------------------------------------===//

MlirOperation tileGemmOpCreate(MlirLocation loc, MlirValue a, MlirValue b,
                               MlirValue c, bool transposeA, bool transposeB,
                               bool clearAccum, TileWarpPolicy policy) {
  if (mlirLocationIsNull(loc))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  Location location = unwrap(loc);
  FailureOr<Value> va = unwrapValue(location, "tile.gemm operand A", a);
  FailureOr<Value> vb = unwrapValue(location, "tile.gemm operand B", b);
  FailureOr<Value> vc = unwrapValue(location, "tile.gemm accumulator", c);
  if (failed(va) || failed(vb) || failed(vc))
    return MlirOperation{nullptr};
  std::optional<WarpPolicy> warpPolicy =
      unwrapCEnum(policy, symbolizeWarpPolicy);
  if (!warpPolicy) {
    emitError(location) << "tile.gemm: " << cEnumValue(policy)
                        << " is not a TileWarpPolicy";
    return MlirOperation{nullptr};
  }
  return wrap(GemmOp::create(builder, location, *va, *vb, *vc,
                             /*accumulate=*/Value(), /*partials=*/Value(),
                             /*sparse_meta=*/Value(), transposeA, transposeB,
                             clearAccum, *warpPolicy, MmaAttr(),
                             /*mma_groups_in_flight=*/IntegerAttr(),
                             /*promote_k=*/IntegerAttr(),
                             /*consumer_chunk=*/IntegerAttr())
                  .getOperation());
}

bool tileGemmOpGetTransposeA(MlirOperation op) {
  auto gemm = getOp<GemmOp>(op);
  return gemm && gemm.getTransposeA();
}

bool tileGemmOpGetTransposeB(MlirOperation op) {
  auto gemm = getOp<GemmOp>(op);
  return gemm && gemm.getTransposeB();
}

bool tileGemmOpGetClearAccum(MlirOperation op) {
  auto gemm = getOp<GemmOp>(op);
  return gemm && gemm.getClearAccum();
}

TileWarpPolicy tileGemmOpGetPolicy(MlirOperation op) {
  auto gemm = getOp<GemmOp>(op);
  return gemm ? static_cast<TileWarpPolicy>(gemm.getPolicy())
              : static_cast<TileWarpPolicy>(-1);
}

//===----------------------------------------------------------------------===//
// tile.fill
//===----------------------------------------------------------------------===//

MlirOperation tileFillOpCreate(MlirLocation loc, MlirValue target,
                               MlirValue value) {
  if (mlirLocationIsNull(loc))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  Location location = unwrap(loc);
  FailureOr<Value> to = unwrapValue(location, "tile.fill target", target);
  FailureOr<Value> fill = unwrapValue(location, "tile.fill value", value);
  if (failed(to) || failed(fill))
    return MlirOperation{nullptr};
  return wrap(FillOp::create(builder, location, *to, *fill).getOperation());
}

//===----------------------------------------------------------------------===//
// tile.parallel
//===----------------------------------------------------------------------===//

MlirOperation tileParallelOpCreate(MlirLocation loc, intptr_t rank,
                                   const int64_t *extents,
                                   MlirAttribute layout) {
  if (mlirLocationIsNull(loc))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  if (rank < 1 || !extents) {
    emitError(unwrap(loc)) << "tile.parallel needs at least one extent, got "
                           << rank << (extents ? "" : " at NULL");
    return MlirOperation{nullptr};
  }
  FailureOr<LayoutAttrInterface> layoutAttr =
      unwrapOptionalLayout(layout, unwrap(loc), "tile.parallel");
  if (failed(layoutAttr))
    return MlirOperation{nullptr};
  auto op = ParallelOp::create(builder, unwrap(loc),
                               ArrayRef<int64_t>(extents, rank));
  if (*layoutAttr)
    op.setLayoutAttr(*layoutAttr);
  return wrap(op.getOperation());
}

MlirBlock tileParallelOpGetBody(MlirOperation op) {
  return getBody(getOp<ParallelOp>(op));
}

MlirValue tileParallelOpGetInductionVar(MlirOperation op, intptr_t dim) {
  return getBodyArgument(getOp<ParallelOp>(op), dim);
}

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

MlirOperation tileReduceOpCreate(MlirLocation loc, TileReduceKind kind,
                                 MlirValue source, MlirValue target,
                                 int64_t dim, bool clear) {
  if (mlirLocationIsNull(loc))
    return MlirOperation{nullptr};
  OpBuilder builder = getBuilder(loc);
  Location location = unwrap(loc);
  FailureOr<Value> from = unwrapValue(location, "tile.reduce source", source);
  FailureOr<Value> to = unwrapValue(location, "tile.reduce target", target);
  if (failed(from) || failed(to))
    return MlirOperation{nullptr};
  std::optional<ReduceKind> reduceKind = unwrapCEnum(kind, symbolizeReduceKind);
  if (!reduceKind) {
    emitError(location) << "tile.reduce: " << cEnumValue(kind)
                        << " is not a TileReduceKind";
    return MlirOperation{nullptr};
  }
  if (dim < 0) {
    emitError(location) << "tile.reduce: negative dimension " << dim;
    return MlirOperation{nullptr};
  }
  return wrap(ReduceOp::create(builder, location, *reduceKind, *from, *to,
                               /*scratch=*/Value(), static_cast<uint64_t>(dim),
                               clear)
                  .getOperation());
}

TileReduceKind tileReduceOpGetKind(MlirOperation op) {
  auto reduce = getOp<ReduceOp>(op);
  return reduce ? static_cast<TileReduceKind>(reduce.getKind())
                : static_cast<TileReduceKind>(-1);
}

int64_t tileReduceOpGetDim(MlirOperation op) {
  auto reduce = getOp<ReduceOp>(op);
  return reduce ? static_cast<int64_t>(reduce.getDim()) : -1;
}

//===----------------------------------------------------------------------===//
// Operation kind queries
//===----------------------------------------------------------------------===//

bool tileOperationIsAKernelOp(MlirOperation op) {
  return static_cast<bool>(getOp<KernelOp>(op));
}

bool tileOperationIsAWsOp(MlirOperation op) {
  return static_cast<bool>(getOp<WsOp>(op));
}

bool tileOperationIsAYieldOp(MlirOperation op) {
  return static_cast<bool>(getOp<YieldOp>(op));
}

bool tileOperationIsAAllocOp(MlirOperation op) {
  return static_cast<bool>(getOp<AllocOp>(op));
}

bool tileOperationIsACopyOp(MlirOperation op) {
  return static_cast<bool>(getOp<CopyOp>(op));
}

bool tileOperationIsAGemmOp(MlirOperation op) {
  return static_cast<bool>(getOp<GemmOp>(op));
}

bool tileOperationIsAFillOp(MlirOperation op) {
  return static_cast<bool>(getOp<FillOp>(op));
}

bool tileOperationIsAParallelOp(MlirOperation op) {
  return static_cast<bool>(getOp<ParallelOp>(op));
}

bool tileOperationIsAReduceOp(MlirOperation op) {
  return static_cast<bool>(getOp<ReduceOp>(op));
}
