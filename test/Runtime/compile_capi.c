//===- compile_capi.c - tile-c/Compile.h on hand-written modules --*- C -*-===//
//
// Checks tileModuleGetGPUBinary and tileModuleGetLaunchInfo on modules that
// look like the output of the tile pipeline (gpu.binary + gpu.launch_func),
// written by hand so that the test needs neither the NVVM lowering nor CUDA.
//
//===----------------------------------------------------------------------===//

// RUN: tile-compile-capi-test 2>&1 | FileCheck %s

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "tile-c/Compile.h"
#include "tile-c/Registration.h"

#include <inttypes.h>
#include <stdio.h>

static const char *kModule =
    "module attributes {gpu.container_module} {\n"
    "  gpu.binary @first [#gpu.object<#nvvm.target, \"first object\">]\n"
    "  gpu.binary @gemm_module [\n"
    "    #gpu.object<#nvvm.target<chip = \"sm_90a\">, \"\\7FELF cubin\">,\n"
    "    #gpu.object<#nvvm.target<chip = \"sm_80\">, \"second object\">]\n"
    "  gpu.binary @named_kernel [#gpu.object<#nvvm.target, \"named\">]\n"
    "  func.func @gemm(%A: memref<?x?xf16>, %n: index) {\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c2 = arith.constant 2 : index\n"
    "    %c128 = arith.constant 128 : index\n"
    "    %smem = arith.constant 24576 : i32\n"
    "    gpu.launch_func @gemm_module::@gemm_kernel\n"
    "        blocks in (%n, %c2, %c1) threads in (%c128, %c1, %c1)\n"
    "        dynamic_shared_memory_size %smem\n"
    "        args(%A : memref<?x?xf16>)\n"
    "    gpu.launch_func @first::@dynamic_kernel\n"
    "        blocks in (%c1, %c1, %c1) threads in (%n, %c2, %c1)\n"
    "        args(%A : memref<?x?xf16>)\n"
    "    return\n"
    "  }\n"
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

static void printBinary(MlirModule module, const char *kernel) {
  const void *data = NULL;
  size_t size = 0;
  MlirLogicalResult result = tileModuleGetGPUBinary(
      module, mlirStringRefCreateFromCString(kernel), &data, &size);
  printf("binary '%s': %s, %zu bytes", kernel,
         mlirLogicalResultIsSuccess(result) ? "success" : "failure", size);
  if (data) {
    // Print the bytes with non-printable characters escaped.
    printf(" \"");
    for (size_t i = 0; i < size; ++i) {
      unsigned char c = ((const unsigned char *)data)[i];
      if (c >= 32 && c < 127)
        printf("%c", c);
      else
        printf("\\%02X", c);
    }
    printf("\"");
  }
  printf("\n");
}

static void printLaunch(MlirModule module, const char *kernel) {
  int64_t shared = 0, block[3] = {0, 0, 0};
  MlirLogicalResult result = tileModuleGetLaunchInfo(
      module, mlirStringRefCreateFromCString(kernel), &shared, block);
  printf("launch '%s': %s, shared %" PRId64 ", block (%" PRId64 ", %" PRId64
         ", %" PRId64 ")\n",
         kernel, mlirLogicalResultIsSuccess(result) ? "success" : "failure",
         shared, block[0], block[1], block[2]);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    printf("failed to parse the module\n");
    return 1;
  }
  if (!mlirOperationVerify(mlirModuleGetOperation(module))) {
    printf("failed to verify the module\n");
    return 1;
  }

  // clang-format off
  // The binary a launch refers to (its first object), by kernel name.
  printBinary(module, "gemm_kernel");
  // CHECK: binary 'gemm_kernel': success, 10 bytes "\7FELF cubin"
  printBinary(module, "dynamic_kernel");
  // CHECK-NEXT: binary 'dynamic_kernel': success, 12 bytes "first object"
  // Not launched: the binary named after the kernel.
  printBinary(module, "named_kernel");
  // CHECK-NEXT: binary 'named_kernel': success, 5 bytes "named"
  // An empty name: the first launch's binary.
  printBinary(module, "");
  // CHECK-NEXT: binary '': success, 10 bytes "\7FELF cubin"
  printBinary(module, "no_such_kernel");
  // CHECK-NEXT: diagnostic: no gpu.binary for kernel 'no_such_kernel'
  // CHECK-NEXT: binary 'no_such_kernel': failure, 0 bytes

  printLaunch(module, "gemm_kernel");
  // CHECK-NEXT: launch 'gemm_kernel': success, shared 24576, block (128, 1, 1)
  printLaunch(module, "dynamic_kernel");
  // CHECK-NEXT: launch 'dynamic_kernel': success, shared 0, block (-1, 2, 1)
  printLaunch(module, "");
  // CHECK-NEXT: launch '': success, shared 24576, block (128, 1, 1)
  printLaunch(module, "named_kernel");
  // CHECK-NEXT: diagnostic: no gpu.launch_func of kernel 'named_kernel'
  // CHECK-NEXT: launch 'named_kernel': failure, shared -1, block (-1, -1, -1)
  // clang-format on

  mlirModuleDestroy(module);

  // A module with a single binary and no launch: that binary, by any name.
  module = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "module attributes {gpu.container_module} {\n"
               "  gpu.binary @kernels [#gpu.object<#nvvm.target, \"only\">]\n"
               "}\n"));
  printBinary(module, "gemm_kernel");
  // CHECK-NEXT: binary 'gemm_kernel': success, 4 bytes "only"
  mlirModuleDestroy(module);

  mlirContextDestroy(ctx);
  return 0;
}
