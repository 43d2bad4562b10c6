//===- runtime_gpu.c - TileRuntime on a GPU -----------------------*- C -*-===//
//
// Exercises TileRuntime on a real GPU: device queries, loading PTX (JIT) and
// reporting JIT errors, kernel lookup, launches with memref descriptor
// parameters and with more than 48 KiB of dynamic shared memory, memory
// copies and sets, events, and launch errors. The kernels are in
// Inputs/runtime_kernels.cu; their PTX is embedded below. Prints one line per
// check group and exits 1 on any failure.
//
//===----------------------------------------------------------------------===//

// REQUIRES: cuda-gpu
// RUN: tile-runtime-gpu-test | FileCheck %s

// CHECK: device: {{.+}}, sm_{{[0-9]+}}, {{[0-9]+}} SMs
// CHECK: missing kernel: status 500
// CHECK: bad PTX: status 218
// CHECK: missing file: status -4
// CHECK: fill_memref: ok
// CHECK: shared_sum 16 KiB: ok
// CHECK: shared_sum 64 KiB: ok
// CHECK: shared_sum 200 KiB: ok
// CHECK: shared_sum_static 48 KiB + 64 B static: ok
// CHECK: shared_sum too much: status 1
// CHECK: memset and copies: ok
// CHECK: bad launch: status 1
// CHECK: events: ok
// CHECK: {{[0-9]+}} checks, 0 failures

