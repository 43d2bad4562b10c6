//===- Tune.h - Parameters, shapes and the tuning cache -----------*- C -*-===//
//
// Plain C, no MLIR: shared by tile-tune, tile-tune-time (which runs on a GPU
// machine without MLIR) and tile-compile.
//
//  - Parameters: `${NAME}` placeholders in a kernel source, substituted from
//    NAME=VALUE lists (tile-compile -D, the variants of a search space).
//  - Shapes: problem sizes "4096x4096x512" over named dimensions (M, N, K)
//    and their shape class, each size rounded up to a quarter octave.
//  - The cache of winners (docs/tuner.md): one entry per chip, function,
//    signature and shape class, with the winning parameters and time.
//  - The manifest of a work directory: the compiled variants.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TUNE_TUNE_H
#define TILE_TUNE_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

//===----------------------------------------------------------------------===//
// Utilities
//===----------------------------------------------------------------------===//

/// malloc / realloc / strdup that exit on failure.
void *tuneAlloc(size_t size);
void *tuneRealloc(void *ptr, size_t size);
char *tuneStrdup(const char *text);
char *tuneStrndup(const char *text, size_t n);
/// printf into a new string.
char *tuneFormat(const char *format, ...) __attribute__((format(printf, 1, 2)));

/// Reads a whole file into a NUL-terminated string; NULL if it cannot.
char *tuneReadFile(const char *path);

/// Splits `line` in place at runs of blanks into at most `max` fields
/// (the last takes the rest of the line, trimmed); returns their number.
/// A line whose first field starts with '#' has no fields.
int tuneSplit(char *line, char **fields, int max);

/// The next line of `text` at `*cursor` (newline removed, in place); NULL at
/// the end.
char *tuneNextLine(char **cursor);

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

typedef struct {
  char *name;
  char *value;
} TuneParam;

typedef struct {
  TuneParam *items;
  size_t count;
} TuneParams;

/// Whether `name` (`n` characters) is a parameter name,
/// [A-Za-z_][A-Za-z0-9_]*.
bool tuneIsName(const char *name, size_t n);
/// Whether `value` can be a parameter value in lists: no blank, ',' or '='.
bool tuneIsListValue(const char *value);

void tuneParamsAdd(TuneParams *params, const char *name, const char *value);
/// The value of `name`, NULL if it has none.
const char *tuneParamsGet(const TuneParams *params, const char *name);
void tuneParamsFree(TuneParams *params);
void tuneParamsCopy(TuneParams *to, const TuneParams *from);
/// "BM=64,BN=128", in the list's order.
char *tuneParamsFormat(const TuneParams *params);
/// The same, names in sorted order: the canonical form of a set.
char *tuneParamsCanonical(const TuneParams *params);
/// Parses "BM=64,BN=128" (appending); false on malformed text.
bool tuneParamsParse(const char *text, TuneParams *params);

/// Parses one `-D` argument, NAME=VALUE, into `params`. Writes a message to
/// `error` (`size` bytes) and returns false if it is malformed or NAME is
/// given already.
bool tuneParseDefine(const char *text, TuneParams *params, char *error,
                     size_t size);

/// Replaces every `${NAME}` of `source` (outside `//` comments) by NAME's
/// value in `params`, and every `${NAME:-DEFAULT}` by NAME's value or, where
/// `params` has none, DEFAULT (any text up to the `}` on the same line). On
/// failure writes "PATH:LINE:COL: error: ..." for each placeholder without
/// a value (once per name) or malformed placeholder to `diag` and returns
/// NULL. `used`, if not NULL, gets one flag per parameter: whether the
/// source uses it.
char *tuneSubstitute(const char *source, const char *path,
                     const TuneParams *params, bool *used, FILE *diag);

/// The distinct placeholder names of `source`, in order of appearance.
void tunePlaceholders(const char *source, TuneParams *names);

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

enum { TUNE_MAX_DIMS = 8 };

typedef struct {
  int rank;
  int64_t sizes[TUNE_MAX_DIMS];
} TuneShape;

