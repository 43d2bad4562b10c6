//===- DispatchText.h - The dispatcher of tuned variants as MLIR ---*- C
//-*-===//
//
// Part of tile-compile --tuned (Dispatch.h): the tuned entries of one
// function and the text of its dispatcher.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILE_DISPATCHTEXT_H
#define TILE_COMPILE_DISPATCHTEXT_H

#include "Tune.h"

/// The tuned entries of one function.
typedef struct {
  char *function, *signature, *dims;
  TuneEntry **entries;
  size_t count;
  int *variant; /// per entry: its variant
  /// The function as written: per argument its type, attributes and source
  /// name ("" if none), and the result types.
  char **argTypes, **argAttrs, **argNames, **results;
  int numArgs, numResults;
} Group;

/// The dispatcher of `g` as MLIR text (a new string), with private
/// declarations of the variants it calls.
char *dispatcherText(const Group *g);

#endif // TILE_COMPILE_DISPATCHTEXT_H
