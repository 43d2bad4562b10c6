//===- InputChecks.cpp - Checks tile-opt runs before MLIR sees input ------===//

#include "InputChecks.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

using namespace llvm;

namespace tile_opt {

static bool isTypeChar(char c) {
  return isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '!';
}

/// The type aliases of `text` defined (possibly through other aliases) as
/// `index`: `!name = index`.
static StringMap<bool> indexAliases(StringRef text) {
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
  StringMap<bool> result;
  for (const auto &entry : definitions) {
    // Follow the chain of aliases, at most as many steps as there are.
    std::string value = entry.second;
    for (size_t step = 0; step < definitions.size() && value.size() > 1 &&
                          value[0] == '!' && definitions.count(value.substr(1));
         ++step)
      value = definitions.lookup(value.substr(1));
    if (value == "index")
      result[entry.first()] = true;
  }
  return result;
}

bool reportUnparsableDenseArrays(const MemoryBuffer &buffer, raw_ostream &os) {
  StringRef text = buffer.getBuffer();
  StringMap<bool> aliases = indexAliases(text);
  bool found = false;
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
    if (c != 'a' || !text.substr(i).starts_with("array") ||
        (i > 0 && (isTypeChar(text[i - 1]) || text[i - 1] == '#')))
      continue;
    size_t j = i + 5;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
      ++j;
    if (j >= text.size() || text[j] != '<')
      continue;
    ++j;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
      ++j;
    size_t end = j;
    while (end < text.size() && isTypeChar(text[end]))
      ++end;
    StringRef type = text.slice(j, end);
    bool isIndex = type == "index" ||
                   (type.size() > 1 && type[0] == '!' &&
                    aliases.count(type.drop_front()));
    if (isIndex) {
      os << buffer.getBufferIdentifier() << ":" << line << ":"
         << (j - lineStart + 1)
         << ": error: expected integer or float type, got: '" << type
         << "' (dense arrays of index are not supported)\n";
      found = true;
    }
    i = end - 1;
  }
  return found;
}

namespace {
struct CheckDimIndicesPass
    : public mlir::PassWrapper<CheckDimIndicesPass, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckDimIndicesPass)
  StringRef getArgument() const override {
    return "tile-opt-check-dim-indices";
  }
  StringRef getDescription() const override {
    return "Reject memref.dim ops with a constant index out of range";
  }
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](mlir::memref::DimOp dim) {
      std::optional<int64_t> index = dim.getConstantIndex();
      auto type = dyn_cast<mlir::MemRefType>(dim.getSource().getType());
      if (index && type && (*index < 0 || *index >= type.getRank())) {
        dim.emitOpError("index ") << *index << " is out of range for a rank-"
                                  << type.getRank() << " memref";
        failed = true;
      }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<mlir::Pass> createCheckDimIndicesPass() {
  return std::make_unique<CheckDimIndicesPass>();
}

} // namespace tile_opt
