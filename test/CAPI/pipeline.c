//===- pipeline.c - Run tile passes through the C API -------------*- C -*-===//
//
// Runs tile-check-resources through mlirPassManager, once from a parsed
// pipeline string and once from the generated pass constructor, and checks
// the attributes the pass records on the kernel.
//
//===----------------------------------------------------------------------===//

// RUN: tile-capi-pipeline-test 2>&1 | FileCheck %s

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Dialect.h"
#include "tile-c/Passes.h"
#include "tile-c/Registration.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static const char *kModule =
    "!sA = memref<128x32xf16, #gpu.address_space<workgroup>>\n"
    "!sB = memref<32x128xf16, #gpu.address_space<workgroup>>\n"
    "!fC = memref<128x128xf32, #tile.mem<fragment>>\n"
    "func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16>) {\n"
    "  tile.kernel @gemm_kernel blocks(%bx, %by) in [4, 4] threads(128) {\n"
    "    %As = tile.alloc : !sA\n"
    "    %Bs = tile.alloc : !sB\n"
    "    %acc = tile.alloc : !fC\n"
    "    %c0 = arith.constant 0 : index\n"
    "    tile.copy %A[%c0, %c0], %As : memref<?x?xf16> to !sA\n"
    "    tile.copy %B[%c0, %c0], %Bs : memref<?x?xf16> to !sB\n"
    "    tile.gemm %As, %Bs, %acc clear_accum : !sA, !sB, !fC\n"
    "  }\n"
    "  return\n"
    "}\n";

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirModule parse(MlirContext ctx) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "failed to parse the module\n");
    exit(1);
  }
  return module;
}

/// Returns the first tile.kernel of the first function of `module`.
static MlirOperation getKernel(MlirModule module) {
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (tileOperationIsAKernelOp(op))
      return op;
  fprintf(stderr, "no tile.kernel\n");
  exit(1);
}

static void printKernelResources(MlirModule module) {
  MlirOperation kernel = getKernel(module);
  printf("shared memory bytes %" PRId64 ", fragment registers %" PRId64 "\n",
         tileKernelOpGetSharedMemoryBytes(kernel),
         tileKernelOpGetFragmentRegisters(kernel));
}

/// Parses `pipeline` into a new pass manager, prints the pipeline back, runs
/// it on a freshly parsed module and prints the result.
static void runParsedPipeline(MlirContext ctx, const char *pipeline) {
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult status = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(pipeline), printToStdout, NULL);
  if (mlirLogicalResultIsFailure(status)) {
    printf("\nfailed to parse the pipeline\n");
    mlirPassManagerDestroy(pm);
    return;
  }
  printf("pipeline: ");
  mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), printToStdout,
                        NULL);
  printf("\n");

  MlirModule module = parse(ctx);
  status = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("run: %s\n",
         mlirLogicalResultIsSuccess(status) ? "success" : "failure");
  printKernelResources(module);
  mlirModuleDestroy(module);
  mlirPassManagerDestroy(pm);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  // The tile passes only (what the first pipelines need), then all the passes
  // the library bundles (registering a pass twice is harmless).
  mlirRegisterTilePasses();
  tileRegisterAllPasses();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  // clang-format off

  // A pipeline string naming the pass.
  runParsedPipeline(ctx, "builtin.module(tile-check-resources)");
  // CHECK: pipeline: builtin.module(tile-check-resources{max-registers=255 max-shared-memory=232448})
  // CHECK-NEXT: run: success
  // CHECK-NEXT: shared memory bytes 16384, fragment registers 128

  // Pass options: the kernel no longer fits.
  runParsedPipeline(
      ctx, "builtin.module(tile-check-resources{max-shared-memory=16000})");
  // CHECK: pipeline: builtin.module(tile-check-resources{max-registers=255 max-shared-memory=16000})
  // CHECK-NEXT: diagnostic: kernel 'gemm_kernel' needs 16384 bytes of shared memory but at most 16000 are available
  // CHECK-NEXT: run: failure
  // CHECK-NEXT: shared memory bytes 16384, fragment registers 128

  // Upstream passes next to tile ones.
  runParsedPipeline(
      ctx, "builtin.module(cse,tile-check-resources,gpu-kernel-outlining)");
  // CHECK: pipeline: builtin.module(cse,tile-check-resources{max-registers=255 max-shared-memory=232448},gpu-kernel-outlining{{.*}})
  // CHECK-NEXT: run: success
  // CHECK-NEXT: shared memory bytes 16384, fragment registers 128

  // An unknown pass.
  runParsedPipeline(ctx, "builtin.module(tile-no-such-pass)");
  // CHECK: 'tile-no-such-pass' does not refer to a registered pass or pass pipeline
  // CHECK: failed to parse the pipeline

  // clang-format on

  // The generated pass constructor, added to a pass manager directly.
  MlirModule module = parse(ctx);
  printKernelResources(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  mlirPassManagerAddOwnedPass(pm, mlirCreateTileCheckResources());
  printf("pipeline: ");
  mlirPrintPassPipeline(mlirPassManagerGetAsOpPassManager(pm), printToStdout,
                        NULL);
  printf("\n");
  MlirLogicalResult status =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("run: %s\n",
         mlirLogicalResultIsSuccess(status) ? "success" : "failure");
  printKernelResources(module);
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  // clang-format off
  // CHECK: shared memory bytes -1, fragment registers -1
  // CHECK-NEXT: pipeline: builtin.module(tile-check-resources{max-registers=255 max-shared-memory=232448})
  // CHECK-NEXT: run: success
  // CHECK-NEXT: shared memory bytes 16384, fragment registers 128
  // CHECK: tile.kernel @gemm_kernel blocks(%{{.*}}, %{{.*}}) in [4, 4] threads(128) attributes {tile.fragment_registers = 128 : i64, tile.shared_memory_bytes = 16384 : i64} {
  // CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} clear_accum :
  // clang-format on

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
