//===- parse_file.c - Parse, verify and print a tile file ---------*- C -*-===//
//
// A standalone C host of libTileMLIR-C.so: parses the file named on the
// command line, verifies it and prints it. It needs no library
// besides libTileMLIR-C.so and libc.
//
//===----------------------------------------------------------------------===//

// clang-format off

// Compile as plain C against the shared library alone, and check that it
// needs nothing else.
// RUN: %cc -std=c11 -Wall -Wextra -Werror -pedantic %tile_capi_cflags %s -o %t -L%tile_lib_dir -lTileMLIR-C -Wl,-rpath,%tile_lib_dir
// RUN: llvm-readelf -d %t | FileCheck %s --check-prefix=NEEDED
// NEEDED: (NEEDED) Shared library: [libTileMLIR-C.so]
// NEEDED-NOT: (NEEDED) Shared library: [libLLVM
// NEEDED-NOT: (NEEDED) Shared library: [libstdc++
// NEEDED-NOT: (NEEDED) Shared library: [libMLIR

// RUN: %t %examples/gemm.mlir | FileCheck %s
// The same program, built by CMake.
// RUN: tile-capi-parse-file %examples/gemm.mlir | FileCheck %s

// RUN: not %t %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: loc(unknown): could not open input file {{.*}}.does-not-exist
// MISSING-NEXT: parsing failed

// RUN: not %t %S/Inputs/invalid_threads.mlir 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: error: loc("{{.*}}invalid_threads.mlir":2:3): 'tile.kernel' op expects a positive thread count, got 0
// INVALID-NEXT: parsing failed

// clang-format on

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "tile-c/Registration.h"

#include <stdio.h>

static void printToFile(MlirStringRef str, void *userData) {
  fwrite(str.data, 1, str.length, (FILE *)userData);
}

/// Reports diagnostics on stderr as `<severity>: <location>: <message>`.
static MlirLogicalResult reportDiagnostic(MlirDiagnostic diagnostic,
                                          void *userData) {
  (void)userData;
  switch (mlirDiagnosticGetSeverity(diagnostic)) {
  case MlirDiagnosticError:
    fputs("error: ", stderr);
    break;
  case MlirDiagnosticWarning:
    fputs("warning: ", stderr);
    break;
  case MlirDiagnosticNote:
    fputs("note: ", stderr);
    break;
  case MlirDiagnosticRemark:
    fputs("remark: ", stderr);
    break;
  }
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), printToFile, stderr);
  fputs(": ", stderr);
  mlirDiagnosticPrint(diagnostic, printToFile, stderr);
  fputs("\n", stderr);
  return mlirLogicalResultSuccess();
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <file.mlir>\n", argv[0]);
    return 2;
  }

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, reportDiagnostic, NULL, NULL);

  // Parsing also verifies the module; verification errors are reported
  // through the diagnostic handler.
  int status = 0;
  MlirModule module = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module)) {
    fputs("parsing failed\n", stderr);
    status = 1;
  } else if (!mlirOperationVerify(mlirModuleGetOperation(module))) {
    fputs("verification failed\n", stderr);
    status = 1;
  } else {
    mlirOperationPrint(mlirModuleGetOperation(module), printToFile, stdout);
    fputs("\n", stdout);
  }
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return status;
}

// clang-format off
// CHECK: module {
// CHECK: func.func @gemm(%[[A:.*]]: memref<?x?xf16> {tile.shape = ["M", "K"]}, %[[B:.*]]: memref<?x?xf16> {tile.shape = ["K", "N"]}, %[[C:.*]]: memref<?x?xf16> {tile.shape = ["M", "N"]}) {
// CHECK: tile.kernel @gemm_kernel blocks(%{{.*}}, %{{.*}}) in [%{{.*}}, %{{.*}}] threads(256) {
// CHECK: %[[AS:.*]] = tile.alloc : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[BS:.*]] = tile.alloc : memref<64x256xf16, #gpu.address_space<workgroup>>
// CHECK: %[[ACC:.*]] = tile.alloc : memref<128x256xf32, #tile.mem<fragment>>
// CHECK: tile.fill %[[ACC]], %{{.*}} : memref<128x256xf32, #tile.mem<fragment>>
// CHECK: scf.for
// CHECK: tile.copy %[[A]][%{{.*}}, %{{.*}}], %[[AS]] : memref<?x?xf16> to memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK: tile.copy %[[B]][%{{.*}}, %{{.*}}], %[[BS]] : memref<?x?xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
// CHECK: tile.gemm %[[AS]], %[[BS]], %[[ACC]] :
// CHECK: } {tile.num_stages = 4 : i64}
// CHECK: tile.copy %[[ACC]], %[[C]][%{{.*}}, %{{.*}}] : memref<128x256xf32, #tile.mem<fragment>> to memref<?x?xf16>
// clang-format on
