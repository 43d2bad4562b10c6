//===- bench_common.h - Helpers shared by the kernel harnesses ----*- C -*-===//
//
// What tile-gemm-bench (gemm_bench.c) and tile-fa-bench (fa_bench.c) have in
// common: "--name=value" options, launch information files, the seeded
// random source, timing with CUDA events, and error statistics against a
// reference. Plain C11 over TileRuntime; nothing here prints except the
// "error: ..." lines of failed runtime calls and unreadable files.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BENCH_COMMON_H
#define TILE_BENCH_COMMON_H

#include "tile_runtime.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// Returns 0 from the calling function (after printing the context's last
/// error) when a TileRuntime call fails.
#define RT_CHECK(ctx, call)                                                    \
  do {                                                                         \
    int rtStatus = (call);                                                     \
    if (rtStatus != TILE_RT_SUCCESS) {                                         \
      fprintf(stderr, "error: %s\n", tileRtLastError(ctx));                    \
      return 0;                                                                \
    }                                                                          \
  } while (0)

//===----------------------------------------------------------------------===//
// Options and launch information
//===----------------------------------------------------------------------===//

/// Matches "--name=value" (or "name=value"); returns the value or NULL.
const char *benchOptionValue(const char *arg, const char *name);

/// Parses "X[,Y[,Z]]" (all positive) into `block`; returns 0 if malformed.
int benchParseBlock(const char *text, unsigned block[3]);

/// The launch configuration the compiler reports, as written by
/// tile-extract-kernel --launch-info: lines "kernel=NAME",
/// "shared_bytes=N" and "block=X,Y,Z" (others are ignored).
typedef struct {
  char kernel[256]; // "" when the file names no kernel
  long long sharedBytes; // -1 when absent
  unsigned block[3];
  int haveBlock;
} BenchLaunchInfo;

/// Reads `path` into `info`; prints an error and returns 0 if the file cannot
/// be opened or a block line is malformed.
int benchReadLaunchInfo(const char *path, BenchLaunchInfo *info);

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

uint64_t benchSplitmix64(uint64_t *state);

/// Uniform in [0, 1) with 53 random bits.
double benchUniform(uint64_t *state);

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

/// Enqueues one launch of the kernel under test; returns 1 on success, 0
/// after printing an error.
typedef int (*BenchLaunchFn)(void *arg);

typedef struct {
  TileRtContext *ctx;
  TileRtDevicePtr flush; // 0: warm L2; else overwritten before each launch
  size_t flushBytes;
} BenchTimer;

/// Times `iters` back-to-back launches with CUDA events on the default
/// stream; returns ms per launch, < 0 on error. With a flush buffer, it is
/// overwritten before each launch and each launch is timed alone (at most
/// 200 launches).
double benchTimeLaunches(const BenchTimer *timer, BenchLaunchFn launch,
                         void *arg, int iters);

/// Runs `warmup` launches, synchronizes, and returns the number of launches
/// per timed run: `iters` when positive, else about `targetMs` worth (1 to
/// 100000); < 0 on error.
double benchCalibrate(const BenchTimer *timer, BenchLaunchFn launch, void *arg,
                      int warmup, int iters, double targetMs);

/// qsort comparison of doubles.
int benchCompareDoubles(const void *a, const void *b);

//===----------------------------------------------------------------------===//
// Error statistics
//===----------------------------------------------------------------------===//

typedef struct {
  int64_t count, bad, nonFinite;
  double maxAbs, maxRel, sumSqDiff, sumSqRef;
  int64_t worstRow, worstCol;
  double worstOut, worstRef;
} BenchStats;

/// An element is out of tolerance when |out - ref| > atol + rtol |ref|; its
/// relative error (for max_rel_err) is |out - ref| / max(|ref|, floor).
typedef struct {
  double atol, rtol, floor;
} BenchTolerance;

/// Adds one element; a non-finite `out` is out of tolerance. `row` and `col`
/// locate it for the report of the worst element.
void benchStatsAdd(BenchStats *stats, const BenchTolerance *tol, double out,
                   double ref, int64_t row, int64_t col);

/// ||out - ref|| / ||ref|| (or ||out - ref|| when the reference is 0).
double benchNormRel(const BenchStats *stats);

#endif // TILE_BENCH_COMMON_H
