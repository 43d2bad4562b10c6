//===- bench_common.c - Helpers shared by the kernel harnesses ----*- C -*-===//
//
// See bench_common.h.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// The device and the kernel
//===----------------------------------------------------------------------===//

int benchInitDevice(TileRtContext **ctx, int device) {
  if (tileRtInit(ctx, device) != TILE_RT_SUCCESS) {
    printf("no GPU: %s\n", tileRtLastError(NULL));
    return 0;
  }
  char name[256] = "?";
  int major = 0, minor = 0, sms = 0, driver = 0;
  tileRtDeviceName(*ctx, name, sizeof(name));
  tileRtDeviceComputeCapability(*ctx, &major, &minor);
  tileRtDeviceSMCount(*ctx, &sms);
  tileRtDriverVersion(&driver);
  printf("device: %s (sm_%d%d, %d SMs, driver %d.%d)\n", name, major, minor,
         sms, driver / 1000, driver % 1000 / 10);
  return 1;
}

int benchLoadKernel(TileRtContext *ctx, const BenchOptions *opts,
                    const char *launch, TileRtModule **module,
                    TileRtFunction **fn) {
  if (tileRtModuleLoadFile(ctx, opts->cubin, module) != TILE_RT_SUCCESS ||
      tileRtGetFunction(*module, opts->kernel, fn) != TILE_RT_SUCCESS) {
    printf("error: %s\n", tileRtLastError(ctx));
    return 0;
  }
  int regs = 0, staticSmem = 0, local = 0, maxThreads = 0;
  tileRtFunctionInfo(*fn, &regs, &staticSmem, &local, &maxThreads);
  printf("kernel: %s from %s: %d registers, %d B static shared memory, %d B "
         "local memory; launch: block (%u, %u, %u), %lld B dynamic shared "
         "memory, %s\n",
         opts->kernel, opts->cubin, regs, staticSmem, local, opts->block[0],
         opts->block[1], opts->block[2], opts->smem, launch);
  return 1;
}

int benchLaunch(TileRtContext *ctx, TileRtFunction *fn, const unsigned grid[3],
                const BenchOptions *opts, void **params) {
  int status =
      tileRtLaunch(fn, grid, opts->block, (unsigned)opts->smem, params);
  if (status != TILE_RT_SUCCESS)
    fprintf(stderr, "error: %s\n", tileRtLastError(ctx));
  return status == TILE_RT_SUCCESS;
}

int benchAllocFlush(TileRtContext *ctx, TileRtDevicePtr *flush,
                    size_t *flushBytes) {
  *flushBytes = (size_t)256 << 20;
  if (tileRtMalloc(ctx, *flushBytes, flush) != TILE_RT_SUCCESS) {
    printf("error: %s\n", tileRtLastError(ctx));
    return 0;
  }
  printf("timing with a cold L2: 256 MiB overwritten before each launch\n");
  return 1;
}

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

uint64_t benchSplitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double benchUniform(uint64_t *state) {
  return (double)(benchSplitmix64(state) >> 11) * 0x1.0p-53;
}

void benchFillUniform(uint16_t *data, size_t count, double range, uint64_t seed,
                      uint16_t (*toBits)(float)) {
  uint64_t state = seed;
  for (size_t i = 0; i < count; ++i)
    data[i] = toBits((float)(range * (2.0 * benchUniform(&state) - 1.0)));
}

