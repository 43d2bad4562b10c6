//===- runtime_gpu.c - TileRuntime on a GPU -----------------------*- C -*-===//
//
// Exercises TileRuntime on a real GPU: device queries, loading PTX (JIT) and
// reporting JIT errors, kernel lookup, launches with memref descriptor
// parameters and with more than 48 KiB of dynamic shared memory, memory
// copies and sets, events, and launch errors; then the mgpu ABI
// (tile_mgpu.h) on the same primary context: module loads, a launch with more
// than 48 KiB of dynamic shared memory on a created stream, a cluster launch,
// memory, events, host registration, TMA tensor maps and driver errors. The
// kernels are in Inputs/runtime_kernels.cu; their PTX is embedded below.
// Prints one line per check group and exits 1 on any failure.
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
// CHECK: mgpu shared_sum 64 KiB on a stream: ok
// CHECK: mgpu shared_sum 200 KiB (JIT -O3): ok
// CHECK: mgpu cluster launch: ok
// CHECK: mgpu memory: ok
// CHECK: mgpu tensor map: ok
// CHECK: mgpu errors: ok
// CHECK: {{[0-9]+}} checks, 0 failures

#include "tile_mgpu.h"
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

//===----------------------------------------------------------------------===//
// The mgpu ABI
//===----------------------------------------------------------------------===//

/// kPtx, writable (the mgpu functions take `void *`).
static char ptx[16384];

/// Stops the test when the thread has an error.
#define MUST_MGPU(what)                                                        \
  do {                                                                         \
    if (tileRtGetError() != 0) {                                               \
      printf("FAILED: %s: status %d: %s\n", what, tileRtGetError(),            \
             tileRtGetErrorMessage());                                         \
      return 1;                                                                \
    }                                                                          \
  } while (0)

/// shared_sum on 4 blocks with `bytes` of dynamic shared memory through the
/// mgpu functions, on `stream`, in clusters of `cluster` blocks if nonzero;
/// sets `*ok` when every block's sum is right.
static int runMgpuSharedSum(struct CUfunc_st *fn, struct CUstream_st *stream,
                            unsigned bytes, int cluster, int *ok) {
  enum { kBlocks = 4 };
  unsigned *out = mgpuMemAlloc(sizeof(unsigned) * kBlocks, stream, false);
  MUST_MGPU("mgpuMemAlloc");
  mgpuMemset32(out, 0, kBlocks, stream);
  unsigned words = bytes / 4;
  void *params[] = {&out, &words};
  if (cluster)
    mgpuLaunchClusterKernel(fn, cluster, 1, 1, kBlocks, 1, 1, 256, 1, 1,
                            (int32_t)bytes, stream, params, NULL);
  else
    mgpuLaunchKernel(fn, kBlocks, 1, 1, 256, 1, 1, (int32_t)bytes, stream,
                     params, NULL, 2);
  unsigned host[kBlocks] = {0};
  mgpuMemcpy(host, out, sizeof(host), stream);
  mgpuStreamSynchronize(stream);
  mgpuMemFree(out, stream);
  *ok = tileRtGetError() == 0;
  for (int b = 0; b < kBlocks; ++b)
    *ok &= host[b] == words * (words - 1) / 2;
  return 0;
}

static int testMgpuLaunches(int major, int optin) {
  tileRtClearError();
  struct CUmod_st *module = mgpuModuleLoad(ptx, strlen(ptx));
  MUST_MGPU("mgpuModuleLoad");
  struct CUfunc_st *fn = mgpuModuleGetFunction(module, "shared_sum");
  MUST_MGPU("mgpuModuleGetFunction");
  struct CUstream_st *stream = mgpuStreamCreate();
  MUST_MGPU("mgpuStreamCreate");
  check(stream != NULL, "mgpuStreamCreate");

  int ok = 0;
  if (runMgpuSharedSum(fn, stream, 64 << 10, 0, &ok))
    return 1;
  printf("mgpu shared_sum 64 KiB on a stream: %s\n", ok ? "ok" : "FAILED");
  check(ok, "mgpu shared_sum 64 KiB");

  // The same kernel JIT-compiled again, at the upper end of shared memory.
  struct CUmod_st *jit = mgpuModuleLoadJIT(ptx, 3);
  MUST_MGPU("mgpuModuleLoadJIT");
  struct CUfunc_st *jitFn = mgpuModuleGetFunction(jit, "shared_sum");
  unsigned big = 200 << 10;
  if (big > (unsigned)optin)
    big = (unsigned)optin & ~1023u;
  if (runMgpuSharedSum(jitFn, stream, big, 0, &ok))
    return 1;
  printf("mgpu shared_sum %u KiB (JIT -O3): %s\n", big >> 10,
         ok ? "ok" : "FAILED");
  check(ok, "mgpu shared_sum JIT");

  // Clusters need sm_90; elsewhere the driver refuses the launch.
  ok = 0;
  if (runMgpuSharedSum(fn, stream, 16 << 10, 2, &ok))
    return 1;
  if (major < 9) {
    ok = tileRtGetError() != 0 &&
         strstr(tileRtGetErrorMessage(), "cuLaunchKernelEx") != NULL;
    tileRtClearError();
  }
  printf("mgpu cluster launch: %s\n", ok ? "ok" : "FAILED");
  check(ok, "mgpu cluster launch");

  mgpuStreamDestroy(stream);
  mgpuModuleUnload(jit);
  mgpuModuleUnload(module);
  MUST_MGPU("mgpu cleanup");
  return 0;
}

