//===- saxpy_host.c - Calls the tutorial's compiled saxpy -----------------===//
//
// docs/tutorial.md, step 3: y = 2 x + y for n = 1000 (not a multiple of the
// 1024-element block) on the GPU through the function tile-compile built
// from examples/tutorial/saxpy.mlir, checked against the CPU. Then a call
// whose x and y disagree in length: reported, nothing launched.
//
// Exit status: 0 checked; 1 a wrong result or a missing error; 3 no GPU
// (only the argument check ran).
//
//===----------------------------------------------------------------------===//

#include "saxpy.h"
#include "tile_runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { N = 1000 };
  // A call with mismatched lengths needs no GPU: the compiled host function
  // checks its arguments (the `tile.shape` names) before it launches.
  float dummy[2];
  tile_memref_1d x0 = {dummy, dummy, 0, {2}, {1}};
  tile_memref_1d y0 = {dummy, dummy, 0, {1}, {1}};
  saxpy(2.0f, &x0, &y0);
  if (tileRtGetError() == 0) {
    fprintf(stderr, "a call with mismatched lengths was not reported\n");
    return 1;
  }
  printf("mismatched lengths: %s\n", tileRtGetErrorMessage());
  tileRtClearError();

  TileRtContext *ctx = NULL;
  if (tileRtInit(&ctx, 0) != TILE_RT_SUCCESS) {
    printf("no GPU (%s): compiled and linked only\n", tileRtLastError(NULL));
    return 3;
  }
  float x[N], y[N], out[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  TileRtDevicePtr dx, dy;
  if (tileRtMalloc(ctx, sizeof x, &dx) || tileRtMalloc(ctx, sizeof y, &dy) ||
      tileRtMemcpyHtoD(ctx, dx, x, sizeof x) ||
      tileRtMemcpyHtoD(ctx, dy, y, sizeof y)) {
    fprintf(stderr, "runtime: %s\n", tileRtLastError(ctx));
    return 1;
  }
  void *px = (void *)(uintptr_t)dx, *py = (void *)(uintptr_t)dy;
  tile_memref_1d xd = {px, px, 0, {N}, {1}};
  tile_memref_1d yd = {py, py, 0, {N}, {1}};
  saxpy(2.0f, &xd, &yd); // launches; returns without waiting
  if (tileRtGetError()) {
    fprintf(stderr, "saxpy: %s\n", tileRtGetErrorMessage());
    return 1;
  }
  tileRtSynchronize(ctx);
  tileRtMemcpyDtoH(ctx, out, dy, sizeof out);
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += fabsf(out[i] - (2.0f * x[i] + y[i])) > 0.0f;
  printf("saxpy of %d elements: %d wrong\n", N, wrong);
  tileRtFree(ctx, dx);
  tileRtFree(ctx, dy);
  tileRtDestroy(ctx);
  return wrong ? 1 : 0;
}
