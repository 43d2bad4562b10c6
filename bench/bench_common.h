//===- bench_common.h - Helpers shared by the kernel harnesses ----*- C -*-===//
//
// What tile-gemm-bench (gemm_bench.c) and tile-fa-bench (fa_bench.c) have in
// common beside their options (bench_options.h): the device and the kernel
// file with the lines that describe them, the seeded random inputs, timing
// with CUDA events, runs on a poisoned output, and error statistics against
// a reference. Plain C11 over TileRuntime; nothing here prints but those
// lines and the "error: ..." lines of failed runtime calls.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BENCH_COMMON_H
#define TILE_BENCH_COMMON_H

#include "bench_options.h"
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
// The device and the kernel
//===----------------------------------------------------------------------===//

/// tileRtInit on `device`. Prints "no GPU: WHY" and returns 0 if it fails,
/// else prints "device: NAME (sm_XY, N SMs, driver X.Y)".
int benchInitDevice(TileRtContext **ctx, int device);

/// Loads opts->kernel from opts->cubin and prints "kernel: NAME from FILE:
/// its registers, static shared and local memory; launch: block (X, Y, Z),
/// N B dynamic shared memory, LAUNCH"; prints the runtime's error and
/// returns 0 on failure.
int benchLoadKernel(TileRtContext *ctx, const BenchOptions *opts,
                    const char *launch, TileRtModule **module,
                    TileRtFunction **fn);

/// Launches `fn` with `grid`, the block and dynamic shared memory of `opts`
/// and the kernel parameters `params`, on the default stream; 1 on
/// success, 0 after printing the runtime's error.
int benchLaunch(TileRtContext *ctx, TileRtFunction *fn, const unsigned grid[3],
                const BenchOptions *opts, void **params);

/// --flush-l2: allocates a 256 MiB buffer and prints so; prints the
/// runtime's error and returns 0 on failure.
int benchAllocFlush(TileRtContext *ctx, TileRtDevicePtr *flush,
                    size_t *flushBytes);

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

uint64_t benchSplitmix64(uint64_t *state);

/// Uniform in [0, 1) with 53 random bits.
double benchUniform(uint64_t *state);

/// Fills `data` with values uniform in [-range, range] from `seed`, rounded
/// to a 16-bit type by `toBits` (tileRtFloatToHalf, tileRtFloatToBF16).
void benchFillUniform(uint16_t *data, size_t count, double range, uint64_t seed,
                      uint16_t (*toBits)(float));

/// lut[bits] = toFloat(bits) for all 16-bit values.
void benchFillLut(float *lut, float (*toFloat)(uint16_t));

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

/// Runs opts->warmup launches, synchronizes, and returns the number of
/// launches per timed run: opts->iters when positive, else about
/// opts->targetMs worth (1 to 100000); < 0 on error.
double benchCalibrate(const BenchTimer *timer, BenchLaunchFn launch, void *arg,
                      const BenchOptions *opts);

enum { kBenchMaxSideBySide = 4 };

/// Times `count` (at most kBenchMaxSideBySide) computations side by side:
/// each warmed up and calibrated in turn, then opts->runs timed runs of
/// each, alternating. ms[i] is the median ms per launch of launches[i] on
/// args[i]. 1 on success, 0 on an error (printed).
int benchMedianTimes(const BenchTimer *timer, const BenchOptions *opts,
                     int count, const BenchLaunchFn *launches,
                     void *const *args, double *ms);

/// qsort comparison of doubles.
int benchCompareDoubles(const void *a, const void *b);

//===----------------------------------------------------------------------===//
// Runs on a poisoned output
//===----------------------------------------------------------------------===//

/// The output and guard bytes are filled with kPoisonByte before a checked
/// run: kPoison, a NaN in f16 and bf16, where nothing was written.
enum { kGuardBytes = 64 * 1024, kPoisonByte = 0xff };
#define kPoison ((uint16_t)0xffff)

/// Fills `bytes` at `window` with kPoisonByte, runs `launch` once,
/// synchronizes and copies the window to `host`. 1 on success, 0 after
/// printing an error.
int benchRunPoisoned(TileRtContext *ctx, BenchLaunchFn launch, void *arg,
                     TileRtDevicePtr window, size_t bytes, void *host);

/// In a window of `total` 16-bit elements copied back by benchRunPoisoned,
/// holding the output's `count` elements from `start`: counts the output's
/// elements still kPoison (`*unwritten`) and the others that are not
/// (`*outside`).
void benchCountPoison(const uint16_t *window, size_t total, size_t start,
                      size_t count, size_t *unwritten, size_t *outside);

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

/// At least one element, none out of tolerance, and a norm error of at
/// most `normTol`.
int benchStatsPass(const BenchStats *stats, double normTol);

#endif // TILE_BENCH_COMMON_H
