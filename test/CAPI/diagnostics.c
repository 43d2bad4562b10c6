//===- diagnostics.c - Tile diagnostics through the C API ---------*- C -*-===//
//
// Builds invalid tile ops with the C API and checks that a diagnostic
// handler attached with mlirContextAttachDiagnosticHandler receives the
// verifier's (or builder's) errors with their locations.
//
//===----------------------------------------------------------------------===//

// RUN: tile-capi-diagnostics-test 2>&1 | FileCheck %s

#include "mlir-c/Diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "tile-c/Dialect.h"
#include "tile-c/Registration.h"

#include <stdio.h>
#include <stdlib.h>

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static const char *severityName(MlirDiagnosticSeverity severity) {
  switch (severity) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  }
  return "unknown";
}

/// Prints the diagnostic, its location and its notes; counts errors in the
/// int pointed to by `userData`.
static MlirLogicalResult handleDiagnostic(MlirDiagnostic diagnostic,
                                          void *userData) {
  MlirDiagnosticSeverity severity = mlirDiagnosticGetSeverity(diagnostic);
  if (severity == MlirDiagnosticError)
    ++*(int *)userData;
  printf("%s at ", severityName(severity));
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), printToStdout, NULL);
  printf(": ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  for (intptr_t i = 0, e = mlirDiagnosticGetNumNotes(diagnostic); i < e; ++i) {
    printf("  note: ");
    mlirDiagnosticPrint(mlirDiagnosticGetNote(diagnostic, i), printToStdout,
                        NULL);
    printf("\n");
  }
  return mlirLogicalResultSuccess();
}

static MlirLocation fileLoc(MlirContext ctx, unsigned line, unsigned col) {
  return mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString("kernel.py"), line, col);
}

/// Creates a 1-D kernel with `threads` threads in a fresh module; returns
/// the module and stores the kernel in `*kernel`.
static MlirModule createKernel(MlirContext ctx, MlirLocation loc,
                               int64_t threads, MlirOperation *kernel) {
  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  int64_t grid[] = {16};
  *kernel = tileKernelOpCreate(loc, mlirStringRefCreateFromCString("k"), 1,
                               grid, 0, NULL, threads);
  if (mlirOperationIsNull(*kernel)) {
    fprintf(stderr, "failed to create the kernel\n");
    exit(1);
  }
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), *kernel);
  return module;
}

static MlirValue alloc(MlirBlock body, MlirLocation loc, MlirType type) {
  MlirOperation op = tileAllocOpCreate(loc, type, mlirAttributeGetNull(), 0);
  tileBlockInsertOwnedOperation(body, op);
  return mlirOperationGetResult(op, 0);
}

