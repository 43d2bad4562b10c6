//===- InputChecks.h - Checks tile-opt runs before MLIR sees input -*- C++ -*-===//
//
// Inputs that crash upstream MLIR 22 code tile-opt cannot change (the parser,
// canonicalization patterns) are rejected before that code runs, with a
// located diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_OPT_INPUTCHECKS_H
#define TILE_OPT_INPUTCHECKS_H

#include "mlir/Pass/Pass.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace tile_opt {

/// Scans `buffer` for dense array attributes whose element type is `index`
/// (directly or through a type alias), on which the MLIR 22 parser crashes
/// (it asks an index type for its bit width). Prints "file:line:col: error:"
/// to `os` for each and returns true if there was any. Comments and string
/// literals are skipped.
bool reportUnparsableDenseArrays(const llvm::MemoryBuffer &buffer,
                                 llvm::raw_ostream &os);

/// A pass that rejects memref.dim ops whose constant index is outside the
/// memref's rank. Such IR verifies (the access is undefined only when
/// executed), but upstream canonicalization crashes on it (the GPU dialect's
/// SimplifyDimOfAllocOp pattern indexes the shape with it).
std::unique_ptr<mlir::Pass> createCheckDimIndicesPass();

} // namespace tile_opt

#endif // TILE_OPT_INPUTCHECKS_H
