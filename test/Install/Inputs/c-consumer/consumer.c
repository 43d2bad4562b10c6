//===- consumer.c - A C program over the tile C API and runtime ---*- C -*-===//
//
// Built outside tile-mlir against its CMake package (TileMLIR::TileMLIR-C,
// TileMLIR::TileCudaRuntime) or its pkg-config files (tile-mlir,
// tile-runtime): checks that the library is the version of the headers,
// parses a kernel, runs tile-check-resources on it from a pipeline string,
// prints the kernel's shared memory, and asks the runtime for devices (a
// machine without a CUDA driver answers with an error, not a crash).
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Dialect.h"
#include "tile-c/Registration.h"
#include "tile-c/Version.h"
#include "tile_runtime.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *kModule =
    "func.func @copy(%src: memref<?x?xf16>) {\n"
    "  tile.kernel @copy_kernel blocks(%bx) in [1] threads(128) {\n"
    "    %t = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>\n"
    "    tile.copy %src[%bx, %bx], %t\n"
    "        : memref<?x?xf16> to memref<64x64xf16, "
    "#gpu.address_space<workgroup>>\n"
    "  }\n"
    "  return\n"
    "}\n";

static void printError(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

int main(void) {
  printf("headers %s (%d), library %s, LLVM %s\n", TILE_MLIR_VERSION,
         TILE_MLIR_VERSION_NUMBER, tileGetVersion(), tileGetLLVMVersion());
  if (strcmp(TILE_MLIR_VERSION, tileGetVersion()) != 0) {
    fprintf(stderr, "the library is not the headers' version\n");
    return 1;
  }

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  tileRegisterAllPasses();

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "failed to parse the kernel\n");
    return 1;
  }
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  if (mlirLogicalResultIsFailure(
          mlirParsePassPipeline(opm,
                                mlirStringRefCreateFromCString(
                                    "builtin.module(tile-check-resources)"),
                                printError, NULL)) ||
      mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "tile-check-resources failed\n");
    return 1;
  }
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (tileOperationIsAKernelOp(op))
      printf("copy_kernel: %" PRId64 " bytes of shared memory\n",
             tileKernelOpGetSharedMemoryBytes(op));
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);

  int count = 0;
  int status = tileRtDeviceCount(&count);
  if (status == 0)
    printf("runtime: %d CUDA devices\n", count);
  else
    printf("runtime: %s\n", tileRtErrorString(status));
  return 0;
}
