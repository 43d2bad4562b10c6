//===- sparse_host.c - A C host of the 2:4-sparse GEMM ------------*- C -*-===//
//
// The host side of examples/sparse_compress.mlir and examples/gemm_sparse.mlir
// as a user writes it: prune a matrix to 2:4, compress it on the GPU,
// multiply, check. Plain C11 over the two libraries tile-compile makes and
// the tile runtime:
//
//   tile-compile examples/sparse_compress.mlir -o libsparse_compress.so
//       --header sparse_compress.h
//   tile-compile examples/gemm_sparse.mlir -o libgemm_sparse.so
//       --header gemm_sparse.h
//   cc -std=c11 -I. -I<tile>/runtime/include examples/sparse_host.c
//      -L. -lsparse_compress -lgemm_sparse -L<tile>/lib -ltile_cuda_runtime
//      -lm -o sparse-host
//   ./sparse-host [--shape=MxNxK,...] [--seed=N]
//
// For each shape (default: odd and tiny ones, then 1000^3 and larger):
//  1. A (M x K, f16, uniform in [-1, 1]) pruned to 2:4 along K on the CPU:
//     the two largest magnitudes of each group of four kept.
//  2. compress_2to4(A, Ac, E, V) on the GPU; V (violating groups per row
//     and 128 columns) must sum to 0, and Ac and E, copied back and
//     expanded on the CPU, must give A back exactly.
//  3. gemm_sp(Ac, E, B, C) into a NaN-poisoned C, compared with a CPU fp64
//     product of the pruned A and B (every row up to M N K = 2^31, else 16),
//     within K 2^-20 + 2^-9 |ref| (f16 output), no NaN left.
//  4. The same A with one more non-zero in some groups (not 2:4): V must
//     count exactly those groups.
//
// First, without the device: a call whose E is one word too narrow for K
// fails with an error naming gemm_sp and the argument.
//
// Exit status: 0 all checks pass; 1 a wrong result; 2 a usage or runtime
// error; 3 no usable GPU (tileRtInit failed: the message says why).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "gemm_sparse.h"
#include "sparse_compress.h"
#include "tile_runtime.h"

#include "host_common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int64_t m, n, k;
} Shape;

static const char *const kDefaultShapes =
    "1x32x8,3x5x7,17x40x130,128x256x128,1000x1000x1000,4095x4097x1023,"
    "2048x2048x4096";

static int parseShapes(const char *text, Shape *shapes, int max) {
  int count = 0;
  while (*text && count < max) {
    Shape s;
    int used = 0;
    if (sscanf(text, "%" SCNd64 "x%" SCNd64 "x%" SCNd64 "%n", &s.m, &s.n,
               &s.k, &used) != 3 ||
        s.m < 1 || s.n < 1 || s.k < 1)
      return -1;
    shapes[count++] = s;
    text += used;
    if (*text == ',')
      ++text;
    else if (*text)
      return -1;
  }
  return count;
}

/// A row-major rows x cols view of device memory at `ptr`.
static tile_memref_2d view(TileRtDevicePtr ptr, int64_t rows, int64_t cols) {
  void *data = (void *)(uintptr_t)ptr;
  tile_memref_2d d = {data, data, 0, {rows, cols}, {cols, 1}};
  return d;
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Keeps the two largest magnitudes of each group of four of every row.
static void prune(uint16_t *a, int64_t m, int64_t k) {
  for (int64_t r = 0; r < m; ++r)
    for (int64_t g = 0; g < k; g += 4) {
      uint16_t *x = a + r * k + g;
      int n = k - g < 4 ? (int)(k - g) : 4, best = -1, next = -1;
      for (int t = 0; t < n; ++t) {
        float v = fabsf(tileRtHalfToFloat(x[t]));
        if (best < 0 || v > fabsf(tileRtHalfToFloat(x[best]))) {
          next = best;
          best = t;
        } else if (next < 0 || v > fabsf(tileRtHalfToFloat(x[next]))) {
          next = t;
        }
      }
      for (int t = 0; t < n; ++t)
        if (t != best && t != next)
          x[t] = 0;
    }
}

/// Counts the elements where `ac` and `e` expanded differ from `a`, and
/// groups whose positions do not increase.
static size_t expandMismatches(const uint16_t *a, const uint16_t *ac,
                               const uint16_t *e, int64_t m, int64_t k) {
  int64_t kc = 2 * ceilDiv(k, 4), ke = ceilDiv(k, 16);
  size_t bad = 0;
  float *row = malloc((size_t)k * sizeof(float));
  if (!row)
    return SIZE_MAX;
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < k; ++c)
      row[c] = 0;
    for (int64_t g = 0; g < ceilDiv(k, 4); ++g) {
      unsigned nib = (e[r * ke + g / 4] >> (4 * (g % 4))) & 15;
      int64_t pos[2] = {4 * g + (nib & 3), 4 * g + (nib >> 2)};
      bad += (nib & 3) >= (nib >> 2);
      for (int s = 0; s < 2; ++s) {
        int64_t src = 2 * g + s;
        float v = src < kc ? tileRtHalfToFloat(ac[r * kc + src]) : 0;
        if (pos[s] < k)
          row[pos[s]] = v;
        else
          bad += v != 0;
      }
    }
    for (int64_t c = 0; c < k; ++c)
      bad += row[c] != tileRtHalfToFloat(a[r * k + c]);
  }
  free(row);
  return bad;
}

