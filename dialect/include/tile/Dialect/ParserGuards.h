//===- ParserGuards.h - Input MLIR 22 parsing mishandles --------*- C++ -*-===//
//
// Input that the upstream MLIR 22 parser or verifiers (which tile-mlir cannot
// change) crash on or mishandle: text that crashes the parser is found by a
// scan before parsing, IR that crashes a verifier by a walk before verifying,
// so that tile-opt, tile-compile and C API hosts report a located error
// instead. parseSourceGuarded does it all for C API hosts; tile-opt, which
// parses through MlirOptMain, uses the pieces.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_PARSERGUARDS_H
#define TILE_DIALECT_PARSERGUARDS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tile {

/// The deepest nesting of brackets findParserHazards accepts. The MLIR 22
/// parser recurses once or more per level (attributes, types, regions):
/// about 10000 levels overflow an 8 MiB stack (fewer under
/// AddressSanitizer), while real programs nest a few dozen.
constexpr unsigned kMaxParserNesting = 512;

/// Scans `text` for what the MLIR 22 parser crashes on: dense array
/// attributes whose element type is `index` (directly or through a type
/// alias; the parser asks an index type for its bit width), and brackets
/// (`[`, `(`, `{`, `<`) nested more than kMaxParserNesting deep (a stack
/// overflow). Comments and string literals are skipped. Calls
/// `report(line, column, message)` (1-based) for each dense array and the
/// first bracket too deep, and returns whether there was any.
bool findParserHazards(
    StringRef text,
    function_ref<void(unsigned line, unsigned column, StringRef message)>
        report);

/// Emits an error diagnostic at `bufferName`:line:column in `context` for
/// each hazard of `text` (see findParserHazards); fails if any.
LogicalResult checkParserHazards(MLIRContext *context, StringRef text,
                                 StringRef bufferName);

/// Emits an error at each op of `root` (parsed, not yet verified) that an
/// upstream MLIR 22 verifier crashes on, and fails if there is any: an nvgpu
/// op with a `!nvgpu.tensormap.descriptor` operand or result whose memref
/// has rank 0 or elements that are neither integers nor floats (the TMA
/// verifiers ask such an element type for its bit width).
LogicalResult checkVerifierHazards(Operation *root);

/// Emits an error at each op of `root` that MLIR 22 would print in a form
/// its parser rejects, and fails if there is any: an affine map or integer
/// set (an attribute, or a memref layout of an operand or result) with the
/// constant -2^63 (`d0 - 1 >= 9223372036854775807` folds to it; it prints as
/// `- 9223372036854775808`, "constant too large for index").
LogicalResult checkPrinterHazards(Operation *root);

/// checkVerifierHazards, mlir::verify, then (on verified IR)
/// checkPrinterHazards.
LogicalResult verifyGuarded(Operation *root);

/// Parses `text` into a module, named `bufferName` in locations, the guarded
/// way: checkParserHazards; parsing without the parser's verification; a
/// failure if the parser reported any error, even where it returned an
/// operation (MLIR 22 reports a string literal that runs to the end of its
/// line after a dialect type, such as `!tile.pipe<2> "`, and parses on from
/// the next line); then verifyGuarded. Diagnostics go to the context's
/// handlers. Returns null on failure. The arguments of the module's
/// functions get their source names as name locations (`%A` gives
/// `loc("A"(...))`), which the C header and function table use.
OwningOpRef<ModuleOp> parseSourceGuarded(MLIRContext *context, StringRef text,
                                         StringRef bufferName);

} // namespace mlir::tile

#endif // TILE_DIALECT_PARSERGUARDS_H
