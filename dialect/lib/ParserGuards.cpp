//===- ParserGuards.cpp - Input MLIR 22 parsing mishandles ---------------===//

#include "tile/Dialect/ParserGuards.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

#include <limits>

using namespace mlir;
using namespace llvm;

namespace {
/// One token of MLIR's textual syntax, as far as the guards need them.
struct Token {
  enum Kind { Identifier, Punct, Other } kind;
  StringRef text;
  unsigned line, column;
};

/// Splits MLIR text into tokens the way MLIR 22's lexer does for what the
/// guards look at: whitespace (including NUL bytes), `//` comments and
/// string literals are skipped; bare and prefixed identifiers (`array`,
/// `index`, `!name`, `#name`, `%v`, `@f`, `^bb`) and numbers are one token
/// each; `->` is one token; every other character is a token of its own.
class Tokenizer {
public:
  explicit Tokenizer(StringRef text) : text(text) {}

  SmallVector<Token> run() {
    SmallVector<Token> tokens;
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '\n') {
        ++line;
        lineStart = ++pos;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\0') {
        ++pos;
        continue;
      }
      if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
        while (pos < text.size() && text[pos] != '\n' && text[pos] != '\r')
          ++pos;
        continue;
      }
      size_t begin = pos;
      unsigned column = static_cast<unsigned>(pos - lineStart + 1);
      Token::Kind kind = Token::Other;
      if (c == '"') {
        skipString();
      } else if (isAlpha(c) || c == '_') {
        kind = Token::Identifier;
        while (pos < text.size() &&
               (isAlnum(text[pos]) || isIdPunct(text[pos])))
          ++pos;
      } else if ((c == '!' || c == '#' || c == '%' || c == '@' || c == '^') &&
                 pos + 1 < text.size() && text[pos + 1] == '"') {
        ++pos;
        skipString();
      } else if (c == '!' || c == '#' || c == '%' || c == '@' || c == '^') {
        kind = Token::Identifier;
        ++pos;
        while (pos < text.size() &&
               (isAlnum(text[pos]) || isIdPunct(text[pos]) || text[pos] == '-'))
          ++pos;
      } else if (isDigit(c)) {
        lexNumber();
      } else {
        kind = Token::Punct;
        pos +=
            (c == '-' && pos + 1 < text.size() && text[pos + 1] == '>') ? 2 : 1;
      }
      tokens.push_back({kind, text.slice(begin, pos), line, column});
    }
    return tokens;
  }

private:
  static bool isIdPunct(char c) { return c == '_' || c == '$' || c == '.'; }

  /// A string literal from its opening quote; it ends at the closing quote,
  /// or (unterminated) before a line break.
  void skipString() {
    for (++pos; pos < text.size(); ++pos) {
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return;
      }
      if (c == '\n' || c == '\v' || c == '\f')
        return;
      if (c == '\\')
        ++pos;
    }
    pos = std::min(pos, text.size());
  }

  /// Digits, a hexadecimal `0x...`, or a float with fraction and exponent.
  void lexNumber() {
    auto digits = [&](bool hex) {
      while (pos < text.size() &&
             (hex ? isHexDigit(text[pos]) : isDigit(text[pos])))
        ++pos;
    };
    if (text.substr(pos).starts_with("0x") && pos + 2 < text.size() &&
        isHexDigit(text[pos + 2])) {
      pos += 2;
      digits(/*hex=*/true);
      return;
    }
    digits(false);
    if (pos >= text.size() || text[pos] != '.')
      return;
    ++pos;
    digits(false);
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      size_t exponent = pos + 1;
      if (exponent < text.size() &&
          (text[exponent] == '+' || text[exponent] == '-'))
        ++exponent;
      if (exponent < text.size() && isDigit(text[exponent])) {
        pos = exponent;
        digits(false);
      }
    }
  }

  StringRef text;
  size_t pos = 0;
  size_t lineStart = 0;
  unsigned line = 1;
};
} // namespace

static bool isPunct(const Token &token, StringRef text) {
  return token.kind == Token::Punct && token.text == text;
}

/// The type aliases `!name = ...` of `tokens`, each with whether one of its
/// possible values, followed through other aliases (`!a = !b`, `!b =
/// index`), is index. Every `!name =` counts, wherever it stands (a file may
/// define an alias after an op on the same line, and text that is no
/// definition only makes the check more cautious).
static StringMap<bool> typeAliases(ArrayRef<Token> tokens) {
  StringMap<SmallVector<StringRef>> definitions;
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    StringRef name = tokens[i].text;
    if (tokens[i].kind != Token::Identifier || name.size() < 2 ||
        name[0] != '!' || !isPunct(tokens[i + 1], "="))
      continue;
    definitions[name.drop_front()].push_back(tokens[i + 2].text);
  }
  StringMap<bool> result;
  for (const auto &entry : definitions) {
    // The values reachable through the chain of aliases.
    SmallVector<StringRef> worklist(entry.second.begin(), entry.second.end());
    llvm::StringSet<> seen;
    bool index = false;
    while (!worklist.empty() && !index) {
      StringRef value = worklist.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      index = value == "index";
      auto next = value.size() > 1 && value[0] == '!'
                      ? definitions.find(value.drop_front())
                      : definitions.end();
      if (next != definitions.end())
        worklist.append(next->second.begin(), next->second.end());
    }
    result[entry.first()] = index;
  }
  return result;
}

