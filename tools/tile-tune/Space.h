//===- Space.h - The search space of tile-tune ---------------------*- C
//-*-===//
//
// A space file gives each parameter its values, one parameter a line:
//
//   BM = 64 128 256      # comments start with '#'
//   STAGES = 3 4
//
// Its variants are the cartesian product, numbered with the first
// parameter varying slowest (as nested loops in the file's order).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TUNE_SPACE_H
#define TILE_TUNE_SPACE_H

#include "Tune.h"

typedef struct {
  char *name;
  char **values;
  int count;
} Dimension;

typedef struct {
  Dimension *dims;
  int count;
} Space;

/// Reads the space file `path`; prints "tile-tune: error: ..." and returns
/// false if it is malformed.
bool readSpace(const char *path, Space *space);

/// Appends the space's values of variant `id` to `params`.
void variantParams(const Space *space, long id, TuneParams *params);

/// "BM=64 BN=128 ...": the space's parameters of a variant, for messages.
char *describe(const Space *space, const TuneParams *params);

#endif // TILE_TUNE_SPACE_H
