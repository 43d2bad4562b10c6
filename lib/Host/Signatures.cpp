//===- Signatures.cpp - A machine-readable table of a module's functions --===//
//
// What a foreign-function caller (the Python package, python/tile_mlir)
// needs to call the functions of a compiled library without MLIR: for each
// public function its name, result and arguments, as JSON.
//
//===----------------------------------------------------------------------===//

#include "tile/Host/Host.h"

#include "tile/Dialect/ShapeSpec.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/JSON.h"

using namespace mlir;

namespace {

/// The name of a scalar or element type in the table ("f16", "bf16", "i32",
/// "index", "f8E4M3FN", ...): its MLIR spelling.
std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The name of argument `index`, as the C header gives it: the argument's
/// name location when it has one, else "argN".
std::string argumentName(BlockArgument arg, unsigned index) {
  if (auto named = dyn_cast<NameLoc>(arg.getLoc()))
    return named.getName().str();
  return ("arg" + Twine(index)).str();
}

llvm::json::Value describeArgument(func::FuncOp func, BlockArgument arg,
                                   unsigned index) {
  llvm::json::Object entry;
  entry["name"] = argumentName(arg, index);
  if (auto memref = dyn_cast<MemRefType>(arg.getType())) {
    entry["kind"] = "memref";
    entry["element"] = typeName(memref.getElementType());
    llvm::json::Array shape;
    for (int64_t size : memref.getShape())
      shape.push_back(ShapedType::isDynamic(size) ? llvm::json::Value(nullptr)
                                                  : llvm::json::Value(size));
    entry["shape"] = std::move(shape);
    if (auto names = func.getArgAttrOfType<ArrayAttr>(index, "tile.shape")) {
      // The names ("M", a size, "?"), and the bounds where there are any.
      llvm::json::Array dims, bounds;
      bool bounded = false;
      for (Attribute name : names) {
        StringRef text = cast<StringAttr>(name).getValue();
        std::string error;
        std::optional<tile::ShapeEntry> parsed =
            tile::parseShapeEntry(text, error);
        if (parsed && parsed->kind == tile::ShapeEntry::Kind::Name)
          text = parsed->name;
        dims.push_back(text.trim().str());
        bounded |= parsed && parsed->bound;
        bounds.push_back(parsed && parsed->bound
                             ? llvm::json::Value(*parsed->bound)
                             : llvm::json::Value(nullptr));
      }
      entry["dims"] = std::move(dims);
      if (bounded)
        entry["bounds"] = std::move(bounds);
    }
  } else {
    entry["kind"] = "scalar";
    entry["type"] = typeName(arg.getType());
  }
  return llvm::json::Value(std::move(entry));
}

} // namespace

LogicalResult mlir::tile::host::emitSignatures(ModuleOp module,
                                               llvm::raw_ostream &os) {
  llvm::json::Array functions;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    FunctionType type = func.getFunctionType();
    if (type.getNumResults() > 1)
      return func.emitOpError("cannot be described for callers: it returns "
                              "several values");
    llvm::json::Object entry;
    entry["name"] = func.getSymName().str();
    entry["result"] = type.getNumResults()
                          ? llvm::json::Value(typeName(type.getResult(0)))
                          : llvm::json::Value(nullptr);
    llvm::json::Array args;
    for (auto [index, arg] : llvm::enumerate(func.getArguments())) {
      if (isa<UnrankedMemRefType>(arg.getType()))
        return func.emitOpError("cannot be described for callers: argument #")
               << index << " is an unranked memref";
      args.push_back(describeArgument(func, arg, index));
    }
    entry["args"] = std::move(args);
    functions.push_back(std::move(entry));
  }
  llvm::json::Object table;
  table["version"] = 1;
  table["functions"] = std::move(functions);
  os << llvm::json::Value(std::move(table));
  return success();
}
