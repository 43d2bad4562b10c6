//===- fa_bench.c - tile-mlir FlashAttention check and benchmark --*- C -*-===//
//
// Checks and times the FlashAttention forward kernel compiled by tile-mlir
// from examples/flash_attention.mlir (a cubin or PTX file holding
// `flash_attention_fwd_kernel`):
//
//   tile-fa-bench --cubin=fa.cubin --launch-info=fa.info --check [--offset=E]
//   tile-fa-bench --cubin=fa.cubin --launch-info=fa.info [--bench]
//                 [--shapes=4x16x4096,4x16x1024]
//
// The kernel ABI (see examples/flash_attention.mlir): parameters Q, K, V, O,
// each a memref<?x?x128xf16> [B*H, S, D = 128], row-major, passed as an MLIR
// memref descriptor of rank 3 (9 parameters: allocated, aligned, offset,
// sizes[3], strides[3]); O = softmax(Q K^T / sqrt(128)) V, non-causal. The
// host function of the example launches grid (ceil(S / 128), B*H, 1) (S and
// B*H are dim 1 and dim 0 of Q); block and dynamic shared memory are what the
// compiler reports (--launch-info FILE from tile-extract-kernel
// --launch-info, or --block / --smem).
//
// Modes:
//  - --check: correctness. For each shape (default: S in {1, 2, 17, 64, 100,
//    128, 129, 257, 1000} times B*H in {1, 3, 8}), fresh random inputs
//    (seeded per shape; V uniform in [-1, 1], Q and K uniform in [-a, a]
//    with a = 1, 2 or 4 by turns, so that some softmax rows are flat and
//    others peaked), rounded to f16. The whole O allocation (the view and a
//    64 KiB guard on each side) is filled with 0xFF bytes (an f16 NaN) before
//    each launch; afterwards every element of O must be written, every byte
//    outside it untouched, a second run bit-identical, and every element
//    within tolerance of a CPU fp64 reference of all of O (see
//    faTolerance). One line per shape; a last line PASS or FAIL.
//  - --bench (the default): for each shape (default B=4 H=16 S=4096 and
//    S=1024), warm-up, then `--runs` timed runs of `--iters` back-to-back
//    launches (auto: about --target-ms per run) timed with CUDA events; the
//    median run gives ms and TFLOP/s (4 B H S^2 D flops, non-causal). The
//    output of the last launch is checked on sampled rows against the CPU
//    fp64 reference.
//
// Views (--offset=E, issue 10): Q, K, V and O each start E elements into
// their allocations, as slices a framework hands out do, so their data
// pointers are only 2-byte aligned for odd E. The descriptors then hold
// allocated = start of the allocation, aligned = the view, offset = 0.
// With --offset-in-descriptor, aligned is the start of the data's
// allocation (its guard excluded) and the descriptor's offset field is E
// instead. NOTE: memref<?x?x128xf16> has the identity layout, whose offset is
// statically 0, so the compiled kernel never reads that field (MLIR's
// lowering uses the static offset): a nonzero offset does not describe a
// memref of this type, and this mode is expected to fail the check (the
// kernel works on the data at `aligned`) without faulting. It will pass
// only if the example's types become strided<[?, 128, 1], offset: ?>.
//
// Nothing here links CUDA or MLIR: TileRuntime loads libcuda.so.1 at run
// time. Exit status: 0 when all checks pass, 1 on a correctness failure, 2 on
// a usage or setup error (no GPU, kernel not loadable, launch or kernel
// fault, ...).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kHeadDim = 128,   // D, fixed by the kernel's memref type
  kBlockQ = 128,    // BM: query rows per thread block (the grid's x)
  kMaxShapes = 64,
  kGuardBytes = 64 * 1024,
  kPoisonByte = 0xff,
  kNumParams = 4 * 9,
};
static const uint16_t kPoison = 0xffff;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

typedef struct {
  int64_t b, h; // as given (BxHxS); 0 when given as BHxS
  int64_t bh, s;
} Shape;

