//===- Library.h - What tile-compile links into a library ---------*- C -*-===//
//
// The function table embedded in the libraries tile-compile links
// (Library.c).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILE_LIBRARY_H
#define TILE_COMPILE_LIBRARY_H

#include <stddef.h>

/// The symbol of the embedded table: a NUL-terminated JSON text, the one
/// tileModuleEmitSignatures writes (docs/python.md).
#define TILE_SIGNATURES_SYMBOL "tile_mlir_signatures"

/// Writes to `path` a C source file defining TILE_SIGNATURES_SYMBOL as the
/// `size` bytes of `table`. Returns 0, or 1 after an error message.
int writeSignatureSource(const char *path, const char *table, size_t size);

#endif // TILE_COMPILE_LIBRARY_H
