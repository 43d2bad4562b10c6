//===- gemm_host.c - A C host of the compiled examples/gemm.mlir --*- C -*-===//
//
// The host side of examples/gemm.mlir, as a user writes it: plain C11 over
// the library tile-compile makes of the example and the tile runtime. The
// example's host function computes the grid and launches the kernel; this
// program only allocates, fills, calls gemm(&A, &B, &C) and checks. It knows
// no tile size, grid, kernel name or shared-memory size: the same binary
// runs a library compiled with other tiles (scripts/gemm-variant.py).
//
//   tile-compile examples/gemm.mlir -o libgemm.so --header gemm.h
//   cc -std=c11 -I. -I<tile>/runtime/include examples/gemm_host.c
//      -L. -lgemm -L<tile>/lib -ltile_cuda_runtime -lm -o gemm-host
//   ./gemm-host [--shape=MxNxK,...] [--dtype=f16|bf16] [--seed=N] [--stream]
//
// (<tile>: the tile-mlir source tree and build, or its installation; the
// cc line is one command.)
//
// (bench/CMakeLists.txt builds it as tile-gemm-host, against
// build/examples-aot/f16/libgemm.so; LD_LIBRARY_PATH=build/examples-aot/bf16
// runs the same binary on the bf16 library, with --dtype=bf16.)
//
// The element type: the header declares memref<?x?xf16> or memref<?x?xbf16>
// only in a comment (the C types are the same 16-bit words), so the host is
// told: --dtype, default f16, or bf16 when compiled with -DGEMM_DTYPE_BF16.
// A wrong --dtype shows up as a failed check.
//
// For each shape (default: odd and tiny ones, then about 1000^3): device
// buffers (tileRtMalloc), A and B filled with random values in [-1, 1] (from
// --seed; default: a new seed per run, printed), C poisoned with NaN, one
// call, tileRtGetError(), a synchronization, and C compared with a CPU fp64
// reference (every element up to M N K = 2^31, else 16 rows): within
// K 2^-20 + rtol |ref| (rtol 2^-6 for bf16, 2^-9 for f16, as
// tile-gemm-bench --check) and no NaN left. The call does not synchronize:
// the time it takes to return is printed next to the time to completion.
// --stream: the calls go to a stream of the host's own (tileRtSetStream)
// instead of the legacy default stream.
//
// First, the error path: a call whose B has K + 1 rows must fail with
// TILE_RT_ERROR_INVALID_ARGUMENT and a message naming gemm and argument #1,
// and leave the poisoned C untouched after a synchronization: nothing was
// launched.
//
// Exit status: 0 all checks pass; 1 a wrong result or a wrong error path;
// 2 a usage or runtime error; 3 no usable GPU (tileRtInit failed: the
// message says why). Without a GPU the argument check still runs (it needs
// no device) and the program exits 3: compiled and linked, nothing ran.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "gemm.h"
#include "tile_mgpu.h"
#include "tile_runtime.h"

#include "host_common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kExitPass = 0, kExitWrong = 1, kExitError = 2, kExitNoGPU = 3 };
enum { kMaxShapes = 64 };

typedef struct {
  int64_t m, n, k;
} Shape;

typedef struct {
  Shape shapes[kMaxShapes];
  int numShapes;
  int bf16;
  uint64_t seed;
  int stream;
} Options;

static const char *const kDefaultShapes =
    "1x1x1,7x5x3,1x300x70,300x1x70,64x48x1,129x65x33,255x257x300,"
    "1000x1000x1000,1024x1024x1024,2047x1025x513";


static void usage(FILE *out) {
  fprintf(out,
          "usage: gemm-host [options]\n"
          "  --shape=MxNxK[,...]  problem sizes (default %s)\n"
          "  --dtype=f16|bf16     element type of the library (default %s)\n"
          "  --seed=N             input seed (default: a new one, printed)\n"
          "  --stream             call on a stream of this program's own\n"
          "exit status: 0 pass, 1 wrong result, 2 error, 3 no GPU\n",
          kDefaultShapes,
#ifdef GEMM_DTYPE_BF16
          "bf16"
#else
          "f16"
#endif
  );
}

