//===- ParserGuards.h - Input the MLIR 22 parser crashes on -------*- C++ -*-===//
//
// Text that crashes the upstream MLIR 22 parser (which tile-mlir cannot
// change) is found by a scan before parsing, so that tile-opt, tile-compile
// and C API hosts report a located error instead.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_PARSERGUARDS_H
#define TILE_DIALECT_PARSERGUARDS_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tile {

/// Scans `text` for dense array attributes whose element type is `index`
/// (directly or through a type alias): the MLIR 22 parser asks an index type
/// for its bit width and crashes. Comments and string literals are skipped.
/// Calls `report(line, column, message)` (1-based) for each and returns
/// whether there was any.
bool findUnparsableDenseArrays(
    StringRef text,
    function_ref<void(unsigned line, unsigned column, StringRef message)>
        report);

/// Emits an error diagnostic at `bufferName`:line:column in `context` for
/// each hazard of `text` (see findUnparsableDenseArrays); fails if any.
LogicalResult checkParserHazards(MLIRContext *context, StringRef text,
                                 StringRef bufferName);

} // namespace mlir::tile

#endif // TILE_DIALECT_PARSERGUARDS_H
