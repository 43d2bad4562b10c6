//===- InputChecks.h - Checks tile-opt runs before MLIR sees input -*- C++ -*-===//
//
// Inputs that crash upstream MLIR 22 code tile-opt cannot change (the parser,
// verifiers, canonicalization patterns) are rejected before that code runs,
// with a located diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_OPT_INPUTCHECKS_H
#define TILE_OPT_INPUTCHECKS_H

#include "mlir/Pass/Pass.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace tile_opt {

/// Scans `buffer` for what the MLIR 22 parser crashes on (dense arrays of
/// `index`, brackets nested too deep: mlir::tile::findParserHazards).
/// Prints "file:line:col: error:" to `os` for each and returns true if there
/// was any.
bool reportParserHazards(const llvm::MemoryBuffer &buffer,
                         llvm::raw_ostream &os);

/// A pass that rejects memref.dim ops whose constant index is outside the
/// memref's rank. Such IR verifies (the access is undefined only when
/// executed), but upstream canonicalization crashes on it (the GPU dialect's
/// SimplifyDimOfAllocOp pattern indexes the shape with it).
std::unique_ptr<mlir::Pass> createCheckDimIndicesPass();

/// A pass that verifies the parsed input the guarded way
/// (mlir::tile::verifyGuarded: first what upstream verifiers crash on). The
/// first pass of every tile-opt run: MlirOptMain parses without verifying.
std::unique_ptr<mlir::Pass> createVerifyInputPass();

/// A pass that does what MlirOptMain's --verify-roundtrip does (the generic
/// text and the bytecode printed, parsed back in a fresh context and printed
/// again must be the same), after createVerifyInputPass rather than on the
/// unverified input.
std::unique_ptr<mlir::Pass> createVerifyRoundtripPass();

/// Makes every context made with `registry` record an error diagnostic
/// (`onError()`) from the first load of one of `registry`'s dialects on, and
/// so during parsing: MlirOptMain registers its printing handler, which stops
/// the diagnostics it handles, after it makes the context and before it
/// parses, and the MLIR 22 parser reports some lexer errors and parses on (a
/// string literal running to the end of its line after a dialect type such
/// as `!tile.pipe<2>`). Each dialect of the registry loads the first time the
/// parser meets its name, so before anything of it is parsed.
void recordParseErrors(mlir::DialectRegistry &registry, void (*onError)());

} // namespace tile_opt

#endif // TILE_OPT_INPUTCHECKS_H
