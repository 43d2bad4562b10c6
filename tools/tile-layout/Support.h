//===- Support.h - Helpers shared by tile-layout's files --------*- C++ -*-===//
//
// Error reporting, shape parsing and printing, and attribute printing used by
// the command line, the named layouts and the grid builders of tile-layout.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_SUPPORT_H
#define TILE_LAYOUT_SUPPORT_H

#include "mlir/IR/Attributes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <string>

namespace tile_layout {

inline constexpr llvm::StringLiteral kToolName = "tile-layout";

/// Prints "tile-layout: error: <message>" to stderr and returns 1.
int fail(const llvm::Twine &message);

/// Parses "16x8" / "128" / "4x64x64" into positive sizes; reports a bad
/// `text` of option --`option` (and, with `powersOfTwo`, sizes that are not
/// powers of two).
mlir::LogicalResult parseShape(llvm::StringRef text, llvm::StringRef option,
                               llvm::SmallVectorImpl<int64_t> &shape,
                               bool powersOfTwo);

/// Joins the sizes of `shape` with `sep`: "16x8".
std::string joinShape(llvm::ArrayRef<int64_t> shape, llvm::StringRef sep = "x");

/// The attribute as MLIR prints it.
std::string attrToString(mlir::Attribute attr);

} // namespace tile_layout

#endif // TILE_LAYOUT_SUPPORT_H
