//===- fa_problem.c - Problems and launches of tile-fa-bench ------*- C -*-===//
//
// See fa_bench.h. Q, K, V and O on the device, each a memref<?x?x128xf16>
// [B*H, S, 128] passed to the kernel as a rank-3 memref descriptor (9
// parameters), as views --offset elements into their allocations (O between
// two guards), and the kernel's launch with the grid of the example's host
// function.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "fa_bench.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void shapeName(Shape s, char *buffer, size_t size) {
  if (s.b)
    snprintf(buffer, size, "B=%" PRId64 " H=%" PRId64 " S=%" PRId64, s.b, s.h,
             s.s);
  else
    snprintf(buffer, size, "BH=%" PRId64 " S=%" PRId64, s.bh, s.s);
}

void problemFree(Bench *bench, Problem *p) {
  for (int t = 0; t < kNumTensors; ++t)
    tileRtFree(bench->ctx, p->base[t]);
  for (int t = 0; t < 3; ++t)
    free(p->host[t]);
  memset(p, 0, sizeof(*p));
}

/// Allocates and fills the tensors and packs the kernel's parameters.
/// Inputs: [E elements][data], so that the data ends with the allocation;
/// O: [guard][E elements][data][guard].
int problemInit(Bench *bench, Shape shape, uint64_t seed, double qkRange,
                Problem *p) {
  const Options *opts = bench->opts;
  const long long offset = opts->common.offset;
  TileRtContext *ctx = bench->ctx;
  memset(p, 0, sizeof(*p));
  p->shape = shape;
  p->qkRange = qkRange;
  p->count = (size_t)shape.bh * (size_t)shape.s * kHeadDim;
  size_t bytes = p->count * 2, shift = (size_t)offset * 2;
  for (int t = 0; t < 3; ++t) {
    p->host[t] = malloc(bytes);
    if (!p->host[t]) {
      fprintf(stderr, "error: out of host memory\n");
      return 0;
    }
    uint64_t state = seed + (uint64_t)t;
    benchFillUniform(p->host[t], p->count, t == kV ? 1.0 : qkRange,
                     benchSplitmix64(&state), tileRtFloatToHalf);
  }
  for (int t = 0; t < kNumTensors; ++t) {
    size_t guard = t == kO ? kGuardBytes : 0;
    p->allocBytes[t] = guard + shift + bytes + guard;
    RT_CHECK(ctx, tileRtMalloc(ctx, p->allocBytes[t], &p->base[t]));
    p->viewOffsetBytes[t] = guard + shift;
    p->view[t] = p->base[t] + guard + shift;
    if (t != kO)
      RT_CHECK(ctx, tileRtMemcpyHtoD(ctx, p->view[t], p->host[t], bytes));

    MemRef3D *d = &p->desc[t];
    if (opts->offsetInDescriptor) {
      d->allocated = p->base[t] + guard;
      d->aligned = p->base[t] + guard;
      d->offset = offset;
    } else {
      d->allocated = p->base[t];
      d->aligned = p->view[t];
      d->offset = 0;
    }
    d->sizes[0] = shape.bh;
    d->sizes[1] = shape.s;
    d->sizes[2] = kHeadDim;
    d->strides[0] = shape.s * kHeadDim;
    d->strides[1] = kHeadDim;
    d->strides[2] = 1;
    void **out = p->params + 9 * t;
    out[0] = &d->allocated;
    out[1] = &d->aligned;
    out[2] = &d->offset;
    for (int i = 0; i < 3; ++i) {
      out[3 + i] = &d->sizes[i];
      out[6 + i] = &d->strides[i];
    }
  }
  return 1;
}

/// The grid of the example's host function: (ceil(S / 128), B*H, 1), from
/// the sizes of Q.
void gridOf(const Problem *p, unsigned grid[3]) {
  int64_t s = p->desc[kQ].sizes[1], bh = p->desc[kQ].sizes[0];
  grid[0] = (unsigned)((s + kBlockQ - 1) / kBlockQ);
  grid[1] = (unsigned)bh;
  grid[2] = 1;
}

int launchKernel(void *arg) {
  LaunchArgs *args = arg;
  Bench *bench = args->bench;
  unsigned grid[3];
  gridOf(args->problem, grid);
  return benchLaunch(bench->ctx, bench->fn, grid, &bench->opts->common,
                     args->problem->params);
}