#include "tile_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// clang-format off
static const char *kPtx =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "  // .globl  fill_memref\n"
    ".extern .shared .align 16 .b8 smem[];\n"
    ".visible .entry fill_memref(\n"
    "  .param .u64 fill_memref_param_0,\n"
    "  .param .u64 fill_memref_param_1,\n"
    "  .param .u64 fill_memref_param_2,\n"
    "  .param .u64 fill_memref_param_3,\n"
    "  .param .u64 fill_memref_param_4,\n"
    "  .param .u64 fill_memref_param_5,\n"
    "  .param .u64 fill_memref_param_6\n"
    ")\n"
    "{\n"
    "  .reg .pred   %p<4>;\n"
    "  .reg .f32   %f<2>;\n"
    "  .reg .b32   %r<7>;\n"
    "  .reg .b64   %rd<22>;\n"
    "  ld.param.u64   %rd3, [fill_memref_param_1];\n"
    "  ld.param.u64   %rd4, [fill_memref_param_2];\n"
    "  ld.param.u64   %rd7, [fill_memref_param_3];\n"
    "  ld.param.u64   %rd8, [fill_memref_param_4];\n"
    "  ld.param.u64   %rd5, [fill_memref_param_5];\n"
    "  ld.param.u64   %rd6, [fill_memref_param_6];\n"
    "  mov.u32   %r1, %ctaid.y;\n"
    "  mov.u32   %r2, %ntid.y;\n"
    "  mul.wide.u32   %rd9, %r1, %r2;\n"
    "  mov.u32   %r3, %tid.y;\n"
    "  cvt.u64.u32   %rd10, %r3;\n"
    "  add.s64   %rd1, %rd9, %rd10;\n"
    "  mov.u32   %r4, %ctaid.x;\n"
    "  mov.u32   %r5, %ntid.x;\n"
    "  mul.wide.u32   %rd11, %r4, %r5;\n"
    "  mov.u32   %r6, %tid.x;\n"
    "  cvt.u64.u32   %rd12, %r6;\n"
    "  add.s64   %rd2, %rd11, %rd12;\n"
    "  setp.ge.s64   %p1, %rd1, %rd7;\n"
    "  setp.ge.s64   %p2, %rd2, %rd8;\n"
    "  or.pred    %p3, %p1, %p2;\n"
    "  @%p3 bra   $L__BB0_2;\n"
    "  cvta.to.global.u64   %rd13, %rd3;\n"
    "  mul.lo.s64   %rd14, %rd1, 1000;\n"
    "  add.s64   %rd15, %rd14, %rd2;\n"
    "  cvt.rn.f32.s64   %f1, %rd15;\n"
    "  mul.lo.s64   %rd16, %rd1, %rd5;\n"
    "  add.s64   %rd17, %rd16, %rd4;\n"
    "  mul.lo.s64   %rd18, %rd2, %rd6;\n"
    "  add.s64   %rd19, %rd17, %rd18;\n"
    "  shl.b64   %rd20, %rd19, 2;\n"
    "  add.s64   %rd21, %rd13, %rd20;\n"
    "  st.global.f32   [%rd21], %f1;\n"
    "$L__BB0_2:\n"
    "  ret;\n"
    "}\n"
    "  // .globl  shared_sum\n"
    ".visible .entry shared_sum(\n"
    "  .param .u64 shared_sum_param_0,\n"
    "  .param .u32 shared_sum_param_1\n"
    ")\n"
    "{\n"
    "  .reg .pred   %p<5>;\n"
    "  .reg .b32   %r<29>;\n"
    "  .reg .b64   %rd<5>;\n"
    "  ld.param.u64   %rd1, [shared_sum_param_0];\n"
    "  ld.param.u32   %r11, [shared_sum_param_1];\n"
    "  mov.u32   %r26, %tid.x;\n"
    "  setp.ge.u32   %p1, %r26, %r11;\n"
    "  @%p1 bra   $L__BB1_3;\n"
    "  mov.u32   %r2, %ntid.x;\n"
    "  mov.u32   %r13, smem;\n"
    "  mov.u32   %r25, %r26;\n"
    "$L__BB1_2:\n"
    "  shl.b32   %r12, %r25, 2;\n"
    "  add.s32   %r14, %r13, %r12;\n"
    "  st.shared.u32   [%r14], %r25;\n"
    "  add.s32   %r25, %r25, %r2;\n"
    "  setp.lt.u32   %p2, %r25, %r11;\n"
    "  @%p2 bra   $L__BB1_2;\n"
    "$L__BB1_3:\n"
    "  bar.sync   0;\n"
    "  mov.u32   %r28, 0;\n"
    "  @%p1 bra   $L__BB1_6;\n"
    "  mov.u32   %r28, 0;\n"
    "  mov.u32   %r5, %ntid.x;\n"
    "$L__BB1_5:\n"
    "  not.b32   %r17, %r26;\n"
    "  add.s32   %r18, %r17, %r11;\n"
    "  shl.b32   %r19, %r18, 2;\n"
    "  mov.u32   %r20, smem;\n"
    "  add.s32   %r21, %r20, %r19;\n"
    "  ld.shared.u32   %r22, [%r21];\n"
    "  add.s32   %r28, %r22, %r28;\n"
    "  add.s32   %r26, %r26, %r5;\n"
    "  setp.lt.u32   %p4, %r26, %r11;\n"
    "  @%p4 bra   $L__BB1_5;\n"
    "$L__BB1_6:\n"
    "  mov.u32   %r23, %ctaid.x;\n"
    "  cvta.to.global.u64   %rd2, %rd1;\n"
    "  mul.wide.u32   %rd3, %r23, 4;\n"
    "  add.s64   %rd4, %rd2, %rd3;\n"
    "  atom.global.add.u32   %r24, [%rd4], %r28;\n"
    "  ret;\n"
    "}\n"
    "  // .globl  shared_sum_static\n"
    ".visible .entry shared_sum_static(\n"
    "  .param .u64 shared_sum_static_param_0,\n"
    "  .param .u32 shared_sum_static_param_1\n"
    ")\n"
    "{\n"
    "  .reg .pred   %p<7>;\n"
    "  .reg .b32   %r<41>;\n"
    "  .reg .b64   %rd<5>;\n"
    "  // demoted variable\n"
    "  .shared .align 4 .b8 _ZZ17shared_sum_staticE4bias[64];\n"
    "  ld.param.u64   %rd1, [shared_sum_static_param_0];\n"
    "  ld.param.u32   %r13, [shared_sum_static_param_1];\n"
    "  mov.u32   %r1, %tid.x;\n"
    "  setp.gt.u32   %p1, %r1, 15;\n"
    "  @%p1 bra   $L__BB2_2;\n"
    "  shl.b32   %r14, %r1, 2;\n"
    "  mov.u32   %r15, _ZZ17shared_sum_staticE4bias;\n"
    "  add.s32   %r16, %r15, %r14;\n"
    "  st.shared.u32   [%r16], %r1;\n"
    "$L__BB2_2:\n"
    "  setp.ge.u32   %p2, %r1, %r13;\n"
    "  @%p2 bra   $L__BB2_5;\n"
    "  mov.u32   %r2, %ntid.x;\n"
    "  mov.u32   %r18, smem;\n"
    "  mov.u32   %r36, %r1;\n"
    "$L__BB2_4:\n"
    "  shl.b32   %r17, %r36, 2;\n"
    "  add.s32   %r19, %r18, %r17;\n"
    "  st.shared.u32   [%r19], %r36;\n"
    "  add.s32   %r36, %r36, %r2;\n"
    "  setp.lt.u32   %p3, %r36, %r13;\n"
    "  @%p3 bra   $L__BB2_4;\n"
    "$L__BB2_5:\n"
    "  bar.sync   0;\n"
    "  mov.u32   %r39, 0;\n"
    "  @%p2 bra   $L__BB2_8;\n"
    "  mov.u32   %r39, 0;\n"
    "  mov.u32   %r5, %ntid.x;\n"
    "  mov.u32   %r37, %r1;\n"
    "$L__BB2_7:\n"
    "  not.b32   %r22, %r37;\n"
    "  add.s32   %r23, %r22, %r13;\n"
    "  shl.b32   %r24, %r23, 2;\n"
    "  mov.u32   %r25, smem;\n"
    "  add.s32   %r26, %r25, %r24;\n"
    "  ld.shared.u32   %r27, [%r26];\n"
    "  add.s32   %r39, %r27, %r39;\n"
    "  add.s32   %r37, %r37, %r5;\n"
    "  setp.lt.u32   %p5, %r37, %r13;\n"
    "  @%p5 bra   $L__BB2_7;\n"
    "$L__BB2_8:\n"
    "  @%p1 bra   $L__BB2_10;\n"
    "  mov.u32   %r28, 15;\n"
    "  sub.s32   %r29, %r28, %r1;\n"
    "  shl.b32   %r30, %r29, 2;\n"
    "  mov.u32   %r31, _ZZ17shared_sum_staticE4bias;\n"
    "  add.s32   %r32, %r31, %r30;\n"
    "  ld.shared.u32   %r33, [%r32];\n"
    "  add.s32   %r39, %r33, %r39;\n"
    "$L__BB2_10:\n"
    "  mov.u32   %r34, %ctaid.x;\n"
    "  cvta.to.global.u64   %rd2, %rd1;\n"
    "  mul.wide.u32   %rd3, %r34, 4;\n"
    "  add.s64   %rd4, %rd2, %rd3;\n"
    "  atom.global.add.u32   %r35, [%rd4], %r39;\n"
    "  ret;\n"
    "}\n";
