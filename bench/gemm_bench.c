//===- gemm_bench.c - tile-mlir GEMM vs cuBLAS benchmark ----------*- C -*-===//
//
// Benchmarks and checks a GEMM kernel compiled by tile-mlir (a cubin or PTX
// file holding `gemm_kernel`, compiled from examples/gemm.mlir) against
// cuBLAS in the same process:
//
//   tile-gemm-bench --cubin=gemm_bf16.cubin --launch-info=gemm_bf16.info
//                   [--dtype=bf16|f16] [--shapes=4096x4096x4096,...] [--check]
//
// The kernel ABI (see examples/gemm.mlir): parameters A, B, C, each a rank-2
// row-major memref passed as an MLIR memref descriptor (7 parameters:
// allocated, aligned, offset, size0, size1, stride0, stride1); A is M x K,
// B is K x N, C is M x N, all of the same 16-bit type; grid
// (ceil(N / 128), ceil(M / 128)), block and dynamic shared memory as the
// compiler reports them (--launch-info file or --block/--smem).
//
// cuBLAS is loaded at run time (dlopen libcublas.so.13, then libcublas.so,
// then /usr/local/cuda/lib64/libcublas.so.13; TILE_CUBLAS overrides) and
// called through cublasGemmEx with f32 compute (CUBLAS_COMPUTE_32F) and the
// output in the input type; row-major C = A B is computed as the
// column-major C^T = B^T A^T. Nothing here links CUDA or MLIR.
//
// Modes:
//  - default: benchmark. For each shape: random inputs in [-1, 1] (fixed
//    seed), warm-up, then `--runs` timed runs of `--iters` back-to-back
//    launches each (auto: about --target-ms per run) for tile-mlir and cuBLAS,
//    alternating; the median run gives TFLOP/s (2 M N K / time). The last
//    column compares the tile-mlir output with cuBLAS's.
//  - --check: correctness. The output (and a guard region on both sides of
//    it) is poisoned with 0xFF bytes (a NaN in f16 and bf16) before each run;
//    after it every element must be written, the guards untouched, and the
//    result within tolerance of cuBLAS and of a CPU fp64 reference (all
//    elements when M N K <= --cpu-full-limit, otherwise sampled rows and
//    columns, edges included). A second run must give identical bits.
//
// Exit status: 0 when all checks pass, 1 on a correctness failure, 2 on a
// usage or setup error (no GPU, kernel not loadable, ...).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

typedef enum { DTYPE_BF16, DTYPE_F16 } DType;

typedef struct {
  int64_t m, n, k;
} Shape;

enum { kMaxShapes = 64 };

typedef struct {
  const char *cubin;
  const char *kernel;
  const char *launchInfo;
  DType dtype;
  Shape shapes[kMaxShapes];
  int numShapes;
  int check;
  int useCublas;
  int runs, iters, warmup;
  double targetMs;
  long long smem; // -1: from the launch info file (or 0)
  unsigned block[3];
  int blockSet;
  int tileM, tileN;
  uint64_t seed;
  double cpuFullLimit;
  int cpuRef; // 1: compare with a CPU reference in --check mode
  int flushL2;
  int device;
  long long offset; // elements by which A, B and C start past an aligned base
} Options;

static const Shape kDefaultShapes[] = {{1024, 1024, 1024},
                                       {4096, 4096, 4096},
                                       {8192, 8192, 8192},
                                       {4096, 4096, 512}};

static void usage(FILE *out) {
  fprintf(
      out,
      "usage: tile-gemm-bench --cubin=FILE [options]\n"
      "  --cubin=FILE         cubin, fatbin or PTX holding the kernel\n"
      "  --kernel=NAME        kernel name (default gemm_kernel)\n"
      "  --launch-info=FILE   launch configuration written by\n"
      "                       tile-gemm-host --emit-launch-info "
      "(shared_bytes=, block=)\n"
      "  --smem=BYTES         dynamic shared memory (overrides the file)\n"
      "  --block=X[,Y,Z]      block size (overrides the file; default 128)\n"
      "  --tile=MxN           C tile of one block, for the grid (default "
      "128x128)\n"
      "  --dtype=bf16|f16     element type of A, B and C (default bf16)\n"
      "  --shapes=MxNxK,...   problem sizes (default "
      "1024x1024x1024,4096x4096x4096,8192x8192x8192,4096x4096x512)\n"
      "  --check              correctness mode (no timing)\n"
      "  --no-cublas          do not load cuBLAS\n"
      "  --no-cpu-ref         --check: skip the CPU reference\n"
      "  --cpu-full-limit=X   --check: full CPU reference when M*N*K <= X "
      "(default 2^31)\n"
      "  --runs=N             timed runs per kernel, median taken (default 5)\n"
      "  --iters=N            launches per timed run (default: auto)\n"
      "  --target-ms=T        auto iterations: about T ms per run (default "
      "50)\n"
      "  --warmup=N           warm-up launches (default 5)\n"
      "  --flush-l2           overwrite 256 MiB before each timed launch "
      "(cold\n"
      "                       L2; each launch timed alone, at most 200 per "
      "run)\n"
      "  --seed=N             input seed (default 1234)\n"
      "  --device=N           CUDA device ordinal (default 0)\n"
      "  --offset=E           A, B and C start E elements past an aligned\n"
      "                       allocation (views; default 0)\n");
}