static int parseShapes(const char *text, Options *o) {
  o->numShapes = 0;
  for (const char *p = text; *p;) {
    long long m, n, k;
    int used = 0;
    if (o->numShapes == kMaxShapes ||
        sscanf(p, "%lldx%lldx%lld%n", &m, &n, &k, &used) != 3 || m < 1 ||
        n < 1 || k < 1 || m > 65536 || n > 65536 || k > 65536 ||
        (p[used] != ',' && p[used] != 0)) {
      fprintf(stderr, "error: bad shape list '%s' (MxNxK,..., each 1 to "
                      "65536)\n",
              text);
      return 0;
    }
    o->shapes[o->numShapes++] = (Shape){m, n, k};
    p += used + (p[used] == ',');
  }
  return o->numShapes > 0;
}

static int parseOptions(int argc, char **argv, Options *o) {
  memset(o, 0, sizeof(*o));
#ifdef GEMM_DTYPE_BF16
  o->bf16 = 1;
#endif
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
    } else if (!strcmp(a, "--stream")) {
      o->stream = 1;
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

/// A row-major rows x cols view of device memory at `ptr`.
static tile_memref_2d view(TileRtDevicePtr ptr, int64_t rows, int64_t cols) {
  void *data = (void *)(uintptr_t)ptr;
  tile_memref_2d d = {data, data, 0, {rows, cols}, {cols, 1}};
  return d;
}

/// The device work of one problem; all of it freed by release().
typedef struct {
  TileRtContext *ctx;
  void *stream; // NULL: the legacy default stream
  TileRtDevicePtr a, b, c;
  uint16_t *hostA, *hostB, *hostC;
} Buffers;

static void release(Buffers *buf) {
  tileRtFree(buf->ctx, buf->a);
  tileRtFree(buf->ctx, buf->b);
  tileRtFree(buf->ctx, buf->c);
  free(buf->hostA);
  free(buf->hostB);
  free(buf->hostC);
  buf->a = buf->b = buf->c = 0;
  buf->hostA = buf->hostB = buf->hostC = NULL;
}

#define RT(call)                                                               \
  do {                                                                         \
    if ((call) != TILE_RT_SUCCESS) {                                           \
      printf("error: %s\n", tileRtLastError(buf->ctx));                        \
      return 0;                                                                \
    }                                                                          \
  } while (0)

/// Allocates A (m x k), B (kB x n) and C (m x n), fills A and B with random
/// values and poisons C; waits for all of it (a stream of the host's own
/// does not wait for the legacy stream's copies).
static int prepare(Buffers *buf, int64_t m, int64_t n, int64_t k, int64_t kB,
                   int bf16, uint64_t *state) {
  size_t sizeA = (size_t)m * k, sizeB = (size_t)kB * n, sizeC = (size_t)m * n;
  buf->hostA = malloc(sizeA * 2);
  buf->hostB = malloc(sizeB * 2);
  buf->hostC = malloc(sizeC * 2);
  if (!buf->hostA || !buf->hostB || !buf->hostC) {
    printf("error: out of host memory\n");
    return 0;
  }
  fillRandom(buf->hostA, sizeA, 1.0, bf16, state);
  fillRandom(buf->hostB, sizeB, 1.0, bf16, state);
  RT(tileRtMalloc(buf->ctx, sizeA * 2, &buf->a));
  RT(tileRtMalloc(buf->ctx, sizeB * 2, &buf->b));
  RT(tileRtMalloc(buf->ctx, sizeC * 2, &buf->c));
  RT(tileRtMemcpyHtoD(buf->ctx, buf->a, buf->hostA, sizeA * 2));
  RT(tileRtMemcpyHtoD(buf->ctx, buf->b, buf->hostB, sizeB * 2));
  RT(tileRtMemsetD16(buf->ctx, buf->c, kPoison, sizeC));
  RT(tileRtSynchronize(buf->ctx));
  return 1;
}

/// Waits for the calls' stream (when it was, in `*synced`, if not NULL) and
/// copies C back.
static int finish(Buffers *buf, size_t sizeC, double *synced) {
  if (buf->stream) {
    mgpuStreamSynchronize(buf->stream);
    if (tileRtGetError()) {
      printf("error: %s\n", tileRtGetErrorMessage());
      return 0;
    }
  }
  RT(tileRtSynchronize(buf->ctx));
  if (synced)
    *synced = now();
  RT(tileRtMemcpyDtoH(buf->ctx, buf->hostC, buf->c, sizeC * 2));
  return 1;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// C against a CPU fp64 reference: all rows, or 16 rows (the first two,
/// the last two and 12 random ones) when M N K > 2^31. Returns 1 if it
/// passes.
static int compare(const Buffers *buf, Shape s, int bf16, uint64_t *state) {
  int full = (double)s.m * s.n * s.k <= 2147483648.0;
  int64_t rows[16] = {0, 1, s.m - 2, s.m - 1};
  for (int i = 0; i < 16; ++i) {
    if (i >= 4)
      rows[i] = (int64_t)(splitmix64(state) % (uint64_t)s.m);
    rows[i] = rows[i] < 0 ? 0 : rows[i] >= s.m ? s.m - 1 : rows[i];
  }
  double *ref = malloc((size_t)s.n * sizeof(double));
  float *b = malloc((size_t)s.k * s.n * sizeof(float));
  if (!ref || !b) {
    free(ref);
    free(b);
    printf("error: out of host memory\n");
    return 0;
  }
  for (size_t i = 0; i < (size_t)s.k * s.n; ++i)
    b[i] = toFloat(bf16, buf->hostB[i]);
  double rtol = bf16 ? 0x1.0p-6 : 0x1.0p-9, atol = (double)s.k * 0x1.0p-20;
  double maxAbs = 0, sumSqDiff = 0, sumSqRef = 0;
  size_t bad = 0, unwritten = 0, checked = 0;
  for (size_t i = 0; i < (size_t)s.m * s.n; ++i)
    unwritten += buf->hostC[i] == kPoison;
  for (int64_t r = 0; r < (full ? s.m : 16); ++r) {
    int64_t i = full ? r : rows[r];
    for (int64_t j = 0; j < s.n; ++j)
      ref[j] = 0;
    for (int64_t k = 0; k < s.k; ++k) {
      double a = toFloat(bf16, buf->hostA[i * s.k + k]);
      const float *bRow = b + k * s.n;
      for (int64_t j = 0; j < s.n; ++j)
        ref[j] += a * bRow[j];
    }
    for (int64_t j = 0; j < s.n; ++j) {
      double diff = fabs(toFloat(bf16, buf->hostC[i * s.n + j]) - ref[j]);
      if (!(diff <= atol + rtol * fabs(ref[j])))
        ++bad; // NaN (unwritten) too
      if (isfinite(diff)) {
        maxAbs = fmax(maxAbs, diff);
        sumSqDiff += diff * diff;
      }
      sumSqRef += ref[j] * ref[j];
      ++checked;
    }
  }
  free(ref);
  free(b);
  double normRel = sqrt(sumSqDiff / (sumSqRef > 0 ? sumSqRef : 1));
  int pass =
      unwritten == 0 && bad == 0 && normRel <= (bf16 ? 8e-3 : 1e-3);
  printf("    vs CPU fp64 (%s, %zu elements): max abs err %.3e, norm rel "
         "err %.3e, %zu out of tolerance, %zu unwritten: %s%s\n",
         full ? "all rows" : "16 rows", checked, maxAbs, normRel, bad,
         unwritten, pass ? "PASS" : "FAIL",
         pass ? "" : " (is --dtype the library's element type?)");
  return pass;
}

/// One shape: 1 pass, 0 wrong, -1 error.
static int checkShape(TileRtContext *ctx, void *stream, Shape s, int bf16,
                      uint64_t *state) {
  Buffers buf = {ctx, stream, 0, 0, 0, NULL, NULL, NULL};
  int result = -1;
  if (!prepare(&buf, s.m, s.n, s.k, s.k, bf16, state))
    goto done;
  tile_memref_2d A = view(buf.a, s.m, s.k), B = view(buf.b, s.k, s.n),
                 C = view(buf.c, s.m, s.n);
  double start = now();
  gemm(&A, &B, &C);
  double returned = now();
  if (tileRtGetError()) {
    printf("error: %s\n", tileRtGetErrorMessage());
    goto done;
  }
  double synced = 0;
  if (!finish(&buf, (size_t)s.m * s.n, &synced))
    goto done;
  printf("gemm %" PRId64 "x%" PRId64 "x%" PRId64 " %s: the call returned "
         "after %.1f us, the synchronization after %.3f ms\n",
         s.m, s.n, s.k, bf16 ? "bf16" : "f16", (returned - start) * 1e6,
         (synced - start) * 1e3);
  result = compare(&buf, s, bf16, state);
done:
  release(&buf);
  return result;
}

/// B with K + 1 rows: an argument error naming gemm and argument #1, and
/// C untouched after a synchronization. 1 pass, 0 wrong, -1 error.
static int checkMismatch(TileRtContext *ctx, void *stream, int bf16,
                         uint64_t *state) {
  const int64_t m = 64, n = 48, k = 32;
  Buffers buf = {ctx, stream, 0, 0, 0, NULL, NULL, NULL};
  int result = -1;
  if (!prepare(&buf, m, n, k, k + 1, bf16, state))
    goto done;
  tile_memref_2d A = view(buf.a, m, k), B = view(buf.b, k + 1, n),
                 C = view(buf.c, m, n);
  gemm(&A, &B, &C);
  int status = tileRtGetError();
  char message[512];
  snprintf(message, sizeof(message), "%s", tileRtGetErrorMessage());
  tileRtClearError(); // (sticky: it would fail the stream's synchronization)
  printf("mismatched shapes: gemm(A %" PRId64 "x%" PRId64 ", B %" PRId64
         "x%" PRId64 ", C %" PRId64 "x%" PRId64 "): status %d (%s): %s\n",
         m, k, k + 1, n, m, n, status, tileRtErrorString(status), message);
  if (!finish(&buf, (size_t)m * n, NULL))
    goto done;
  size_t untouched = 0;
  for (size_t i = 0; i < (size_t)m * n; ++i)
    untouched += buf.hostC[i] == kPoison;
  int named = strstr(message, "gemm: ") == message &&
              strstr(message, "argument #1") != NULL;
  result = status == TILE_RT_ERROR_INVALID_ARGUMENT && named &&
           untouched == (size_t)m * n;
  printf("    nothing launched: %zu of %zu elements of C still NaN after a "
         "synchronization: %s\n",
         untouched, (size_t)m * n, result ? "PASS" : "FAIL");
done:
  release(&buf);
  return result;
}

//===----------------------------------------------------------------------===//
// Without a GPU
//===----------------------------------------------------------------------===//

/// The argument check needs no device: a mismatched call fails before the
/// driver is used, the descriptors' data is never touched (placeholders
/// here). A well-formed call then reports why the kernels are missing.
static int withoutGPU(void) {
  static uint16_t placeholder[4096];
  tile_memref_2d A = {placeholder, placeholder, 0, {64, 32}, {32, 1}};
  tile_memref_2d B = {placeholder, placeholder, 0, {33, 48}, {48, 1}};
  tile_memref_2d C = {placeholder, placeholder, 0, {64, 48}, {48, 1}};
  gemm(&A, &B, &C);
  int status = tileRtGetError();
  char message[512];
  snprintf(message, sizeof(message), "%s", tileRtGetErrorMessage());
  printf("mismatched shapes: gemm(A 64x32, B 33x48, C 64x48): status %d "
         "(%s): %s\n",
         status, tileRtErrorString(status), message);
  // A well-formed call: without a GPU its kernel cannot load (the library
  // loads kernels at their first launch), so nothing launches either.
  B.sizes[0] = 32;
  gemm(&A, &B, &C);
  status = tileRtGetError();
  printf("well-formed call: status %d: %s\n", status,
         tileRtGetErrorMessage());
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
    return withoutGPU();
  }
  char device[256] = "?";
  tileRtDeviceName(ctx, device, sizeof(device));
  printf("device: %s; %s; seed %" PRIu64 " (--seed=%" PRIu64
         " repeats this run)\n",
         device, o.bf16 ? "bf16" : "f16", o.seed, o.seed);

  void *stream = NULL;
  if (o.stream) {
    stream = mgpuStreamCreate();
    if (!stream) {
      printf("error: %s\n", tileRtGetErrorMessage());
      tileRtDestroy(ctx);
      return kExitError;
    }
    tileRtSetStream(stream);
    printf("calls on a stream of this program's (tileRtSetStream)\n");
  }

  uint64_t state = o.seed;
  int passed = 0, failed = 0, errors = 0;
  int mismatch = checkMismatch(ctx, stream, o.bf16, &state);
  errors += mismatch < 0;
  for (int i = 0; i < o.numShapes && !errors; ++i) {
    int result = checkShape(ctx, stream, o.shapes[i], o.bf16, &state);
    passed += result == 1;
    failed += result == 0;
    errors += result < 0;
  }
  printf("gemm-host: %d of %d shapes pass, %d fail, %d error(s); error path: "
         "%s\n",
         passed, o.numShapes, failed, errors,
         mismatch == 1 ? "PASS" : mismatch == 0 ? "FAIL" : "error");

  if (stream) {
    tileRtSetStream(NULL);
    mgpuStreamDestroy(stream);
  }
  tileRtDestroy(ctx);
  if (errors)
    return kExitError;
  return failed || mismatch != 1 ? kExitWrong : kExitPass;
}
