//===- gemm_launch.c - Problems and launches of tile-gemm-bench ---*- C -*-===//
//
// See gemm_bench.h. Three ways to compute C = A B on the default stream:
//  - launchLibrary: gemm(&A, &B, &C) of an AOT-compiled library (dlopen): the
//    library's host code checks the operands, computes the grid and launches
//    its kernel; nothing here knows the tile size, grid, kernel name or
//    shared memory;
//  - launchKernel: tileRtLaunch of a kernel file with the grid from --tile
//    and the block and shared memory of the launch information;
//  - launchCublas: cublasGemmEx.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "gemm_bench.h"
#include "tile_mgpu.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *dtypeName(DType dtype) {
  return dtype == DTYPE_BF16 ? "bf16" : "f16";
}

void shapeName(Shape s, char *buffer, size_t size) {
  snprintf(buffer, size, "%" PRId64 "x%" PRId64 "x%" PRId64, s.m, s.n, s.k);
}

//===----------------------------------------------------------------------===//
// cuBLAS, loaded at run time
//===----------------------------------------------------------------------===//

enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_OP_N = 0,
  CUDA_R_32F = 0,
  CUDA_R_16F = 2,
  CUDA_R_16BF = 14,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_GEMM_DEFAULT = -1,
};

int cublasLoad(Cublas *cublas, char *error, size_t errorSize) {
  memset(cublas, 0, sizeof(*cublas));
  const char *candidates[] = {getenv("TILE_CUBLAS"), "libcublas.so.13",
                              "libcublas.so",
                              "/usr/local/cuda/lib64/libcublas.so.13"};
  const char *why = "not found";
  for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); ++i) {
    if (!candidates[i] || !*candidates[i])
      continue;
    cublas->library = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
    if (cublas->library)
      break;
    why = dlerror();
  }
  if (!cublas->library) {
    snprintf(error, errorSize, "cannot load libcublas.so.13: %s", why);
    return 0;
  }
  *(void **)&cublas->create = dlsym(cublas->library, "cublasCreate_v2");
  *(void **)&cublas->destroy = dlsym(cublas->library, "cublasDestroy_v2");
  *(void **)&cublas->statusString =
      dlsym(cublas->library, "cublasGetStatusString");
  *(void **)&cublas->gemmEx = dlsym(cublas->library, "cublasGemmEx");
  if (!cublas->create || !cublas->destroy || !cublas->gemmEx) {
    snprintf(error, errorSize,
             "libcublas lacks cublasCreate_v2, "
             "cublasDestroy_v2 or cublasGemmEx");
    return 0;
  }
  int status = cublas->create(&cublas->handle);
  if (status != CUBLAS_STATUS_SUCCESS) {
    snprintf(error, errorSize, "cublasCreate failed: %d (%s)", status,
             cublas->statusString ? cublas->statusString(status) : "?");
    return 0;
  }
  return 1;
}

static const char *cublasStatusName(const Cublas *cublas, int status) {
  return cublas->statusString ? cublas->statusString(status) : "?";
}

//===----------------------------------------------------------------------===//
// The library
//===----------------------------------------------------------------------===//

int libraryOpen(Bench *bench) {
  const Options *opts = bench->opts;
  // The library's global constructor loads its kernels on this thread, for
  // the thread's default device, and records a failure as the thread's
  // error.
  mgpuSetDefaultDevice(opts->common.device);
  tileRtClearError();
  // A path without a slash would be searched for: name the file given.
  char path[4096];
  snprintf(path, sizeof(path), "%s%s", strchr(opts->library, '/') ? "" : "./",
           opts->library);
  bench->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!bench->library) {
    printf("error: cannot load the library '%s': %s\n", opts->library,
           dlerror());
    return 0;
  }
  bench->libraryStatus = tileRtGetError();
  snprintf(bench->libraryError, sizeof(bench->libraryError), "%s",
           tileRtGetErrorMessage());
  tileRtClearError();
  *(void **)&bench->gemm = dlsym(bench->library, opts->function);
  if (!bench->gemm) {
    printf("error: the library '%s' has no function '%s'\n", opts->library,
           opts->function);
    return 0;
  }
  return 1;
}

int libraryKernelsLoaded(const Bench *bench) {
  if (bench->libraryStatus == 0)
    return 1;
  printf("error: the library's kernels did not load: %s\n",
         bench->libraryError);
  return 0;
}

//===----------------------------------------------------------------------===//
// Problem data
//===----------------------------------------------------------------------===//

void problemFree(Bench *bench, Problem *p) {
  tileRtFree(bench->ctx, p->aBase);
  tileRtFree(bench->ctx, p->bBase);
  tileRtFree(bench->ctx, p->cBase);
  tileRtFree(bench->ctx, p->cRef);
  free(p->hostA);
  free(p->hostB);
  memset(p, 0, sizeof(*p));
}

