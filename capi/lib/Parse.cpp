//===- Parse.cpp - C API to parse modules safely ----------------*- C++ -*-===//

#include "tile-c/Parse.h"

#include "tile/Dialect/ParserGuards.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

MlirModule tileModuleCreateParse(MlirContext context, MlirStringRef source,
                                 MlirStringRef bufferName) {
  if (mlirContextIsNull(context) || (!source.data && source.length) ||
      (!bufferName.data && bufferName.length))
    return MlirModule{nullptr};
  MLIRContext *ctx = unwrap(context);
  StringRef text = unwrap(source);
  StringRef name = unwrap(bufferName);
  // The upstream parser's and verifiers' hazards are checked there.
  OwningOpRef<ModuleOp> module = tile::parseSourceGuarded(ctx, text, name);
  return MlirModule{module.release().getOperation()};
}

MlirModule tileModuleCreateParseFromFile(MlirContext context,
                                         MlirStringRef path) {
  if (mlirContextIsNull(context) || (!path.data && path.length))
    return MlirModule{nullptr};
  MLIRContext *ctx = unwrap(context);
  StringRef name = unwrap(path);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(name);
  if (!buffer) {
    emitError(UnknownLoc::get(ctx))
        << "cannot read '" << name << "': " << buffer.getError().message();
    return MlirModule{nullptr};
  }
  return tileModuleCreateParse(context, wrap((*buffer)->getBuffer()), path);
}
