//===- runtime_errors.c - TileRuntime without a GPU ---------------*- C -*-===//
//
// Checks the parts of TileRuntime that need no GPU: status strings, errors
// when the CUDA driver cannot be loaded (TILE_RT_LIBCUDA points to a missing
// file) or is a stub (driver-stub.test), argument checks, memref descriptor
// parameters and the f16/bf16 conversions. The program exits 1 on any failed
// check.
//
//===----------------------------------------------------------------------===//

// clang-format off
// RUN: env TILE_RT_LIBCUDA=/nonexistent/libcuda.so.1 tile-runtime-errors-test | FileCheck %s
// Whatever driver this machine has, initialization succeeds or fails cleanly.
// RUN: env -u TILE_RT_LIBCUDA tile-runtime-errors-test --init-only | FileCheck %s --check-prefix=DEFAULT

// CHECK: status 0: success
// CHECK-NEXT: status -1: libcuda.so.1 not found
// CHECK-NEXT: status -2: CUDA driver function not found in libcuda.so.1
// CHECK-NEXT: status -3: invalid argument
// CHECK-NEXT: status -4: file I/O error
// CHECK-NEXT: status -5: out of host memory
// CHECK-NEXT: status -6: parameter array too small
// CHECK-NEXT: status -99: unknown tile runtime error
// CHECK-NEXT: status 34: CUDA_ERROR_STUB_LIBRARY
// CHECK-NEXT: status 700: CUDA_ERROR_ILLEGAL_ADDRESS
// CHECK-NEXT: status 12345: CUDA error 12345

// CHECK: tileRtInit: status -1, ctx NULL, error: libcuda.so.1 not found (dlopen("/nonexistent/libcuda.so.1"): {{.*}}); is the NVIDIA driver installed?
// CHECK-NEXT: tileRtInit again: status -1, error: libcuda.so.1 not found
// CHECK-NEXT: tileRtDeviceCount: status -1, count 0
// CHECK-NEXT: tileRtDriverVersion: status -1
// CHECK-NEXT: tileRtInit(NULL): status -3, error: tileRtInit: NULL context pointer: invalid argument

// CHECK: tileRtMalloc: status -3, error: tileRtMalloc: NULL context: invalid argument
// CHECK-NEXT: tileRtModuleLoadFile: status -3, error: tileRtModuleLoadFile: NULL context: invalid argument
// CHECK-NEXT: tileRtGetFunction: status -3, error: tileRtGetFunction: NULL module: invalid argument
// CHECK-NEXT: tileRtLaunch: status -3, error: tileRtLaunch: NULL function: invalid argument
// CHECK-NEXT: tileRtEventCreate: status -3
// CHECK-NEXT: tileRtSynchronize: status -3
// CHECK-NEXT: tileRtDestroy(NULL): status 0
// CHECK-NEXT: tileRtModuleUnload(NULL): status 0

// CHECK: memref params: 14, A = {0x1000, 0x1000, 0, [3, 5], [5, 1]}, B = {0x2000, 0x2000, 0, [5, 7], [7, 1]}
// CHECK-NEXT: memref capacity: status -6, count 14, error: tileRtMemRefArgs2D: 14 parameters already, room for 20: parameter array too small
// CHECK-NEXT: memref negative: status -3

// CHECK: f16 conversions: ok
// CHECK-NEXT: bf16 conversions: ok
// CHECK-NEXT: {{[0-9]+}} checks, 0 failures

// DEFAULT: tileRtInit: {{(ok|status -1, libcuda.so.1 not found.*|status [1-9][0-9]*, .+)}}
// clang-format on

#include "tile_runtime.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int checks, failures;

static void check(int cond, const char *what) {
  ++checks;
  if (!cond) {
    ++failures;
    printf("FAILED: %s\n", what);
  }
}

static void printStatus(int status) {
  printf("status %d: %s\n", status, tileRtErrorString(status));
}

static void testStatusStrings(void) {
  const int statuses[] = {0, -1, -2, -3, -4, -5, -6, -99, 34, 700, 12345};
  for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); ++i)
    printStatus(statuses[i]);
}

