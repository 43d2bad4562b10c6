//===- hip_runtime.c - The tile runtime's HIP backend without a GPU -*- C -*-=//
//
// The AMD path of tile_runtime.h where there is no AMD GPU: a missing HIP
// runtime and a HIP runtime without devices fail cleanly (status, message,
// no crash), and against a stand-in libamdhip64.so (Inputs/hip_stub.c) the
// same API calls (module load from a code object file, kernel lookup,
// launch with memref parameters, memory) reach HIP's module API with what
// the caller gave. The program exits 1 on any failed check.
//
//===----------------------------------------------------------------------===//

// clang-format off
// RUN: rm -rf %t && mkdir -p %t
// RUN: env TILE_RT_LIBHIP=/nonexistent/libamdhip64.so tile-hip-runtime-test | FileCheck %s --check-prefix=MISSING
// RUN: env TILE_RT_BACKEND=hip TILE_RT_LIBHIP=/nonexistent/libamdhip64.so tile-hip-runtime-test --default-init | FileCheck %s --check-prefix=MISSING
// Whatever this machine has, HIP initialization succeeds or fails cleanly.
// RUN: env -u TILE_RT_LIBHIP tile-hip-runtime-test | FileCheck %s --check-prefix=ANY
//
// RUN: %cc -shared -fPIC %S/Inputs/hip_stub.c -o %t/libamdhip64.so
// RUN: %cc -shared -fPIC -DNO_LAUNCH %S/Inputs/hip_stub.c -o %t/nolaunch.so
// RUN: env TILE_RT_LIBHIP=%t/nolaunch.so tile-hip-runtime-test | FileCheck %s --check-prefix=SYMBOL -DDIR=%t
// RUN: env TILE_RT_LIBHIP=%t/libamdhip64.so TILE_HIP_STUB=nodevice tile-hip-runtime-test | FileCheck %s --check-prefix=NODEVICE -DDIR=%t
// RUN: env TILE_RT_LIBHIP=%t/libamdhip64.so tile-hip-runtime-test %t/libamdhip64.so | FileCheck %s --check-prefix=NOTCODE
//
// MISSING: tileRtInit(HIP): status -1, ctx NULL, error: libamdhip64.so not found (dlopen("/nonexistent/libamdhip64.so"): {{.*}}); is ROCm (the HIP runtime) installed?
// MISSING-NEXT: again: status -1
// MISSING-NEXT: 0 failures
// ANY: tileRtInit(HIP): {{(ok|status -1, ctx NULL, error: libamdhip64.so not found.*|status -8, ctx NULL, error: hipInit.*)}}
// SYMBOL: tileRtInit(HIP): status -2, ctx NULL, error: HIP runtime function hipModuleLaunchKernel not found in [[DIR]]/nolaunch.so
// NODEVICE: tileRtInit(HIP): status -8, ctx NULL, error: hipInit ([[DIR]]/libamdhip64.so): hipErrorNoDevice (100)
// NOTCODE: tileRtInit(HIP): ok, backend 1
// NOTCODE: module: status -8, error: loading '{{.*}}libamdhip64.so': hipModuleLoadData (code object, {{[0-9]+}} bytes): hipErrorInvalidImage (200)
// NOTCODE: 0 failures
// clang-format on

#include "tile_runtime.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;

static void expect(int condition, const char *what) {
  if (!condition) {
    printf("FAILED: %s\n", what);
    ++failures;
  }
}

int main(int argc, char **argv) {
  int defaultInit = argc > 1 && strcmp(argv[1], "--default-init") == 0;
  const char *image = argc > 1 && !defaultInit ? argv[1] : NULL;
  TileRtContext *ctx = (TileRtContext *)&failures; // must be reset
  int status = defaultInit ? tileRtInit(&ctx, 0)
                           : tileRtInitBackend(&ctx, TILE_RT_BACKEND_HIP, 0);
  if (status != TILE_RT_SUCCESS) {
    printf("tileRtInit(HIP): status %d, ctx %s, error: %s\n", status,
           ctx ? "set" : "NULL", tileRtLastError(NULL));
    expect(ctx == NULL, "no context on failure");
    expect(status < 0, "a tile runtime status");
    // The failure is remembered: a second call fails the same way.
    int again = tileRtInitBackend(&ctx, TILE_RT_BACKEND_HIP, 0);
    printf("again: status %d\n", again);
    expect(again == status, "same status again");
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
  }
  printf("tileRtInit(HIP): ok, backend %d\n", tileRtContextBackend(ctx));
  expect(tileRtContextBackend(ctx) == TILE_RT_BACKEND_HIP, "HIP backend");
  char name[64];
  status = tileRtDeviceName(ctx, name, sizeof(name));
  printf("device: status %d, %s\n", status, status ? "" : name);

  // Calls the HIP backend does not implement fail cleanly.
  TileRtEvent *event = NULL;
  status = tileRtEventCreate(ctx, &event);
  printf("event: status %d, error: %s\n", status, tileRtLastError(ctx));
  expect(status == TILE_RT_ERROR_UNSUPPORTED, "events unsupported");
  int major = 0, minor = 0;
  status = tileRtDeviceComputeCapability(ctx, &major, &minor);
  printf("capability: status %d\n", status);
  expect(status == TILE_RT_ERROR_UNSUPPORTED, "capability unsupported");

  if (image) {
    TileRtModule *module = NULL;
    status = tileRtModuleLoadFile(ctx, image, &module);
    printf("module: status %d, error: %s\n", status,
           status ? tileRtLastError(ctx) : "");
    if (status == TILE_RT_SUCCESS) {
      TileRtFunction *fn = NULL;
      status = tileRtGetFunction(module, "no_such_kernel", &fn);
      printf("function no_such_kernel: status %d, error: %s\n", status,
             tileRtLastError(ctx));
      expect(status == TILE_RT_ERROR_HIP && !fn, "unknown kernel");
      status = tileRtGetFunction(module, "gemm_kernel", &fn);
      printf("function gemm_kernel: status %d\n", status);
      expect(status == TILE_RT_SUCCESS && fn, "kernel found");

      // C = A * B for 64 x 64 f16 tiles: three memref descriptors.
      TileRtDevicePtr a = 0;
      status = tileRtMalloc(ctx, 64 * 64 * 2, &a);
      expect(status == TILE_RT_SUCCESS && a, "malloc");
      unsigned short in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
      expect(tileRtMemcpyHtoD(ctx, a, in, sizeof(in)) == 0, "HtoD");
      expect(tileRtMemcpyDtoH(ctx, out, a, sizeof(out)) == 0, "DtoH");
      expect(memcmp(in, out, sizeof(in)) == 0, "memory round trip");
      TileRtMemRef2D descs[3];
      void *params[21];
      size_t count = 0;
      for (int i = 0; i < 3; ++i)
        tileRtMemRefArgs2D(&descs[i], a, 64, 64, params, 21, &count);
      unsigned grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
      status = tileRtLaunch(fn, grid, block, 32768, params);
      printf("launch: status %d, first parameter is A: %s\n", status,
             *(TileRtDevicePtr *)params[0] == a ? "yes" : "no");
      expect(status == TILE_RT_SUCCESS, "launch");
      expect(tileRtSynchronize(ctx) == TILE_RT_SUCCESS, "synchronize");
      expect(tileRtFree(ctx, a) == TILE_RT_SUCCESS, "free");
      expect(tileRtModuleUnload(module) == TILE_RT_SUCCESS, "unload");
    }
  }
  expect(tileRtDestroy(ctx) == TILE_RT_SUCCESS, "destroy");
  printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
