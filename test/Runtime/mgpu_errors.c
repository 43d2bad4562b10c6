//===- mgpu_errors.c - The mgpu ABI without a GPU -----------------*- C -*-===//
//
// Calls every function of tile_mgpu.h (libtile_cuda_runtime.so) without a
// usable driver: TILE_RT_LIBCUDA points to a missing file, or to the CUDA
// toolkit's stub libcuda.so, whose cuInit fails. Checks the thread's sticky
// error (codes, messages, first error wins, clearing), NULL handles, argument
// checks made before the driver is needed, lazy module loads (a module
// "loaded" in a global constructor, as gpu.binary's are, fails at its first
// use), and the tileRtHost* entry points and
// streams of compiled host code. Prints one line per call ("what: status S:
// message") and exits 1 on any failed check.
//
//===----------------------------------------------------------------------===//

// clang-format off
// RUN: env TILE_RT_LIBCUDA=/nonexistent/libcuda.so.1 tile-mgpu-errors-test \
// RUN:   | FileCheck %s --check-prefixes=CHECK,NODRIVER --match-full-lines
// RUN: %if cuda-stub %{ env TILE_RT_LIBCUDA=%cuda_stub tile-mgpu-errors-test \
// RUN:   | FileCheck %s --check-prefixes=CHECK,STUB --match-full-lines %}

// Modules load lazily: a module "loaded" in a global constructor (as
// gpu.binary's are) fails only where a kernel of it is looked up, in the
// call that needs it; the failure is remembered after.
// CHECK: constructor: status 0:
// NODRIVER-NEXT: get function: status -1: gemm: mgpuModuleGetFunction('gemm_kernel'): libcuda.so.1 not found (dlopen("/nonexistent/libcuda.so.1"): {{.*}}); is the NVIDIA driver installed?
// STUB-NEXT: get function: status 34: gemm: mgpuModuleGetFunction('gemm_kernel'): cuInit ({{.*}}libcuda.so): CUDA_ERROR_STUB_LIBRARY{{.*}}
// CHECK-NEXT: launch after it: status {{-1|34}}: gemm: mgpuModuleGetFunction('gemm_kernel'): {{.*}}
// CHECK-NEXT: launch NULL: status {{-1|34}}: mgpuLaunchKernel: NULL function: module not loaded: mgpuModuleGetFunction('gemm_kernel'): {{.*}}
// CHECK-NEXT: cluster launch NULL: status {{-1|34}}: mgpuLaunchClusterKernel: NULL function: module not loaded: {{.*}}
// CHECK-NEXT: cleared: status 0:

// Modules.
// CHECK-NEXT: mgpuModuleLoad(NULL): status -3: mgpuModuleLoad: empty image: invalid argument
// CHECK-NEXT: mgpuModuleLoad: status 0:
// CHECK-NEXT: mgpuModuleLoadJIT -O7: status -3: mgpuModuleLoadJIT: optimization level 7 not in [0, 4]: invalid argument
// CHECK-NEXT: mgpuModuleLoadJIT(NULL): status -3: mgpuModuleLoadJIT: empty image: invalid argument
// CHECK-NEXT: mgpuModuleLoadJIT: status 0:
// CHECK-NEXT: mgpuModuleUnload(NULL): status 0:
// CHECK-NEXT: mgpuModuleGetFunction(NULL name): status {{-1|34}}: mgpuModuleGetFunction('(null)'): NULL module: module not loaded: mgpuModuleGetFunction('gemm_kernel'): {{.*}} (and 3 more failed module loads)
// CHECK-NEXT: mgpuModuleGetFunction: status {{-1|34}}: mgpuModuleGetFunction('k'): {{libcuda.so.1 not found|cuInit}} {{.*}}
// CHECK-NEXT: mgpuModuleGetFunction (PTX): status {{-1|34}}: mgpuModuleGetFunction('k'): {{libcuda.so.1 not found|cuInit}} {{.*}}
// CHECK-NEXT: mgpuModuleUnload: status 0:

// Launches: arguments are checked before the driver is needed.
// CHECK-NEXT: launch grid -1: status -3: mgpuLaunchKernel: grid dimension 0 is -1: invalid argument
// CHECK-NEXT: launch block 2^32: status -3: mgpuLaunchKernel: block dimension 2 is 4294967296: invalid argument
// CHECK-NEXT: launch smem -4: status -3: mgpuLaunchKernel: -4 bytes of dynamic shared memory: invalid argument
// CHECK-NEXT: launch NULL params: status -3: mgpuLaunchKernel: NULL params for 3 parameters: invalid argument
// CHECK-NEXT: launch empty grid: status 0:
// CHECK-NEXT: launch: status {{-1|34}}: mgpuLaunchKernel: {{libcuda.so.1 not found|cuInit}} {{.*}}
// CHECK-NEXT: cluster launch cluster -2: status -3: mgpuLaunchClusterKernel: cluster dimension 1 is -2: invalid argument
// CHECK-NEXT: cluster launch empty grid: status 0:
// CHECK-NEXT: cluster launch: status {{-1|34}}: mgpuLaunchClusterKernel: {{libcuda.so.1 not found|cuInit}} {{.*}}

// Streams and events.
// CHECK-NEXT: mgpuStreamCreate: status {{-1|34}}: mgpuStreamCreate: {{.*}}, stream NULL
// CHECK-NEXT: mgpuStreamDestroy(NULL): status 0:
// CHECK-NEXT: mgpuStreamSynchronize(NULL): status {{-1|34}}: mgpuStreamSynchronize: {{.*}}
// CHECK-NEXT: mgpuStreamWaitEvent(NULL): status -3: mgpuStreamWaitEvent: NULL event: invalid argument
// CHECK-NEXT: mgpuEventCreate: status {{-1|34}}: mgpuEventCreate: {{.*}}, event NULL
// CHECK-NEXT: mgpuEventDestroy(NULL): status 0:
// CHECK-NEXT: mgpuEventSynchronize(NULL): status -3: mgpuEventSynchronize: NULL event: invalid argument
// CHECK-NEXT: mgpuEventRecord(NULL): status -3: mgpuEventRecord: NULL event: invalid argument

// Memory.
// CHECK-NEXT: mgpuMemAlloc(0): status 0: , NULL
// CHECK-NEXT: mgpuMemAlloc: status {{-1|34}}: mgpuMemAlloc: {{.*}}, NULL
// CHECK-NEXT: mgpuMemAlloc(host shared): status {{-1|34}}: mgpuMemAlloc: {{.*}}, NULL
// CHECK-NEXT: mgpuMemFree(NULL): status 0:
// CHECK-NEXT: mgpuMemFree: status {{-1|34}}: mgpuMemFree: {{.*}}
// CHECK-NEXT: mgpuMemcpy(0 bytes): status 0:
// CHECK-NEXT: mgpuMemcpy(NULL): status -3: mgpuMemcpy: NULL destination (16 bytes): invalid argument
// CHECK-NEXT: mgpuMemcpy: status {{-1|34}}: mgpuMemcpy: {{.*}}
// CHECK-NEXT: mgpuMemset32(0 words): status 0:
// CHECK-NEXT: mgpuMemset32(NULL): status -3: mgpuMemset32: NULL destination (4 words): invalid argument
// CHECK-NEXT: mgpuMemset32: status {{-1|34}}: mgpuMemset32: {{.*}}
// CHECK-NEXT: mgpuMemset16(NULL): status -3: mgpuMemset16: NULL destination (4 words): invalid argument
// CHECK-NEXT: mgpuMemset16: status {{-1|34}}: mgpuMemset16: {{.*}}
// CHECK-NEXT: mgpuMemHostRegister(NULL): status -3: mgpuMemHostRegister: empty range ({{.*}}, 64 bytes): invalid argument
// CHECK-NEXT: mgpuMemHostRegister: status {{-1|34}}: mgpuMemHostRegister: {{.*}}
// CHECK-NEXT: mgpuMemHostUnregister(NULL): status -3: mgpuMemHostUnregister: NULL pointer: invalid argument
// CHECK-NEXT: mgpuMemHostUnregister: status {{-1|34}}: mgpuMemHostUnregister: {{.*}}
// CHECK-NEXT: mgpuMemHostRegisterMemRef(NULL): status -3: mgpuMemHostRegisterMemRef: NULL descriptor, rank 2, 4-byte elements: invalid argument
// CHECK-NEXT: mgpuMemHostRegisterMemRef(negative stride): status -3: mgpuMemHostRegisterMemRef: dimension 1 has size 5 and stride -1 (negative values are not supported): invalid argument
// CHECK-NEXT: mgpuMemHostRegisterMemRef(empty): status 0:
// CHECK-NEXT: mgpuMemHostRegisterMemRef: status {{-1|34}}: mgpuMemHostRegisterMemRef: {{.*}}
// CHECK-NEXT: mgpuMemHostUnregisterMemRef(NULL): status -3: mgpuMemHostUnregisterMemRef: NULL descriptor, rank 2, 4-byte elements: invalid argument
// CHECK-NEXT: mgpuMemHostUnregisterMemRef: status {{-1|34}}: mgpuMemHostUnregisterMemRef: {{.*}}

