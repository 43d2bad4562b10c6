//===- gemm_check.c - tile-gemm-bench --check ---------------------*- C -*-===//
//
// See gemm_bench.h. The output (and a guard region on both sides of it) is
// poisoned with 0xFF bytes (a NaN in f16 and bf16) before each run; after it
// every element must be written, the guards untouched, and the result
// within tolerance of cuBLAS and of a CPU fp64 reference (all elements when
// M N K <= --cpu-full-limit, otherwise sampled rows and columns, edges
// included). A second run must give identical bits.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "gemm_bench.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int statsPass(const Stats *stats, DType dtype) {
  return benchStatsPass(stats, normTolerance(dtype));
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
Stats compareFull(const Bench *bench, const uint16_t *out,
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
    uint64_t state = bench->opts->common.seed + 99;
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


/// Runs the tile kernel once on poisoned output and copies C (with its
/// guards) to `host` (guard + M N + guard elements).
static int runTilePoisoned(Bench *bench, const Problem *p, uint16_t *host) {
  size_t bytes = (size_t)p->shape.m * p->shape.n * 2 + 2 * p->guardBytes;
  return runPoisoned(bench, p, launchTile, p->c - p->guardBytes, bytes, host);
}

/// Correctness of one shape; returns 1 if it passes, 0 if not, -1 on a
/// setup error.
int checkShape(Bench *bench, Shape s) {
  const Options *opts = bench->opts;
  const BenchOptions *common = &opts->common;
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
  if (!runTilePoisoned(bench, &p, first) || !runTilePoisoned(bench, &p, second))
    goto done;
  const uint16_t *out = first + guardElems;

  int pass = 1, cublasAgrees = 1;
  size_t unwritten, guardsHit;
  benchCountPoison(first, count + 2 * guardElems, guardElems, count, &unwritten,
                   &guardsHit);
  int identical =
      memcmp(first, second, (count + 2 * guardElems) * sizeof(uint16_t)) == 0;
  if (bench->gemm)
    printf("check %s %s: %s() of %s%s\n", name, dtypeName(opts->dtype),
           opts->function, opts->library,
           common->offset ? ", views at the offset (aligned pointers moved)"
                          : "");
  else
    printf("check %s %s: grid (%" PRId64 ", %" PRId64 "), block (%u, %u, %u), "
           "%lld B dynamic shared memory\n",
           name, dtypeName(opts->dtype), (s.n + opts->tileN - 1) / opts->tileN,
           (s.m + opts->tileM - 1) / opts->tileM, common->block[0],
           common->block[1], common->block[2], common->smem);
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
    cublasAgrees = statsPass(&stats, opts->dtype);
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
    statsPrint(full ? "CPU fp64 (all)" : "CPU fp64 (rows+cols)", &stats,
               opts->dtype);
    pass &= statsPass(&stats, opts->dtype);
    // Where cuBLAS disagrees, the exact reference over every element says
    // whose result is off: a disagreement that is cuBLAS's own error (its
    // result out of tolerance of fp64, ours within) does not fail.
    if (!cublasAgrees && full) {
      Stats own = compareSamples(bench, ref, s, samples, numSamples);
      statsPrint("fp64 (cuBLAS's result)", &own, opts->dtype);
      if (statsPass(&stats, opts->dtype) && !statsPass(&own, opts->dtype)) {
        printf("      the disagreement is cuBLAS's own error\n");
        cublasAgrees = 1;
      }
    }
    free(samples);
  }
  pass &= cublasAgrees;
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