static void verify(const char *what, MlirModule module, int *numErrors) {
  *numErrors = 0;
  printf("--- %s\n", what);
  bool ok = mlirOperationVerify(mlirModuleGetOperation(module));
  printf("verified: %d, errors: %d\n", ok, *numErrors);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  int numErrors = 0;
  MlirDiagnosticHandlerID handler = mlirContextAttachDiagnosticHandler(
      ctx, handleDiagnostic, &numErrors, NULL);

  MlirType f16 = mlirF16TypeGet(ctx);
  MlirType f32 = mlirF32TypeGet(ctx);
  int64_t aShape[] = {64, 32}, bShape[] = {32, 64}, cShape[] = {64, 64};

  // A kernel without threads (whole warps of 32 are checked by the verifier
  // too; the target's own warp size by the passes that read the target).
  MlirOperation kernel;
  MlirModule module = createKernel(ctx, fileLoc(ctx, 10, 3), 0, &kernel);
  verify("threads", module, &numErrors);
  mlirModuleDestroy(module);
  // clang-format off
  // CHECK-LABEL: --- threads
  // CHECK-NEXT: error at loc("kernel.py":10:3): 'tile.kernel' op expects a positive thread count, got 0
  // CHECK-NEXT: note: see current operation:
  // CHECK: verified: 0, errors: 1
  // clang-format on

  // A gemm whose accumulator lives in shared memory.
  module = createKernel(ctx, fileLoc(ctx, 20, 1), 128, &kernel);
  MlirBlock body = tileKernelOpGetBody(kernel);
  MlirLocation loc = fileLoc(ctx, 21, 5);
  MlirValue a = alloc(body, loc, tileSharedMemRefTypeGet(f16, 2, aShape));
  MlirValue b = alloc(body, loc, tileSharedMemRefTypeGet(f16, 2, bShape));
  MlirValue c = alloc(body, loc, tileSharedMemRefTypeGet(f32, 2, cShape));
  tileBlockInsertOwnedOperation(body, tileGemmOpCreate(fileLoc(ctx, 24, 7), a,
                                                       b, c, false, false, true,
                                                       TileWarpPolicySquare));
  verify("shared accumulator", module, &numErrors);
  mlirModuleDestroy(module);
  // clang-format off
  // CHECK-LABEL: --- shared accumulator
  // CHECK-NEXT: error at loc("kernel.py":24:7): 'tile.gemm' op accumulator must be in fragment memory, got shared memory
  // CHECK-NEXT: note: see current operation: "tile.gemm"(%{{.*}}, %{{.*}}, %{{.*}}) <{clear_accum, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, policy = #tile.warp_policy<square>}>
  // CHECK-NEXT: verified: 0, errors: 1
  // clang-format on

  // A transposed fragment operand and a mismatched reduction dimension.
  module = createKernel(ctx, fileLoc(ctx, 30, 1), 128, &kernel);
  body = tileKernelOpGetBody(kernel);
  a = alloc(body, loc, tileFragmentMemRefTypeGet(f16, 2, aShape));
  b = alloc(body, loc, tileSharedMemRefTypeGet(f16, 2, bShape));
  c = alloc(body, loc, tileFragmentMemRefTypeGet(f32, 2, cShape));
  tileBlockInsertOwnedOperation(body, tileGemmOpCreate(fileLoc(ctx, 33, 2), a,
                                                       b, c, true, false, false,
                                                       TileWarpPolicyFullCol));
  verify("transposed fragment", module, &numErrors);
  mlirModuleDestroy(module);
  // clang-format off
  // CHECK-LABEL: --- transposed fragment
  // CHECK-NEXT: error at loc("kernel.py":33:2): 'tile.gemm' op a fragment A operand cannot be transposed
  // CHECK-NEXT: note: see current operation: "tile.gemm"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, policy = #tile.warp_policy<full_col>, transpose_a}>
  // CHECK-NEXT: verified: 0, errors: 1
  // clang-format on

  // A warp-specialized region naming its warpgroups out of order (whether
  // the kernel has them is a target check).
  module = createKernel(ctx, fileLoc(ctx, 40, 1), 128, &kernel);
  body = tileKernelOpGetBody(kernel);
  int64_t groups[] = {1, 0};
  tileBlockInsertOwnedOperation(
      body, tileWsOpCreate(fileLoc(ctx, 41, 3), 2, groups, 0));
  verify("ws", module, &numErrors);
  mlirModuleDestroy(module);
  // clang-format off
  // CHECK-LABEL: --- ws
  // CHECK-NEXT: error at loc("kernel.py":41:3): 'tile.ws' op expects strictly increasing warpgroup ids
  // CHECK-NEXT: note: see current operation:
  // CHECK: verified: 0, errors: 1
  // clang-format on

  // A reduction into a target of the wrong shape.
  module = createKernel(ctx, fileLoc(ctx, 44, 1), 128, &kernel);
  body = tileKernelOpGetBody(kernel);
  int64_t rowShape[] = {32};
  MlirValue s = alloc(body, loc, tileFragmentMemRefTypeGet(f32, 2, cShape));
  MlirValue r = alloc(body, loc, tileFragmentMemRefTypeGet(f32, 1, rowShape));
  tileBlockInsertOwnedOperation(body, tileReduceOpCreate(fileLoc(ctx, 45, 3),
                                                         TileReduceKindSum, s,
                                                         r, 1, true));
  verify("reduce", module, &numErrors);
  mlirModuleDestroy(module);
  // clang-format off
  // CHECK-LABEL: --- reduce
  // CHECK-NEXT: error at loc("kernel.py":45:3): 'tile.reduce' op expects a target of shape [64] (or with dimension 1 of size 1), got 'memref<32xf32, #tile.mem<fragment>>'
  // CHECK-NEXT: note: see current operation: "tile.reduce"(%{{.*}}, %{{.*}}) <{clear, dim = 1 : i64, kind = #tile.reduce_kind<sum>}>
  // CHECK-NEXT: verified: 0, errors: 1
  // clang-format on

  // Builders reject arguments they cannot build an operation from: they
  // report an error at the given location and return a null operation.
  printf("--- builders\n");
  numErrors = 0;
  MlirOperation op =
      tileAllocOpCreate(fileLoc(ctx, 50, 1), f16, mlirAttributeGetNull(), 0);
  printf("alloc is null: %d\n", mlirOperationIsNull(op));
  int64_t dynamicGrid[] = {mlirShapedTypeGetDynamicSize(), 4};
  op = tileKernelOpCreate(fileLoc(ctx, 51, 1),
                          mlirStringRefCreateFromCString("k"), 2, dynamicGrid,
                          0, NULL, 128);
  printf("kernel is null: %d\n", mlirOperationIsNull(op));
  MlirType type = tileMemRefTypeGet(f16, 2, aShape, TileMemoryKindUnknown);
  printf("unknown memory type is null: %d\n", mlirTypeIsNull(type));
  type = tileSharedMemRefTypeGet(mlirNoneTypeGet(ctx), 2, aShape);
  printf("none memref type is null: %d\n", mlirTypeIsNull(type));
  MlirAttribute notALayout =
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("row_major"));
  printf("is a layout: %d\n", tileAttributeIsALayoutAttr(notALayout));
  op =
      tileAllocOpCreate(fileLoc(ctx, 52, 1),
                        tileSharedMemRefTypeGet(f16, 2, aShape), notALayout, 0);
  printf("alloc is null: %d\n", mlirOperationIsNull(op));
  op = tileParallelOpCreate(fileLoc(ctx, 53, 1), 2, aShape, notALayout);
  printf("parallel is null: %d\n", mlirOperationIsNull(op));
  printf("errors: %d\n", numErrors);
  // clang-format off
  // CHECK-LABEL: --- builders
  // CHECK-NEXT: error at loc("kernel.py":50:1): tile.alloc expects a memref type, got 'f16'
  // CHECK-NEXT: alloc is null: 1
  // CHECK-NEXT: error at loc("kernel.py":51:1): tile.kernel with 1 dynamic grid extents needs as many grid values, got 0
  // CHECK-NEXT: kernel is null: 1
  // CHECK-NEXT: error at loc(unknown): cannot build a memref type in an unknown memory space
  // CHECK-NEXT: unknown memory type is null: 1
  // CHECK-NEXT: error at loc(unknown): invalid memref element type
  // CHECK-NEXT: none memref type is null: 1
  // CHECK-NEXT: is a layout: 0
  // CHECK-NEXT: error at loc("kernel.py":52:1): tile.alloc expects a tile layout, got "row_major"
  // CHECK-NEXT: alloc is null: 1
  // CHECK-NEXT: error at loc("kernel.py":53:1): tile.parallel expects a tile layout, got "row_major"
  // CHECK-NEXT: parallel is null: 1
  // CHECK-NEXT: errors: 6
  // clang-format on

  mlirContextDetachDiagnosticHandler(ctx, handler);
  mlirContextDestroy(ctx);
  return 0;
}
