//===- ParserGuards.cpp - Input MLIR 22 parsing mishandles ---------------===//

#include "tile/Dialect/ParserGuards.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace llvm;

static bool isTypeChar(char c) {
  return isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '!';
}

/// The type aliases `!name = ...` of `text`, each with its value followed
/// through other aliases (`!a = !b`, `!b = index`: a's value is index).
static StringMap<std::string> typeAliases(StringRef text) {
  StringMap<std::string> definitions;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    line = line.trim();
    if (!line.consume_front("!"))
      continue;
    size_t end = 0;
    while (end < line.size() && isTypeChar(line[end]))
      ++end;
    StringRef name = line.take_front(end);
    StringRef rest = line.drop_front(end).ltrim();
    if (name.empty() || !rest.consume_front("="))
      continue;
    rest = rest.ltrim();
    size_t valueEnd = 0;
    while (valueEnd < rest.size() && isTypeChar(rest[valueEnd]))
      ++valueEnd;
    definitions[name] = rest.take_front(valueEnd).str();
  }
  StringMap<std::string> result;
  for (const auto &entry : definitions) {
    // Follow the chain of aliases, at most as many steps as there are.
    std::string value = entry.second;
    for (size_t step = 0; step < definitions.size() && value.size() > 1 &&
                          value[0] == '!' && definitions.count(value.substr(1));
         ++step)
      value = definitions.lookup(value.substr(1));
    result[entry.first()] = value;
  }
  return result;
}

bool mlir::tile::findParserHazards(
    StringRef text,
    function_ref<void(unsigned line, unsigned column, StringRef message)>
        report) {
  StringMap<std::string> aliases = typeAliases(text);
  bool found = false;
  // Brackets open ('[', '(', '{', '<'; a '>' of '->' or '>=' closes none).
  unsigned depth = 0;
  bool reportedDepth = false;
  unsigned line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
      continue;
    }
    if (c == '/' && text.substr(i).starts_with("//")) {
      // Skip to the end of the line, then handle the newline above.
      size_t end = text.find('\n', i);
      if (end == StringRef::npos)
        break;
      i = end - 1;
      continue;
    }
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < text.size() && text[i] == '\n')
        --i;
      continue;
    }
    if (c == '[' || c == '(' || c == '{' || c == '<') {
      if (++depth > kMaxParserNesting && !reportedDepth) {
        report(line, static_cast<unsigned>(i - lineStart + 1),
               ("brackets nested more than " + Twine(kMaxParserNesting) +
                " deep are not supported (the MLIR parser would run out of "
                "stack)")
                   .str());
        reportedDepth = found = true;
      }
      continue;
    }
    if (c == ']' || c == ')' || c == '}' ||
        (c == '>' && (i == 0 || text[i - 1] != '-') &&
         (i + 1 == text.size() || text[i + 1] != '='))) {
      if (depth > 0)
        --depth;
      continue;
    }
    if (c != 'a' || !text.substr(i).starts_with("array") ||
        (i > 0 && (isTypeChar(text[i - 1]) || text[i - 1] == '#')))
      continue;
    size_t j = i + 5;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
      ++j;
    if (j >= text.size() || text[j] != '<')
      continue;
    ++depth;
    ++j;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
      ++j;
    size_t end = j;
    while (end < text.size() && isTypeChar(text[end]))
      ++end;
    StringRef type = text.slice(j, end);
    bool alias = type.size() > 1 && type[0] == '!';
    bool isIndex = type == "index" ||
                   (alias && aliases.lookup(type.drop_front()) == "index");
    // An undefined alias (no dialect prefix) parses to no type, which the
    // dense array parser then dereferences.
    if (alias && !type.contains('.') && !aliases.count(type.drop_front())) {
      report(line, static_cast<unsigned>(j - lineStart + 1),
             ("undefined type alias '" + type + "' in a dense array").str());
      found = true;
    } else if (isIndex) {
      report(line, static_cast<unsigned>(j - lineStart + 1),
             ("expected integer or float type, got: '" + type +
              "' (dense arrays of index are not supported)")
                 .str());
      found = true;
    }
    i = end - 1;
  }
  return found;
}

LogicalResult mlir::tile::checkParserHazards(MLIRContext *context,
                                             StringRef text,
                                             StringRef bufferName) {
  bool found = findParserHazards(
      text, [&](unsigned line, unsigned column, StringRef message) {
        emitError(FileLineColLoc::get(context, bufferName, line, column))
            << message;
      });
  return failure(found);
}

/// Why an upstream verifier would crash on a tensor map descriptor of
/// `memref`, or null when it would not.
static const char *tensorMapHazard(MemRefType memref) {
  if (!memref)
    return nullptr;
  if (memref.getRank() == 0)
    return "must have rank 1 or more";
  if (!memref.getElementType().isIntOrFloat())
    return "must have integer or float elements";
  return nullptr;
}

LogicalResult mlir::tile::checkVerifierHazards(Operation *root) {
  bool found = false;
  root->walk([&](Operation *op) {
    if (!isa_and_nonnull<nvgpu::NVGPUDialect>(op->getDialect()))
      return;
    auto check = [&](Type type) {
      auto desc = dyn_cast<nvgpu::TensorMapDescriptorType>(type);
      if (!desc)
        return;
      if (const char *why = tensorMapHazard(desc.getTensor())) {
        op->emitOpError("the memref of its tensor map descriptor, ")
            << desc.getTensor() << ", " << why;
        found = true;
      }
    };
    llvm::for_each(op->getOperandTypes(), check);
    llvm::for_each(op->getResultTypes(), check);
  });
  return failure(found);
}

LogicalResult mlir::tile::verifyGuarded(Operation *root) {
  if (failed(checkVerifierHazards(root)))
    return failure();
  return verify(root);
}

OwningOpRef<ModuleOp> mlir::tile::parseSourceGuarded(MLIRContext *context,
                                                     StringRef text,
                                                     StringRef bufferName) {
  if (failed(checkParserHazards(context, text, bufferName)))
    return nullptr;
  // Passed on (failure) to the handlers registered before.
  bool sawError = false;
  ScopedDiagnosticHandler recordErrors(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      sawError = true;
    return failure();
  });
  ParserConfig config(context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, config, bufferName);
  if (!module || sawError || failed(verifyGuarded(*module)))
    return nullptr;
  return module;
}
