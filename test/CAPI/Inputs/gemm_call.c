// A C host of the AOT-compiled examples/gemm.mlir (host_aot.test): calls
// gemm(&A, &B, &C) with operands in host memory. Without a GPU, the call
// reports the runtime's error; operands that disagree are reported first,
// naming the function and the argument, before anything is launched.
#include "gemm.h"
#include "tile_runtime.h"

#include <stdint.h>
#include <stdio.h>

static tile_memref_2d view(void *data, int64_t rows, int64_t cols) {
  tile_memref_2d d = {data, data, 0, {rows, cols}, {cols, 1}};
  return d;
}

static int report(const char *what) {
  int status = tileRtGetError();
  printf("%s: status %d: %s\n", what, status, tileRtGetErrorMessage());
  return status;
}

int main(void) {
  // 16-byte aligned: the call takes the TMA kernel (its tensor maps are
  // made first, so their failure is the error reported).
  static _Alignas(16) uint16_t a[64 * 32], b[32 * 48], c[64 * 48];
  tile_memref_2d A = view(a, 64, 32), B = view(b, 32, 48), C = view(c, 64, 48);
  gemm(&A, &B, &C);
  int fine = report("call");

  tile_memref_2d shortB = view(b, 31, 48);
  gemm(&A, &shortB, &C);
  int mismatch = report("mismatched K");

  tile_memref_2d narrowC = view(c, 64, 47);
  gemm(&A, &B, &narrowC);
  report("mismatched N");

  tile_memref_2d nullA = view(NULL, 64, 32);
  gemm(&nullA, &B, &C);
  report("null A");

  // No descriptor at all: an error, not a crash.
  gemm(NULL, &B, &C);
  report("null descriptor A");
  gemm(&A, &B, NULL);
  report("null descriptor C");

  tile_memref_2d badStride = view(b, 32, 48);
  badStride.strides[0] = 0;
  gemm(&A, &badStride, &C);
  report("zero stride");

  // Negative sizes, even consistent ones, are errors (K = -32 made 2^59
  // K steps; M = INT64_MIN an unbounded grid).
  tile_memref_2d negA = {a, a, 0, {64, -32}, {32, 1}};
  tile_memref_2d negB = {b, b, 0, {-32, 48}, {48, 1}};
  gemm(&negA, &negB, &C);
  report("negative K");
  tile_memref_2d minA = {a, a, 0, {INT64_MIN, 32}, {32, 1}};
  tile_memref_2d minC = {c, c, 0, {INT64_MIN, 48}, {48, 1}};
  gemm(&minA, &B, &minC);
  report("M = INT64_MIN");

  // Sizes and strides whose products overflow: in elements, then in bytes
  // (63 * 2^57 elements fit in int64_t, twice as many bytes do not).
  tile_memref_2d wideA = view(a, 64, 32);
  wideA.strides[0] = INT64_MAX / 2;
  gemm(&wideA, &B, &C);
  report("stride overflow");
  tile_memref_2d farA = view(a, 64, 32);
  farA.strides[0] = INT64_C(1) << 57;
  gemm(&farA, &B, &C);
  report("byte overflow");

  // Empty: nothing to launch, no error even without a GPU.
  tile_memref_2d emptyA = view(NULL, 0, 32), emptyC = view(NULL, 0, 48);
  gemm(&emptyA, &B, &emptyC);
  int empty = report("empty");
  // An empty 64x0 C (and 32x0 B) with stride 0: legal, the grid is empty.
  tile_memref_2d emptyB = {b, b, 0, {32, 0}, {0, 1}};
  tile_memref_2d emptyN = {c, c, 0, {64, 0}, {0, 1}};
  gemm(&A, &emptyB, &emptyN);
  int emptyNStatus = report("empty N, stride 0");
  // K = 0 with stride 0: legal; C = A * B is all zeros, so the kernel
  // still runs (here it fails for want of a GPU, after the checks).
  tile_memref_2d emptyKA = {a, a, 0, {64, 0}, {0, 1}};
  tile_memref_2d emptyKB = {b, b, 0, {0, 48}, {0, 0}};
  gemm(&emptyKA, &emptyKB, &C);
  int emptyK = report("empty K, stride 0");

  // Errors are sticky until the next call or tileRtClearError.
  gemm(&A, &shortB, &C);
  tileRtClearError();
  report("cleared");
  return fine != 0 && mismatch == TILE_RT_ERROR_INVALID_ARGUMENT &&
                 empty == 0 && emptyNStatus == 0 &&
                 emptyK != TILE_RT_ERROR_INVALID_ARGUMENT
             ? 0
             : 1;
}
