//===- fa_check.c - tile-fa-bench's reference and checks ----------*- C -*-===//
//
// See fa_bench.h and fa_bench.c. The CPU fp64 reference of O =
// softmax(Q K^T / sqrt(D)) V from the f16 inputs, the tolerances, --check
// (all of O on a poisoned allocation, twice) and the sampled rows --bench
// checks.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "fa_bench.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
void faTolerance(BenchTolerance *tol, double *normTol) {
  tol->atol = 0x1.0p-10;
  tol->rtol = 0x1.0p-9;
  tol->floor = 0; // set per comparison: rms of the reference
  *normTol = 1e-3;
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
  LaunchArgs args = {bench, p};
  return benchRunPoisoned(bench->ctx, launchKernel, &args, p->base[kO],
                          p->allocBytes[kO], host);
}

static const double kQkRanges[3] = {1.0, 2.0, 4.0};

int checkShape(Bench *bench, Shape s, int index) {
  const Options *opts = bench->opts;
  char name[96];
  shapeName(s, name, sizeof(name));
  // Varied inputs: a seed of its own per shape, and the range of Q and K
  // cycling through 1, 2, 4 (and not in step with the B*H of the default
  // list, three per S).
  uint64_t state = opts->common.seed ^ ((uint64_t)s.bh << 40) ^ (uint64_t)s.s;
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

  size_t unwritten, outside;
  benchCountPoison(first, allocElems, viewStart, count, &unwritten, &outside);
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
      tol.floor =
          fmax(sqrt(sumSqRef / (double)((bh + 1) * s.s * kHeadDim)), 1e-30);
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
             benchStatsPass(&stats, normTol);
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
  if (!benchStatsPass(&stats, normTol) && stats.count > 0)
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
// --bench: sampled rows
//===----------------------------------------------------------------------===//

/// The rows of O at sampled (head, row) pairs: the first and last heads and
/// rows, both sides of the first block boundary, the middle, and random
/// ones.
int checkSamples(Bench *bench, Problem *p, char *check, size_t checkSize) {
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
  uint64_t state = bench->opts->common.seed + 99;
  const int64_t fixedRows[] = {0, 1, 127, 128, s.s / 2, s.s - 2, s.s - 1};
  const int numFixed = (int)(sizeof(fixedRows) / sizeof(fixedRows[0]));
  // Samples grouped by head: heads 0, BH-1, then random heads.
  int64_t lastHead = -1;
  for (int i = 0; i < numSamples; ++i) {
    int64_t head = i < numSamples / 2
                       ? (i % 2 ? s.bh - 1 : 0)
                       : (int64_t)(benchSplitmix64(&state) % (uint64_t)s.bh);
    int64_t r = i < 2 * numFixed
                    ? fixedRows[i / 2]
                    : (int64_t)(benchSplitmix64(&state) % (uint64_t)s.s);
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
      benchStatsAdd(&stats, &tol, bench->lut[o[d]], ref[d], head * s.s + r, d);
  }
  result = benchStatsPass(&stats, normTol);
  snprintf(check, checkSize, "%s (%.1e, %d rows)", result ? "ok" : "WRONG",
           benchNormRel(&stats), numSamples);
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