int problemInit(Bench *bench, Shape shape, Problem *p) {
  memset(p, 0, sizeof(*p));
  p->shape = shape;
  size_t sizeA = (size_t)shape.m * shape.k, sizeB = (size_t)shape.k * shape.n;
  size_t sizeC = (size_t)shape.m * shape.n;
  p->hostA = malloc(sizeA * 2);
  p->hostB = malloc(sizeB * 2);
  if (!p->hostA || !p->hostB) {
    fprintf(stderr, "error: out of host memory\n");
    return 0;
  }
  // Uniform in [-1, 1], rounded to the element type.
  uint16_t (*toBits)(float) =
      bench->opts->dtype == DTYPE_BF16 ? tileRtFloatToBF16 : tileRtFloatToHalf;
  uint64_t seed = bench->opts->common.seed;
  benchFillUniform(p->hostA, sizeA, 1.0, seed * 2 + 1, toBits);
  benchFillUniform(p->hostB, sizeB, 1.0, seed * 2 + 2, toBits);
  TileRtContext *ctx = bench->ctx;
  p->guardBytes = kGuardBytes;
  // --offset: the operands are views starting `offset` elements into
  // aligned allocations, as frameworks hand out.
  size_t shift = (size_t)bench->opts->common.offset * 2;
  RT_CHECK(ctx, tileRtMalloc(ctx, sizeA * 2 + shift, &p->aBase));
  RT_CHECK(ctx, tileRtMalloc(ctx, sizeB * 2 + shift, &p->bBase));
  RT_CHECK(ctx, tileRtMalloc(ctx, sizeC * 2 + 2 * p->guardBytes + shift,
                             &p->cBase));
  p->a = p->aBase + shift;
  p->b = p->bBase + shift;
  p->c = p->cBase + p->guardBytes + shift;
  if (bench->haveCublas)
    RT_CHECK(ctx, tileRtMalloc(ctx, sizeC * 2, &p->cRef));
  RT_CHECK(ctx, tileRtMemcpyHtoD(ctx, p->a, p->hostA, sizeA * 2));
  RT_CHECK(ctx, tileRtMemcpyHtoD(ctx, p->b, p->hostB, sizeB * 2));
  return 1;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

/// A row-major rows x cols view at `data`, in the allocation at `base`.
static TileRtMemRef2D view(TileRtDevicePtr base, TileRtDevicePtr data,
                           int64_t rows, int64_t cols) {
  TileRtMemRef2D d = {base, data, 0, {rows, cols}, {cols, 1}};
  return d;
}

int launchLibrary(Bench *bench, const Problem *p) {
  const Shape s = p->shape;
  TileRtMemRef2D a = view(p->aBase, p->a, s.m, s.k);
  TileRtMemRef2D b = view(p->bBase, p->b, s.k, s.n);
  TileRtMemRef2D c = view(p->cBase, p->c, s.m, s.n);
  bench->gemm(&a, &b, &c);
  if (tileRtGetError()) {
    fprintf(stderr, "error: %s\n", tileRtGetErrorMessage());
    return 0;
  }
  return 1;
}

int launchKernel(Bench *bench, const Problem *p) {
  const Options *opts = bench->opts;
  const Shape s = p->shape;
  TileRtMemRef2D a, b, c;
  void *params[21];
  size_t count = 0;
  tileRtMemRefArgs2D(&a, p->a, s.m, s.k, params, 21, &count);
  tileRtMemRefArgs2D(&b, p->b, s.k, s.n, params, 21, &count);
  tileRtMemRefArgs2D(&c, p->c, s.m, s.n, params, 21, &count);
  unsigned grid[3] = {(unsigned)((s.n + opts->tileN - 1) / opts->tileN),
                      (unsigned)((s.m + opts->tileM - 1) / opts->tileM), 1};
  return benchLaunch(bench->ctx, bench->fn, grid, &opts->common, params);
}

int launchTile(Bench *bench, const Problem *p) {
  return bench->gemm ? launchLibrary(bench, p) : launchKernel(bench, p);
}

int launchCublas(Bench *bench, const Problem *p) {
  const Shape s = p->shape;
  int type = bench->opts->dtype == DTYPE_BF16 ? CUDA_R_16BF : CUDA_R_16F;
  const float alpha = 1.0f, beta = 0.0f;
  // Row-major C (M x N) = A B is column-major C^T (N x M) = B^T A^T.
  int status = bench->cublas.gemmEx(
      bench->cublas.handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)s.n, (int)s.m,
      (int)s.k, &alpha, (const void *)(uintptr_t)p->b, type, (int)s.n,
      (const void *)(uintptr_t)p->a, type, (int)s.k, &beta,
      (void *)(uintptr_t)p->cRef, type, (int)s.n, CUBLAS_COMPUTE_32F,
      CUBLAS_GEMM_DEFAULT);
  if (status != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "error: cublasGemmEx: %d (%s)\n", status,
            cublasStatusName(&bench->cublas, status));
    return 0;
  }
  return 1;
}

typedef struct {
  Bench *bench;
  const Problem *problem;
  LaunchFn launch;
} LaunchCall;

static int callLaunch(void *arg) {
  LaunchCall *call = arg;
  return call->launch(call->bench, call->problem);
}

static BenchTimer timerOf(const Bench *bench) {
  BenchTimer timer = {bench->ctx, bench->flush, bench->flushBytes};
  return timer;
}

double calibrate(Bench *bench, const Problem *p, LaunchFn launch) {
  LaunchCall call = {bench, p, launch};
  BenchTimer timer = timerOf(bench);
  return benchCalibrate(&timer, callLaunch, &call, &bench->opts->common);
}

int medianTimes(Bench *bench, const Problem *p, int count,
                const LaunchFn *launches, double *ms) {
  LaunchCall calls[kBenchMaxSideBySide];
  BenchLaunchFn fns[kBenchMaxSideBySide];
  void *args[kBenchMaxSideBySide];
  if (count > kBenchMaxSideBySide)
    return 0;
  for (int i = 0; i < count; ++i) {
    calls[i] = (LaunchCall){bench, p, launches[i]};
    fns[i] = callLaunch;
    args[i] = &calls[i];
  }
  BenchTimer timer = timerOf(bench);
  return benchMedianTimes(&timer, &bench->opts->common, count, fns, args, ms);
}

int runPoisoned(Bench *bench, const Problem *p, LaunchFn launch,
                TileRtDevicePtr window, size_t bytes, uint16_t *host) {
  LaunchCall call = {bench, p, launch};
  return benchRunPoisoned(bench->ctx, callLaunch, &call, window, bytes, host);
}