static int testMgpuMemory(void) {
  enum { kWords = 1024 };
  static unsigned host[kWords], back[kWords];
  for (int i = 0; i < kWords; ++i)
    host[i] = (unsigned)i * 3u;
  // A registered rank-1 memref {allocated, aligned, offset, size, stride}.
  struct {
    void *allocated, *aligned;
    int64_t offset, size, stride;
  } memref = {host, host, 0, kWords, 1};
  mgpuMemHostRegisterMemRef(1, &memref, sizeof(unsigned));
  MUST_MGPU("mgpuMemHostRegisterMemRef");
  struct CUstream_st *stream = mgpuStreamCreate();
  void *a = mgpuMemAlloc(sizeof(host), stream, false);
  void *b = mgpuMemAlloc(sizeof(host), stream, false);
  MUST_MGPU("mgpuMemAlloc");
  struct CUevent_st *event = mgpuEventCreate();
  mgpuMemcpy(a, host, sizeof(host), stream);
  mgpuMemcpy(b, a, sizeof(host), stream);
  mgpuMemset16(b, 0x7fc0, 8, stream);                  // words 0-3
  mgpuMemset32((char *)b + 16, 0xdeadbeef, 2, stream); // words 4-5
  mgpuEventRecord(event, stream);
  // The legacy stream waits for the event, then copies back.
  mgpuStreamWaitEvent(NULL, event);
  mgpuMemcpy(back, b, sizeof(back), NULL);
  mgpuStreamSynchronize(NULL);
  mgpuEventSynchronize(event);
  MUST_MGPU("mgpu copies");
  int ok = 1;
  for (int i = 0; i < 4; ++i)
    ok &= back[i] == 0x7fc07fc0u;
  ok &= back[4] == 0xdeadbeefu && back[5] == 0xdeadbeefu;
  for (int i = 6; i < kWords; ++i)
    ok &= back[i] == host[i];
  mgpuEventDestroy(event);
  mgpuMemFree(a, NULL);
  mgpuMemFree(b, NULL);
  mgpuStreamDestroy(stream);
  mgpuMemHostUnregisterMemRef(1, &memref, sizeof(unsigned));
  // Managed memory is host-accessible after a synchronization.
  unsigned *managed = mgpuMemAlloc(64, NULL, true);
  MUST_MGPU("mgpuMemAlloc managed");
  mgpuMemset32(managed, 7, 16, NULL);
  mgpuStreamSynchronize(NULL);
  ok &= managed[15] == 7;
  mgpuMemFree(managed, NULL);
  MUST_MGPU("mgpu memory cleanup");
  printf("mgpu memory: %s\n", ok ? "ok" : "FAILED");
  check(ok, "mgpu memory");
  return 0;
}

static int testMgpuTensorMap(void) {
  // A 64x128 f16 memref in device memory, box 64x64, 128-byte swizzle.
  enum { kRows = 64, kCols = 128 };
  void *data = mgpuMemAlloc(kRows * kCols * 2, NULL, false);
  MUST_MGPU("mgpuMemAlloc");
  struct {
    void *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } memref = {data, data, 0, {kRows, kCols}, {kCols, 1}};
  int64_t box[2] = {64, 64};
  enum { kF16 = 6, kSwizzle128B = 3 };
  void *map = mgpuTensorMapEncodeTiledMemref(2, &memref, kF16, 0, kSwizzle128B,
                                             0, 0, box);
  MUST_MGPU("mgpuTensorMapEncodeTiledMemref");
  void *again = mgpuTensorMapEncodeTiledMemref(2, &memref, kF16, 0,
                                               kSwizzle128B, 0, 0, box);
  // The map in device memory is the one mgpuTensorMapEncodeTiled encodes.
  static _Alignas(128) unsigned char expected[128], copied[128];
  uint64_t dims[2] = {kCols, kRows}, strides[1] = {kCols * 2};
  uint32_t boxDims[2] = {64, 64}, elementStrides[2] = {1, 1};
  mgpuTensorMapEncodeTiled((struct CUtensorMap_st *)expected, kF16, 2, data,
                           dims, strides, boxDims, elementStrides, 0,
                           kSwizzle128B, 0, 0);
  mgpuMemcpy(copied, map, sizeof(copied), NULL);
  mgpuStreamSynchronize(NULL);
  MUST_MGPU("tensor map copy");
  int ok = map != NULL && again == map && (uintptr_t)map % 128 == 0 &&
           memcmp(expected, copied, sizeof(copied)) == 0;
  // A different box is a different map.
  box[0] = 32;
  void *other = mgpuTensorMapEncodeTiledMemref(2, &memref, kF16, 0,
                                               kSwizzle128B, 0, 0, box);
  ok &= other != NULL && other != map;
  mgpuMemFree(data, NULL);
  MUST_MGPU("mgpu tensor map");
  printf("mgpu tensor map: %s\n", ok ? "ok" : "FAILED");
  check(ok, "mgpu tensor map");
  return 0;
}

