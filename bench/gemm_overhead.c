//===- gemm_overhead.c - tile-gemm-bench --overhead ---------------*- C -*-===//
//
// See gemm_bench.h: what a call of the AOT-compiled gemm() costs over a
// direct launch of its kernel (tileRtLaunch with the grid from --tile and
// the launch information): back-to-back calls and launches timed with CUDA
// events and on the host's clock, single synchronized calls, and whether
// both give the same bits.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "gemm_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wallSeconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/// `iters` back-to-back computations between two events: GPU ms per call
/// and host us per call spent issuing them. 1 on success.
static int timeBackToBack(Bench *bench, const Problem *p, LaunchFn launch,
                          int iters, double *gpuMs, double *hostUs) {
  TileRtContext *ctx = bench->ctx;
  TileRtEvent *start = NULL, *end = NULL;
  float ms = 0;
  int ok = 0;
  if (tileRtEventCreate(ctx, &start) || tileRtEventCreate(ctx, &end) ||
      tileRtEventRecord(ctx, start))
    goto done;
  double t0 = wallSeconds();
  for (int i = 0; i < iters; ++i)
    if (!launch(bench, p))
      goto done;
  double t1 = wallSeconds();
  if (tileRtEventRecord(ctx, end) || tileRtEventSynchronize(ctx, end) ||
      tileRtEventElapsedMs(ctx, start, end, &ms))
    goto done;
  *gpuMs = ms / iters;
  *hostUs = (t1 - t0) * 1e6 / iters;
  ok = 1;
done:
  if (!ok && tileRtLastError(ctx)[0])
    fprintf(stderr, "error: %s\n", tileRtLastError(ctx));
  tileRtEventDestroy(ctx, start);
  tileRtEventDestroy(ctx, end);
  return ok;
}

enum { kSingleCalls = 51 };

/// The median over kSingleCalls synchronized single calls of the time
/// between events recorded right before and after the call: the kernel
/// plus whatever the call does on the host before its launch. ms; < 0 on
/// error.
static double timeSingleCalls(Bench *bench, const Problem *p,
                              LaunchFn launch) {
  TileRtContext *ctx = bench->ctx;
  TileRtEvent *start = NULL, *end = NULL;
  double samples[kSingleCalls], result = -1;
  if (tileRtEventCreate(ctx, &start) || tileRtEventCreate(ctx, &end))
    goto done;
  for (int i = 0; i < kSingleCalls; ++i) {
    float ms = 0;
    if (tileRtSynchronize(ctx) || tileRtEventRecord(ctx, start) ||
        !launch(bench, p) || tileRtEventRecord(ctx, end) ||
        tileRtEventSynchronize(ctx, end) ||
        tileRtEventElapsedMs(ctx, start, end, &ms))
      goto done;
    samples[i] = ms;
  }
  qsort(samples, kSingleCalls, sizeof(double), benchCompareDoubles);
  result = samples[kSingleCalls / 2];
done:
  if (result < 0 && tileRtLastError(ctx)[0])
    fprintf(stderr, "error: %s\n", tileRtLastError(ctx));
  tileRtEventDestroy(ctx, start);
  tileRtEventDestroy(ctx, end);
  return result;
}

/// Runs `launch` once on poisoned C; copies C to `host`. 1 on success.
static int resultOf(Bench *bench, const Problem *p, LaunchFn launch,
                    uint16_t *host) {
  size_t bytes = (size_t)p->shape.m * p->shape.n * 2;
  return runPoisoned(bench, p, launch, p->c, bytes, host);
}

typedef struct {
  char shape[64];
  int calls;
  double kernelMs, gemmMs;         // back to back, GPU, per call
  double kernelHostUs, gemmHostUs; // back to back, issuing, per call
  double kernelOneMs, gemmOneMs;   // single synchronized calls
  const char *sameBits;
} OverheadRow;

