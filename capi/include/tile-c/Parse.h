//===- Parse.h - C API to parse modules safely --------------------*- C -*-===//
//
// The MLIR 22 parser crashes on some text (dense arrays of `index`
// elements, brackets nested thousands deep), some of its verifiers on some
// IR (a `!nvgpu.tensormap.descriptor` of vector elements), and it reports
// some lexer errors yet returns a module (a string literal running to the
// end of its line after a dialect type). These functions check the text
// first and report such input as an error diagnostic at its line and column
// in the context, parse it without verifying, fail if the parser reported
// any error, check the IR for what the verifiers crash on (an error at the
// op), then verify it: like mlirModuleCreateParse /
// mlirModuleCreateParseFromFile otherwise. A host that parses text it did
// not write should use them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_C_PARSE_H
#define TILE_C_PARSE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parses `source` (named `bufferName` in diagnostics) into a module; a null
/// module after error diagnostics on failure, and without them for a null
/// context or a string with NULL data and a nonzero length.
MLIR_CAPI_EXPORTED MlirModule tileModuleCreateParse(MlirContext context,
                                                    MlirStringRef source,
                                                    MlirStringRef bufferName);

/// Reads and parses the file `path`; a null module after error diagnostics
/// (also when the file cannot be read) on failure; a null module for a null
/// context.
MLIR_CAPI_EXPORTED MlirModule
tileModuleCreateParseFromFile(MlirContext context, MlirStringRef path);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_PARSE_H
