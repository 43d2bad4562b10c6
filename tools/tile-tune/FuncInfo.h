//===- FuncInfo.h - What the tuner reads from a function ----------*- C -*-===//
//
// Over the MLIR C API (libTileMLIR-C.so): finding a host function in a
// parsed module, and its signature as the tuner records it, e.g.
// "f16[M,K];f16[K,N];f16[M,N]" for examples/gemm.mlir: per argument, the
// element type of its memref and one name per dimension from its
// `tile.shape` attribute (the static size, or "?", where it has none).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TUNE_FUNCINFO_H
#define TILE_TUNE_FUNCINFO_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>

/// Prints `type` / `attr` into a new string.
char *tuneTypeString(MlirType type);
char *tuneAttrString(MlirAttribute attr);

/// The symbol name of `op` as a new string ("" if it has none).
char *tuneSymName(MlirOperation op);

/// Whether `op` is a func.func with a body / without sym_visibility
/// "private" or "nested".
bool tuneIsFunc(MlirOperation op);
bool tuneFuncHasBody(MlirOperation func);
bool tuneFuncIsPublic(MlirOperation func);

/// The top-level func.func named `name`; a null operation if none.
MlirOperation tuneFindFunc(MlirModule module, const char *name);

/// The name of the only public func.func with a body, as a new string; NULL
/// (and a message in `error`) if there is none or more than one.
char *tuneDefaultFunc(MlirModule module, char *error, size_t size);

/// The signature of `func` (see above) as a new string, and in `*dims` the
/// names of its dimensions in order of first appearance (numbers and "?"
/// left out), comma-separated. NULL with a message in `error` for an
/// argument that is not a ranked memref.
char *tuneFuncSignature(MlirOperation func, char **dims, char *error,
                        size_t size);

/// The dimension order shapes are given in by default: M, N, K (after a
/// batch dimension B or batch, if any) when those are the names, else
/// `dims` as it is. A new string.
char *tuneDefaultDimOrder(const char *dims);

#endif // TILE_TUNE_FUNCINFO_H
