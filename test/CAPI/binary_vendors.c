//===- binary_vendors.c - Binary queries for NVIDIA and AMD -------*- C -*-===//
//
// A C host compiles examples/gemm.mlir through the C API with tile-to-nvvm
// (PTX for sm_90a) and with tile-to-rocdl (a gfx942 code object), and reads
// the kernel's object and launch configuration with the queries of
// tile-c/Compile.h, which are the same for both vendors. Nothing is run.
//
//===----------------------------------------------------------------------===//

// clang-format off
// REQUIRES: ld.lld
// RUN: %cc -std=c11 -Wall -Wextra -Werror %tile_capi_cflags %s -o %t -L%tile_lib_dir -lTileMLIR-C -Wl,-rpath,%tile_lib_dir
// RUN: %t %examples/gemm.mlir %rocm_path 2>&1 | FileCheck %s

// CHECK: tile-to-nvvm{chip=sm_90a format=isa}: binary success, PTX: 1, sm_90a: 1
// CHECK-NEXT: launch: success, shared 196608, block (256, 1, 1)
// CHECK-NEXT: tile-to-rocdl{chip=gfx942 format=bin}: binary success, ELF64: 1, EM_AMDGPU: 1
// CHECK-NEXT: launch: success, shared 49152, block (256, 1, 1)
// clang-format on

#define _GNU_SOURCE // memmem

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Compile.h"
#include "tile-c/Registration.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void print(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

static int compile(MlirContext ctx, const char *path, const char *label,
                   const char *pipeline, int amd) {
  MlirModule module =
      mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(module))
    return 1;
  char text[512];
  snprintf(text, sizeof(text), "builtin.module(%s)", pipeline);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(text), print, NULL)) ||
      mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return 1;
  mlirPassManagerDestroy(pm);

  MlirStringRef kernel = mlirStringRefCreateFromCString("gemm_kernel");
  const unsigned char *data = NULL;
  size_t size = 0;
  MlirLogicalResult found =
      tileModuleGetGPUBinary(module, kernel, (const void **)&data, &size);
  int ok = mlirLogicalResultIsSuccess(found) && data && size > 64;
  const char *name = label;
  if (amd) {
    // An ELF64 object for EM_AMDGPU (224).
    printf("%s: binary %s, ELF64: %d, EM_AMDGPU: %d\n", name,
           ok ? "success" : "failure",
           ok && memcmp(data, "\177ELF", 4) == 0 && data[4] == 2,
           ok && data[18] == 224 && data[19] == 0);
  } else {
    // PTX text for the chip.
    int ptx = ok && memmem(data, size, ".version", 8) != NULL;
    int chip = ok && memmem(data, size, ".target sm_90a", 14) != NULL;
    printf("%s: binary %s, PTX: %d, sm_90a: %d\n", name,
           ok ? "success" : "failure", ptx, chip);
  }
  int64_t shared = 0, block[3] = {0, 0, 0};
  MlirLogicalResult launch =
      tileModuleGetLaunchInfo(module, kernel, &shared, block);
  printf("launch: %s, shared %lld, block (%lld, %lld, %lld)\n",
         mlirLogicalResultIsSuccess(launch) ? "success" : "failure",
         (long long)shared, (long long)block[0], (long long)block[1],
         (long long)block[2]);
  mlirModuleDestroy(module);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s gemm.mlir rocm-path\n", argv[0]);
    return 2;
  }
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  tileRegisterAllPasses();

  char rocdl[256];
  snprintf(rocdl, sizeof(rocdl),
           "tile-to-rocdl{chip=gfx942 format=bin rocm-path=%s}", argv[2]);
  const char *nvvm = "tile-to-nvvm{chip=sm_90a format=isa}";
  int status = compile(ctx, argv[1], nvvm, nvvm, 0);
  status |=
      compile(ctx, argv[1], "tile-to-rocdl{chip=gfx942 format=bin}", rocdl, 1);
  mlirContextDestroy(ctx);
  return status;
}
