//===- TileAttrs.h - Tile dialect attributes --------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILEATTRS_H
#define TILE_DIALECT_TILEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "tile/Dialect/ChipDescription.h"
#include "tile/Dialect/LinearLayout.h"

#include "tile/Dialect/TileEnums.h.inc"
#include "tile/Dialect/TileInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/TileAttrs.h.inc"

namespace mlir::tile {

/// Where a memref lives, as seen by tile ops.
enum class MemoryKind { Global, Shared, Fragment, Local, Unknown };

/// Classifies the memory space of `type`.
MemoryKind getMemoryKind(MemRefType type);

/// Whether `type` is one of the 8-bit floats tiles hold: the OCP formats
/// f8E4M3FN and f8E5M2 (NVIDIA) and their FNUZ flavours (CDNA3).
bool isFloat8(Type type);

/// Human-readable name of a memory kind ("global", "shared", ...).
llvm::StringRef stringifyMemoryKind(MemoryKind kind);

/// The memory space attribute used for `kind` (null for global).
Attribute getMemorySpaceAttr(MLIRContext *ctx, MemoryKind kind);

/// The `#tile.target` that applies to `op`: the nearest one attached (as
/// `tile.target`) to `op` or an enclosing `tile.kernel` or module, else the
/// default chip's (`kDefaultChip`).
TargetAttr getTargetAttr(Operation *op);

inline bool isOnChip(MemoryKind kind) {
  return kind == MemoryKind::Shared || kind == MemoryKind::Fragment ||
         kind == MemoryKind::Local;
}

} // namespace mlir::tile

#endif // TILE_DIALECT_TILEATTRS_H
