//===- Host.cpp - C API to compile a module's host side ---------*- C++ -*-===//

#include "tile-c/Host.h"

#include "tile/Host/Host.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

MlirLogicalResult tileModuleEmitCHeader(MlirModule module, MlirStringRef guard,
                                        MlirStringCallback callback,
                                        void *userData) {
  if (mlirModuleIsNull(module) || !callback)
    return mlirLogicalResultFailure();
  if (!guard.data && guard.length)
    return mlirLogicalResultFailure();
  // Written in one piece only when complete.
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(tile::host::emitCHeader(unwrap(module), unwrap(guard), os)))
    return mlirLogicalResultFailure();
  detail::CallbackOstream stream(callback, userData);
  stream << text;
  stream.flush();
  return mlirLogicalResultSuccess();
}

MlirLogicalResult tileModuleEmitSignatures(MlirModule module,
                                           MlirStringCallback callback,
                                           void *userData) {
  if (mlirModuleIsNull(module) || !callback)
    return mlirLogicalResultFailure();
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(tile::host::emitSignatures(unwrap(module), os)))
    return mlirLogicalResultFailure();
  detail::CallbackOstream stream(callback, userData);
  stream << text;
  stream.flush();
  return mlirLogicalResultSuccess();
}

MlirLogicalResult tileModuleEmitObjectFile(MlirModule module,
                                           MlirStringRef path, int optLevel) {
  if (mlirModuleIsNull(module))
    return mlirLogicalResultFailure();
  if (!path.data || !path.length) {
    emitError(unwrap(module).getLoc()) << "no object file path";
    return mlirLogicalResultFailure();
  }
  return wrap(
      tile::host::emitObjectFile(unwrap(module), unwrap(path), optLevel));
}
