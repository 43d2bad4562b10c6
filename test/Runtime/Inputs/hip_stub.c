// A stand-in for libamdhip64.so, built by the RUN lines of hip-runtime.c:
// the HIP entry points the tile runtime looks up, on a pretend device whose
// memory is host memory. It prints each module and launch call, so that the
// test sees what the runtime hands to HIP. TILE_HIP_STUB=nodevice makes
// hipInit fail as on a machine without an AMD GPU; -DNO_LAUNCH leaves out
// hipModuleLaunchKernel. The entry points have HIP's own types (the handle
// types included): the runtime calls them through pointers of those types,
// which UBSan's function check (clang) compares with the definitions.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int hipError_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipStream_t *hipStream_t;
enum {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorNoDevice = 100,
  hipErrorInvalidImage = 200,
  hipErrorNotFound = 500
};

static int module, function;
#define MODULE ((hipModule_t)&module)
#define FUNCTION ((hipFunction_t)&function)

const char *hipGetErrorName(hipError_t e) {
  switch (e) {
  case hipSuccess: return "hipSuccess";
  case hipErrorInvalidValue: return "hipErrorInvalidValue";
  case hipErrorNoDevice: return "hipErrorNoDevice";
  case hipErrorInvalidImage: return "hipErrorInvalidImage";
  case hipErrorNotFound: return "hipErrorNotFound";
  }
  return NULL;
}

hipError_t hipInit(unsigned flags) {
  const char *mode = getenv("TILE_HIP_STUB");
  (void)flags;
  return mode && strcmp(mode, "nodevice") == 0 ? hipErrorNoDevice : hipSuccess;
}
hipError_t hipGetDeviceCount(int *count) { *count = 1; return hipSuccess; }
hipError_t hipSetDevice(int device) {
  return device == 0 ? hipSuccess : hipErrorInvalidValue;
}
hipError_t hipDeviceGetName(char *name, int length, int device) {
  (void)device;
  snprintf(name, (size_t)length, "stub gfx942");
  return hipSuccess;
}
hipError_t hipDeviceSynchronize(void) { return hipSuccess; }
hipError_t hipModuleLoadData(hipModule_t *out, const void *image) {
  // An AMDGPU code object: ELF64 (class 2), machine EM_AMDGPU (224).
  const unsigned char *bytes = image;
  if (memcmp(bytes, "\177ELF", 4) != 0 || bytes[4] != 2 || bytes[18] != 224)
    return hipErrorInvalidImage;
  printf("stub: hipModuleLoadData(AMDGPU code object)\n");
  *out = MODULE;
  return hipSuccess;
}
hipError_t hipModuleUnload(hipModule_t m) {
  printf("stub: hipModuleUnload(%s)\n", m == MODULE ? "module" : "?");
  return hipSuccess;
}
hipError_t hipModuleGetFunction(hipFunction_t *out, hipModule_t m,
                                const char *name) {
  if (m != MODULE || strcmp(name, "gemm_kernel") != 0)
    return hipErrorNotFound;
  *out = FUNCTION;
  return hipSuccess;
}
#ifndef NO_LAUNCH
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned gx, unsigned gy,
                                 unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned shared,
                                 hipStream_t stream, void **params,
                                 void **extra) {
  (void)stream;
  (void)extra;
  if (f != FUNCTION)
    return hipErrorInvalidValue;
  // The first kernel parameter: A's allocated pointer.
  printf("stub: hipModuleLaunchKernel(grid (%u, %u, %u), block (%u, %u, %u), "
         "%u bytes of LDS, first parameter %#llx)\n",
         gx, gy, gz, bx, by, bz, shared,
         (unsigned long long)*(unsigned long long *)params[0]);
  return hipSuccess;
}
#endif
hipError_t hipMalloc(void **ptr, size_t size) {
  *ptr = malloc(size);
  return *ptr ? hipSuccess : hipErrorInvalidValue;
}
hipError_t hipFree(void *ptr) { free(ptr); return hipSuccess; }
hipError_t hipMemcpyHtoD(void *dst, const void *src, size_t size) {
  memcpy(dst, src, size);
  return hipSuccess;
}
hipError_t hipMemcpyDtoH(void *dst, const void *src, size_t size) {
  memcpy(dst, src, size);
  return hipSuccess;
}