// clang-format on

static int checks, failures;

static void check(int cond, const char *what) {
  ++checks;
  if (!cond) {
    ++failures;
    printf("FAILED: %s\n", what);
  }
}

/// Stops the test when a call that must succeed fails.
#define MUST(ctx, call)                                                        \
  do {                                                                         \
    int mustStatus = (call);                                                   \
    if (mustStatus != TILE_RT_SUCCESS) {                                       \
      printf("FAILED: %s: status %d: %s\n", #call, mustStatus,                 \
             tileRtLastError(ctx));                                            \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static int testFillMemRef(TileRtContext *ctx, TileRtModule *module) {
  TileRtFunction *fn;
  MUST(ctx, tileRtGetFunction(module, "fill_memref", &fn));
  enum { kRows = 37, kCols = 301 };
  TileRtDevicePtr buffer;
  MUST(ctx, tileRtMalloc(ctx, sizeof(float) * kRows * kCols, &buffer));
  MUST(ctx, tileRtMemsetD32(ctx, buffer, 0xffffffffu, kRows * kCols));
  TileRtMemRef2D desc;
  void *params[7];
  size_t count = 0;
  MUST(ctx, tileRtMemRefArgs2D(&desc, buffer, kRows, kCols, params, 7, &count));
  unsigned block[3] = {32, 8, 1};
  unsigned grid[3] = {(kCols + 31) / 32, (kRows + 7) / 8, 1};
  MUST(ctx, tileRtLaunch(fn, grid, block, 0, params));
  MUST(ctx, tileRtSynchronize(ctx));
  float *host = malloc(sizeof(float) * kRows * kCols);
  MUST(ctx, tileRtMemcpyDtoH(ctx, host, buffer, sizeof(float) * kRows * kCols));
  int ok = 1;
  for (int i = 0; i < kRows; ++i)
    for (int j = 0; j < kCols; ++j)
      ok &= host[i * kCols + j] == (float)(i * 1000 + j);
  printf("fill_memref: %s\n", ok ? "ok" : "FAILED");
  check(ok, "fill_memref");
  free(host);
  MUST(ctx, tileRtFree(ctx, buffer));
  return 0;
}

/// Launches shared_sum(_static) on 4 blocks with `bytes` of dynamic shared
/// memory and checks each block's sum (`extra` more than the sum of the
/// words); returns the launch status.
static int runSharedSum(TileRtContext *ctx, TileRtFunction *fn, unsigned bytes,
                        unsigned extra, int *ok) {
  enum { kBlocks = 4 };
  TileRtDevicePtr out;
  int status = tileRtMalloc(ctx, sizeof(unsigned) * kBlocks, &out);
  if (status != TILE_RT_SUCCESS)
    return status;
  status = tileRtMemsetD32(ctx, out, 0, kBlocks);
  unsigned words = bytes / 4;
  void *params[] = {&out, &words};
  unsigned grid[3] = {kBlocks, 1, 1}, block[3] = {256, 1, 1};
  if (status == TILE_RT_SUCCESS)
    status = tileRtLaunch(fn, grid, block, bytes, params);
  unsigned host[kBlocks] = {0};
  if (status == TILE_RT_SUCCESS)
    status = tileRtMemcpyDtoH(ctx, host, out, sizeof(host));
  *ok = status == TILE_RT_SUCCESS;
  for (int b = 0; b < kBlocks; ++b)
    *ok &= host[b] == words * (words - 1) / 2 + extra;
  tileRtFree(ctx, out);
  return status;
}

static int testSharedMemory(TileRtContext *ctx, TileRtModule *module) {
  TileRtFunction *fn;
  MUST(ctx, tileRtGetFunction(module, "shared_sum", &fn));
  int optin = 0;
  MUST(ctx, tileRtDeviceMaxSharedMemoryOptin(ctx, &optin));
  const unsigned sizes[] = {16 << 10, 64 << 10, 200 << 10};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
    int ok = 0;
    if (sizes[i] > (unsigned)optin) {
      printf("shared_sum %u KiB: ok (skipped: device opt-in limit %d)\n",
             sizes[i] >> 10, optin);
      continue;
    }
    int status = runSharedSum(ctx, fn, sizes[i], 0, &ok);
    printf("shared_sum %u KiB: %s", sizes[i] >> 10, ok ? "ok" : "FAILED");
    if (status != TILE_RT_SUCCESS)
      printf(" (status %d: %s)", status, tileRtLastError(ctx));
    printf("\n");
    check(ok, "shared_sum");
  }
  // 48 KiB of dynamic shared memory and some static shared memory: over the
  // default limit.
  TileRtFunction *withStatic;
  MUST(ctx, tileRtGetFunction(module, "shared_sum_static", &withStatic));
  int staticBytes = 0;
  MUST(ctx, tileRtFunctionInfo(withStatic, NULL, &staticBytes, NULL, NULL));
  int ok = 0;
  int status = runSharedSum(ctx, withStatic, 48 << 10, 120, &ok);
  printf("shared_sum_static 48 KiB + %d B static: %s", staticBytes,
         ok ? "ok" : "FAILED");
  if (status != TILE_RT_SUCCESS)
    printf(" (status %d: %s)", status, tileRtLastError(ctx));
  printf("\n");
  check(ok && staticBytes > 0, "shared_sum_static");

  // More than the device allows: the attribute cannot be raised.
  status = runSharedSum(ctx, fn, (unsigned)optin + 4096, 0, &ok);
  printf("shared_sum too much: status %d: %s\n", status, tileRtLastError(ctx));
  check(status == 1 && strstr(tileRtLastError(ctx), "cuFuncSetAttribute"),
        "shared_sum too much");
  return 0;
}

static int testMemory(TileRtContext *ctx) {
  enum { kBytes = 4096 };
  TileRtDevicePtr a, b;
  MUST(ctx, tileRtMalloc(ctx, kBytes, &a));
  MUST(ctx, tileRtMalloc(ctx, kBytes, &b));
  unsigned char host[kBytes], back[kBytes];
  for (int i = 0; i < kBytes; ++i)
    host[i] = (unsigned char)(i * 7);
  MUST(ctx, tileRtMemcpyHtoD(ctx, a, host, kBytes));
  MUST(ctx, tileRtMemcpyDtoD(ctx, b, a, kBytes));
  MUST(ctx, tileRtMemcpyDtoH(ctx, back, b, kBytes));
  int ok = memcmp(host, back, kBytes) == 0;
  MUST(ctx, tileRtMemsetD8(ctx, b, 0xab, kBytes));
  MUST(ctx, tileRtMemsetD16(ctx, b, 0x7fc0, 16));
  MUST(ctx, tileRtMemcpyDtoH(ctx, back, b, kBytes));
  for (int i = 0; i < 32; i += 2)
    ok &= back[i] == 0xc0 && back[i + 1] == 0x7f;
  for (int i = 32; i < kBytes; ++i)
    ok &= back[i] == 0xab;
  printf("memset and copies: %s\n", ok ? "ok" : "FAILED");
  check(ok, "memset and copies");
  MUST(ctx, tileRtFree(ctx, a));
  MUST(ctx, tileRtFree(ctx, b));
  return 0;
}

int main(void) {
  TileRtContext *ctx = NULL;
  MUST(NULL, tileRtInit(&ctx, 0));
  char name[256];
  int major = 0, minor = 0, sms = 0, version = 0;
  MUST(ctx, tileRtDeviceName(ctx, name, sizeof(name)));
  MUST(ctx, tileRtDeviceComputeCapability(ctx, &major, &minor));
  MUST(ctx, tileRtDeviceSMCount(ctx, &sms));
  MUST(ctx, tileRtDriverVersion(&version));
  printf("device: %s, sm_%d%d, %d SMs, driver %d\n", name, major, minor, sms,
         version);

  TileRtModule *module;
  MUST(ctx, tileRtModuleLoadData(ctx, kPtx, strlen(kPtx), &module));
  TileRtFunction *fn = NULL;
  int status = tileRtGetFunction(module, "no_such_kernel", &fn);
  printf("missing kernel: status %d: %s\n", status, tileRtLastError(ctx));
  check(status == 500 && !fn, "missing kernel");

  static const char kBadPtx[] = ".version 7.5\n.target sm_75\n"
                                ".address_size 64\n"
                                ".visible .entry bad() { bogus; }\n";
  TileRtModule *bad = NULL;
  status = tileRtModuleLoadData(ctx, kBadPtx, sizeof(kBadPtx) - 1, &bad);
  printf("bad PTX: status %d: %s\n", status, tileRtLastError(ctx));
  check(status == 218 && !bad, "bad PTX");

  status = tileRtModuleLoadFile(ctx, "/nonexistent/x.cubin", &bad);
  printf("missing file: status %d: %s\n", status, tileRtLastError(ctx));
  check(status == TILE_RT_ERROR_IO, "missing file");

  if (testFillMemRef(ctx, module) || testSharedMemory(ctx, module) ||
      testMemory(ctx))
    return 1;

  // A block larger than 1024 threads is rejected; the context stays usable.
  MUST(ctx, tileRtGetFunction(module, "fill_memref", &fn));
  unsigned grid[3] = {1, 1, 1}, block[3] = {2048, 1, 1};
  TileRtMemRef2D desc;
  void *params[7];
  size_t count = 0;
  MUST(ctx, tileRtMemRefArgs2D(&desc, 0, 0, 0, params, 7, &count));
  status = tileRtLaunch(fn, grid, block, 0, params);
  printf("bad launch: status %d: %s\n", status, tileRtLastError(ctx));
  check(status == 1, "bad launch");

  TileRtEvent *start, *end;
  MUST(ctx, tileRtEventCreate(ctx, &start));
  MUST(ctx, tileRtEventCreate(ctx, &end));
  MUST(ctx, tileRtEventRecord(ctx, start));
  block[0] = 32;
  for (int i = 0; i < 10; ++i)
    MUST(ctx, tileRtLaunch(fn, grid, block, 0, params));
  MUST(ctx, tileRtEventRecord(ctx, end));
  MUST(ctx, tileRtEventSynchronize(ctx, end));
  float ms = -1;
  MUST(ctx, tileRtEventElapsedMs(ctx, start, end, &ms));
  printf("events: %s (%.3f ms)\n", ms >= 0 ? "ok" : "FAILED", ms);
  check(ms >= 0, "events");
  MUST(ctx, tileRtEventDestroy(ctx, start));
  MUST(ctx, tileRtEventDestroy(ctx, end));

  MUST(ctx, tileRtModuleUnload(module));
  MUST(ctx, tileRtDestroy(ctx));
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
