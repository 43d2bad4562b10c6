//===- fa_host.c - A C host of the FlashAttention examples --------*- C -*-===//
//
// The host side of examples/flash_attention.mlir and
// examples/flash_attention_causal.mlir, as a user writes it: plain C11 over
// the library tile-compile makes of an example and the tile runtime. The
// example's host function computes the grid and launches the kernel; this
// program only allocates, fills, calls it and checks. It knows no block
// size, grid or kernel name.
//
//   tile-compile examples/flash_attention.mlir -o libflash_attention.so
//       --header flash_attention.h
//   cc -std=c11 -I. -I<tile>/runtime/include examples/fa_host.c
//      -L. -lflash_attention -L<tile>/lib -ltile_cuda_runtime -lm -o fa-host
//   ./fa-host [--shape=BxHxS[@OFFSET],...] [--dtype=f16|bf16] [--seed=N]
//
// (<tile>: the tile-mlir source tree and build, or its installation; each
// command is one line.) Compiled with -DFA_CAUSAL it calls the causal
// example's flash_attention_causal_fwd and checks against a causal
// reference (query q attends to keys k <= q), else flash_attention_fwd.
// The header names the element type and head dimension only in a comment
// (memref<?x?x128xf16>), so the host is told: the head dimension when it
// is compiled (-DFA_HEAD_DIM=64; default 128), and the element type with
// --dtype (default f16, or bf16 when compiled with -DFA_DTYPE_BF16); both
// must be the library's (scripts/fa-variant.py writes the other
// variants). A wrong --dtype shows up as a failed check. The head
// dimension is static in the library's types, so its calls cannot check
// it: a host built for another one would make the kernels read past the
// tensors, hence no option for it.
//
// For each shape (default: tiny, odd and unaligned ones): Q, K, V and O of
// [B*H, S, D] are views OFFSET elements into device allocations (default
// offsets 0, 8 and 1: at 1 the host function picks the kernel without
// tensor copies), Q and K filled with random values in [-2, 2] and V in
// [-1, 1] (from --seed; default: a new seed per run, printed), all of O's
// allocation poisoned with NaN; one call, tileRtGetError(), a
// synchronization, then O against a CPU fp64 reference of
// softmax(Q K^T / sqrt(D)) V (every row up to B H S^2 D = 2^31, else 16
// rows of every head): within atol + rtol |ref| per element, a norm error
// bound, no NaN left in the view and nothing written outside it.
//
// First, the error path: a call whose V has S + 1 rows must fail with
// TILE_RT_ERROR_INVALID_ARGUMENT and a message naming the function and
// argument #2, and leave the poisoned O untouched after a synchronization:
// nothing was launched.
//
// Exit status: 0 all checks pass; 1 a wrong result or a wrong error path;
// 2 a usage or runtime error; 3 no usable GPU (tileRtInit failed: the
// message says why). Without a GPU the argument check still runs (it needs
// no device) and the program exits 3: compiled and linked, nothing ran.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "flash_attention.h"
#include "tile_runtime.h"

#include "host_common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef FA_CAUSAL
#define FA_FUNCTION flash_attention_causal_fwd
#define FA_NAME "flash_attention_causal_fwd"
#else
#define FA_FUNCTION flash_attention_fwd
#define FA_NAME "flash_attention_fwd"
#endif
#ifndef FA_HEAD_DIM
#define FA_HEAD_DIM 128
#endif

enum { kExitPass = 0, kExitWrong = 1, kExitError = 2, kExitNoGPU = 3 };
enum { kMaxShapes = 64, kSampledRows = 16 };
_Static_assert(FA_HEAD_DIM >= 1 && FA_HEAD_DIM <= 256, "FA_HEAD_DIM: 1 to 256");

typedef struct {
  int64_t b, h, s, offset;
} Shape;

typedef struct {
  Shape shapes[kMaxShapes];
  int numShapes;
  int bf16;
  int64_t d; // FA_HEAD_DIM
  uint64_t seed;
} Options;

static const char *const kDefaultShapes =
    "1x1x1,1x2x129,2x3x77@1,1x2x1000@8,1x1x2048,2x1x255@1";