typedef struct {
  const char *cubin;
  const char *kernel; // NULL: from the launch info, else the default
  const char *launchInfo;
  char infoKernel[256];
  Shape shapes[kMaxShapes];
  int numShapes;
  int check;
  int runs, iters, warmup;
  double targetMs;
  long long smem; // -1: from the launch info file
  unsigned block[3];
  int blockSet;
  uint64_t seed;
  int flushL2;
  int device;
  long long offset;       // elements by which Q, K, V and O start in their
                          // allocations
  int offsetInDescriptor; // the descriptor's offset field holds it
  int samples;            // --bench: rows checked per shape
} Options;

static const char *const kDefaultKernel = "flash_attention_fwd_kernel";
static const char *const kDefaultCheckShapes =
    "1x1,3x1,8x1,1x2,3x2,8x2,1x17,3x17,8x17,1x64,3x64,8x64,1x100,3x100,8x100,"
    "1x128,3x128,8x128,1x129,3x129,8x129,1x257,3x257,8x257,1x1000,3x1000,"
    "8x1000";
static const char *const kDefaultBenchShapes = "4x16x4096,4x16x1024";

static void usage(FILE *out) {
  fprintf(
      out,
      "usage: tile-fa-bench --cubin=FILE [options]\n"
      "  --cubin=FILE         cubin, fatbin or PTX holding the kernel\n"
      "  --kernel=NAME        kernel name (default: the launch info's, else\n"
      "                       flash_attention_fwd_kernel)\n"
      "  --launch-info=FILE   launch configuration written by\n"
      "                       tile-extract-kernel --launch-info (kernel=,\n"
      "                       shared_bytes=, block=)\n"
      "  --smem=BYTES         dynamic shared memory (overrides the file)\n"
      "  --block=X[,Y,Z]      block size (overrides the file; default 256)\n"
      "  --check              correctness mode (no timing)\n"
      "  --bench              benchmark mode (the default)\n"
      "  --shapes=S,...       problems, each BHxS (B*H heads) or BxHxS\n"
      "                       (default --check: S in 1,2,17,64,100,128,129,\n"
      "                       257,1000 times B*H in 1,3,8; benchmark: %s)\n"
      "  --offset=E           Q, K, V and O are views starting E elements\n"
      "                       into their allocations (default 0)\n"
      "  --offset-in-descriptor  pass E in the descriptors' offset field\n"
      "                       instead of in the data pointer (expected to\n"
      "                       fail: the kernel's memref type has offset 0)\n"
      "  --runs=N             timed runs, median taken (default 5)\n"
      "  --iters=N            launches per timed run (default: auto)\n"
      "  --target-ms=T        auto iterations: about T ms per run (default "
      "50)\n"
      "  --warmup=N           warm-up launches (default 5)\n"
      "  --flush-l2           overwrite 256 MiB before each timed launch\n"
      "  --samples=N          benchmark: rows checked per shape (default 32)\n"
      "  --seed=N             input seed (default 1234)\n"
      "  --device=N           CUDA device ordinal (default 0)\n",
      kDefaultBenchShapes);
}

static int parseShape(const char *text, Shape *shape) {
  long long a, b, c;
  char tail;
  memset(shape, 0, sizeof(*shape));
  int n = sscanf(text, "%lldx%lldx%lld%c", &a, &b, &c, &tail);
  if (n == 3) {
    if (a < 1 || b < 1 || c < 1 || a > 65535 || b > 65535 || a * b > 65535)
      return 0;
    shape->b = a;
    shape->h = b;
    shape->bh = a * b;
    shape->s = c;
  } else if (sscanf(text, "%lldx%lld%c", &a, &b, &tail) == 2) {
    if (a < 1 || b < 1 || a > 65535)
      return 0;
    shape->bh = a;
    shape->s = b;
  } else {
    return 0;
  }
  // The grid's x is ceil(S / 128), at most 2^31 - 1.
  return shape->s <= 0x7fffffffll;
}

