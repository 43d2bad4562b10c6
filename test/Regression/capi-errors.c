//===- capi-errors.c - tile-to-nvvm failures through the C API ----*- C -*-===//
//
// A C host running tile-to-nvvm with mlirPassManagerRunOnOp gets a failure
// (and an error diagnostic at the module) for invalid options and for
// kernels over the target's limits; before issue 10 was fixed, format=foo
// printed an error but the run succeeded. A valid run still succeeds and
// tileModuleGetGPUBinary returns its PTX.
//
//===----------------------------------------------------------------------===//

// RUN: %cc -std=c11 -Wall -Wextra -Werror %tile_capi_cflags %s -o %t -L%tile_lib_dir -lTileMLIR-C -Wl,-rpath,%tile_lib_dir
// RUN: %t 2>&1 | FileCheck %s

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Compile.h"
#include "tile-c/Registration.h"

#include <stdio.h>
#include <string.h>

static const char *kGood =
    "func.func @f(%A: memref<?x?xf16>, %C: memref<?x?xf16>) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  tile.kernel @k blocks(%bx) in [1] threads(128) {\n"
    "    %f = tile.alloc : memref<16x16xf16, #tile.mem<fragment>>\n"
    "    tile.copy %A[%c0, %c0], %f : memref<?x?xf16> to "
    "memref<16x16xf16, #tile.mem<fragment>>\n"
    "    tile.copy %f, %C[%c0, %c0] : memref<16x16xf16, #tile.mem<fragment>> "
    "to memref<?x?xf16>\n"
    "  }\n"
    "  return\n"
    "}\n";

static const char *kTooBig =
    "func.func @f(%A: memref<?x?xf32>) {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  tile.kernel @big blocks(%bx) in [1] threads(128) {\n"
    "    %s = tile.alloc : memref<300x256xf32, #gpu.address_space<workgroup>>\n"
    "    tile.copy %A[%c0, %c0], %s : memref<?x?xf32> to "
    "memref<300x256xf32, #gpu.address_space<workgroup>>\n"
    "  }\n"
    "  return\n"
    "}\n";

static void print(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static MlirLogicalResult onDiagnostic(MlirDiagnostic diagnostic,
                                      void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, print, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

/// Whether `data` (of `size` bytes) contains `needle`.
static int contains(const void *data, size_t size, const char *needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; i + n <= size; ++i)
    if (memcmp((const char *)data + i, needle, n) == 0)
      return 1;
  return 0;
}

static void run(MlirContext ctx, const char *name, const char *source,
                const char *pipeline) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(pipeline), print, NULL))) {
    printf("%s: bad pipeline\n", name);
  } else {
    MlirLogicalResult result =
        mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
    printf("%s: %s\n", name,
           mlirLogicalResultIsSuccess(result) ? "success" : "failure");
    if (mlirLogicalResultIsSuccess(result)) {
      const void *data = NULL;
      size_t size = 0;
      MlirLogicalResult binary = tileModuleGetGPUBinary(
          module, mlirStringRefCreateFromCString("k"), &data, &size);
      printf("%s: binary %s, PTX %s\n", name,
             mlirLogicalResultIsSuccess(binary) ? "found" : "missing",
             contains(data, size, ".entry k") ? "with .entry k"
                                                       : "without .entry k");
    }
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  tileRegisterAllPasses();
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);

  // CHECK: diagnostic: unknown format 'foo' for tile-to-nvvm: expected bin (cubin), isa (PTX) or fatbin
  // CHECK-NEXT: format: failure
  run(ctx, "format", kGood, "builtin.module(tile-to-nvvm{format=foo})");

  // CHECK: diagnostic: kernel 'big' needs 307200 bytes of shared memory but at most 232448 are available
  // CHECK-NEXT: too big: failure
  run(ctx, "too big", kTooBig, "builtin.module(tile-to-nvvm{format=isa})");

  // CHECK-NOT: diagnostic:
  // CHECK: good: success
  // CHECK-NEXT: good: binary found, PTX with .entry k
  run(ctx, "good", kGood, "builtin.module(tile-to-nvvm{format=isa})");

  mlirContextDestroy(ctx);
  return 0;
}
