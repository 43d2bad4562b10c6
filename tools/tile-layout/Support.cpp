//===- Support.cpp - Helpers shared by tile-layout's files ----------------===//
//
// Error reporting, shape parsing and printing, and attribute printing.
//
//===----------------------------------------------------------------------===//

#include "Support.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tile_layout {

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), kToolName) << message << "\n";
  return 1;
}

LogicalResult parseShape(StringRef text, StringRef option,
                         SmallVectorImpl<int64_t> &shape, bool powersOfTwo) {
  shape.clear();
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  int64_t total = 1;
  for (StringRef part : parts) {
    int64_t size;
    if (part.trim().getAsInteger(10, size) || size <= 0 ||
        size > (int64_t(1) << 24)) {
      fail(llvm::formatv("--{0}: expected sizes separated by 'x' (like "
                         "16x8), got '{1}'",
                         option, text));
      return failure();
    }
    total *= size;
    if (total > (int64_t(1) << 40)) {
      fail(llvm::formatv("--{0}: shape {1} is too large", option, text));
      return failure();
    }
    shape.push_back(size);
  }
  if (powersOfTwo)
    for (int64_t size : shape)
      if (!llvm::isPowerOf2_64(size)) {
        fail(llvm::formatv("--{0}: shape entries must be powers of two, got "
                           "{1} in {2}",
                           option, size, text));
        return failure();
      }
  return success();
}

std::string joinShape(ArrayRef<int64_t> shape, StringRef sep) {
  return llvm::join(
      llvm::map_range(shape, [](int64_t s) { return std::to_string(s); }), sep);
}

std::string attrToString(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

} // namespace tile_layout