static int parseShapes(const char *text, Options *opts) {
  opts->numShapes = 0;
  char *copy = strdup(text);
  int ok = copy != NULL;
  for (char *save = NULL, *item = copy ? strtok_r(copy, ",", &save) : NULL;
       ok && item; item = strtok_r(NULL, ",", &save)) {
    if (opts->numShapes == kMaxShapes ||
        !parseShape(item, &opts->shapes[opts->numShapes])) {
      fprintf(stderr, "error: bad shape '%s' (expected BHxS or BxHxS)\n",
              item);
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
  opts->runs = 5;
  opts->warmup = 5;
  opts->targetMs = 50;
  opts->smem = -1;
  opts->block[0] = 256;
  opts->block[1] = opts->block[2] = 1;
  opts->seed = 1234;
  opts->samples = 32;
  const char *shapes = NULL;

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
    } else if ((value = benchOptionValue(arg, "--shapes"))) {
      shapes = value;
    } else if (!strcmp(arg, "--check")) {
      opts->check = 1;
    } else if (!strcmp(arg, "--bench")) {
      opts->check = 0;
    } else if (!strcmp(arg, "--flush-l2")) {
      opts->flushL2 = 1;
    } else if (!strcmp(arg, "--offset-in-descriptor")) {
      opts->offsetInDescriptor = 1;
    } else if ((value = benchOptionValue(arg, "--runs"))) {
      opts->runs = atoi(value);
    } else if ((value = benchOptionValue(arg, "--iters"))) {
      opts->iters = atoi(value);
    } else if ((value = benchOptionValue(arg, "--target-ms"))) {
      opts->targetMs = atof(value);
    } else if ((value = benchOptionValue(arg, "--warmup"))) {
      opts->warmup = atoi(value);
    } else if ((value = benchOptionValue(arg, "--samples"))) {
      opts->samples = atoi(value);
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
  if (!parseShapes(shapes ? shapes
                          : opts->check ? kDefaultCheckShapes
                                        : kDefaultBenchShapes,
                   opts))
    return 0;
  if (opts->runs < 1)
    opts->runs = 1;
  if (opts->runs > 64)
    opts->runs = 64;
  if (opts->warmup < 0)
    opts->warmup = 0;
  if (opts->targetMs <= 0)
    opts->targetMs = 50;
  if (opts->samples < 1)
    opts->samples = 1;
  return 1;
}

/// The launch information file: kernel name, dynamic shared memory and
/// block size; command-line values win.
static int readLaunchInfo(Options *opts) {
  if (opts->launchInfo) {
    BenchLaunchInfo info;
    if (!benchReadLaunchInfo(opts->launchInfo, &info))
      return 0;
    if (opts->smem < 0)
      opts->smem = info.sharedBytes;
    if (info.haveBlock && !opts->blockSet)
      memcpy(opts->block, info.block, sizeof(opts->block));
    if (!opts->kernel && info.kernel[0]) {
      memcpy(opts->infoKernel, info.kernel, sizeof(opts->infoKernel));
      opts->kernel = opts->infoKernel;
    }
  }
  if (!opts->kernel)
    opts->kernel = kDefaultKernel;
  if (opts->smem < 0) {
    fprintf(stderr, "error: no dynamic shared memory size (--launch-info=FILE "
                    "or --smem=BYTES)\n");
    return 0;
  }
  return 1;
}

static void shapeName(Shape s, char *buffer, size_t size) {
  if (s.b)
    snprintf(buffer, size,
             "B=%" PRId64 " H=%" PRId64 " S=%" PRId64, s.b, s.h, s.s);
  else
    snprintf(buffer, size, "BH=%" PRId64 " S=%" PRId64, s.bh, s.s);
}

//===----------------------------------------------------------------------===//
// Problems
//===----------------------------------------------------------------------===//

/// The MLIR descriptor of a rank-3 memref: 9 kernel parameters.
typedef struct {
  TileRtDevicePtr allocated;
  TileRtDevicePtr aligned;
  int64_t offset;
  int64_t sizes[3];
  int64_t strides[3];
} MemRef3D;

enum { kQ, kK, kV, kO, kNumTensors };

typedef struct {
  TileRtContext *ctx;
  TileRtFunction *fn;
  const Options *opts;
  TileRtDevicePtr flush;
  size_t flushBytes;
  float lut[65536]; // f16 bits -> float
} Bench;

typedef struct {
  Shape shape;
  size_t count;         // elements of one tensor: BH S D
  double qkRange;       // Q and K uniform in [-qkRange, qkRange]
  uint16_t *host[3];    // Q, K, V
  TileRtDevicePtr base[kNumTensors];
  size_t allocBytes[kNumTensors];
  TileRtDevicePtr view[kNumTensors]; // first element of each tensor
  size_t viewOffsetBytes[kNumTensors]; // view - base
  MemRef3D desc[kNumTensors];
  void *params[kNumParams];
} Problem;

static void problemFree(Bench *bench, Problem *p) {
  for (int t = 0; t < kNumTensors; ++t)
    tileRtFree(bench->ctx, p->base[t]);
  for (int t = 0; t < 3; ++t)
    free(p->host[t]);
  memset(p, 0, sizeof(*p));
}

/// Uniform values in [-range, range], rounded to f16.
static void fillRandom(uint16_t *data, size_t count, double range,
                       uint64_t seed) {
  uint64_t state = seed;
  for (size_t i = 0; i < count; ++i)
    data[i] = tileRtFloatToHalf(
        (float)(range * (2.0 * benchUniform(&state) - 1.0)));
}

/// Allocates and fills the tensors and packs the kernel's parameters.
/// Inputs: [E elements][data], so that the data ends with the allocation;
/// O: [guard][E elements][data][guard].
static int problemInit(Bench *bench, Shape shape, uint64_t seed,
                       double qkRange, Problem *p) {
  const Options *opts = bench->opts;
  TileRtContext *ctx = bench->ctx;
  memset(p, 0, sizeof(*p));
  p->shape = shape;
  p->qkRange = qkRange;
  p->count = (size_t)shape.bh * (size_t)shape.s * kHeadDim;
  size_t bytes = p->count * 2, shift = (size_t)opts->offset * 2;
  for (int t = 0; t < 3; ++t) {
    p->host[t] = malloc(bytes);
    if (!p->host[t]) {
      fprintf(stderr, "error: out of host memory\n");
      return 0;
    }
    uint64_t state = seed + (uint64_t)t;
    fillRandom(p->host[t], p->count, t == kV ? 1.0 : qkRange,
               benchSplitmix64(&state));
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
      d->offset = opts->offset;
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
static void gridOf(const Problem *p, unsigned grid[3]) {
  int64_t s = p->desc[kQ].sizes[1], bh = p->desc[kQ].sizes[0];
  grid[0] = (unsigned)((s + kBlockQ - 1) / kBlockQ);
  grid[1] = (unsigned)bh;
  grid[2] = 1;
}

typedef struct {
  Bench *bench;
  Problem *problem;
} LaunchArgs;

static int launchKernel(void *arg) {
  LaunchArgs *args = arg;
  Bench *bench = args->bench;
  unsigned grid[3];
  gridOf(args->problem, grid);
  int status = tileRtLaunch(bench->fn, grid, bench->opts->block,
                            (unsigned)bench->opts->smem, args->problem->params);
  if (status != TILE_RT_SUCCESS)
    fprintf(stderr, "error: %s\n", tileRtLastError(bench->ctx));
  return status == TILE_RT_SUCCESS;
}

//===----------------------------------------------------------------------===//
// CPU fp64 reference
//===----------------------------------------------------------------------===//

/// O rows `rows[0..numRows)` (indices into the S rows) of head `bh`:
/// softmax(q k^T / sqrt(D)) v in fp64 from the f16 inputs, into
/// `out[numRows][D]`. `k` and `v` are the head's keys and values converted
/// to double (S x D each); `scores` has room for S doubles.
static void referenceRows(const Bench *bench, const Problem *p, int64_t bh,
                          const int64_t *rows, int numRows, const double *k,
                          const double *v, double *scores, double *out) {
  const int64_t S = p->shape.s;
  const double scale = 1.0 / sqrt((double)kHeadDim);
  const uint16_t *qHead = p->host[kQ] + (size_t)bh * S * kHeadDim;
  for (int r = 0; r < numRows; ++r) {
    double q[kHeadDim];
    for (int d = 0; d < kHeadDim; ++d)
      q[d] = bench->lut[qHead[(size_t)rows[r] * kHeadDim + d]];
    double maxScore = -INFINITY;
    for (int64_t j = 0; j < S; ++j) {
      const double *kRow = k + (size_t)j * kHeadDim;
      // Four partial sums: independent chains for the FPU.
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (int d = 0; d < kHeadDim; d += 4) {
        s0 += q[d] * kRow[d];
        s1 += q[d + 1] * kRow[d + 1];
        s2 += q[d + 2] * kRow[d + 2];
        s3 += q[d + 3] * kRow[d + 3];
      }
      scores[j] = ((s0 + s1) + (s2 + s3)) * scale;
      if (scores[j] > maxScore)
        maxScore = scores[j];
    }
    double sum = 0;
    double *o = out + (size_t)r * kHeadDim;
    for (int d = 0; d < kHeadDim; ++d)
      o[d] = 0;
    for (int64_t j = 0; j < S; ++j) {
      double w = exp(scores[j] - maxScore);
      sum += w;
      const double *vRow = v + (size_t)j * kHeadDim;
      for (int d = 0; d < kHeadDim; ++d)
        o[d] += w * vRow[d];
    }
    for (int d = 0; d < kHeadDim; ++d)
      o[d] /= sum;
  }
}

/// Converts head `bh` of tensor `t` to double.
static void headToDouble(const Bench *bench, const Problem *p, int t,
                         int64_t bh, double *out) {
  size_t n = (size_t)p->shape.s * kHeadDim;
  const uint16_t *src = p->host[t] + (size_t)bh * n;
  for (size_t i = 0; i < n; ++i)
    out[i] = bench->lut[src[i]];
}

/// Element tolerance |out - ref| <= atol + rtol |ref|, and the largest
/// acceptable ||out - ref|| / ||ref||, for f16 inputs, f32 accumulation and
/// an f16 output. The kernel rounds the probabilities P to f16 (relative
/// error <= 2^-11 each) before P V while the row sum l uses the f32 values:
/// that perturbs an output by at most 2^-11 max|V| = 2^-11 (V in [-1, 1]),
/// so atol = 2^-10 (twice that bound). rtol = 2^-9 is 2 ulps of f16 at the
/// bottom of a binade, for the rounding of O itself (as tile-gemm-bench's
/// f16 rtol). The f32 accumulations (D = 128 products, S exponentials) and
/// the approximate exp2 are far below both. The expected norm error is
/// 2e-4 to 3e-4 (about half an ulp of f16 per element, from rounding O and
/// P; measured on a CPU emulation of the kernel's arithmetic), hence the
/// norm tolerance 1e-3, tile-gemm-bench's for f16.
static void faTolerance(BenchTolerance *tol, double *normTol) {
  tol->atol = 0x1.0p-10;
  tol->rtol = 0x1.0p-9;
  tol->floor = 0; // set per comparison: rms of the reference
  *normTol = 1e-3;
}

static int statsPass(const BenchStats *stats, double normTol) {
  return stats->count > 0 && stats->bad == 0 &&
         benchNormRel(stats) <= normTol;
}

static void printWorst(const BenchStats *stats, int64_t S) {
  // Rows of the statistics are bh * S + s, columns d.
  printf("    worst element O[%" PRId64 "][%" PRId64 "][%" PRId64 "] = %.6g, "
         "expected %.6g\n",
         stats->worstRow / S, stats->worstRow % S, stats->worstCol,
         stats->worstOut, stats->worstRef);
}

//===----------------------------------------------------------------------===//
// --check
//===----------------------------------------------------------------------===//

/// Fills all of O's allocation with 0xFF, launches once, and copies the
/// allocation back to `host` (allocBytes[kO] bytes).
static int runPoisoned(Bench *bench, Problem *p, uint16_t *host) {
  TileRtContext *ctx = bench->ctx;
  LaunchArgs args = {bench, p};
  RT_CHECK(ctx, tileRtMemsetD8(ctx, p->base[kO], kPoisonByte,
                               p->allocBytes[kO]));
  if (!launchKernel(&args))
    return 0;
  RT_CHECK(ctx, tileRtSynchronize(ctx));
  RT_CHECK(ctx, tileRtMemcpyDtoH(ctx, host, p->base[kO], p->allocBytes[kO]));
  return 1;
}

static const double kQkRanges[3] = {1.0, 2.0, 4.0};

/// Correctness of one shape; returns 1 if it passes, 0 if not, -1 on a
/// setup error or a fault.
static int checkShape(Bench *bench, Shape s, int index) {
  const Options *opts = bench->opts;
  char name[96];
  shapeName(s, name, sizeof(name));
  // Varied inputs: a seed of its own per shape, and the range of Q and K
  // cycling through 1, 2, 4 (and not in step with the B*H of the default
  // list, three per S).
  uint64_t state = opts->seed ^ ((uint64_t)s.bh << 40) ^ (uint64_t)s.s;
  uint64_t seed = benchSplitmix64(&state) + (uint64_t)index;
  double qkRange = kQkRanges[(index + index / 3) % 3];
  Problem p;
  if (!problemInit(bench, s, seed, qkRange, &p)) {
    problemFree(bench, &p);
    return -1;
  }
  size_t allocElems = p.allocBytes[kO] / 2;
  size_t viewStart = p.viewOffsetBytes[kO] / 2, count = p.count;
  uint16_t *first = malloc(p.allocBytes[kO]);
  uint16_t *second = malloc(p.allocBytes[kO]);
  double *k = malloc((size_t)s.s * kHeadDim * sizeof(double));
  double *v = malloc((size_t)s.s * kHeadDim * sizeof(double));
  double *scores = malloc((size_t)s.s * sizeof(double));
  double *ref = malloc((size_t)s.s * kHeadDim * sizeof(double));
  int64_t *rows = malloc((size_t)s.s * sizeof(int64_t));
  int result = -1;
  if (!first || !second || !k || !v || !scores || !ref || !rows) {
    fprintf(stderr, "error: out of host memory\n");
    goto done;
  }
  if (!runPoisoned(bench, &p, first) || !runPoisoned(bench, &p, second)) {
    printf("check %s: ERROR (launch or kernel fault; see above)\n", name);
    goto done;
  }
  const uint16_t *out = first + viewStart;

  size_t unwritten = 0, outside = 0;
  for (size_t i = 0; i < count; ++i)
    unwritten += out[i] == kPoison;
  for (size_t i = 0; i < allocElems; ++i)
    if (i < viewStart || i >= viewStart + count)
      outside += first[i] != kPoison;
  int identical = memcmp(first, second, p.allocBytes[kO]) == 0;

  // Reference, one head at a time; rms of the reference first (relative
  // error floor), so the statistics take a second pass per head.
  BenchTolerance tol;
  double normTol;
  faTolerance(&tol, &normTol);
  BenchStats stats = {0};
  for (int64_t i = 0; i < s.s; ++i)
    rows[i] = i;
  double sumSqRef = 0;
  double *refAll = NULL;
  // Keep the whole reference when it is small; otherwise compare per head
  // with the floor estimated from the first head.
  size_t refBytes = count * sizeof(double);
  if (refBytes <= ((size_t)256 << 20))
    refAll = malloc(refBytes);
  for (int64_t bh = 0; bh < s.bh; ++bh) {
    headToDouble(bench, &p, kK, bh, k);
    headToDouble(bench, &p, kV, bh, v);
    double *dst = refAll ? refAll + (size_t)bh * s.s * kHeadDim : ref;
    referenceRows(bench, &p, bh, rows, (int)s.s, k, v, scores, dst);
    for (size_t i = 0; i < (size_t)s.s * kHeadDim; ++i)
      sumSqRef += dst[i] * dst[i];
    if (!refAll) {
      tol.floor = fmax(sqrt(sumSqRef / (double)((bh + 1) * s.s * kHeadDim)),
                       1e-30);
      for (size_t i = 0; i < (size_t)s.s * kHeadDim; ++i) {
        size_t e = (size_t)bh * s.s * kHeadDim + i;
        benchStatsAdd(&stats, &tol, bench->lut[out[e]], dst[i],
                      (int64_t)(e / kHeadDim), (int64_t)(e % kHeadDim));
      }
    }
  }
  if (refAll) {
    tol.floor = fmax(sqrt(sumSqRef / (double)count), 1e-30);
    for (size_t e = 0; e < count; ++e)
      benchStatsAdd(&stats, &tol, bench->lut[out[e]], refAll[e],
                    (int64_t)(e / kHeadDim), (int64_t)(e % kHeadDim));
    free(refAll);
  }

  int pass = unwritten == 0 && outside == 0 && identical &&
             statsPass(&stats, normTol);
  unsigned grid[3];
  gridOf(&p, grid);
  printf("check %-14s Q,K in [-%g,%g]: grid (%u, %u): unwritten %zu, "
         "writes outside O %zu, repeat %s, max_abs_err %.2e, max_rel_err "
         "%.2e, norm_rel_err %.2e, out of tolerance %" PRId64
         ", non-finite %" PRId64 ": %s\n",
         name, qkRange, qkRange, grid[0], grid[1], unwritten, outside,
         identical ? "identical" : "DIFFERS", stats.maxAbs, stats.maxRel,
         benchNormRel(&stats), stats.bad, stats.nonFinite,
         pass ? "PASS" : "FAIL");
  if (!statsPass(&stats, normTol) && stats.count > 0)
    printWorst(&stats, s.s);
  result = pass;
done:
  free(first);
  free(second);
  free(k);
  free(v);
  free(scores);
  free(ref);
  free(rows);
  problemFree(bench, &p);
  return result;
}

//===----------------------------------------------------------------------===//
// --bench
//===----------------------------------------------------------------------===//

typedef struct {
  char shape[96];
  double ms, tflops;
  char check[64];
  int wrong;
} Row;

/// Compares the rows of O (as left by the last launch) at sampled
/// (head, row) pairs with the CPU reference: the first and last heads and
/// rows, both sides of the first block boundary, the middle, and random
/// ones. Returns 1 if within tolerance, 0 if not, -1 on an error.
static int checkSamples(Bench *bench, Problem *p, Row *row) {
  const Shape s = p->shape;
  const int numSamples = bench->opts->samples;
  uint16_t *out = malloc(p->count * 2);
  double *k = malloc((size_t)s.s * kHeadDim * sizeof(double));
  double *v = malloc((size_t)s.s * kHeadDim * sizeof(double));
  double *scores = malloc((size_t)s.s * sizeof(double));
  double *ref = malloc(kHeadDim * sizeof(double));
  int result = -1;
  if (!out || !k || !v || !scores || !ref) {
    fprintf(stderr, "error: out of host memory\n");
    goto done;
  }
  if (tileRtMemcpyDtoH(bench->ctx, out, p->view[kO], p->count * 2)) {
    fprintf(stderr, "error: %s\n", tileRtLastError(bench->ctx));
    goto done;
  }
  BenchTolerance tol;
  double normTol;
  faTolerance(&tol, &normTol);
  tol.floor = 1e-30;
  BenchStats stats = {0};
  uint64_t state = bench->opts->seed + 99;
  const int64_t fixedRows[] = {0, 1, 127, 128, s.s / 2, s.s - 2, s.s - 1};
  const int numFixed = (int)(sizeof(fixedRows) / sizeof(fixedRows[0]));
  // Samples grouped by head: heads 0, BH-1, then random heads.
  int64_t lastHead = -1;
  for (int i = 0; i < numSamples; ++i) {
    int64_t head = i < numSamples / 2 ? (i % 2 ? s.bh - 1 : 0)
                                      : (int64_t)(benchSplitmix64(&state) %
                                                  (uint64_t)s.bh);
    int64_t r = i < 2 * numFixed ? fixedRows[i / 2]
                                 : (int64_t)(benchSplitmix64(&state) %
                                             (uint64_t)s.s);
    if (r < 0 || r >= s.s)
      r = 0;
    if (head != lastHead) {
      headToDouble(bench, p, kK, head, k);
      headToDouble(bench, p, kV, head, v);
      lastHead = head;
    }
    referenceRows(bench, p, head, &r, 1, k, v, scores, ref);
    const uint16_t *o = out + ((size_t)head * s.s + (size_t)r) * kHeadDim;
    for (int d = 0; d < kHeadDim; ++d)
      benchStatsAdd(&stats, &tol, bench->lut[o[d]], ref[d], head * s.s + r,
                    d);
  }
  result = statsPass(&stats, normTol);
  snprintf(row->check, sizeof(row->check), "%s (%.1e, %d rows)",
           result ? "ok" : "WRONG", benchNormRel(&stats), numSamples);
  if (!result)
    printWorst(&stats, s.s);
done:
  free(out);
  free(k);
  free(v);
  free(scores);
  free(ref);
  return result;
}

static int benchShape(Bench *bench, Shape s, Row *row) {
  const Options *opts = bench->opts;
  memset(row, 0, sizeof(*row));
  shapeName(s, row->shape, sizeof(row->shape));
  Problem p;
  if (!problemInit(bench, s, opts->seed, 1.0, &p)) {
    problemFree(bench, &p);
    return 0;
  }
  LaunchArgs args = {bench, &p};
  BenchTimer timer = {bench->ctx, bench->flush, bench->flushBytes};
  double iters = benchCalibrate(&timer, launchKernel, &args, opts->warmup,
                                opts->iters, opts->targetMs);
  double runs[64];
  int ok = iters > 0;
  for (int r = 0; ok && r < opts->runs; ++r)
    ok = (runs[r] = benchTimeLaunches(&timer, launchKernel, &args,
                                      (int)iters)) >= 0;
  if (!ok) {
    problemFree(bench, &p);
    return 0;
  }
  qsort(runs, (size_t)opts->runs, sizeof(double), benchCompareDoubles);
  row->ms = runs[opts->runs / 2];
  double flop = 4.0 * (double)s.bh * (double)s.s * (double)s.s * kHeadDim;
  row->tflops = flop / (row->ms * 1e-3) / 1e12;
  int checked = checkSamples(bench, &p, row);
  problemFree(bench, &p);
  if (checked < 0)
    return 0;
  row->wrong = !checked;
  return 1;
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
  bench.opts = &opts;
  for (uint32_t i = 0; i < 65536; ++i)
    bench.lut[i] = tileRtHalfToFloat((uint16_t)i);

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
         "memory, grid (ceil(S / %d), B*H)\n",
         opts.kernel, opts.cubin, regs, staticSmem, local, opts.block[0],
         opts.block[1], opts.block[2], opts.smem, kBlockQ);
  if (opts.offset || opts.offsetInDescriptor)
    printf("views: Q, K, V and O start %lld element(s) (%lld B) into their "
           "allocations, passed as %s\n",
           opts.offset, 2 * opts.offset,
           opts.offsetInDescriptor
               ? "the descriptors' offset field (aligned = allocation)"
               : "the data pointers (aligned = view, offset field 0)");

  if (opts.flushL2) {
    bench.flushBytes = (size_t)256 << 20;
    if (tileRtMalloc(ctx, bench.flushBytes, &bench.flush) != TILE_RT_SUCCESS) {
      printf("error: %s\n", tileRtLastError(ctx));
      tileRtDestroy(ctx);
      return 2;
    }
    printf("timing with a cold L2: 256 MiB overwritten before each launch\n");
  }

  int failures = 0, errors = 0, done = 0;
  if (opts.check) {
    BenchTolerance tol;
    double normTol;
    faTolerance(&tol, &normTol);
    printf("tolerance: |out - ref| <= %.3g + %.3g |ref| per element, "
           "||out - ref|| / ||ref|| <= %.0e; reference: CPU fp64 of all of "
           "O\n",
           tol.atol, tol.rtol, normTol);
    for (int i = 0; i < opts.numShapes; ++i) {
      int result = checkShape(&bench, opts.shapes[i], i);
      ++done;
      if (result < 0) {
        ++errors;
        break; // the context may be unusable after a kernel fault
      }
      failures += result == 0;
    }
    printf("check summary: %d of %d shape(s) run, %d failed, %d error(s)\n",
           done, opts.numShapes, failures, errors);
  } else {
    Row rows[kMaxShapes];
    int numRows = 0;
    for (int i = 0; i < opts.numShapes; ++i) {
      char name[96];
      shapeName(opts.shapes[i], name, sizeof(name));
      fprintf(stderr, "benchmarking %s...\n", name);
      if (!benchShape(&bench, opts.shapes[i], &rows[numRows])) {
        ++errors;
        break;
      }
      failures += rows[numRows].wrong;
      ++numRows;
    }
    printf("\n| shape (D=128, f16, non-causal) | tile-mlir TFLOP/s | "
           "tile-mlir ms | vs CPU fp64 (norm rel err) |\n");
    printf("|---|---|---|---|\n");
    for (int i = 0; i < numRows; ++i)
      printf("| %s | %.1f | %.4f | %s |\n", rows[i].shape, rows[i].tflops,
             rows[i].ms, rows[i].check);
  }
  printf("%s\n", errors ? "ERROR" : failures ? "FAIL" : "PASS");

  tileRtFree(ctx, bench.flush);
  tileRtDestroy(ctx);
  return errors ? 2 : failures ? 1 : 0;
}