/// C against a CPU fp64 product of the pruned A and B.
static int compare(const uint16_t *a, const uint16_t *b, const uint16_t *c,
                   Shape s, uint64_t *state) {
  int full = (double)s.m * s.n * s.k <= 2147483648.0;
  double *ref = malloc((size_t)s.n * sizeof(double));
  if (!ref)
    return 0;
  double atol = (double)s.k * 0x1.0p-20, rtol = 0x1.0p-9, maxAbs = 0;
  size_t bad = 0, unwritten = 0;
  for (size_t i = 0; i < (size_t)s.m * s.n; ++i)
    unwritten += c[i] == kPoison;
  for (int64_t q = 0; q < (full ? s.m : 16); ++q) {
    int64_t i = full ? q
                : q < 2 ? q
                : q < 4 ? s.m - 4 + q
                        : (int64_t)(splitmix64(state) % (uint64_t)s.m);
    for (int64_t j = 0; j < s.n; ++j)
      ref[j] = 0;
    for (int64_t p = 0; p < s.k; ++p) {
      double x = toFloat(0, a[i * s.k + p]);
      if (x != 0)
        for (int64_t j = 0; j < s.n; ++j)
          ref[j] += x * tileRtHalfToFloat(b[p * s.n + j]);
    }
    for (int64_t j = 0; j < s.n; ++j) {
      double diff = fabs(tileRtHalfToFloat(c[i * s.n + j]) - ref[j]);
      bad += !(diff <= atol + rtol * fabs(ref[j]));
      if (isfinite(diff))
        maxAbs = fmax(maxAbs, diff);
    }
  }
  free(ref);
  int pass = bad == 0 && unwritten == 0;
  printf("    product vs CPU fp64 (%s): max abs err %.3e, %zu out of "
         "tolerance, %zu unwritten: %s\n",
         full ? "all rows" : "16 rows", maxAbs, bad, unwritten,
         pass ? "PASS" : "FAIL");
  return pass;
}

#define RT(call)                                                               \
  do {                                                                         \
    if ((call) != TILE_RT_SUCCESS) {                                           \
      printf("error: %s\n", tileRtLastError(ctx));                             \
      goto done;                                                               \
    }                                                                          \
  } while (0)

#define CALLED()                                                               \
  do {                                                                         \
    if (tileRtGetError()) {                                                    \
      printf("error: %s\n", tileRtGetErrorMessage());                          \
      goto done;                                                               \
    }                                                                          \
  } while (0)