static int parseShape(const char *text, Shape *shape) {
  long long m, n, k;
  char tail;
  if (sscanf(text, "%lldx%lldx%lld%c", &m, &n, &k, &tail) != 3)
    return 0;
  if (m < 1 || n < 1 || k < 1 || m > 0x7fffffff || n > 0x7fffffff ||
      k > 0x7fffffff)
    return 0;
  shape->m = m;
  shape->n = n;
  shape->k = k;
  return 1;
}

static int parseShapes(const char *text, Options *opts) {
  opts->numShapes = 0;
  char *copy = strdup(text);
  int ok = copy != NULL;
  for (char *save = NULL, *item = copy ? strtok_r(copy, ",", &save) : NULL;
       ok && item; item = strtok_r(NULL, ",", &save)) {
    if (opts->numShapes == kMaxShapes ||
        !parseShape(item, &opts->shapes[opts->numShapes])) {
      fprintf(stderr, "error: bad shape '%s' (expected MxNxK)\n", item);
      ok = 0;
      break;
    }
    ++opts->numShapes;
  }
  free(copy);
  return ok && opts->numShapes > 0;
}

static int parseOptions(int argc, char **argv, Options *opts) {
  memset(opts, 0, sizeof(*opts));
  opts->kernel = "gemm_kernel";
  opts->dtype = DTYPE_BF16;
  opts->useCublas = 1;
  opts->runs = 5;
  opts->warmup = 5;
  opts->targetMs = 50;
  opts->smem = -1;
  opts->block[0] = 128;
  opts->block[1] = opts->block[2] = 1;
  opts->tileM = opts->tileN = 128;
  opts->seed = 1234;
  opts->cpuFullLimit = 2147483648.0;
  opts->cpuRef = 1;
  memcpy(opts->shapes, kDefaultShapes, sizeof(kDefaultShapes));
  opts->numShapes = sizeof(kDefaultShapes) / sizeof(kDefaultShapes[0]);

  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i], *value;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      usage(stdout);
      exit(0);
    } else if ((value = benchOptionValue(arg, "--cubin"))) {
      opts->cubin = value;
    } else if ((value = benchOptionValue(arg, "--kernel"))) {
      opts->kernel = value;
    } else if ((value = benchOptionValue(arg, "--launch-info"))) {
      opts->launchInfo = value;
    } else if ((value = benchOptionValue(arg, "--smem"))) {
      opts->smem = atoll(value);
    } else if ((value = benchOptionValue(arg, "--block"))) {
      if (!benchParseBlock(value, opts->block)) {
        fprintf(stderr, "error: bad block size '%s'\n", value);
        return 0;
      }
      opts->blockSet = 1;
    } else if ((value = benchOptionValue(arg, "--tile"))) {
      if (sscanf(value, "%dx%d", &opts->tileM, &opts->tileN) != 2 ||
          opts->tileM < 1 || opts->tileN < 1) {
        fprintf(stderr, "error: bad tile '%s'\n", value);
        return 0;
      }
    } else if ((value = benchOptionValue(arg, "--dtype"))) {
      if (!strcmp(value, "bf16"))
        opts->dtype = DTYPE_BF16;
      else if (!strcmp(value, "f16"))
        opts->dtype = DTYPE_F16;
      else {
        fprintf(stderr, "error: unknown dtype '%s' (bf16 or f16)\n", value);
        return 0;
      }
    } else if ((value = benchOptionValue(arg, "--shapes"))) {
      if (!parseShapes(value, opts))
        return 0;
    } else if (!strcmp(arg, "--check")) {
      opts->check = 1;
    } else if (!strcmp(arg, "--no-cublas")) {
      opts->useCublas = 0;
    } else if (!strcmp(arg, "--flush-l2")) {
      opts->flushL2 = 1;
    } else if (!strcmp(arg, "--no-cpu-ref")) {
      opts->cpuRef = 0;
    } else if ((value = benchOptionValue(arg, "--cpu-full-limit"))) {
      opts->cpuFullLimit = atof(value);
    } else if ((value = benchOptionValue(arg, "--runs"))) {
      opts->runs = atoi(value);
    } else if ((value = benchOptionValue(arg, "--iters"))) {
      opts->iters = atoi(value);
    } else if ((value = benchOptionValue(arg, "--target-ms"))) {
      opts->targetMs = atof(value);
    } else if ((value = benchOptionValue(arg, "--warmup"))) {
      opts->warmup = atoi(value);
    } else if ((value = benchOptionValue(arg, "--seed"))) {
      opts->seed = strtoull(value, NULL, 10);
    } else if ((value = benchOptionValue(arg, "--offset"))) {
      char *end;
      opts->offset = strtoll(value, &end, 10);
      if (*end || opts->offset < 0 || opts->offset > 4096) {
        fprintf(stderr, "error: --offset expects 0 to 4096 elements\n");
        return 0;
      }
    } else if ((value = benchOptionValue(arg, "--device"))) {
      opts->device = atoi(value);
    } else if (arg[0] != '-' && !opts->cubin) {
      opts->cubin = arg;
    } else {
      fprintf(stderr, "error: unknown argument '%s'\n", arg);
      usage(stderr);
      return 0;
    }
  }
  if (!opts->cubin) {
    fprintf(stderr, "error: no kernel file (--cubin=FILE)\n");
    usage(stderr);
    return 0;
  }
  if (opts->runs < 1)
    opts->runs = 1;
  if (opts->warmup < 0)
    opts->warmup = 0;
  if (opts->targetMs <= 0)
    opts->targetMs = 50;
  return 1;
}

