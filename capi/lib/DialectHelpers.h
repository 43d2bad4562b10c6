//===- DialectHelpers.h - Helpers of the tile dialect C API -----*- C++ -*-===//
//
// What Dialect.cpp and DialectOps.cpp share: loading the dialect, and
// unwrapping handles that may be null or of another kind.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CAPI_LIB_DIALECTHELPERS_H
#define TILE_CAPI_LIB_DIALECTHELPERS_H

#include "mlir/CAPI/IR.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileDialect.h"

#include <cstring>
#include <optional>
#include <type_traits>

namespace mlir::tile::capi {

/// Loads the tile dialect (and thereby the dialects it depends on, gpu
/// included) into `context`; returns `context`.
inline MLIRContext *loadTile(MLIRContext *context) {
  context->getOrLoadDialect<TileDialect>();
  return context;
}

inline MLIRContext *loadTile(MlirContext ctx) { return loadTile(unwrap(ctx)); }

/// The value a C caller passed for a parameter of a C enum type. C lets any
/// int be passed there; C++ gives an enum without a fixed underlying type only
/// the values its enumerators' bits span, and reading the parameter as the
/// enum is undefined behaviour for others (UBSan's enum check). So the int the
/// C ABI passed is read back from the parameter's bytes, and checked.
template <typename E> inline int64_t cEnumValue(const E &value) {
  static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int),
                "a C enum parameter");
  int raw;
  std::memcpy(&raw, &value, sizeof(raw));
  return raw;
}

/// The tile enum value `symbolize` (an ODS symbolize<Enum> function) gives
/// the C enum argument `value` (cEnumValue), or none when it names none.
template <typename TileEnum, typename CEnum>
inline std::optional<TileEnum>
unwrapCEnum(const CEnum &value,
            std::optional<TileEnum> (*symbolize)(uint32_t)) {
  int64_t raw = cEnumValue(value);
  if (raw < 0)
    return std::nullopt;
  return symbolize(static_cast<uint32_t>(raw));
}

/// Returns a builder without insertion point (ops it creates are detached)
/// in the context of `loc`, with the tile dialect loaded.
inline OpBuilder getBuilder(MlirLocation loc) {
  return OpBuilder(loadTile(unwrap(loc)->getContext()));
}

/// The `num` values at `values`, all non-null; failure (after an error at
/// `loc` naming `what`) for a negative count, a NULL array of a positive
/// count or a null value.
inline FailureOr<SmallVector<Value>> unwrapValues(Location loc, StringRef what,
                                                  intptr_t num,
                                                  const MlirValue *values) {
  if (num < 0 || (num > 0 && !values)) {
    emitError(loc) << what << ": " << num << " values at "
                   << (values ? "an array" : "NULL");
    return failure();
  }
  SmallVector<Value> result;
  result.reserve(num);
  for (intptr_t i = 0; i < num; ++i) {
    if (mlirValueIsNull(values[i])) {
      emitError(loc) << what << " #" << i << " is a null value";
      return failure();
    }
    result.push_back(unwrap(values[i]));
  }
  return result;
}

/// `value`, or failure after an error at `loc` if it is null.
inline FailureOr<Value> unwrapValue(Location loc, StringRef what,
                                    MlirValue value) {
  if (mlirValueIsNull(value)) {
    emitError(loc) << what << " is a null value";
    return failure();
  }
  return unwrap(value);
}

/// `op` as an `OpTy`; null for a null operation or one of another kind.
template <typename OpTy> inline OpTy getOp(MlirOperation op) {
  return mlirOperationIsNull(op) ? OpTy() : dyn_cast<OpTy>(unwrap(op));
}

/// The entry block of region 0 of `op`, or null if it has none.
inline MlirBlock getBody(Operation *op) {
  if (!op || op->getNumRegions() == 0 || op->getRegion(0).empty())
    return MlirBlock{nullptr};
  return wrap(&op->getRegion(0).front());
}

/// Argument `index` of the entry block of `op`'s region 0; null if out of
/// range.
inline MlirValue getBodyArgument(Operation *op, intptr_t index) {
  MlirBlock body = getBody(op);
  if (mlirBlockIsNull(body) || index < 0 ||
      index >= static_cast<intptr_t>(unwrap(body)->getNumArguments()))
    return MlirValue{nullptr};
  return wrap(static_cast<Value>(unwrap(body)->getArgument(index)));
}

/// Unwraps the optional layout `attr` of an op built at `loc`: returns
/// failure (after reporting an error) if it is set but is not a layout.
inline FailureOr<LayoutAttrInterface>
unwrapOptionalLayout(MlirAttribute attr, Location loc, StringRef opName) {
  if (mlirAttributeIsNull(attr))
    return LayoutAttrInterface();
  auto layout = dyn_cast<LayoutAttrInterface>(unwrap(attr));
  if (!layout) {
    emitError(loc) << opName << " expects a tile layout, got " << unwrap(attr);
    return failure();
  }
  return layout;
}

} // namespace mlir::tile::capi

#endif // TILE_CAPI_LIB_DIALECTHELPERS_H