static int overheadShape(Bench *bench, Shape s, OverheadRow *row) {
  const Options *opts = bench->opts;
  memset(row, 0, sizeof(*row));
  shapeName(s, row->shape, sizeof(row->shape));
  Problem p;
  int ok = 0;
  size_t count = (size_t)s.m * s.n;
  uint16_t *viaGemm = NULL, *viaKernel = NULL;
  if (!problemInit(bench, s, &p))
    goto done;
  // The same number of calls for both, calibrated on the kernel alone; both
  // warmed up.
  double iters = calibrate(bench, &p, launchKernel);
  if (iters < 0 || calibrate(bench, &p, launchLibrary) < 0)
    goto done;
  row->calls = (int)iters;
  int runs = opts->common.runs;
  double kernelMs[kBenchMaxRuns], gemmMs[kBenchMaxRuns];
  double kernelUs[kBenchMaxRuns], gemmUs[kBenchMaxRuns];
  for (int r = 0; r < runs; ++r)
    if (!timeBackToBack(bench, &p, launchLibrary, row->calls, &gemmMs[r],
                        &gemmUs[r]) ||
        !timeBackToBack(bench, &p, launchKernel, row->calls, &kernelMs[r],
                        &kernelUs[r]))
      goto done;
  qsort(kernelMs, runs, sizeof(double), benchCompareDoubles);
  qsort(gemmMs, runs, sizeof(double), benchCompareDoubles);
  qsort(kernelUs, runs, sizeof(double), benchCompareDoubles);
  qsort(gemmUs, runs, sizeof(double), benchCompareDoubles);
  row->kernelMs = kernelMs[runs / 2];
  row->gemmMs = gemmMs[runs / 2];
  row->kernelHostUs = kernelUs[runs / 2];
  row->gemmHostUs = gemmUs[runs / 2];
  if ((row->gemmOneMs = timeSingleCalls(bench, &p, launchLibrary)) < 0 ||
      (row->kernelOneMs = timeSingleCalls(bench, &p, launchKernel)) < 0)
    goto done;
  viaGemm = malloc(count * 2);
  viaKernel = malloc(count * 2);
  if (!viaGemm || !viaKernel) {
    fprintf(stderr, "error: out of host memory\n");
    goto done;
  }
  if (!resultOf(bench, &p, launchLibrary, viaGemm) ||
      !resultOf(bench, &p, launchKernel, viaKernel))
    goto done;
  row->sameBits = memcmp(viaGemm, viaKernel, count * 2) ? "NO" : "yes";
  ok = 1;
done:
  free(viaGemm);
  free(viaKernel);
  problemFree(bench, &p);
  return ok;
}

static void printOverhead(const Bench *bench, const OverheadRow *rows,
                          int numRows) {
  printf("\nback to back: N calls between two CUDA events, GPU time and host "
         "time (issuing) per call; single: median of %d synchronized calls "
         "between events; overhead = gemm() - direct launch\n",
         kSingleCalls);
  printf("| shape (MxNxK) | dtype | N | direct launch GPU us | gemm() GPU us "
         "| overhead GPU us | direct launch host us | gemm() host us | "
         "overhead host us | single: direct us | single: gemm() us | "
         "single: overhead us | same bits |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < numRows; ++i) {
    const OverheadRow *r = &rows[i];
    printf("| %s | %s | %d | %.2f | %.2f | %+.2f (%+.2f%%) | %.2f | %.2f | "
           "%+.2f | %.2f | %.2f | %+.2f | %s |\n",
           r->shape, dtypeName(bench->opts->dtype), r->calls,
           r->kernelMs * 1e3, r->gemmMs * 1e3,
           (r->gemmMs - r->kernelMs) * 1e3,
           100 * (r->gemmMs - r->kernelMs) / r->kernelMs, r->kernelHostUs,
           r->gemmHostUs, r->gemmHostUs - r->kernelHostUs,
           r->kernelOneMs * 1e3, r->gemmOneMs * 1e3,
           (r->gemmOneMs - r->kernelOneMs) * 1e3, r->sameBits);
  }
}

int runOverhead(Bench *bench) {
  const Options *opts = bench->opts;
  OverheadRow rows[kMaxShapes];
  int numRows = 0, errors = 0, failures = 0;
  for (int i = 0; i < opts->numShapes; ++i) {
    char name[64];
    shapeName(opts->shapes[i], name, sizeof(name));
    fprintf(stderr, "measuring %s %s...\n", name, dtypeName(opts->dtype));
    if (!overheadShape(bench, opts->shapes[i], &rows[numRows])) {
      ++errors;
      break;
    }
    failures += strcmp(rows[numRows].sameBits, "yes") != 0;
    ++numRows;
  }
  printOverhead(bench, rows, numRows);
  return errors ? -1 : failures ? 1 : 0;
}