/// Reads "shared_bytes=N" and "block=X,Y,Z" lines; command-line values win.
static int readLaunchInfo(Options *opts) {
  if (!opts->launchInfo)
    return 1;
  BenchLaunchInfo info;
  if (!benchReadLaunchInfo(opts->launchInfo, &info))
    return 0;
  if (opts->smem < 0)
    opts->smem = info.sharedBytes;
  if (info.haveBlock && !opts->blockSet)
    memcpy(opts->block, info.block, sizeof(opts->block));
  return 1;
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

typedef struct {
  void *library;
  void *handle;
  int (*create)(void **);
  int (*destroy)(void *);
  const char *(*statusString)(int);
  int (*gemmEx)(void *, int, int, int, int, int, const void *, const void *,
                int, int, const void *, int, int, const void *, void *, int,
                int, int, int);
} Cublas;

static int cublasLoad(Cublas *cublas, char *error, size_t errorSize) {
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
// Problem data
//===----------------------------------------------------------------------===//

typedef struct {
  TileRtContext *ctx;
  TileRtFunction *fn;
  const Options *opts;
  TileRtDevicePtr flush; // --flush-l2 buffer
  size_t flushBytes;
  Cublas cublas;
  int haveCublas;
  float lut[65536]; // 16-bit value -> float, for opts->dtype
} Bench;

typedef struct {
  Shape shape;
  uint16_t *hostA, *hostB;
  TileRtDevicePtr aBase, bBase, a, b, cBase, c, cRef;
  size_t guardBytes;
} Problem;

enum { kGuardBytes = 64 * 1024, kPoisonByte = 0xff };
static const uint16_t kPoison = 0xffff;

static uint16_t toBits(DType dtype, float value) {
  return dtype == DTYPE_BF16 ? tileRtFloatToBF16(value)
                             : tileRtFloatToHalf(value);
}

/// Uniform values in [-1, 1], rounded to the element type.
static void fillRandom(uint16_t *data, size_t count, DType dtype,
                       uint64_t seed) {
  uint64_t state = seed;
  for (size_t i = 0; i < count; ++i) {
    double u = (double)(benchSplitmix64(&state) >> 11) * 0x1.0p-53;
    data[i] = toBits(dtype, (float)(2.0 * u - 1.0));
  }
}

static void problemFree(Bench *bench, Problem *p) {
  tileRtFree(bench->ctx, p->aBase);
  tileRtFree(bench->ctx, p->bBase);
  tileRtFree(bench->ctx, p->cBase);
  tileRtFree(bench->ctx, p->cRef);
  free(p->hostA);
  free(p->hostB);
  memset(p, 0, sizeof(*p));
}

static int problemInit(Bench *bench, Shape shape, Problem *p) {
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
  DType dtype = bench->opts->dtype;
  fillRandom(p->hostA, sizeA, dtype, bench->opts->seed * 2 + 1);
  fillRandom(p->hostB, sizeB, dtype, bench->opts->seed * 2 + 2);
  TileRtContext *ctx = bench->ctx;
  p->guardBytes = kGuardBytes;
  // --offset: the operands are views starting `offset` elements into
  // aligned allocations, as frameworks hand out.
  size_t shift = (size_t)bench->opts->offset * 2;
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

static int launchTile(Bench *bench, const Problem *p) {
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
  int status =
      tileRtLaunch(bench->fn, grid, opts->block, (unsigned)opts->smem, params);
  if (status != TILE_RT_SUCCESS)
    fprintf(stderr, "error: %s\n", tileRtLastError(bench->ctx));
  return status == TILE_RT_SUCCESS;
}

static int launchCublas(Bench *bench, const Problem *p) {
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

typedef int (*LaunchFn)(Bench *, const Problem *);

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

/// Times `iters` back-to-back launches; returns ms per launch, < 0 on error.
/// With --flush-l2, the flush buffer is overwritten before each launch and
/// each launch is timed alone (at most 200).
static double timeLaunches(Bench *bench, const Problem *p, LaunchFn launch,
                           int iters) {
  LaunchCall call = {bench, p, launch};
  BenchTimer timer = timerOf(bench);
  return benchTimeLaunches(&timer, callLaunch, &call, iters);
}

/// Warms up and returns the number of launches per timed run (--iters, or
/// about --target-ms worth); < 0 on error.
static double calibrate(Bench *bench, const Problem *p, LaunchFn launch) {
  const Options *opts = bench->opts;
  LaunchCall call = {bench, p, launch};
  BenchTimer timer = timerOf(bench);
  return benchCalibrate(&timer, callLaunch, &call, opts->warmup, opts->iters,
                        opts->targetMs);
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

typedef BenchStats Stats;
typedef BenchTolerance Tolerance;

/// Element tolerance: |out - ref| <= atol + rtol |ref|. rtol is 2 ulps of
/// the 16-bit output type at the bottom of a binade (where an ulp is 2^-7 of
/// the value for bf16, 2^-10 for f16): two results rounded independently
/// (tile-mlir and cuBLAS) may differ by one such ulp. atol covers the f32
/// accumulation error of K products of values in [-1, 1].
static void tolerances(DType dtype, int64_t k, double *atol, double *rtol) {
  *rtol = dtype == DTYPE_BF16 ? 0x1.0p-6 : 0x1.0p-9;
  *atol = (double)k * 0x1.0p-20;
}

/// Largest acceptable ||out - ref|| / ||ref||.
static double normTolerance(DType dtype) {
  return dtype == DTYPE_BF16 ? 8e-3 : 1e-3;
}

static int statsPass(const Stats *stats, DType dtype) {
  return stats->count > 0 && stats->bad == 0 &&
         benchNormRel(stats) <= normTolerance(dtype);
}

static void statsPrint(const char *what, const Stats *stats, DType dtype) {
  printf("    vs %-22s %10" PRId64 " elements: max_abs_err %.3e, "
         "max_rel_err %.3e, norm_rel_err %.3e (tol %.0e), out of tolerance "
         "%" PRId64 ", non-finite %" PRId64 ": %s\n",
         what, stats->count, stats->maxAbs, stats->maxRel,
         benchNormRel(stats), normTolerance(dtype), stats->bad,
         stats->nonFinite, statsPass(stats, dtype) ? "ok" : "FAIL");
  if (!statsPass(stats, dtype) && stats->count > 0)
    printf("      worst element C[%" PRId64 "][%" PRId64 "] = %.6g, expected "
           "%.6g\n",
           stats->worstRow, stats->worstCol, stats->worstOut, stats->worstRef);
}

/// Compares two M x N device results copied to the host, `ref` being the
/// reference. The relative error of an element is |out - ref| /
/// max(|ref|, rms(ref)).
static Stats compareFull(const Bench *bench, const uint16_t *out,
                         const uint16_t *ref, Shape s) {
  Stats stats = {0};
  size_t count = (size_t)s.m * s.n;
  double sumSq = 0;
  for (size_t i = 0; i < count; ++i) {
    double r = bench->lut[ref[i]];
    sumSq += r * r;
  }
  Tolerance tol;
  tolerances(bench->opts->dtype, s.k, &tol.atol, &tol.rtol);
  tol.floor = fmax(sqrt(sumSq / (double)count), 1e-30);
  for (size_t i = 0; i < count; ++i)
    benchStatsAdd(&stats, &tol, bench->lut[out[i]], bench->lut[ref[i]],
                  (int64_t)(i / s.n), (int64_t)(i % s.n));
  return stats;
}

typedef struct {
  int64_t row, col;
  double value;
} Sample;

/// CPU fp64 reference of rows `rows` (all columns) and columns `cols` (all
/// rows) of C, or of all of C when `full`. Returns the samples (caller
/// frees) and their number in `*count`.
static Sample *cpuReference(const Bench *bench, const Problem *p, int full,
                            size_t *count) {
  const Shape s = p->shape;
  const float *lut = bench->lut;
  // Rows and columns: the edges, both sides of the first tile boundaries, the
  // middle and a few random ones.
  int64_t rows[24], cols[24];
  int numRows = 0, numCols = 0;
  if (!full) {
    uint64_t state = bench->opts->seed + 99;
    const int64_t fixedRows[] = {0,   1,       127,     128,
                                 129, s.m / 2, s.m - 2, s.m - 1};
    const int64_t fixedCols[] = {0,   1,       127,     128,
                                 129, s.n / 2, s.n - 2, s.n - 1};
    for (int i = 0; i < 8; ++i) {
      if (fixedRows[i] >= 0 && fixedRows[i] < s.m)
        rows[numRows++] = fixedRows[i];
      if (fixedCols[i] >= 0 && fixedCols[i] < s.n)
        cols[numCols++] = fixedCols[i];
    }
    for (int i = 0; i < 8; ++i) {
      rows[numRows++] = (int64_t)(benchSplitmix64(&state) % (uint64_t)s.m);
      cols[numCols++] = (int64_t)(benchSplitmix64(&state) % (uint64_t)s.n);
    }
  }
  size_t total =
      full ? (size_t)s.m * s.n : (size_t)numRows * s.n + (size_t)numCols * s.m;
  Sample *samples = malloc(total * sizeof(Sample));
  double *acc = malloc((size_t)(s.n > s.m ? s.n : s.m) * sizeof(double));
  if (!samples || !acc) {
    free(samples);
    free(acc);
    *count = 0;
    return NULL;
  }
  size_t n = 0;
  if (full) {
    // B converted once; C one row at a time.
    float *b = malloc((size_t)s.k * s.n * sizeof(float));
    if (!b) {
      free(samples);
      free(acc);
      *count = 0;
      return NULL;
    }
    for (size_t i = 0; i < (size_t)s.k * s.n; ++i)
      b[i] = lut[p->hostB[i]];
    for (int64_t i = 0; i < s.m; ++i) {
      for (int64_t j = 0; j < s.n; ++j)
        acc[j] = 0;
      for (int64_t k = 0; k < s.k; ++k) {
        double a = lut[p->hostA[i * s.k + k]];
        const float *bRow = b + k * s.n;
        for (int64_t j = 0; j < s.n; ++j)
          acc[j] += a * bRow[j];
      }
      for (int64_t j = 0; j < s.n; ++j)
        samples[n++] = (Sample){i, j, acc[j]};
    }
    free(b);
  } else {
    for (int r = 0; r < numRows; ++r) {
      int64_t i = rows[r];
      for (int64_t j = 0; j < s.n; ++j)
        acc[j] = 0;
      for (int64_t k = 0; k < s.k; ++k) {
        double a = lut[p->hostA[i * s.k + k]];
        const uint16_t *bRow = p->hostB + k * s.n;
        for (int64_t j = 0; j < s.n; ++j)
          acc[j] += a * lut[bRow[j]];
      }
      for (int64_t j = 0; j < s.n; ++j)
        samples[n++] = (Sample){i, j, acc[j]};
    }
    for (int c = 0; c < numCols; ++c) {
      int64_t j = cols[c];
      for (int64_t i = 0; i < s.m; ++i) {
        double sum = 0;
        const uint16_t *aRow = p->hostA + i * s.k;
        for (int64_t k = 0; k < s.k; ++k)
          sum += (double)lut[aRow[k]] * lut[p->hostB[k * s.n + j]];
        samples[n++] = (Sample){i, j, sum};
      }
    }
  }
  free(acc);
  *count = n;
  return samples;
}

static Stats compareSamples(const Bench *bench, const uint16_t *out, Shape s,
                            const Sample *samples, size_t count) {
  Stats stats = {0};
  double sumSq = 0;
  for (size_t i = 0; i < count; ++i)
    sumSq += samples[i].value * samples[i].value;
  Tolerance tol;
  tolerances(bench->opts->dtype, s.k, &tol.atol, &tol.rtol);
  tol.floor = fmax(sqrt(sumSq / (double)(count ? count : 1)), 1e-30);
  for (size_t i = 0; i < count; ++i) {
    const Sample *sample = &samples[i];
    benchStatsAdd(&stats, &tol,
                  bench->lut[out[sample->row * s.n + sample->col]],
                  sample->value, sample->row, sample->col);
  }
  return stats;
}

//===----------------------------------------------------------------------===//
// Modes
//===----------------------------------------------------------------------===//

static const char *dtypeName(DType dtype) {
  return dtype == DTYPE_BF16 ? "bf16" : "f16";
}

static void shapeName(Shape s, char *buffer, size_t size) {
  snprintf(buffer, size, "%" PRId64 "x%" PRId64 "x%" PRId64, s.m, s.n, s.k);
}

/// Runs the tile kernel once on poisoned output and copies C (with its
/// guards) to `host` (guard + M N + guard elements).
static int runPoisoned(Bench *bench, const Problem *p, uint16_t *host) {
  TileRtContext *ctx = bench->ctx;
  size_t bytes = (size_t)p->shape.m * p->shape.n * 2 + 2 * p->guardBytes;
  TileRtDevicePtr window = p->c - p->guardBytes;
  RT_CHECK(ctx, tileRtMemsetD8(ctx, window, kPoisonByte, bytes));
  if (!launchTile(bench, p))
    return 0;
  RT_CHECK(ctx, tileRtSynchronize(ctx));
  RT_CHECK(ctx, tileRtMemcpyDtoH(ctx, host, window, bytes));
  return 1;
}

/// Correctness of one shape; returns 1 if it passes, 0 if not, -1 on a
/// setup error.
static int checkShape(Bench *bench, Shape s) {
  const Options *opts = bench->opts;
  char name[64];
  shapeName(s, name, sizeof(name));
  Problem p;
  if (!problemInit(bench, s, &p)) {
    problemFree(bench, &p);
    return -1;
  }
  TileRtContext *ctx = bench->ctx;
  size_t count = (size_t)s.m * s.n;
  size_t guardElems = p.guardBytes / 2;
  uint16_t *first = malloc((count + 2 * guardElems) * 2);
  uint16_t *second = malloc((count + 2 * guardElems) * 2);
  uint16_t *ref = bench->haveCublas ? malloc(count * 2) : NULL;
  int result = -1;
  if (!first || !second || (bench->haveCublas && !ref)) {
    fprintf(stderr, "error: out of host memory\n");
    goto done;
  }
  if (!runPoisoned(bench, &p, first) || !runPoisoned(bench, &p, second))
    goto done;
  const uint16_t *out = first + guardElems;

  int pass = 1;
  size_t unwritten = 0, guardsHit = 0;
  for (size_t i = 0; i < count; ++i)
    unwritten += out[i] == kPoison;
  for (size_t i = 0; i < guardElems; ++i)
    guardsHit +=
        (first[i] != kPoison) + (first[guardElems + count + i] != kPoison);
  int identical =
      memcmp(first, second, (count + 2 * guardElems) * sizeof(uint16_t)) == 0;
  printf("check %s %s: grid (%" PRId64 ", %" PRId64 "), block (%u, %u, %u), "
         "%lld B dynamic shared memory\n",
         name, dtypeName(opts->dtype), (s.n + opts->tileN - 1) / opts->tileN,
         (s.m + opts->tileM - 1) / opts->tileM, opts->block[0], opts->block[1],
         opts->block[2], opts->smem);
  printf("    unwritten elements %zu, writes outside C %zu, second run "
         "identical: %s\n",
         unwritten, guardsHit, identical ? "yes" : "NO");
  pass &= unwritten == 0 && guardsHit == 0 && identical;

  if (bench->haveCublas) {
    if (tileRtMemsetD8(ctx, p.cRef, kPoisonByte, count * 2) ||
        !launchCublas(bench, &p) || tileRtSynchronize(ctx) ||
        tileRtMemcpyDtoH(ctx, ref, p.cRef, count * 2)) {
      fprintf(stderr, "error: cuBLAS reference: %s\n", tileRtLastError(ctx));
      goto done;
    }
    Stats stats = compareFull(bench, out, ref, s);
    statsPrint("cuBLAS", &stats, opts->dtype);
    pass &= statsPass(&stats, opts->dtype);
  }
  if (opts->cpuRef) {
    int full = (double)s.m * s.n * s.k <= opts->cpuFullLimit;
    size_t numSamples = 0;
    Sample *samples = cpuReference(bench, &p, full, &numSamples);
    if (!samples) {
      fprintf(stderr, "error: out of host memory\n");
      goto done;
    }
    Stats stats = compareSamples(bench, out, s, samples, numSamples);
    free(samples);
    statsPrint(full ? "CPU fp64 (all)" : "CPU fp64 (rows+cols)", &stats,
               opts->dtype);
    pass &= statsPass(&stats, opts->dtype);
  }
  if (!bench->haveCublas && !opts->cpuRef) {
    printf("    no reference (cuBLAS and CPU reference disabled)\n");
    pass = 0;
  }
  printf("    %s %s %s\n", name, dtypeName(opts->dtype),
         pass ? "PASS" : "FAIL");
  result = pass;
done:
  free(first);
  free(second);
  free(ref);
  problemFree(bench, &p);
  return result;
}

typedef struct {
  char shape[64];
  double tileMs, cublasMs, tileTflops, cublasTflops;
  char check[64];
  int wrong;
} Row;

static int benchShape(Bench *bench, Shape s, Row *row) {
  const Options *opts = bench->opts;
  memset(row, 0, sizeof(*row));
  shapeName(s, row->shape, sizeof(row->shape));
  row->cublasMs = -1;
  Problem p;
  int ok = problemInit(bench, s, &p);
  double tileIters = ok ? calibrate(bench, &p, launchTile) : -1;
  double cublasIters = 0;
  if (tileIters < 0) {
    problemFree(bench, &p);
    return 0;
  }
  if (bench->haveCublas &&
      (cublasIters = calibrate(bench, &p, launchCublas)) < 0) {
    problemFree(bench, &p);
    return 0;
  }
  double tileRuns[64], cublasRuns[64];
  int runs = opts->runs > 64 ? 64 : opts->runs;
  for (int r = 0; r < runs; ++r) {
    tileRuns[r] = timeLaunches(bench, &p, launchTile, (int)tileIters);
    if (tileRuns[r] < 0) {
      problemFree(bench, &p);
      return 0;
    }
    if (bench->haveCublas) {
      cublasRuns[r] = timeLaunches(bench, &p, launchCublas, (int)cublasIters);
      if (cublasRuns[r] < 0) {
        problemFree(bench, &p);
        return 0;
      }
    }
  }
  double flop = 2.0 * (double)s.m * s.n * s.k;
  qsort(tileRuns, runs, sizeof(double), benchCompareDoubles);
  row->tileMs = tileRuns[runs / 2];
  row->tileTflops = flop / (row->tileMs * 1e-3) / 1e12;
  snprintf(row->check, sizeof(row->check), "-");
  if (bench->haveCublas) {
    qsort(cublasRuns, runs, sizeof(double), benchCompareDoubles);
    row->cublasMs = cublasRuns[runs / 2];
    row->cublasTflops = flop / (row->cublasMs * 1e-3) / 1e12;
    // Both outputs hold the result of their last launch.
    size_t count = (size_t)s.m * s.n;
    uint16_t *out = malloc(count * 2), *ref = malloc(count * 2);
    if (out && ref &&
        tileRtMemcpyDtoH(bench->ctx, out, p.c, count * 2) == TILE_RT_SUCCESS &&
        tileRtMemcpyDtoH(bench->ctx, ref, p.cRef, count * 2) ==
            TILE_RT_SUCCESS) {
      Stats stats = compareFull(bench, out, ref, s);
      row->wrong = !statsPass(&stats, opts->dtype);
      snprintf(row->check, sizeof(row->check), "%s (%.1e)",
               row->wrong ? "WRONG" : "ok", benchNormRel(&stats));
    } else {
      snprintf(row->check, sizeof(row->check), "n/a");
    }
    free(out);
    free(ref);
  }
  problemFree(bench, &p);
  return 1;
}

static void printTable(const Bench *bench, const Row *rows, int numRows) {
  printf("\n| shape (MxNxK) | dtype | tile-mlir TFLOP/s | cuBLAS TFLOP/s | "
         "ratio | tile-mlir ms | cuBLAS ms | vs cuBLAS (norm rel err) |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < numRows; ++i) {
    const Row *row = &rows[i];
    char cublas[32] = "n/a", ratio[32] = "n/a", cublasMs[32] = "n/a";
    if (row->cublasMs > 0) {
      snprintf(cublas, sizeof(cublas), "%.1f", row->cublasTflops);
      snprintf(ratio, sizeof(ratio), "%.2f",
               row->tileTflops / row->cublasTflops);
      snprintf(cublasMs, sizeof(cublasMs), "%.4f", row->cublasMs);
    }
    printf("| %s | %s | %.1f | %s | %s | %.4f | %s | %s |\n", row->shape,
           dtypeName(bench->opts->dtype), row->tileTflops, cublas, ratio,
           row->tileMs, cublasMs, row->check);
  }
}

//===----------------------------------------------------------------------===//
// Main
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  static Bench bench; // large (lut): not on the stack
  Options opts;
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!parseOptions(argc, argv, &opts) || !readLaunchInfo(&opts))
    return 2;
  if (opts.smem < 0)
    opts.smem = 0;
  bench.opts = &opts;
  for (uint32_t i = 0; i < 65536; ++i)
    bench.lut[i] = opts.dtype == DTYPE_BF16 ? tileRtBF16ToFloat((uint16_t)i)
                                            : tileRtHalfToFloat((uint16_t)i);

  if (tileRtInit(&bench.ctx, opts.device) != TILE_RT_SUCCESS) {
    printf("no GPU: %s\n", tileRtLastError(NULL));
    return 2;
  }
  TileRtContext *ctx = bench.ctx;
  char device[256] = "?";
  int major = 0, minor = 0, sms = 0, driver = 0;
  tileRtDeviceName(ctx, device, sizeof(device));
  tileRtDeviceComputeCapability(ctx, &major, &minor);
  tileRtDeviceSMCount(ctx, &sms);
  tileRtDriverVersion(&driver);
  printf("device: %s (sm_%d%d, %d SMs, driver %d.%d)\n", device, major, minor,
         sms, driver / 1000, driver % 1000 / 10);

  TileRtModule *module = NULL;
  if (tileRtModuleLoadFile(ctx, opts.cubin, &module) != TILE_RT_SUCCESS ||
      tileRtGetFunction(module, opts.kernel, &bench.fn) != TILE_RT_SUCCESS) {
    printf("error: %s\n", tileRtLastError(ctx));
    tileRtDestroy(ctx);
    return 2;
  }
  int regs = 0, staticSmem = 0, local = 0, maxThreads = 0;
  tileRtFunctionInfo(bench.fn, &regs, &staticSmem, &local, &maxThreads);
  printf("kernel: %s from %s: %d registers, %d B static shared memory, %d B "
         "local memory; launch: block (%u, %u, %u), %lld B dynamic shared "
         "memory, C tile %dx%d\n",
         opts.kernel, opts.cubin, regs, staticSmem, local, opts.block[0],
         opts.block[1], opts.block[2], opts.smem, opts.tileM, opts.tileN);

  if (opts.flushL2) {
    bench.flushBytes = (size_t)256 << 20;
    if (tileRtMalloc(ctx, bench.flushBytes, &bench.flush) != TILE_RT_SUCCESS) {
      printf("error: %s\n", tileRtLastError(ctx));
      tileRtDestroy(ctx);
      return 2;
    }
    printf("timing with a cold L2: 256 MiB overwritten before each launch\n");
  }
  if (opts.useCublas) {
    char error[512];
    bench.haveCublas = cublasLoad(&bench.cublas, error, sizeof(error));
    if (!bench.haveCublas)
      printf("cuBLAS: not available (%s)\n", error);
  }

  int failures = 0, errors = 0;
  if (opts.check) {
    for (int i = 0; i < opts.numShapes; ++i) {
      int result = checkShape(&bench, opts.shapes[i]);
      if (result < 0)
        ++errors;
      else if (result == 0)
        ++failures;
      if (result < 0)
        break; // the context may be unusable after a kernel fault
    }
    printf("check summary: %d shape(s), %d failed, %d error(s)\n",
           opts.numShapes, failures, errors);
  } else {
    Row rows[kMaxShapes];
    int numRows = 0;
    for (int i = 0; i < opts.numShapes; ++i) {
      char name[64];
      shapeName(opts.shapes[i], name, sizeof(name));
      fprintf(stderr, "benchmarking %s %s...\n", name, dtypeName(opts.dtype));
      if (!benchShape(&bench, opts.shapes[i], &rows[numRows])) {
        ++errors;
        break;
      }
      failures += rows[numRows].wrong;
      ++numRows;
    }
    printTable(&bench, rows, numRows);
  }

  if (bench.haveCublas)
    bench.cublas.destroy(bench.cublas.handle);
  tileRtFree(ctx, bench.flush);
  tileRtDestroy(ctx);
  return errors ? 2 : failures ? 1 : 0;
}
