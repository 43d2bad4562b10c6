//===- bench_options.h - Command lines of the kernel harnesses ----*- C -*-===//
//
// The options tile-gemm-bench and tile-fa-bench share (the kernel file and
// its launch configuration, timing, inputs, device), their "--name=value"
// syntax (tile-extract-kernel's too), lists of problem shapes and the launch
// information files tile-extract-kernel writes. Plain C11, no runtime:
// nothing here prints but the "error: ..." lines of bad values and
// unreadable files.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BENCH_OPTIONS_H
#define TILE_BENCH_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// Matches "--name=value" (or "name=value"); returns the value or NULL.
const char *benchOptionValue(const char *arg, const char *name);

/// Parses "X[,Y[,Z]]" (all positive) into `block`; returns 0 if malformed.
int benchParseBlock(const char *text, unsigned block[3]);

/// Parses one comma-separated item into `item`; 0 if malformed.
typedef int (*BenchParseItemFn)(const char *text, void *item);

/// Parses the comma-separated list `text` into `items` (at most `maxItems`
/// of `itemSize` bytes each) and sets `*count`. Prints "error: bad shape
/// 'ITEM' (expected EXPECTED)" and returns 0 on a malformed item or one too
/// many; returns 0 too for an empty list.
int benchParseShapes(const char *text, BenchParseItemFn parse, void *items,
                     size_t itemSize, int maxItems, int *count,
                     const char *expected);

//===----------------------------------------------------------------------===//
// Launch information
//===----------------------------------------------------------------------===//

/// The launch configuration the compiler reports, as written by
/// tile-extract-kernel --launch-info: lines "kernel=NAME",
/// "shared_bytes=N" and "block=X,Y,Z" (others are ignored).
typedef struct {
  char kernel[256];      // "" when the file names no kernel
  long long sharedBytes; // -1 when absent
  unsigned block[3];
  int haveBlock;
} BenchLaunchInfo;

/// Reads `path` into `info`; prints an error and returns 0 if the file cannot
/// be opened or a block line is malformed.
int benchReadLaunchInfo(const char *path, BenchLaunchInfo *info);

//===----------------------------------------------------------------------===//
// The shared options
//===----------------------------------------------------------------------===//

enum { kBenchMaxRuns = 64 };

/// The options of both harnesses' direct launches, timing and inputs.
typedef struct {
  const char *cubin;      // --cubin (or the first bare argument)
  const char *kernel;     // --kernel; NULL: the launch info's
  const char *launchInfo; // --launch-info
  char infoKernel[256];   // the launch info's kernel name, when used
  long long smem;         // --smem; -1: from the launch info
  unsigned block[3];      // --block, else the launch info's
  int blockSet;
  int runs, iters, warmup; // iters 0: auto (about targetMs per run)
  double targetMs;
  uint64_t seed;
  int flushL2;
  int device;
  long long offset; // elements by which the operands start past an aligned
                    // base (views)
} BenchOptions;

/// The defaults: block (`blockX`, 1, 1), 5 runs, auto iterations of about
/// 50 ms, 5 warm-up launches, seed 1234, shared memory from the launch info.
void benchOptionsInit(BenchOptions *opts, unsigned blockX);

/// Parses `arg`, which none of the caller's own options matched, as a
/// shared option: --cubin, --kernel, --launch-info, --smem, --block, --runs,
/// --iters, --target-ms, --warmup, --flush-l2, --seed, --offset (0 to 4096),
/// --device, or a bare argument naming the kernel file (the first one only).
/// Returns 1 if it is one; else prints an error (for an unknown argument,
/// followed by usage(stderr)) and returns 0.
int benchParseOption(const char *arg, BenchOptions *opts,
                     void (*usage)(FILE *));

/// After parsing: at least 1 and at most kBenchMaxRuns runs, no negative
/// warm-up, and a positive target (else 50 ms).
void benchOptionsFinish(BenchOptions *opts);

/// Reads opts->launchInfo, if given: its shared memory, block and kernel
/// name fill in what the command line left unset. Prints an error and
/// returns 0 if the file cannot be read.
int benchApplyLaunchInfo(BenchOptions *opts);

#endif // TILE_BENCH_OPTIONS_H