static int testMgpuErrors(int optin) {
  tileRtClearError();
  struct CUmod_st *module = mgpuModuleLoad(ptx, strlen(ptx));
  MUST_MGPU("mgpuModuleLoad");
  int ok = 1;
  tileRtHostBegin("gemm");
  check(mgpuModuleGetFunction(module, "no_such_kernel") == NULL, "no kernel");
  ok &= tileRtGetError() == 500 &&
        strstr(tileRtGetErrorMessage(),
               "gemm: mgpuModuleGetFunction('no_such_kernel'): "
               "cuModuleGetFunction: CUDA_ERROR_NOT_FOUND") != NULL;
  printf("mgpu missing kernel: %s\n", tileRtGetErrorMessage());
  tileRtHostEnd(NULL);

  // More dynamic shared memory than the device has.
  struct CUfunc_st *fn = mgpuModuleGetFunction(module, "shared_sum");
  tileRtHostBegin("gemm");
  unsigned *out = NULL, words = 1;
  void *params[] = {&out, &words};
  mgpuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, optin + 4096, NULL, params, NULL, 2);
  printf("mgpu too much shared memory: status %d: %s\n", tileRtGetError(),
         tileRtGetErrorMessage());
  ok &= tileRtGetError() == 1 &&
        strstr(tileRtGetErrorMessage(), "gemm: mgpuLaunchKernel: "
                                        "cuFuncSetAttribute(") != NULL;
  tileRtHostEnd(NULL);
  // tileRtHostEnd keeps the error: it is the call's result.
  ok &= tileRtGetError() == 1;
  tileRtClearError();

  // Bad PTX: the module loads lazily, so the kernel lookup fails, with the
  // JIT log in the message.
  static char badPtx[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
                         ".visible .entry bad() { bogus; }\n";
  struct CUmod_st *bad = mgpuModuleLoadJIT(badPtx, 2);
  check(bad != NULL, "bad PTX registered");
  check(mgpuModuleGetFunction(bad, "bad") == NULL, "bad PTX");
  printf("mgpu bad PTX: status %d: %s\n", tileRtGetError(),
         tileRtGetErrorMessage());
  mgpuModuleUnload(bad);
  ok &= tileRtGetError() == 218 &&
        strstr(tileRtGetErrorMessage(), "JIT log: ") != NULL;
  tileRtClearError();

  // Synchronous mode: tileRtHostEnd waits for the stream.
  tileRtSetSynchronous(1);
  tileRtHostBegin("gemm");
  words = 64;
  out = mgpuMemAlloc(4, NULL, false);
  mgpuMemset32(out, 0, 1, NULL);
  mgpuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 256, tileRtHostStream(), params, NULL,
                   2);
  tileRtHostEnd(tileRtHostStream());
  tileRtSetSynchronous(0);
  unsigned sum = 0;
  mgpuMemcpy(&sum, out, 4, NULL);
  mgpuStreamSynchronize(NULL);
  mgpuMemFree(out, NULL);
  ok &= tileRtGetError() == 0 && sum == 64 * 63 / 2;
  mgpuModuleUnload(module);
  printf("mgpu errors: %s\n", ok ? "ok" : "FAILED");
  check(ok, "mgpu errors");
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

  // The mgpu ABI, on the primary context tileRtInit made current.
  check(strlen(kPtx) < sizeof(ptx), "PTX size");
  snprintf(ptx, sizeof(ptx), "%s", kPtx);
  int optin = 0;
  MUST(ctx, tileRtDeviceMaxSharedMemoryOptin(ctx, &optin));
  if (testMgpuLaunches(major, optin) || testMgpuMemory() ||
      testMgpuTensorMap() || testMgpuErrors(optin))
    return 1;
  MUST(ctx, tileRtDestroy(ctx));
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
