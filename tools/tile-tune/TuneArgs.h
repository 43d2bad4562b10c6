//===- TuneArgs.h - Arguments of a timed variant on the device ----*- C -*-===//
//
// tile-tune-time calls each variant's host function with memref descriptors
// of device buffers sized from the function's `tile.shape` names and the
// problem shape, filled with random data.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TUNE_TUNEARGS_H
#define TILE_TUNE_TUNEARGS_H

#include "Tune.h"

#include "tile_runtime.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Most memref arguments of a timed function.
enum { TUNE_MAX_ARGS = 8 };

/// One memref descriptor: pointers, offset, sizes and strides.
typedef struct {
  int rank;
  int64_t descriptor[3 + 2 * TUNE_MAX_DIMS];
} Argument;

/// The arguments of one call.
typedef struct {
  char *signature;
  int count;
  Argument args[TUNE_MAX_ARGS];
} Buffers;

/// Allocates and fills the arguments of `signature` (the manifest's
/// "type[dims];...") for `shape` over the names `dims`; a message in
/// `error` on failure.
bool tuneMakeBuffers(TileRtContext *ctx, const TuneShape *shape,
                     const char *signature, const char *dims, Buffers *b,
                     char *error, size_t size);

/// Frees what tuneMakeBuffers allocated.
void tuneFreeBuffers(TileRtContext *ctx, Buffers *b);

/// Calls `fn` with pointers to the descriptors of `b`.
void tuneCall(void *fn, Buffers *b);

#endif // TILE_TUNE_TUNEARGS_H