static void usage(FILE *out) {
  fprintf(out,
          "usage: fa-host [options]   (calls " FA_NAME ", D = %d)\n"
          "  --shape=BxHxS[@OFFSET][,...]  problems; tensors start OFFSET "
          "elements\n"
          "                       into their allocations (default %s)\n"
          "  --dtype=f16|bf16     element type of the library (default %s)\n"
          "  --seed=N             input seed (default: a new one, printed)\n"
          "exit status: 0 pass, 1 wrong result, 2 error, 3 no GPU\n",
          FA_HEAD_DIM, kDefaultShapes,
#ifdef FA_DTYPE_BF16
          "bf16"
#else
          "f16"
#endif
  );
}

static int parseShapes(const char *text, Options *o) {
  o->numShapes = 0;
  for (const char *p = text; *p;) {
    long long b, h, s, offset = 0;
    int used = 0, more = 0;
    if (o->numShapes == kMaxShapes ||
        sscanf(p, "%lldx%lldx%lld%n", &b, &h, &s, &used) != 3)
      goto bad;
    if (p[used] == '@' && sscanf(p + used + 1, "%lld%n", &offset, &more) == 1)
      used += 1 + more;
    if (b < 1 || h < 1 || s < 1 || b * h > 65535 || s > 65536 || offset < 0 ||
        offset > 4096 || (p[used] != ',' && p[used] != 0))
      goto bad;
    o->shapes[o->numShapes++] = (Shape){b, h, s, offset};
    p += used + (p[used] == ',');
  }
  if (o->numShapes > 0)
    return 1;
bad:
  fprintf(stderr,
          "error: bad shape list '%s' (BxHxS[@OFFSET],..., S up to "
          "65536, B H up to 65535, OFFSET up to 4096)\n",
          text);
  return 0;
}

static int parseOptions(int argc, char **argv, Options *o) {
  memset(o, 0, sizeof(*o));
#ifdef FA_DTYPE_BF16
  o->bf16 = 1;
#endif
  o->d = FA_HEAD_DIM;
  o->seed = (uint64_t)time(NULL) % 1000000;
  if (!parseShapes(kDefaultShapes, o))
    return 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      exit(kExitPass);
    } else if (!strncmp(a, "--shape=", 8) || !strncmp(a, "--shapes=", 9)) {
      if (!parseShapes(strchr(a, '=') + 1, o))
        return 0;
    } else if (!strcmp(a, "--dtype=f16") || !strcmp(a, "--dtype=bf16")) {
      o->bf16 = !strcmp(a, "--dtype=bf16");
    } else if (!strncmp(a, "--seed=", 7)) {
      char *end;
      o->seed = strtoull(a + 7, &end, 10);
      if (*end || !a[7]) {
        fprintf(stderr, "error: bad seed '%s'\n", a + 7);
        return 0;
      }
    } else {
      fprintf(stderr, "error: bad argument '%s'\n", a);
      usage(stderr);
      return 0;
    }
  }
  return 1;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

enum { kQ, kK, kV, kO, kNumTensors };

/// The device work of one problem; all of it freed by release().
typedef struct {
  TileRtContext *ctx;
  int64_t bh, s, d, offset;
  size_t count;                      // elements of one tensor: BH S D
  TileRtDevicePtr base[kNumTensors]; // allocations: offset + count elements
  uint16_t *host[kNumTensors];       // Q, K, V; O's whole allocation
  tile_memref_3d view[kNumTensors];  // the tensors, `offset` elements in
} Problem;

static void release(Problem *p) {
  for (int t = 0; t < kNumTensors; ++t) {
    tileRtFree(p->ctx, p->base[t]);
    free(p->host[t]);
    p->base[t] = 0;
    p->host[t] = NULL;
  }
}

#define RT(call)                                                               \
  do {                                                                         \
    if ((call) != TILE_RT_SUCCESS) {                                           \
      printf("error: %s\n", tileRtLastError(p->ctx));                          \
      return 0;                                                                \
    }                                                                          \
  } while (0)