/// One shape: 1 pass, 0 wrong, -1 error.
static int checkShape(TileRtContext *ctx, Shape s, uint64_t *state) {
  int64_t kc = 2 * ceilDiv(s.k, 4), ke = ceilDiv(s.k, 16),
          kv = ceilDiv(s.k, 128);
  size_t nA = (size_t)s.m * s.k, nAc = (size_t)s.m * kc,
         nE = (size_t)s.m * ke, nV = (size_t)s.m * kv,
         nB = (size_t)s.k * s.n, nC = (size_t)s.m * s.n;
  uint16_t *a = malloc(nA * 2), *ac = malloc(nAc * 2), *e = malloc(nE * 2),
           *b = malloc(nB * 2), *c = malloc(nC * 2);
  int32_t *v = malloc(nV * 4);
  TileRtDevicePtr dA = 0, dAc = 0, dE = 0, dV = 0, dB = 0, dC = 0;
  int result = -1;
  if (!a || !ac || !e || !b || !c || !v) {
    printf("error: out of host memory\n");
    goto done;
  }
  fillRandom(a, nA, 1.0, 0, state);
  fillRandom(b, nB, 1.0, 0, state);
  prune(a, s.m, s.k);
  RT(tileRtMalloc(ctx, nA * 2, &dA));
  RT(tileRtMalloc(ctx, nAc * 2, &dAc));
  RT(tileRtMalloc(ctx, nE * 2, &dE));
  RT(tileRtMalloc(ctx, nV * 4, &dV));
  RT(tileRtMalloc(ctx, nB * 2, &dB));
  RT(tileRtMalloc(ctx, nC * 2, &dC));
  RT(tileRtMemcpyHtoD(ctx, dA, a, nA * 2));
  RT(tileRtMemcpyHtoD(ctx, dB, b, nB * 2));
  RT(tileRtMemsetD16(ctx, dC, kPoison, nC));
  RT(tileRtSynchronize(ctx));

  tile_memref_2d A = view(dA, s.m, s.k), Ac = view(dAc, s.m, kc),
                 E = view(dE, s.m, ke), V = view(dV, s.m, kv),
                 B = view(dB, s.k, s.n), C = view(dC, s.m, s.n);
  compress_2to4(&A, &Ac, &E, &V);
  CALLED();
  gemm_sp(&Ac, &E, &B, &C);
  CALLED();
  RT(tileRtSynchronize(ctx));
  RT(tileRtMemcpyDtoH(ctx, ac, dAc, nAc * 2));
  RT(tileRtMemcpyDtoH(ctx, e, dE, nE * 2));
  RT(tileRtMemcpyDtoH(ctx, v, dV, nV * 4));
  RT(tileRtMemcpyDtoH(ctx, c, dC, nC * 2));
  int64_t violations = 0;
  for (size_t i = 0; i < nV; ++i)
    violations += v[i];
  size_t mismatches = expandMismatches(a, ac, e, s.m, s.k);
  int pass = violations == 0 && mismatches == 0;
  printf("%" PRId64 "x%" PRId64 "x%" PRId64 ":\n    compressed: %" PRId64
         " violating groups, %zu elements differ expanded: %s\n",
         s.m, s.n, s.k, violations, mismatches, pass ? "PASS" : "FAIL");
  pass &= compare(a, b, c, s, state);

  // Not 2:4: a third non-zero in every 7th group that has four columns.
  int64_t planted = 0;
  for (int64_t r = 0; r < s.m; ++r)
    for (int64_t g = 0; g + 4 <= s.k; g += 4)
      if ((r * s.k + g) / 4 % 7 == 3) {
        uint16_t *x = a + r * s.k + g;
        for (int t = 0; t < 4; ++t)
          if (x[t] == 0) {
            x[t] = tileRtFloatToHalf(0.5f);
            ++planted;
            break;
          }
      }
  RT(tileRtMemcpyHtoD(ctx, dA, a, nA * 2));
  compress_2to4(&A, &Ac, &E, &V);
  CALLED();
  RT(tileRtSynchronize(ctx));
  RT(tileRtMemcpyDtoH(ctx, v, dV, nV * 4));
  violations = 0;
  for (size_t i = 0; i < nV; ++i)
    violations += v[i];
  int reported = violations == planted;
  printf("    not 2:4 (%" PRId64 " groups with three non-zeros): %" PRId64
         " reported: %s\n",
         planted, violations, reported ? "PASS" : "FAIL");
  result = pass && reported;
done:
  tileRtFree(ctx, dA);
  tileRtFree(ctx, dAc);
  tileRtFree(ctx, dE);
  tileRtFree(ctx, dV);
  tileRtFree(ctx, dB);
  tileRtFree(ctx, dC);
  free(a);
  free(ac);
  free(e);
  free(b);
  free(c);
  free(v);
  return result;
}

/// The argument check needs no device: a call whose metadata is one word
/// too narrow for K fails before the driver is used (placeholders here).
static void argumentCheck(void) {
  static uint16_t placeholder[4096];
  tile_memref_2d Ac = {placeholder, placeholder, 0, {64, 32}, {32, 1}};
  tile_memref_2d E = {placeholder, placeholder, 0, {64, 3}, {3, 1}};
  tile_memref_2d B = {placeholder, placeholder, 0, {64, 48}, {48, 1}};
  tile_memref_2d C = {placeholder, placeholder, 0, {64, 48}, {48, 1}};
  gemm_sp(&Ac, &E, &B, &C);
  int status = tileRtGetError();
  printf("mismatched shapes: gemm_sp(Ac 64x32, E 64x3, B 64x48, C 64x48): "
         "status %d (%s): %s\n",
         status, tileRtErrorString(status), tileRtGetErrorMessage());
  tileRtClearError();
}

int main(int argc, char **argv) {
  Shape shapes[64];
  int count = parseShapes(kDefaultShapes, shapes, 64);
  uint64_t seed = (uint64_t)(now() * 1e9);
  for (int i = 1; i < argc; ++i) {
    if (!strncmp(argv[i], "--shape=", 8)) {
      count = parseShapes(argv[i] + 8, shapes, 64);
    } else if (!strncmp(argv[i], "--seed=", 7)) {
      seed = strtoull(argv[i] + 7, NULL, 0);
    } else {
      fprintf(stderr, "usage: %s [--shape=MxNxK,...] [--seed=N]\n", argv[0]);
      return 2;
    }
    if (count < 1) {
      fprintf(stderr, "error: bad --shape (MxNxK, comma-separated)\n");
      return 2;
    }
  }
  argumentCheck();
  TileRtContext *ctx = NULL;
  if (tileRtInit(&ctx, 0) != TILE_RT_SUCCESS) {
    printf("no usable GPU: %s\n", tileRtLastError(NULL));
    return 3;
  }
  char name[256] = "?";
  tileRtDeviceName(ctx, name, sizeof(name));
  printf("device: %s, seed %" PRIu64 "\n", name, seed);
  uint64_t state = seed;
  int failed = 0, errors = 0;
  for (int i = 0; i < count; ++i) {
    int r = checkShape(ctx, shapes[i], &state);
    failed += r == 0;
    errors += r < 0;
  }
  tileRtDestroy(ctx);
  printf("%d shapes: %d failed, %d errors\n", count, failed, errors);
  return errors ? 2 : failed ? 1 : 0;
}
