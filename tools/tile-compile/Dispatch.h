//===- Dispatch.h - The library of tuned variants ------------------*- C
//-*-===//
//
// tile-compile SOURCE --tuned CACHE: one module holding, for each function
// of SOURCE that the cache has winners for (on the chip), every distinct
// winning variant (SOURCE with its parameters substituted), renamed
// `f__v0`, `f__v1`, ... and private, with their kernels and other symbols
// renamed the same way; and a dispatcher with f's own name and signature
// that reads the call's sizes, rounds each up to a power of two and calls
// the variant of the nearest shape class (docs/tuner.md).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILE_DISPATCH_H
#define TILE_COMPILE_DISPATCH_H

#include "Tune.h"

#include "mlir-c/IR.h"

/// Builds the module; prints "tile-compile: error: ..." and returns a null
/// module on failure. `source` is SOURCE's text, `path` its name; `defines`
/// (-D) select among the cache's entries (an entry whose parameters give
/// another value is left out) and give the parameters the entries lack.
/// `used` gets a flag per define: whether SOURCE uses it.
MlirModule tileBuildTunedModule(MlirContext ctx, const char *source,
                                const char *path, const TuneParams *defines,
                                bool *used, const char *cachePath,
                                const char *chip);

#endif // TILE_COMPILE_DISPATCH_H