// Devices.
// CHECK-NEXT: mgpuSetDefaultDevice(-1): status -3: mgpuSetDefaultDevice: device -1 out of range [0, 64): invalid argument
// CHECK-NEXT: mgpuSetDefaultDevice(64): status -3: mgpuSetDefaultDevice: device 64 out of range [0, 64): invalid argument
// CHECK-NEXT: mgpuSetDefaultDevice(1): status 0:

// Tensor maps.
// CHECK-NEXT: mgpuTensorMapEncodeTiled(NULL map): status -3: mgpuTensorMapEncodeTiled: NULL map or array, or rank 2 not in [1, 5]: invalid argument
// CHECK-NEXT: mgpuTensorMapEncodeTiled(rank 6): status -3: mgpuTensorMapEncodeTiled: NULL map or array, or rank 6 not in [1, 5]: invalid argument
// CHECK-NEXT: mgpuTensorMapEncodeTiled: status {{-1|34}}: mgpuTensorMapEncodeTiled: {{.*}}
// CHECK-NEXT: mgpuTensorMapEncodeTiledMemref(NULL): status -3: mgpuTensorMapEncodeTiledMemref: NULL descriptor, a box, rank 2 not in [1, 5]: invalid argument, NULL
// CHECK-NEXT: mgpuTensorMapEncodeTiledMemref(rank 0): status -3: mgpuTensorMapEncodeTiledMemref: a descriptor, a box, rank 0 not in [1, 5]: invalid argument, NULL
// CHECK-NEXT: mgpuTensorMapEncodeTiledMemref(type 13): status -3: mgpuTensorMapEncodeTiledMemref: unsupported tensor map data type 13: invalid argument, NULL
// CHECK-NEXT: mgpuTensorMapEncodeTiledMemref(box 300): status -3: mgpuTensorMapEncodeTiledMemref: dimension 0 has size 64, stride 128 and box 300 (sizes and strides >= 1, box in [1, 256]): invalid argument, NULL
// CHECK-NEXT: mgpuTensorMapEncodeTiledMemref(stride 2): status -3: mgpuTensorMapEncodeTiledMemref: the innermost stride is 2 (TMA needs 1): invalid argument, NULL
// CHECK-NEXT: mgpuTensorMapEncodeTiledMemref: status {{-1|34}}: mgpuTensorMapEncodeTiledMemref: {{.*}}, NULL

// Stickiness: the first error is kept until cleared.
// CHECK-NEXT: sticky: status -3: mgpuEventRecord: NULL event: invalid argument
// CHECK-NEXT: after clear: status 0:

// Compiled host calls.
// CHECK-NEXT: host begin: status 0: , failed 0
// CHECK-NEXT: host arg error: status -3: gemm: A is 128x64 but B is 32x128, failed 1
// CHECK-NEXT: host later errors: status -3: gemm: A is 128x64 but B is 32x128, failed 1
// CHECK-NEXT: host end: status -3: gemm: A is 128x64 but B is 32x128, failed 1
// CHECK-NEXT: next host call: status 0: , failed 0
// CHECK-NEXT: host mgpu error: status {{-1|34}}: gemm: mgpuStreamCreate: {{.*}}, failed 1
// CHECK-NEXT: after host end: status {{-1|34}}: mgpuStreamCreate: {{.*}}
// CHECK-NEXT: NULL function name: status -3: (unknown function): invalid argument
// CHECK-NEXT: host arg error with a value: status -3: fa: argument #0 dimension 2 must be 128, got -64, failed 1
// CHECK-NEXT: NULL parts: status -3: fa: 7, failed 1
// CHECK-NEXT: synchronous host end without a driver: status 0: , failed 0

// Streams are per thread, and so are errors.
// CHECK-NEXT: other thread: status 0 before, -3 after: mgpuEventSynchronize: NULL event: invalid argument
// CHECK-NEXT: stream: initial NULL, set 0x1234, host 0x1234, other thread NULL, reset NULL
// CHECK-NEXT: this thread: status -3: gemm: A is 128x64 but B is 32x128
// CHECK-NEXT: {{[0-9]+}} checks, 0 failures
// clang-format on

#define _POSIX_C_SOURCE 200809L

#include "tile_mgpu.h"
#include "tile_runtime.h"

#include <pthread.h>
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

/// Prints "<what>: status S: message<suffix>", checks the status is
/// `expected` (or, for a driver failure, -1 or 34 as the driver is missing or
/// a stub), then clears the error.
enum { kDriverFailure = 1000 };

static void show(const char *what, int expected, const char *suffix) {
  int status = tileRtGetError();
  printf("%s: status %d: %s%s\n", what, status, tileRtGetErrorMessage(),
         suffix ? suffix : "");
  if (expected == kDriverFailure)
    check(status == TILE_RT_ERROR_DRIVER_NOT_FOUND || status == 34, what);
  else
    check(status == expected, what);
  check((status == 0) == (tileRtGetErrorMessage()[0] == 0), what);
  tileRtClearError();
}

// A cubin header; its contents never reach a driver.
static unsigned char kImage[64] = {0x7f, 'E', 'L', 'F'};
static char kPtx[] = ".version 8.0\n.target sm_90\n";

/// What gpu.binary's translation emits: load the module before main.
static struct CUmod_st *constructorModule;
__attribute__((constructor)) static void loadModules(void) {
  constructorModule = mgpuModuleLoad(kImage, sizeof(kImage));
}

static void testConstructorLoad(void) {
  // Modules load lazily: nothing fails before main.
  check(constructorModule != NULL, "constructor module");
  show("constructor", 0, NULL);
  tileRtHostBegin("gemm");
  struct CUfunc_st *fn =
      mgpuModuleGetFunction(constructorModule, "gemm_kernel");
  check(fn == NULL, "get function");
  int status = tileRtGetError();
  char message[4096];
  snprintf(message, sizeof(message), "%s", tileRtGetErrorMessage());
  printf("get function: status %d: %s\n", status, message);
  mgpuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, 0, tileRtHostStream(), NULL, NULL,
                   0);
  tileRtHostEnd(tileRtHostStream());
  check(strcmp(message, tileRtGetErrorMessage()) == 0, "sticky launch");
  show("launch after it", kDriverFailure, NULL);
  mgpuLaunchKernel(NULL, 1, 1, 1, 128, 1, 1, 0, NULL, NULL, NULL, 0);
  show("launch NULL", kDriverFailure, NULL);
  mgpuLaunchClusterKernel(NULL, 2, 1, 1, 2, 1, 1, 128, 1, 1, 0, NULL, NULL,
                          NULL);
  show("cluster launch NULL", kDriverFailure, NULL);
  show("cleared", 0, NULL);
}