void benchFillLut(float *lut, float (*toFloat)(uint16_t)) {
  for (uint32_t i = 0; i < 65536; ++i)
    lut[i] = toFloat((uint16_t)i);
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

enum { kMaxFlushIters = 200 };

double benchTimeLaunches(const BenchTimer *timer, BenchLaunchFn launch,
                         void *arg, int iters) {
  TileRtContext *ctx = timer->ctx;
  int flush = timer->flush != 0;
  if (flush && iters > kMaxFlushIters)
    iters = kMaxFlushIters;
  if (iters < 1)
    iters = 1;
  int numEvents = flush ? 2 * iters : 2;
  TileRtEvent **events = calloc((size_t)numEvents, sizeof(TileRtEvent *));
  double result = -1, total = 0;
  if (!events)
    return -1;
  for (int i = 0; i < numEvents; ++i)
    if (tileRtEventCreate(ctx, &events[i]))
      goto done;
  if (!flush && tileRtEventRecord(ctx, events[0]))
    goto done;
  for (int i = 0; i < iters; ++i) {
    if (flush &&
        (tileRtMemsetD8(ctx, timer->flush, (uint8_t)i, timer->flushBytes) ||
         tileRtEventRecord(ctx, events[2 * i])))
      goto done;
    if (!launch(arg))
      goto done;
    if (flush && tileRtEventRecord(ctx, events[2 * i + 1]))
      goto done;
  }
  if (!flush && tileRtEventRecord(ctx, events[1]))
    goto done;
  if (tileRtEventSynchronize(ctx, events[numEvents - 1]))
    goto done;
  for (int i = 0; i < numEvents; i += 2) {
    float ms = 0;
    if (tileRtEventElapsedMs(ctx, events[i], events[i + 1], &ms))
      goto done;
    total += ms;
  }
  result = total / iters;
done:
  if (result < 0 && tileRtLastError(ctx)[0])
    fprintf(stderr, "error: %s\n", tileRtLastError(ctx));
  for (int i = 0; i < numEvents; ++i)
    tileRtEventDestroy(ctx, events[i]);
  free(events);
  return result;
}

double benchCalibrate(const BenchTimer *timer, BenchLaunchFn launch, void *arg,
                      const BenchOptions *opts) {
  for (int i = 0; i < opts->warmup; ++i)
    if (!launch(arg))
      return -1;
  if (tileRtSynchronize(timer->ctx)) {
    fprintf(stderr, "error: %s\n", tileRtLastError(timer->ctx));
    return -1;
  }
  if (opts->iters > 0)
    return opts->iters;
  double ms = benchTimeLaunches(timer, launch, arg, 3);
  if (ms < 0)
    return -1;
  double count = ceil(opts->targetMs / (ms > 1e-4 ? ms : 1e-4));
  if (count < 1)
    count = 1;
  if (count > 100000)
    count = 100000;
  return count;
}

int benchMedianTimes(const BenchTimer *timer, const BenchOptions *opts,
                     int count, const BenchLaunchFn *launches,
                     void *const *args, double *ms) {
  double iters[kBenchMaxSideBySide];
  double runs[kBenchMaxSideBySide][kBenchMaxRuns];
  int numRuns = opts->runs < kBenchMaxRuns ? opts->runs : kBenchMaxRuns;
  if (count < 1 || count > kBenchMaxSideBySide || numRuns < 1)
    return 0;
  for (int i = 0; i < count; ++i)
    if ((iters[i] = benchCalibrate(timer, launches[i], args[i], opts)) < 0)
      return 0;
  for (int r = 0; r < numRuns; ++r)
    for (int i = 0; i < count; ++i)
      if ((runs[i][r] = benchTimeLaunches(timer, launches[i], args[i],
                                          (int)iters[i])) < 0)
        return 0;
  for (int i = 0; i < count; ++i) {
    qsort(runs[i], (size_t)numRuns, sizeof(double), benchCompareDoubles);
    ms[i] = runs[i][numRuns / 2];
  }
  return 1;
}

int benchCompareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

//===----------------------------------------------------------------------===//
// Runs on a poisoned output
//===----------------------------------------------------------------------===//

int benchRunPoisoned(TileRtContext *ctx, BenchLaunchFn launch, void *arg,
                     TileRtDevicePtr window, size_t bytes, void *host) {
  RT_CHECK(ctx, tileRtMemsetD8(ctx, window, kPoisonByte, bytes));
  if (!launch(arg))
    return 0;
  RT_CHECK(ctx, tileRtSynchronize(ctx));
  RT_CHECK(ctx, tileRtMemcpyDtoH(ctx, host, window, bytes));
  return 1;
}

void benchCountPoison(const uint16_t *window, size_t total, size_t start,
                      size_t count, size_t *unwritten, size_t *outside) {
  *unwritten = *outside = 0;
  for (size_t i = 0; i < total; ++i) {
    if (i >= start && i - start < count)
      *unwritten += window[i] == kPoison;
    else
      *outside += window[i] != kPoison;
  }
}

//===----------------------------------------------------------------------===//
// Error statistics
//===----------------------------------------------------------------------===//

void benchStatsAdd(BenchStats *stats, const BenchTolerance *tol, double out,
                   double ref, int64_t row, int64_t col) {
  ++stats->count;
  if (!isfinite(out)) {
    ++stats->nonFinite;
    ++stats->bad;
    if (stats->nonFinite == 1) {
      stats->worstRow = row;
      stats->worstCol = col;
      stats->worstOut = out;
      stats->worstRef = ref;
    }
    return;
  }
  double diff = fabs(out - ref);
  stats->sumSqDiff += diff * diff;
  stats->sumSqRef += ref * ref;
  double rel = diff / fmax(fabs(ref), tol->floor);
  if (rel > stats->maxRel)
    stats->maxRel = rel;
  if (diff > stats->maxAbs) {
    stats->maxAbs = diff;
    if (!stats->nonFinite) {
      stats->worstRow = row;
      stats->worstCol = col;
      stats->worstOut = out;
      stats->worstRef = ref;
    }
  }
  if (diff > tol->atol + tol->rtol * fabs(ref))
    ++stats->bad;
}

double benchNormRel(const BenchStats *stats) {
  return stats->sumSqRef > 0 ? sqrt(stats->sumSqDiff / stats->sumSqRef)
                             : sqrt(stats->sumSqDiff);
}

int benchStatsPass(const BenchStats *stats, double normTol) {
  return stats->count > 0 && stats->bad == 0 && benchNormRel(stats) <= normTol;
}
