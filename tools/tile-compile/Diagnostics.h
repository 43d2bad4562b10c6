//===- Diagnostics.h - tile-compile's diagnostics -----------------*- C -*-===//
//
// The diagnostic handler of tile-compile's context (Diagnostics.c).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILE_DIAGNOSTICS_H
#define TILE_COMPILE_DIAGNOSTICS_H

#include "mlir-c/Diagnostics.h"

#include <stdbool.h>

/// The text diagnostics point into (the input after `-D` substitution, which
/// keeps its lines) and its name: diagnostics located in it show the line.
void diagnosticsSetSource(const char *name, const char *text);

/// Whether remarks are printed too (--remarks).
void diagnosticsPrintRemarks(bool on);

/// Prints errors and warnings (and remarks, when asked) to stderr.
MlirLogicalResult handleDiagnostic(MlirDiagnostic diagnostic, void *userData);

#endif // TILE_COMPILE_DIAGNOSTICS_H