static void testModules(void) {
  check(mgpuModuleLoad(NULL, 0) == NULL, "load NULL");
  show("mgpuModuleLoad(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  struct CUmod_st *lazy = mgpuModuleLoad(kImage, sizeof(kImage));
  check(lazy != NULL, "load");
  show("mgpuModuleLoad", 0, NULL);
  check(mgpuModuleLoadJIT(kPtx, 7) == NULL, "load JIT -O7");
  show("mgpuModuleLoadJIT -O7", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  check(mgpuModuleLoadJIT(NULL, 3) == NULL, "load JIT NULL");
  show("mgpuModuleLoadJIT(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  struct CUmod_st *lazyPtx = mgpuModuleLoadJIT(kPtx, 3);
  check(lazyPtx != NULL, "load JIT");
  show("mgpuModuleLoadJIT", 0, NULL);
  mgpuModuleUnload(NULL);
  show("mgpuModuleUnload(NULL)", 0, NULL);
  // The first failed load (the constructor's) names the cause.
  check(mgpuModuleGetFunction(NULL, NULL) == NULL, "get function NULL");
  show("mgpuModuleGetFunction(NULL name)", kDriverFailure, NULL);
  check(mgpuModuleGetFunction(lazy, "k") == NULL, "get function");
  show("mgpuModuleGetFunction", kDriverFailure, NULL);
  check(mgpuModuleGetFunction(lazyPtx, "k") == NULL, "get function JIT");
  show("mgpuModuleGetFunction (PTX)", kDriverFailure, NULL);
  mgpuModuleUnload(lazy);
  mgpuModuleUnload(lazyPtx);
  show("mgpuModuleUnload", 0, NULL);
}

static void testLaunches(void) {
  // Never launched: the argument checks or the missing driver stop it.
  struct CUfunc_st *fn = (struct CUfunc_st *)kImage;
  mgpuLaunchKernel(fn, -1, 1, 1, 128, 1, 1, 0, NULL, NULL, NULL, 0);
  show("launch grid -1", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuLaunchKernel(fn, 1, 1, 1, 128, 1, (intptr_t)1 << 32, 0, NULL, NULL, NULL,
                   0);
  show("launch block 2^32", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, -4, NULL, NULL, NULL, 0);
  show("launch smem -4", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, 0, NULL, NULL, NULL, 3);
  show("launch NULL params", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  // An empty grid launches nothing, without an error or the driver.
  mgpuLaunchKernel(fn, 0, 1, 1, 128, 1, 1, 0, NULL, NULL, NULL, 0);
  show("launch empty grid", 0, NULL);
  mgpuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, 64 << 10, NULL, NULL, NULL, 0);
  show("launch", kDriverFailure, NULL);
  mgpuLaunchClusterKernel(fn, 2, -2, 1, 2, 1, 1, 128, 1, 1, 0, NULL, NULL,
                          NULL);
  show("cluster launch cluster -2", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuLaunchClusterKernel(fn, 2, 1, 1, 2, 0, 1, 128, 1, 1, 0, NULL, NULL, NULL);
  show("cluster launch empty grid", 0, NULL);
  mgpuLaunchClusterKernel(fn, 2, 1, 1, 2, 1, 1, 128, 1, 1, 0, NULL, NULL, NULL);
  show("cluster launch", kDriverFailure, NULL);
}

static void testStreamsAndEvents(void) {
  struct CUstream_st *stream = mgpuStreamCreate();
  show("mgpuStreamCreate", kDriverFailure,
       stream ? ", stream set" : ", stream NULL");
  mgpuStreamDestroy(NULL);
  show("mgpuStreamDestroy(NULL)", 0, NULL);
  mgpuStreamSynchronize(NULL);
  show("mgpuStreamSynchronize(NULL)", kDriverFailure, NULL);
  mgpuStreamWaitEvent(NULL, NULL);
  show("mgpuStreamWaitEvent(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  struct CUevent_st *event = mgpuEventCreate();
  show("mgpuEventCreate", kDriverFailure,
       event ? ", event set" : ", event NULL");
  mgpuEventDestroy(NULL);
  show("mgpuEventDestroy(NULL)", 0, NULL);
  mgpuEventSynchronize(NULL);
  show("mgpuEventSynchronize(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuEventRecord(NULL, NULL);
  show("mgpuEventRecord(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
}

/// A rank-2 memref descriptor.
typedef struct MemRef2D {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2D;

static void testMemory(void) {
  void *ptr = mgpuMemAlloc(0, NULL, false);
  show("mgpuMemAlloc(0)", 0, ptr ? ", set" : ", NULL");
  ptr = mgpuMemAlloc(16, NULL, false);
  show("mgpuMemAlloc", kDriverFailure, ptr ? ", set" : ", NULL");
  ptr = mgpuMemAlloc(16, NULL, true);
  show("mgpuMemAlloc(host shared)", kDriverFailure, ptr ? ", set" : ", NULL");
  mgpuMemFree(NULL, NULL);
  show("mgpuMemFree(NULL)", 0, NULL);
  mgpuMemFree(kImage, NULL);
  show("mgpuMemFree", kDriverFailure, NULL);

  static char host[64], other[64];
  mgpuMemcpy(NULL, NULL, 0, NULL);
  show("mgpuMemcpy(0 bytes)", 0, NULL);
  mgpuMemcpy(NULL, host, 16, NULL);
  show("mgpuMemcpy(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuMemcpy(other, host, 16, NULL);
  show("mgpuMemcpy", kDriverFailure, NULL);
  mgpuMemset32(NULL, 0, 0, NULL);
  show("mgpuMemset32(0 words)", 0, NULL);
  mgpuMemset32(NULL, 0, 4, NULL);
  show("mgpuMemset32(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuMemset32(host, 0, 4, NULL);
  show("mgpuMemset32", kDriverFailure, NULL);
  mgpuMemset16(NULL, 0, 4, NULL);
  show("mgpuMemset16(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuMemset16(host, 0, 4, NULL);
  show("mgpuMemset16", kDriverFailure, NULL);

  mgpuMemHostRegister(NULL, 64);
  show("mgpuMemHostRegister(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuMemHostRegister(host, sizeof(host));
  show("mgpuMemHostRegister", kDriverFailure, NULL);
  mgpuMemHostUnregister(NULL);
  show("mgpuMemHostUnregister(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuMemHostUnregister(host);
  show("mgpuMemHostUnregister", kDriverFailure, NULL);

  MemRef2D memref = {host, host, 0, {3, 5}, {5, 1}};
  mgpuMemHostRegisterMemRef(2, NULL, 4);
  show("mgpuMemHostRegisterMemRef(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  memref.strides[1] = -1;
  mgpuMemHostRegisterMemRef(2, &memref, 4);
  show("mgpuMemHostRegisterMemRef(negative stride)",
       TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  memref.strides[1] = 1;
  memref.sizes[0] = 0;
  mgpuMemHostRegisterMemRef(2, &memref, 4);
  show("mgpuMemHostRegisterMemRef(empty)", 0, NULL);
  memref.sizes[0] = 3;
  mgpuMemHostRegisterMemRef(2, &memref, 4);
  show("mgpuMemHostRegisterMemRef", kDriverFailure, NULL);
  mgpuMemHostUnregisterMemRef(2, NULL, 4);
  show("mgpuMemHostUnregisterMemRef(NULL)", TILE_RT_ERROR_INVALID_ARGUMENT,
       NULL);
  mgpuMemHostUnregisterMemRef(2, &memref, 4);
  show("mgpuMemHostUnregisterMemRef", kDriverFailure, NULL);
}

static void testDevices(void) {
  mgpuSetDefaultDevice(-1);
  show("mgpuSetDefaultDevice(-1)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuSetDefaultDevice(64);
  show("mgpuSetDefaultDevice(64)", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  mgpuSetDefaultDevice(1);
  show("mgpuSetDefaultDevice(1)", 0, NULL);
  mgpuSetDefaultDevice(0);
}

static void testTensorMaps(void) {
  static _Alignas(128) unsigned char map[128];
  static uint16_t data[64 * 128];
  uint64_t dims[2] = {128, 64}, strides[1] = {256};
  uint32_t box[2] = {64, 64}, elementStrides[2] = {1, 1};
  mgpuTensorMapEncodeTiled(NULL, 6, 2, data, dims, strides, box, elementStrides,
                           0, 3, 0, 0);
  show("mgpuTensorMapEncodeTiled(NULL map)", TILE_RT_ERROR_INVALID_ARGUMENT,
       NULL);
  mgpuTensorMapEncodeTiled((struct CUtensorMap_st *)map, 6, 6, data, dims,
                           strides, box, elementStrides, 0, 3, 0, 0);
  show("mgpuTensorMapEncodeTiled(rank 6)", TILE_RT_ERROR_INVALID_ARGUMENT,
       NULL);
  mgpuTensorMapEncodeTiled((struct CUtensorMap_st *)map, 6, 2, data, dims,
                           strides, box, elementStrides, 0, 3, 0, 0);
  show("mgpuTensorMapEncodeTiled", kDriverFailure, NULL);

  MemRef2D memref = {data, data, 0, {64, 128}, {128, 1}};
  int64_t boxDims[2] = {64, 64};
  struct {
    const char *what;
    int64_t rank;
    void *descriptor;
    int type;
    int64_t box0, stride1;
    int expected;
  } cases[] = {
      {"mgpuTensorMapEncodeTiledMemref(NULL)", 2, NULL, 6, 64, 1,
       TILE_RT_ERROR_INVALID_ARGUMENT},
      {"mgpuTensorMapEncodeTiledMemref(rank 0)", 0, &memref, 6, 64, 1,
       TILE_RT_ERROR_INVALID_ARGUMENT},
      {"mgpuTensorMapEncodeTiledMemref(type 13)", 2, &memref, 13, 64, 1,
       TILE_RT_ERROR_INVALID_ARGUMENT},
      {"mgpuTensorMapEncodeTiledMemref(box 300)", 2, &memref, 6, 300, 1,
       TILE_RT_ERROR_INVALID_ARGUMENT},
      {"mgpuTensorMapEncodeTiledMemref(stride 2)", 2, &memref, 6, 64, 2,
       TILE_RT_ERROR_INVALID_ARGUMENT},
      {"mgpuTensorMapEncodeTiledMemref", 2, &memref, 6, 64, 1, kDriverFailure},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    boxDims[0] = cases[i].box0;
    memref.strides[1] = cases[i].stride1;
    void *result = mgpuTensorMapEncodeTiledMemref(
        cases[i].rank, cases[i].descriptor, cases[i].type, 0, 3, 0, 0, boxDims);
    show(cases[i].what, cases[i].expected, result ? ", set" : ", NULL");
  }
}

static void testSticky(void) {
  mgpuEventRecord(NULL, NULL);
  mgpuStreamSynchronize(NULL);
  mgpuMemcpy(NULL, NULL, 4, NULL);
  show("sticky", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);
  show("after clear", 0, NULL);
}

static void showHost(const char *what, int expected) {
  char suffix[32];
  snprintf(suffix, sizeof(suffix), ", failed %d", (int)tileRtHostFailed());
  int status = tileRtGetError();
  printf("%s: status %d: %s%s\n", what, status, tileRtGetErrorMessage(),
         suffix);
  if (expected == kDriverFailure)
    check(status == TILE_RT_ERROR_DRIVER_NOT_FOUND || status == 34, what);
  else
    check(status == expected, what);
  check((status != 0) == (tileRtHostFailed() != 0), what);
}

static void testHostCalls(void) {
  tileRtHostBegin("gemm");
  showHost("host begin", 0);
  tileRtHostArgError("gemm", "A is 128x64 but B is 32x128");
  showHost("host arg error", TILE_RT_ERROR_INVALID_ARGUMENT);
  tileRtHostArgError("gemm", "C is 1x1");
  check(mgpuStreamCreate() == NULL, "host stream create");
  showHost("host later errors", TILE_RT_ERROR_INVALID_ARGUMENT);
  tileRtHostEnd(tileRtHostStream());
  showHost("host end", TILE_RT_ERROR_INVALID_ARGUMENT);

  tileRtHostBegin("gemm");
  showHost("next host call", 0);
  check(mgpuStreamCreate() == NULL, "host stream create");
  showHost("host mgpu error", kDriverFailure);
  tileRtHostEnd(NULL);
  // Outside a host call the prefix is gone.
  tileRtClearError();
  check(mgpuStreamCreate() == NULL, "stream create");
  show("after host end", kDriverFailure, NULL);

  tileRtHostArgError(NULL, NULL);
  show("NULL function name", TILE_RT_ERROR_INVALID_ARGUMENT, NULL);

  tileRtHostBegin("fa");
  tileRtHostArgErrorValue("fa", "argument #0 dimension 2 must be 128, got ",
                          -64, "");
  showHost("host arg error with a value", TILE_RT_ERROR_INVALID_ARGUMENT);
  tileRtHostBegin("fa");
  tileRtHostArgErrorValue("fa", NULL, 7, NULL);
  showHost("NULL parts", TILE_RT_ERROR_INVALID_ARGUMENT);
  tileRtHostEnd(NULL);
  tileRtClearError();

  // Synchronous mode waits for the stream only where a driver was loaded:
  // without one no work can be pending, and nothing fails.
  tileRtSetSynchronous(1);
  tileRtHostBegin("gemm");
  tileRtHostEnd(NULL);
  showHost("synchronous host end without a driver", 0);
  tileRtSetSynchronous(0);
}

static void *otherThread(void *arg) {
  void **stream = arg;
  *stream = tileRtGetStream();
  int before = tileRtGetError();
  mgpuEventSynchronize(NULL);
  printf("other thread: status %d before, %d after: %s\n", before,
         tileRtGetError(), tileRtGetErrorMessage());
  check(before == 0 && tileRtGetError() == TILE_RT_ERROR_INVALID_ARGUMENT,
        "other thread error");
  return NULL;
}

static void testThreads(void) {
  void *initial = tileRtGetStream();
  tileRtSetStream((void *)0x1234);
  void *set = tileRtGetStream(), *host = tileRtHostStream();
  void *other = (void *)1;
  // This thread has an error; the other thread's is separate.
  tileRtHostBegin("gemm");
  tileRtHostArgError("gemm", "A is 128x64 but B is 32x128");
  pthread_t thread;
  check(pthread_create(&thread, NULL, otherThread, &other) == 0, "thread");
  pthread_join(thread, NULL);
  tileRtSetStream(NULL);
  printf("stream: initial %s, set %p, host %p, other thread %s, reset %s\n",
         initial ? "set" : "NULL", set, host, other ? "set" : "NULL",
         tileRtGetStream() ? "set" : "NULL");
  check(!initial && set == (void *)0x1234 && host == set && !other &&
            !tileRtGetStream(),
        "streams");
  printf("this thread: status %d: %s\n", tileRtGetError(),
         tileRtGetErrorMessage());
  check(tileRtGetError() == TILE_RT_ERROR_INVALID_ARGUMENT, "this thread");
  tileRtHostEnd(NULL);
}

int main(void) {
  testConstructorLoad();
  testModules();
  testLaunches();
  testStreamsAndEvents();
  testMemory();
  testDevices();
  testTensorMaps();
  testSticky();
  testHostCalls();
  testThreads();
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
