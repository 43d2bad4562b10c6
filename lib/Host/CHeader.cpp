//===- CHeader.cpp - A C header for the functions of a module -------------===//

#include "tile/Host/Host.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <set>

using namespace mlir;

namespace {

/// The C spelling of a scalar type, or "" when C has none with the same
/// calling convention.
std::string scalarType(Type type) {
  if (type.isIndex())
    return "int64_t";
  if (type.isInteger(1))
    return "bool";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return "";
    return (Twine(integer.isUnsigned() ? "uint" : "int") + Twine(width) + "_t")
        .str();
  }
  // As their bits (tile-export-c-interface takes them as i16).
  if (type.isF16() || type.isBF16())
    return "uint16_t";
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (isa<LLVM::LLVMPointerType>(type))
    return "void *";
  return "";
}

std::string memrefStruct(int64_t rank) {
  return ("tile_memref_" + Twine(rank) + "d").str();
}

bool isCIdentifier(StringRef s) {
  return !s.empty() && (llvm::isAlpha(s[0]) || s[0] == '_') &&
         llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The keywords of C (C23) and C++ (the header is included by both), and
/// the names the header itself declares or includes: none of them may name
/// a function or an argument.
bool isReservedName(StringRef s) {
  static const llvm::StringSet<> reserved = {
      // C23
      "alignas", "alignof", "auto", "bool", "break", "case", "char", "const",
      "constexpr", "continue", "default", "do", "double", "else", "enum",
      "extern", "false", "float", "for", "goto", "if", "inline", "int", "long",
      "nullptr", "register", "restrict", "return", "short", "signed", "sizeof",
      "static", "static_assert", "struct", "switch", "thread_local", "true",
      "typedef", "typeof", "typeof_unqual", "union", "unsigned", "void",
      "volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_BitInt",
      "_Bool", "_Complex", "_Decimal128", "_Decimal32", "_Decimal64",
      "_Generic", "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
      // C++
      "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t",
      "char32_t", "class", "compl", "concept", "consteval", "constinit",
      "const_cast", "co_await", "co_return", "co_yield", "decltype", "delete",
      "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace",
      "new", "noexcept", "not", "not_eq", "operator", "or", "or_eq", "private",
      "protected", "public", "reinterpret_cast", "requires", "static_cast",
      "template", "this", "throw", "try", "typeid", "typename", "using",
      "virtual", "wchar_t", "xor", "xor_eq",
      // <stdint.h> and <stdbool.h>
      "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
      "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t",
      "size_t", "__bool_true_false_are_defined"};
  return reserved.contains(s);
}

/// A reserved name or one of the header's types and macros.
bool isHeaderName(StringRef s) {
  return isReservedName(s) || s.starts_with("tile_memref_") ||
         s.starts_with("TILE_MEMREF_");
}

/// A C identifier for argument `index`: its name location's name when it
/// has one that is a C identifier and no reserved name, else `argN`.
std::string argumentName(BlockArgument arg, unsigned index,
                         llvm::SmallSet<std::string, 8> &used) {
  std::string name;
  if (auto named = dyn_cast<NameLoc>(arg.getLoc()))
    name = named.getName().str();
  if (!isCIdentifier(name) || isHeaderName(name) || used.count(name))
    name = ("arg" + Twine(index)).str();
  used.insert(name);
  return name;
}

} // namespace

LogicalResult mlir::tile::host::emitCHeader(ModuleOp module, StringRef guard,
                                            llvm::raw_ostream &os) {
  if (!isCIdentifier(guard) || isReservedName(guard))
    return module.emitError("the header's include guard '")
           << guard << "' is not a C identifier or is a C or C++ keyword";
  std::string declarations;
  llvm::raw_string_ostream decl(declarations);
  std::set<int64_t> ranks;
  bool ok = true;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || !func.isPublic())
      continue;
    StringRef name = func.getSymName();
    if (!isCIdentifier(name) || isHeaderName(name) || name == guard) {
      func.emitOpError("cannot be declared in a C header: its name '")
          << name
          << (isCIdentifier(name)
                  ? "' is a C or C++ keyword or a name the header uses"
                  : "' is not a C identifier")
          << " (rename the function or make it private)";
      ok = false;
      continue;
    }
    FunctionType type = func.getFunctionType();
    if (type.getNumResults() > 1 ||
        (type.getNumResults() == 1 && scalarType(type.getResult(0)).empty())) {
      func.emitOpError("cannot be declared in a C header: it returns ")
          << (type.getNumResults() > 1 ? "several values"
                                       : "a type C has no equivalent for");
      ok = false;
      continue;
    }
    std::string result =
        type.getNumResults() ? scalarType(type.getResult(0)) : "void";
    SmallVector<std::string> params;
    SmallVector<std::string> comments;
    llvm::SmallSet<std::string, 8> used;
    for (auto [index, arg] : llvm::enumerate(func.getArguments())) {
      std::string name = argumentName(arg, index, used);
      std::string typeText;
      llvm::raw_string_ostream typeOs(typeText);
      arg.getType().print(typeOs);
      if (auto shape = func.getArgAttrOfType<ArrayAttr>(index, "tile.shape")) {
        typeOs << " [";
        llvm::interleaveComma(shape, typeOs, [&](Attribute a) {
          typeOs << cast<StringAttr>(a).getValue();
        });
        typeOs << "]";
      }
      comments.push_back(name + ": " + typeText);
      if (auto memref = dyn_cast<MemRefType>(arg.getType())) {
        ranks.insert(memref.getRank());
        params.push_back(memrefStruct(memref.getRank()) + " *" + name);
        continue;
      }
      std::string scalar = scalarType(arg.getType());
      if (scalar.empty()) {
        func.emitOpError("cannot be declared in a C header: argument #")
            << index << " has type " << arg.getType()
            << ", which C has no equivalent for";
        ok = false;
        break;
      }
      params.push_back(scalar + (scalar.back() == '*' ? "" : " ") + name);
    }
    if (params.size() != func.getNumArguments())
      continue;
    decl << "\n/* func.func @" << func.getSymName() << "\n";
    for (const std::string &comment : comments)
      decl << " *   " << comment << "\n";
    decl << " */\n" << result << " " << func.getSymName() << "(";
    if (params.empty())
      decl << "void";
    llvm::interleaveComma(params, decl);
    decl << ");\n";
  }
  if (!ok)
    return failure();

  os << "/* Generated by tile-mlir: the functions of a compiled module.\n"
        " *\n"
        " * Each function launches its kernels on the calling thread's\n"
        " * current stream (tileRtSetStream) and returns without waiting for\n"
        " * them. Errors (bad arguments, no GPU, failed launches) do not\n"
        " * abort: read them with tileRtGetError() and\n"
        " * tileRtGetErrorMessage() from tile_runtime.h. Memref arguments are\n"
        " * MLIR memref descriptors: the allocated and aligned data pointers,\n"
        " * the offset in elements, then the sizes and strides (in elements)\n"
        " * of each dimension.\n"
        " */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdbool.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
  for (int64_t rank : ranks) {
    std::string name = memrefStruct(rank);
    std::string upper = StringRef(name).upper();
    os << "\n#ifndef " << upper << "_DEFINED\n#define " << upper
       << "_DEFINED\ntypedef struct " << name << " {\n"
       << "  void *allocated;\n  void *aligned;\n  int64_t offset;\n";
    if (rank > 0)
      os << "  int64_t sizes[" << rank << "];\n  int64_t strides[" << rank
         << "];\n";
    os << "} " << name << ";\n#endif\n";
  }
  os << declarations;
  os << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return success();
}