/// Allocates the four tensors (V with `sV` rows: S + 1 for the error path),
/// fills Q, K, V and poisons O's allocation; waits for all of it.
static int prepare(Problem *p, Shape s, int64_t d, int64_t sV, int bf16,
                   uint64_t *state) {
  p->bh = s.b * s.h;
  p->s = s.s;
  p->d = d;
  p->offset = s.offset;
  p->count = (size_t)p->bh * (size_t)s.s * (size_t)d;
  for (int t = 0; t < kNumTensors; ++t) {
    int64_t rows = t == kV ? sV : s.s;
    size_t count = (size_t)p->bh * (size_t)rows * (size_t)d;
    size_t alloc = count + (size_t)s.offset;
    p->host[t] = malloc(alloc * 2);
    if (!p->host[t]) {
      printf("error: out of host memory\n");
      return 0;
    }
    RT(tileRtMalloc(p->ctx, alloc * 2, &p->base[t]));
    if (t == kO) {
      RT(tileRtMemsetD16(p->ctx, p->base[t], kPoison, alloc));
    } else {
      fillRandom(p->host[t], count, t == kV ? 1.0 : 2.0, bf16, state);
      RT(tileRtMemcpyHtoD(p->ctx, p->base[t] + (size_t)s.offset * 2, p->host[t],
                          count * 2));
    }
    void *data = (void *)(uintptr_t)(p->base[t] + (size_t)s.offset * 2);
    tile_memref_3d view = {data, data, 0, {p->bh, rows, d}, {rows * d, d, 1}};
    p->view[t] = view;
  }
  RT(tileRtSynchronize(p->ctx));
  return 1;
}

