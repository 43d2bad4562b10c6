//===- bench_common.c - Helpers shared by the kernel harnesses ----*- C -*-===//
//
// See bench_common.h.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Options and launch information
//===----------------------------------------------------------------------===//

const char *benchOptionValue(const char *arg, const char *name) {
  size_t length = strlen(name);
  if (strncmp(arg, name, length) == 0 && arg[length] == '=')
    return arg + length + 1;
  return NULL;
}

int benchParseBlock(const char *text, unsigned block[3]) {
  unsigned x = 0, y = 1, z = 1;
  int n = sscanf(text, "%u,%u,%u", &x, &y, &z);
  if (n < 1 || x == 0 || y == 0 || z == 0)
    return 0;
  block[0] = x;
  block[1] = y;
  block[2] = z;
  return 1;
}

int benchReadLaunchInfo(const char *path, BenchLaunchInfo *info) {
  memset(info, 0, sizeof(*info));
  info->sharedBytes = -1;
  FILE *file = fopen(path, "r");
  if (!file) {
    fprintf(stderr, "error: cannot open launch info '%s': %s\n", path,
            strerror(errno));
    return 0;
  }
  char line[512];
  while (fgets(line, sizeof(line), file)) {
    const char *value;
    line[strcspn(line, "\r\n")] = 0;
    if ((value = benchOptionValue(line, "shared_bytes"))) {
      info->sharedBytes = atoll(value);
    } else if ((value = benchOptionValue(line, "block"))) {
      if (!benchParseBlock(value, info->block)) {
        fprintf(stderr, "error: %s: bad block '%s'\n", path, value);
        fclose(file);
        return 0;
      }
      info->haveBlock = 1;
    } else if ((value = benchOptionValue(line, "kernel"))) {
      size_t length = strlen(value);
      if (length >= sizeof(info->kernel))
        length = sizeof(info->kernel) - 1;
      memcpy(info->kernel, value, length);
      info->kernel[length] = 0;
    }
  }
  fclose(file);
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
                      int warmup, int iters, double targetMs) {
  for (int i = 0; i < warmup; ++i)
    if (!launch(arg))
      return -1;
  if (tileRtSynchronize(timer->ctx)) {
    fprintf(stderr, "error: %s\n", tileRtLastError(timer->ctx));
    return -1;
  }
  if (iters > 0)
    return iters;
  double ms = benchTimeLaunches(timer, launch, arg, 3);
  if (ms < 0)
    return -1;
  double count = ceil(targetMs / (ms > 1e-4 ? ms : 1e-4));
  if (count < 1)
    count = 1;
  if (count > 100000)
    count = 100000;
  return count;
}

int benchCompareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
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
