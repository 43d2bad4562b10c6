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

#include "DialectHelpers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::capi;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, mlir::tile::TileDialect)

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The memory kind of a TileMemoryKind's value (cEnumValue).
static MemoryKind unwrapMemoryKind(int64_t kind) {
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
  return isa_and_present<MemorySpaceAttr>(unwrap(attr));
}

MlirAttribute tileMemorySpaceAttrGet(MlirContext ctx, TileMemorySpace value) {
  std::optional<MemorySpace> space = unwrapCEnum(value, symbolizeMemorySpace);
  if (mlirContextIsNull(ctx) || !space)
    return MlirAttribute{nullptr};
  return wrap(MemorySpaceAttr::get(loadTile(ctx), *space));
}

TileMemorySpace tileMemorySpaceAttrGetValue(MlirAttribute attr) {
  auto space = dyn_cast_if_present<MemorySpaceAttr>(unwrap(attr));
  return space ? static_cast<TileMemorySpace>(space.getValue())
               : static_cast<TileMemorySpace>(-1);
}

MlirAttribute tileSharedMemorySpaceAttrGet(MlirContext ctx) {
  if (mlirContextIsNull(ctx))
    return MlirAttribute{nullptr};
  return wrap(getMemorySpaceAttr(loadTile(ctx), MemoryKind::Shared));
}

MlirAttribute tileMemoryKindGetMemorySpaceAttr(MlirContext ctx,
                                               TileMemoryKind kind) {
  int64_t raw = cEnumValue(kind);
  if (mlirContextIsNull(ctx) || raw < 0 || raw > TileMemoryKindUnknown)
    return MlirAttribute{nullptr};
  return wrap(getMemorySpaceAttr(loadTile(ctx), unwrapMemoryKind(raw)));
}

MlirStringRef tileMemoryKindGetName(TileMemoryKind kind) {
  return wrap(stringifyMemoryKind(unwrapMemoryKind(cEnumValue(kind))));
}

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

bool tileAttributeIsALayoutAttr(MlirAttribute attr) {
  return isa_and_present<LayoutAttrInterface>(unwrap(attr));
}

bool tileLayoutAttrIsDistributed(MlirAttribute attr) {
  auto layout = dyn_cast_if_present<LayoutAttrInterface>(unwrap(attr));
  return layout && layout.isDistributed();
}

//===----------------------------------------------------------------------===//
// Warp policy and reduction kind attributes
//===----------------------------------------------------------------------===//

bool tileAttributeIsAWarpPolicyAttr(MlirAttribute attr) {
  return isa_and_present<WarpPolicyAttr>(unwrap(attr));
}

MlirAttribute tileWarpPolicyAttrGet(MlirContext ctx, TileWarpPolicy value) {
  std::optional<WarpPolicy> policy = unwrapCEnum(value, symbolizeWarpPolicy);
  if (mlirContextIsNull(ctx) || !policy)
    return MlirAttribute{nullptr};
  return wrap(WarpPolicyAttr::get(loadTile(ctx), *policy));
}

TileWarpPolicy tileWarpPolicyAttrGetValue(MlirAttribute attr) {
  auto policy = dyn_cast_if_present<WarpPolicyAttr>(unwrap(attr));
  return policy ? static_cast<TileWarpPolicy>(policy.getValue())
                : static_cast<TileWarpPolicy>(-1);
}

bool tileAttributeIsAReduceKindAttr(MlirAttribute attr) {
  return isa_and_present<ReduceKindAttr>(unwrap(attr));
}

MlirAttribute tileReduceKindAttrGet(MlirContext ctx, TileReduceKind value) {
  std::optional<ReduceKind> kind = unwrapCEnum(value, symbolizeReduceKind);
  if (mlirContextIsNull(ctx) || !kind)
    return MlirAttribute{nullptr};
  return wrap(ReduceKindAttr::get(loadTile(ctx), *kind));
}

TileReduceKind tileReduceKindAttrGetValue(MlirAttribute attr) {
  auto kind = dyn_cast_if_present<ReduceKindAttr>(unwrap(attr));
  return kind ? static_cast<TileReduceKind>(kind.getValue())
              : static_cast<TileReduceKind>(-1);
}

//===----------------------------------------------------------------------===//
// MemRef types
//===----------------------------------------------------------------------===//

MlirType tileMemRefTypeGet(MlirType elementType, intptr_t rank,
                           const int64_t *shape, TileMemoryKind kind) {
  if (mlirTypeIsNull(elementType))
    return MlirType{nullptr};
  Type element = unwrap(elementType);
  MLIRContext *ctx = loadTile(element.getContext());
  int64_t raw = cEnumValue(kind);
  if (raw < 0 || raw >= TileMemoryKindUnknown) {
    emitError(UnknownLoc::get(ctx))
        << "cannot build a memref type in an unknown memory space";
    return MlirType{nullptr};
  }
  if (rank < 0 || (rank > 0 && !shape)) {
    emitError(UnknownLoc::get(ctx))
        << "cannot build a memref type of rank " << rank << " from "
        << (shape ? "a shape" : "a NULL shape");
    return MlirType{nullptr};
  }
  Attribute memorySpace = getMemorySpaceAttr(ctx, unwrapMemoryKind(raw));
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
  auto memrefType = dyn_cast_if_present<MemRefType>(unwrap(type));
  if (!memrefType)
    return TileMemoryKindUnknown;
  return wrapMemoryKind(getMemoryKind(memrefType));
}

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

bool tileBlockInsertOwnedOperation(MlirBlock block, MlirOperation operation) {
  if (mlirBlockIsNull(block) || mlirOperationIsNull(operation))
    return false;
  Block *b = unwrap(block);
  Operation *op = unwrap(operation);
  // Owned: not in a block already (which would own it), and not an
  // ancestor of `b` (which would make a cycle).
  Operation *parent = b->getParentOp();
  if (op->getBlock() || (parent && op->isAncestor(parent)))
    return false;
  if (!b->empty() && b->back().hasTrait<OpTrait::IsTerminator>())
    b->getOperations().insert(b->back().getIterator(), op);
  else
    b->push_back(op);
  return true;
}