/// Synchronizes and copies O's whole allocation back.
static int finish(Problem *p) {
  RT(tileRtSynchronize(p->ctx));
  RT(tileRtMemcpyDtoH(p->ctx, p->host[kO], p->base[kO],
                      (p->count + (size_t)p->offset) * 2));
  return 1;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// Row `i` of head `bh` of the fp64 reference into `out[d]`; `scores` has
/// room for S doubles.
static void referenceRow(const Problem *p, int bf16, int64_t bh, int64_t i,
                         double *scores, double *out) {
  const int64_t S = p->s, D = p->d;
  const size_t head = (size_t)bh * (size_t)S * (size_t)D;
  const uint16_t *q = p->host[kQ] + head + (size_t)i * D;
  const double scale = 1.0 / sqrt((double)D);
#ifdef FA_CAUSAL
  const int64_t keys = i + 1; // k <= q
#else
  const int64_t keys = S;
#endif
  double maxScore = -INFINITY;
  for (int64_t j = 0; j < keys; ++j) {
    const uint16_t *k = p->host[kK] + head + (size_t)j * D;
    double dot = 0;
    for (int64_t c = 0; c < D; ++c)
      dot += (double)toFloat(bf16, q[c]) * toFloat(bf16, k[c]);
    scores[j] = dot * scale;
    maxScore = fmax(maxScore, scores[j]);
  }
  double sum = 0;
  for (int64_t c = 0; c < D; ++c)
    out[c] = 0;
  for (int64_t j = 0; j < keys; ++j) {
    double w = exp(scores[j] - maxScore);
    const uint16_t *v = p->host[kV] + head + (size_t)j * D;
    sum += w;
    for (int64_t c = 0; c < D; ++c)
      out[c] += w * toFloat(bf16, v[c]);
  }
  for (int64_t c = 0; c < D; ++c)
    out[c] /= sum;
}

/// O against the reference. Tolerances: the kernel rounds the
/// probabilities to the element type before P V (relative error 2^-11 in
/// f16, 2^-8 in bf16, so at most that times max|V| = 1 per output), hence
/// atol twice that; rtol is 2 ulps of the output type at the bottom of a
/// binade; the norm bounds are tile-fa-bench's (f16) and tile-gemm-bench's
/// (bf16). Returns 1 if it passes.
static int compare(const Problem *p, int bf16, uint64_t *state) {
  const double atol = bf16 ? 0x1.0p-7 : 0x1.0p-10;
  const double rtol = bf16 ? 0x1.0p-6 : 0x1.0p-9;
  const double normTol = bf16 ? 8e-3 : 1e-3;
  const int64_t S = p->s, D = p->d;
  int full = (double)p->bh * S * S * D <= 2147483648.0;
  double *scores = malloc((size_t)S * sizeof(double));
  double ref[FA_HEAD_DIM];
  if (!scores) {
    printf("error: out of host memory\n");
    return 0;
  }
  const uint16_t *o = p->host[kO] + p->offset;
  size_t unwritten = 0, outside = 0, bad = 0, checked = 0;
  for (size_t e = 0; e < p->count; ++e)
    unwritten += o[e] == kPoison;
  for (int64_t e = 0; e < p->offset; ++e)
    outside += p->host[kO][e] != kPoison;
  double maxAbs = 0, sumSqDiff = 0, sumSqRef = 0;
  for (int64_t bh = 0; bh < p->bh; ++bh) {
    int64_t rows = full ? S : S < kSampledRows ? S : kSampledRows;
    for (int64_t r = 0; r < rows; ++r) {
      // Sampled: the first two and last two rows, the others at random.
      int64_t i = r;
      if (!full && r >= 2)
        i = r >= kSampledRows - 2 ? S - (kSampledRows - r)
                                  : (int64_t)(splitmix64(state) % (uint64_t)S);
      referenceRow(p, bf16, bh, i, scores, ref);
      const uint16_t *row = o + ((size_t)bh * S + (size_t)i) * D;
      for (int64_t c = 0; c < D; ++c) {
        double diff = fabs(toFloat(bf16, row[c]) - ref[c]);
        if (!(diff <= atol + rtol * fabs(ref[c])))
          ++bad; // NaN (unwritten) too
        if (isfinite(diff)) {
          maxAbs = fmax(maxAbs, diff);
          sumSqDiff += diff * diff;
        }
        sumSqRef += ref[c] * ref[c];
        ++checked;
      }
    }
  }
  free(scores);
  double normRel = sqrt(sumSqDiff / (sumSqRef > 0 ? sumSqRef : 1));
  int pass = unwritten == 0 && outside == 0 && bad == 0 && normRel <= normTol;
  printf("    vs CPU fp64 (%s, %zu elements): max abs err %.3e, norm rel "
         "err %.3e, %zu out of tolerance, %zu unwritten, %zu written before "
         "the view: %s%s\n",
         full ? "all rows" : "16 rows per head", checked, maxAbs, normRel, bad,
         unwritten, outside, pass ? "PASS" : "FAIL",
         pass ? "" : " (is --dtype the library's element type?)");
  return pass;
}

/// One shape: 1 pass, 0 wrong, -1 error.
static int checkShape(TileRtContext *ctx, Shape s, const Options *o,
                      uint64_t *state) {
  Problem p = {.ctx = ctx};
  int result = -1;
  if (!prepare(&p, s, o->d, s.s, o->bf16, state))
    goto done;
  double start = now();
  FA_FUNCTION(&p.view[kQ], &p.view[kK], &p.view[kV], &p.view[kO]);
  double returned = now();
  if (tileRtGetError()) {
    printf("error: %s\n", tileRtGetErrorMessage());
    goto done;
  }
  if (!finish(&p))
    goto done;
  double synced = now();
  printf(FA_NAME " B=%" PRId64 " H=%" PRId64 " S=%" PRId64 " D=%" PRId64
                 " %s, views at offset %" PRId64 ": the call returned after "
                 "%.1f us, the synchronization after %.3f ms\n",
         s.b, s.h, s.s, o->d, o->bf16 ? "bf16" : "f16", s.offset,
         (returned - start) * 1e6, (synced - start) * 1e3);
  result = compare(&p, o->bf16, state);
done:
  release(&p);
  return result;
}

/// V with S + 1 rows: an argument error naming the function and argument
/// #2, and O untouched after a synchronization. 1 pass, 0 wrong, -1 error.
static int checkMismatch(TileRtContext *ctx, const Options *o,
                         uint64_t *state) {
  Shape s = {1, 2, 100, 0};
  Problem p = {.ctx = ctx};
  int result = -1;
  if (!prepare(&p, s, o->d, s.s + 1, o->bf16, state))
    goto done;
  FA_FUNCTION(&p.view[kQ], &p.view[kK], &p.view[kV], &p.view[kO]);
  int status = tileRtGetError();
  char message[512];
  snprintf(message, sizeof(message), "%s", tileRtGetErrorMessage());
  tileRtClearError(); // (sticky: it would fail the synchronization)
  printf("mismatched shapes: " FA_NAME "(Q, K [2, 100, %" PRId64 "], V [2, "
         "101, %" PRId64 "], O): status %d (%s): %s\n",
         o->d, o->d, status, tileRtErrorString(status), message);
  if (!finish(&p))
    goto done;
  size_t untouched = 0;
  for (size_t e = 0; e < p.count; ++e)
    untouched += p.host[kO][e] == kPoison;
  int named = strstr(message, FA_NAME ": ") == message &&
              strstr(message, "argument #2") != NULL;
  result =
      status == TILE_RT_ERROR_INVALID_ARGUMENT && named && untouched == p.count;
  printf("    nothing launched: %zu of %zu elements of O still NaN after a "
         "synchronization: %s\n",
         untouched, p.count, result ? "PASS" : "FAIL");
done:
  release(&p);
  return result;
}

//===----------------------------------------------------------------------===//
// Without a GPU
//===----------------------------------------------------------------------===//

/// The argument check needs no device: a mismatched call fails before the
/// driver is used, the descriptors' data is never touched (placeholders
/// here). A well-formed call then reports why the kernels are missing.
static int withoutGPU(const Options *o) {
  static uint16_t placeholder[8];
  const int64_t s = 100, d = o->d;
  tile_memref_3d t = {placeholder, placeholder, 0, {2, s, d}, {s * d, d, 1}};
  tile_memref_3d v = t;
  v.sizes[1] = s + 1;
  FA_FUNCTION(&t, &t, &v, &t);
  int status = tileRtGetError();
  printf("mismatched shapes: " FA_NAME "(Q, K [2, 100, %" PRId64 "], V [2, "
         "101, %" PRId64 "], O): status %d (%s): %s\n",
         d, d, status, tileRtErrorString(status), tileRtGetErrorMessage());
  FA_FUNCTION(&t, &t, &t, &t);
  status = tileRtGetError();
  printf("well-formed call: status %d: %s\n", status, tileRtGetErrorMessage());
  printf("no GPU: compiled and linked only, nothing ran (exit status %d)\n",
         kExitNoGPU);
  return kExitNoGPU;
}

//===----------------------------------------------------------------------===//
// Main
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  Options o;
  if (!parseOptions(argc, argv, &o))
    return kExitError;

  TileRtContext *ctx = NULL;
  if (tileRtInit(&ctx, 0) != TILE_RT_SUCCESS) {
    printf("no GPU: %s\n", tileRtLastError(NULL));
    return withoutGPU(&o);
  }
  char device[256] = "?";
  tileRtDeviceName(ctx, device, sizeof(device));
  printf("device: %s; " FA_NAME ", D=%" PRId64 ", %s; seed %" PRIu64
         " (--seed=%" PRIu64 " repeats this run)\n",
         device, o.d, o.bf16 ? "bf16" : "f16", o.seed, o.seed);

  uint64_t state = o.seed;
  int passed = 0, failed = 0, errors = 0;
  int mismatch = checkMismatch(ctx, &o, &state);
  errors += mismatch < 0;
  for (int i = 0; i < o.numShapes && !errors; ++i) {
    int result = checkShape(ctx, o.shapes[i], &o, &state);
    passed += result == 1;
    failed += result == 0;
    errors += result < 0;
  }
  printf("fa-host: %d of %d shapes pass, %d fail, %d error(s); error path: "
         "%s\n",
         passed, o.numShapes, failed, errors,
         mismatch == 1   ? "PASS"
         : mismatch == 0 ? "FAIL"
                         : "error");
  tileRtDestroy(ctx);
  if (errors)
    return kExitError;
  return failed || mismatch != 1 ? kExitWrong : kExitPass;
}
