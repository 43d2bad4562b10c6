//===- Parse.h - C API to parse modules safely --------------------*- C -*-===//
//
// The MLIR 22 parser crashes on some text (dense arrays of `index`
// elements). These functions check the text first and report such input as
// an error diagnostic at its line and column in the context, then parse it
// like mlirModuleCreateParse / mlirModuleCreateParseFromFile. A host that
// parses text it did not write should use them.
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