/// Parses "4096x4096x512" (positive sizes); false on malformed text.
bool tuneShapeParse(const char *text, TuneShape *shape);
/// "4096x4096x512" into `buffer`.
void tuneShapeFormat(const TuneShape *shape, char *buffer, size_t size);
/// Each size rounded up to its class: the least of 2^k, 1.25 * 2^k,
/// 1.5 * 2^k and 1.75 * 2^k (powers of two up to 4) that holds it: 1000 ->
/// 1024, 4096 -> 4096, 5000 -> 5120, 6000 -> 6144, 7000 -> 7168.
TuneShape tuneShapeClass(const TuneShape *shape);
int64_t tuneRoundUpClass(int64_t size);
/// The class of `size` as a number, four per octave: 4 log2 of a power of
/// two, 4 k + 1, + 2, + 3 for 1.25, 1.5, 1.75 times 2^k (sizes above 4).
int tuneClassIndex(int64_t size);
/// The size of class `index`.
int64_t tuneClassSize(int index);

/// A comma-separated list of dimension names, "M,N,K", into `names`
/// (pointers into a copy owned by the caller through `storage`).
int tuneSplitNames(const char *list, char **names, int max, char **storage);

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

/// The first line of a cache file.
#define TUNE_CACHE_HEADER "tile-tune-cache 1"

typedef struct {
  char *chip;      /// "sm_90a"
  char *function;  /// "gemm"
  char *signature; /// "f16[M,K];f16[K,N];f16[M,N]"
  char *dims;      /// "M,N,K": the names of the class's sizes
  TuneShape cls;   /// the shape class (tuneShapeClass)
  char *params;    /// the winner, canonical: "BK=32,BM=128,..."
  double ms;       /// its time (mean over the measured shapes)
  char *shapes;    /// the shapes measured: "4000x4096x4096;4096x4096x4096"
} TuneEntry;

typedef struct {
  TuneEntry *items;
  size_t count;
} TuneCache;

/// Reads `path` into `cache` (appending). A missing file is an empty cache
/// when `missingOk`. Prints "TOOL: error: PATH:LINE: ..." and returns false
/// on malformed content.
bool tuneCacheRead(const char *path, TuneCache *cache, bool missingOk,
                   const char *tool);
/// Adds `entry` (taking ownership), replacing an entry of the same chip,
/// function, signature, dimension names and class.
void tuneCacheMerge(TuneCache *cache, TuneEntry *entry);
/// Sorts the entries (chip, function, signature, dims, class sizes) and
/// writes them to `path` (through a temporary file renamed over it).
bool tuneCacheWrite(const char *path, TuneCache *cache);
/// "M=4096,N=4096,K=512": the class with its dimension names.
char *tuneEntryClass(const TuneEntry *entry);
void tuneCacheFree(TuneCache *cache);
/// Orders entries as tuneCacheWrite does (qsort comparator).
int tuneEntryCompare(const void *a, const void *b);

//===----------------------------------------------------------------------===//
// The manifest of a work directory
//===----------------------------------------------------------------------===//

#define TUNE_MANIFEST_HEADER "tile-tune-manifest 1"
#define TUNE_MANIFEST_NAME "manifest.txt"

typedef struct {
  int id;
  char *params;    /// all parameters, "BM=64,BN=64,...,DTYPE=f16"
  bool ok;         /// compiled
  char *signature; /// ok: the function's argument types and dimensions
  char *library;   /// ok: the shared library, relative to the work dir
  char *reason;    /// not ok: why it was skipped
} TuneVariant;

typedef struct {
  char *source, *chip, *function, *dims;
  char *space; /// the names of the searched parameters, "BM,BN,..."
  TuneVariant *variants;
  size_t count;
} TuneManifest;

bool tuneManifestWrite(const char *path, const TuneManifest *manifest);
bool tuneManifestRead(const char *path, TuneManifest *manifest,
                      const char *tool);
void tuneManifestFree(TuneManifest *manifest);

/// "BM=64 BN=128": the searched parameters of a variant of `manifest`.
char *tuneDescribe(const TuneManifest *manifest, const char *params);

/// Picks, per shape class and signature, the variant with the least mean
/// time over the class's shapes (`ms[shape * manifest->count + variant]`,
/// negative for none; the lower id on ties), prints it and merges it into
/// `cache`.
void tunePickWinners(const TuneManifest *manifest, const TuneShape *shapes,
                     char **shapeTexts, size_t shapeCount, const double *ms,
                     TuneCache *cache);

#endif // TILE_TUNE_TUNE_H