static void testMissingDriver(void) {
  TileRtContext *ctx = (TileRtContext *)1;
  int status = tileRtInit(&ctx, 0);
  printf("tileRtInit: status %d, ctx %s, error: %s\n", status,
         ctx ? "set" : "NULL", tileRtLastError(NULL));
  check(status == TILE_RT_ERROR_DRIVER_NOT_FOUND && !ctx, "init fails");

  status = tileRtInit(&ctx, 0);
  printf("tileRtInit again: status %d, error: %s\n", status,
         tileRtErrorString(status));

  int count = 7;
  status = tileRtDeviceCount(&count);
  printf("tileRtDeviceCount: status %d, count %d\n", status, count);
  check(status != 0 && count == 0, "device count");

  int version = 0;
  status = tileRtDriverVersion(&version);
  printf("tileRtDriverVersion: status %d\n", status);

  status = tileRtInit(NULL, 0);
  printf("tileRtInit(NULL): status %d, error: %s\n", status,
         tileRtLastError(NULL));
  check(status == TILE_RT_ERROR_INVALID_ARGUMENT, "init NULL");
}

static void testNullArguments(void) {
  TileRtDevicePtr ptr = 1;
  int status = tileRtMalloc(NULL, 16, &ptr);
  printf("tileRtMalloc: status %d, error: %s\n", status, tileRtLastError(NULL));
  check(status == TILE_RT_ERROR_INVALID_ARGUMENT, "malloc NULL ctx");

  TileRtModule *module = NULL;
  status = tileRtModuleLoadFile(NULL, "x.cubin", &module);
  printf("tileRtModuleLoadFile: status %d, error: %s\n", status,
         tileRtLastError(NULL));

  TileRtFunction *fn = NULL;
  status = tileRtGetFunction(NULL, "gemm_kernel", &fn);
  printf("tileRtGetFunction: status %d, error: %s\n", status,
         tileRtLastError(NULL));

  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  status = tileRtLaunch(NULL, grid, block, 0, NULL);
  printf("tileRtLaunch: status %d, error: %s\n", status, tileRtLastError(NULL));

  TileRtEvent *event = NULL;
  printf("tileRtEventCreate: status %d\n", tileRtEventCreate(NULL, &event));
  printf("tileRtSynchronize: status %d\n", tileRtSynchronize(NULL));
  printf("tileRtDestroy(NULL): status %d\n", tileRtDestroy(NULL));
  printf("tileRtModuleUnload(NULL): status %d\n", tileRtModuleUnload(NULL));
}

static void printMemRef(const char *name, const TileRtMemRef2D *d) {
  printf("%s = {0x%" PRIx64 ", 0x%" PRIx64 ", %" PRId64 ", [%" PRId64
         ", %" PRId64 "], [%" PRId64 ", %" PRId64 "]}",
         name, d->allocated, d->aligned, d->offset, d->sizes[0], d->sizes[1],
         d->strides[0], d->strides[1]);
}

static void testMemRefArgs(void) {
  TileRtMemRef2D a, b, c;
  void *params[20];
  size_t count = 0;
  check(tileRtMemRefArgs2D(&a, 0x1000, 3, 5, params, 20, &count) == 0,
        "memref A");
  check(tileRtMemRefArgs2D(&b, 0x2000, 5, 7, params, 20, &count) == 0,
        "memref B");
  printf("memref params: %zu, ", count);
  printMemRef("A", &a);
  printf(", ");
  printMemRef("B", &b);
  printf("\n");
  // The parameters point at the descriptor fields, in order.
  check(params[0] == &a.allocated && params[1] == &a.aligned &&
            params[2] == &a.offset && params[3] == &a.sizes[0] &&
            params[4] == &a.sizes[1] && params[5] == &a.strides[0] &&
            params[6] == &a.strides[1] && params[7] == &b.allocated &&
            params[13] == &b.strides[1],
        "memref param pointers");

  int status = tileRtMemRefArgs2D(&c, 0x3000, 1, 1, params, 20, &count);
  printf("memref capacity: status %d, count %zu, error: %s\n", status, count,
         tileRtLastError(NULL));
  check(status == TILE_RT_ERROR_CAPACITY && count == 14, "memref capacity");
  count = 0;
  status = tileRtMemRefArgs2D(&c, 0x3000, -1, 1, params, 20, &count);
  printf("memref negative: status %d\n", status);
  check(count == 0, "memref negative count");
}