bool mlir::tile::findParserHazards(
    StringRef text,
    function_ref<void(unsigned line, unsigned column, StringRef message)>
        report) {
  SmallVector<Token> tokens = Tokenizer(text).run();
  StringMap<bool> aliases = typeAliases(tokens);
  bool found = false;
  // Brackets open ('[', '(', '{', '<'; a '>' of '->' or '>=' closes none).
  unsigned depth = 0;
  bool reportedDepth = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token &token = tokens[i];
    if (token.kind == Token::Punct && StringRef("[({<").contains(token.text)) {
      if (++depth > kMaxParserNesting && !reportedDepth) {
        report(token.line, token.column,
               ("brackets nested more than " + Twine(kMaxParserNesting) +
                " deep are not supported (the MLIR parser would run out of "
                "stack)")
                   .str());
        reportedDepth = found = true;
      }
      continue;
    }
    if (token.kind == Token::Punct && StringRef("])}>").contains(token.text)) {
      bool greaterEqual = token.text == ">" && i + 1 < tokens.size() &&
                          isPunct(tokens[i + 1], "=");
      if (depth > 0 && !greaterEqual)
        --depth;
      continue;
    }
    // A dense array `array<T...>` whose element type T is index, or an
    // alias of nothing, makes the MLIR 22 parser dereference a null type.
    if (token.kind != Token::Identifier || token.text != "array" ||
        i + 2 >= tokens.size() || !isPunct(tokens[i + 1], "<"))
      continue;
    const Token &element = tokens[i + 2];
    StringRef type = element.text;
    bool alias =
        element.kind == Token::Identifier && type.size() > 1 && type[0] == '!';
    bool isIndex = (element.kind == Token::Identifier && type == "index") ||
                   (alias && aliases.lookup(type.drop_front()));
    if (alias && !type.contains('.') && !aliases.count(type.drop_front())) {
      report(element.line, element.column,
             ("undefined type alias '" + type + "' in a dense array").str());
      found = true;
    } else if (isIndex) {
      report(element.line, element.column,
             ("expected integer or float type, got: '" + type +
              "' (dense arrays of index are not supported)")
                 .str());
      found = true;
    }
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

/// Whether `expr` has the constant -2^63 (INT64_MIN) in it.
static bool hasMinimumConstant(AffineExpr expr) {
  bool found = false;
  expr.walk([&](AffineExpr e) {
    if (auto constant = dyn_cast<AffineConstantExpr>(e))
      found |= constant.getValue() == std::numeric_limits<int64_t>::min();
  });
  return found;
}

LogicalResult mlir::tile::checkPrinterHazards(Operation *root) {
  bool found = false;
  root->walk([&](Operation *op) {
    bool hazard = false;
    auto check = [&](Attribute attr) {
      if (auto map = dyn_cast<AffineMapAttr>(attr))
        hazard |= llvm::any_of(map.getValue().getResults(), hasMinimumConstant);
      if (auto set = dyn_cast<IntegerSetAttr>(attr))
        hazard |=
            llvm::any_of(set.getValue().getConstraints(), hasMinimumConstant);
    };
    AttrTypeWalker walker;
    walker.addWalk([&](Attribute attr) { check(attr); });
    walker.addWalk([&](Type type) {
      if (auto memref = dyn_cast<MemRefType>(type))
        if (auto layout = dyn_cast<AffineMapAttr>(memref.getLayout()))
          check(layout);
    });
    walker.walk(op->getAttrDictionary());
    for (Value operand : op->getOperands())
      if (operand) // null where the parser left a reference unresolved
        walker.walk(operand.getType());
    for (Type type : op->getResultTypes())
      walker.walk(type);
    if (!hazard)
      return;
    op->emitOpError("has an affine map or set with the constant "
                    "-9223372036854775808, which MLIR prints in a form its "
                    "parser rejects");
    found = true;
  });
  return failure(found);
}

LogicalResult mlir::tile::verifyGuarded(Operation *root) {
  // The printer's hazards only matter for IR that verifies (and the
  // verifier reports what they would trip over: null operands).
  if (failed(checkVerifierHazards(root)) || failed(verify(root)))
    return failure();
  return checkPrinterHazards(root);
}

/// Gives the arguments of the module's functions their source names
/// (`%A` in `func.func @gemm(%A: ...)`) as name locations around their
/// locations: the C header and the function table of a compiled library
/// name arguments after them. Numbered names (`%0`, `%arg0`) are left alone.
static void nameFunctionArguments(ModuleOp module,
                                  const AsmParserState &state) {
  for (auto function : module.getBody()->getOps<FunctionOpInterface>()) {
    if (function.isExternal())
      continue;
    Block &entry = function.getFunctionBody().front();
    const AsmParserState::BlockDefinition *def = state.getBlockDef(&entry);
    if (!def || def->arguments.size() != entry.getNumArguments())
      continue;
    for (auto [arg, argDef] : llvm::zip(entry.getArguments(), def->arguments)) {
      const char *start = argDef.loc.Start.getPointer();
      const char *end = argDef.loc.End.getPointer();
      if (!start || end <= start + 1 || *start != '%')
        continue;
      StringRef name(start + 1, end - start - 1);
      if (llvm::isDigit(name.front()) || isa<NameLoc>(arg.getLoc()))
        continue;
      arg.setLoc(NameLoc::get(StringAttr::get(module.getContext(), name),
                              arg.getLoc()));
    }
  }
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
  // What parseSourceString<ModuleOp> does, keeping the parser's state: the
  // source names of the functions' arguments.
  ParserConfig config(context, /*verifyAfterParse=*/false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(text, bufferName,
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  Block block;
  AsmParserState state;
  if (failed(parseAsmSourceFile(sourceMgr, &block, config, &state)))
    return nullptr;
  OwningOpRef<ModuleOp> module =
      detail::constructContainerOpForParserIfNecessary<ModuleOp>(
          &block, context, FileLineColLoc::get(context, bufferName, 0, 0));
  if (!module || sawError || failed(verifyGuarded(*module)))
    return nullptr;
  nameFunctionArguments(*module, state);
  return module;
}