static uint32_t bitsOf(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float floatOf(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

static void testConversions(void) {
  int ok = 1;
  // Every f16 converts to float exactly and back to itself (NaNs stay NaN).
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = tileRtHalfToFloat((uint16_t)h);
    uint16_t back = tileRtFloatToHalf(f);
    int isNaN = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    if (isNaN ? !isnan(f) || (back & 0x7fff) <= 0x7c00 : back != h)
      ok = 0;
  }
  // Known values and round to nearest even.
  ok &= tileRtHalfToFloat(0x3c00) == 1.0f;
  ok &= tileRtHalfToFloat(0xc000) == -2.0f;
  ok &= tileRtHalfToFloat(0x0001) == ldexpf(1.0f, -24);
  ok &= tileRtHalfToFloat(0x7bff) == 65504.0f;
  ok &= tileRtFloatToHalf(65519.0f) == 0x7bff;
  ok &= tileRtFloatToHalf(65520.0f) == 0x7c00;
  ok &= tileRtFloatToHalf(1.0f + ldexpf(1.0f, -11)) == 0x3c00; // tie to even
  ok &= tileRtFloatToHalf(1.0f + 3 * ldexpf(1.0f, -11)) == 0x3c02;
  ok &= tileRtFloatToHalf(ldexpf(1.0f, -25)) == 0x0000; // tie to even (0)
  ok &= tileRtFloatToHalf(ldexpf(1.5f, -25)) == 0x0001;
  ok &= tileRtFloatToHalf(ldexpf(1.0f, -14)) == 0x0400;
  ok &= tileRtFloatToHalf(-0.0f) == 0x8000;
  ok &= tileRtFloatToHalf(1e10f) == 0x7c00;
  printf("f16 conversions: %s\n", ok ? "ok" : "FAILED");
  check(ok, "f16 conversions");

  ok = 1;
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = tileRtBF16ToFloat((uint16_t)h);
    int isNaN = (h & 0x7f80) == 0x7f80 && (h & 0x7f);
    uint16_t back = tileRtFloatToBF16(f);
    if (bitsOf(f) != h << 16 ||
        (isNaN ? !isnan(floatOf((uint32_t)back << 16)) : back != h))
      ok = 0;
  }
  ok &= tileRtFloatToBF16(1.0f) == 0x3f80;
  ok &= tileRtFloatToBF16(floatOf(0x3f808000)) == 0x3f80; // tie to even
  ok &= tileRtFloatToBF16(floatOf(0x3f818000)) == 0x3f82; // tie to even
  ok &= tileRtFloatToBF16(floatOf(0x3f808001)) == 0x3f81;
  ok &= tileRtFloatToBF16(floatOf(0x7f7fffff)) == 0x7f80; // rounds to inf
  ok &= isnan(tileRtBF16ToFloat(tileRtFloatToBF16(NAN)));
  printf("bf16 conversions: %s\n", ok ? "ok" : "FAILED");
  check(ok, "bf16 conversions");
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--init-only") == 0) {
    TileRtContext *ctx = NULL;
    int status = tileRtInit(&ctx, 0);
    if (status == TILE_RT_SUCCESS)
      printf("tileRtInit: ok\n");
    else
      printf("tileRtInit: status %d, %s\n", status, tileRtLastError(NULL));
    return tileRtDestroy(ctx) == TILE_RT_SUCCESS ? 0 : 1;
  }
  testStatusStrings();
  testMissingDriver();
  testNullArguments();
  testMemRefArgs();
  testConversions();
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
