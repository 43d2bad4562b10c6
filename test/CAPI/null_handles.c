//===- null_handles.c - The C API on null and invalid handles -----*- C -*-===//
//
// Issue 26: every function of capi/include/tile-c is defined on NULL or
// invalid handles, handles of another kind, NULL out-pointers and
// out-of-range indices: it returns null, -1, false or failure (with a
// diagnostic where it has a location), never crashes or reads out of
// bounds. Each header documents what its functions return there.
//
//===----------------------------------------------------------------------===//

// clang-format off
// RUN: %cc -std=c11 -Wall -Wextra -Werror %tile_capi_cflags %s -o %t -L%tile_lib_dir -lTileMLIR-C -Wl,-rpath,%tile_lib_dir
// RUN: %t 2>&1 | FileCheck %s
// clang-format on

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "tile-c/Compile.h"
#include "tile-c/Dialect.h"
#include "tile-c/Host.h"
#include "tile-c/Layout.h"
#include "tile-c/Parse.h"
#include "tile-c/Registration.h"

#include <stdio.h>
#include <string.h>

#include "expect.h"

static void printText(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printText, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirStringRef str(const char *text) {
  return mlirStringRefCreateFromCString(text);
}

static const MlirAttribute nullAttr = {NULL};
static const MlirOperation nullOp = {NULL};
static const MlirContext nullCtx = {NULL};
static const MlirLocation nullLoc = {NULL};
static const MlirValue nullValue = {NULL};
static const MlirType nullType = {NULL};
static const MlirModule nullModule = {NULL};
static const MlirBlock nullBlock = {NULL};

/// Attributes, types and blocks (tile-c/Dialect.h).
static void testAttributesAndTypes(MlirContext ctx) {
  EXPECT(!tileAttributeIsAMemorySpaceAttr(nullAttr));
  EXPECT(mlirAttributeIsNull(tileMemorySpaceAttrGet(nullCtx, 0)));
  EXPECT((int)tileMemorySpaceAttrGetValue(nullAttr) == -1);
  EXPECT(mlirAttributeIsNull(tileSharedMemorySpaceAttrGet(nullCtx)));
  EXPECT(mlirAttributeIsNull(
      tileMemoryKindGetMemorySpaceAttr(nullCtx, TileMemoryKindShared)));
  EXPECT(mlirAttributeIsNull(
      tileMemoryKindGetMemorySpaceAttr(ctx, (TileMemoryKind)77)));
  MlirStringRef name = tileMemoryKindGetName((TileMemoryKind)77);
  EXPECT(name.length == 7 && !strncmp(name.data, "unknown", 7));
  EXPECT(!tileAttributeIsALayoutAttr(nullAttr));
  EXPECT(!tileLayoutAttrIsDistributed(nullAttr));
  // An attribute of another kind.
  MlirAttribute unit = mlirUnitAttrGet(ctx);
  EXPECT(!tileLayoutAttrIsDistributed(unit));
  EXPECT((int)tileMemorySpaceAttrGetValue(unit) == -1);
  EXPECT((int)tileWarpPolicyAttrGetValue(unit) == -1);
  EXPECT((int)tileReduceKindAttrGetValue(unit) == -1);
  EXPECT((int)tileWarpPolicyAttrGetValue(nullAttr) == -1);
  EXPECT((int)tileReduceKindAttrGetValue(nullAttr) == -1);

  int64_t shape[2] = {16, 16};
  MlirType f16 = mlirF16TypeGet(ctx);
  EXPECT(mlirTypeIsNull(
      tileMemRefTypeGet(nullType, 2, shape, TileMemoryKindShared)));
  EXPECT(mlirTypeIsNull(tileSharedMemRefTypeGet(f16, 2, NULL)));
  EXPECT(mlirTypeIsNull(tileSharedMemRefTypeGet(f16, -1, shape)));
  EXPECT(mlirTypeIsNull(tileMemRefTypeGet(f16, 2, shape, (TileMemoryKind)77)));
  EXPECT(!mlirTypeIsNull(tileSharedMemRefTypeGet(f16, 2, shape)));
  EXPECT(tileMemRefTypeGetMemoryKind(nullType) == TileMemoryKindUnknown);
  EXPECT(tileMemRefTypeGetMemoryKind(f16) == TileMemoryKindUnknown);
}

/// Op builders and queries (tile-c/Dialect.h).
static void testOps(MlirContext ctx) {
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  int64_t grid[1] = {4};
  // Builders: a null location gives a null operation (no diagnostic: there
  // is no context to report to); bad arguments a diagnostic.
  EXPECT(mlirOperationIsNull(
      tileKernelOpCreate(nullLoc, str("k"), 1, grid, 0, NULL, 128)));
  EXPECT(mlirOperationIsNull(
      tileKernelOpCreate(loc, str("k"), 1, NULL, 0, NULL, 128)));
  // CHECK: diagnostic: tile.kernel needs 1 to 3 grid extents, got 1 at NULL
  int64_t dynamicGrid[1] = {mlirShapedTypeGetDynamicSize()};
  EXPECT(mlirOperationIsNull(
      tileKernelOpCreate(loc, str("k"), 1, dynamicGrid, 1, NULL, 128)));
  // CHECK: diagnostic: tile.kernel dynamic grid extent: 1 values at NULL
  MlirValue nulls[1] = {nullValue};
  EXPECT(mlirOperationIsNull(
      tileKernelOpCreate(loc, str("k"), 1, dynamicGrid, 1, nulls, 128)));
  // CHECK: diagnostic: tile.kernel dynamic grid extent #0 is a null value
  EXPECT(mlirOperationIsNull(tileWsOpCreate(loc, 2, NULL, 0)));
  // CHECK: diagnostic: tile.ws: 2 warpgroups at NULL
  EXPECT(mlirOperationIsNull(tileAllocOpCreate(loc, nullType, nullAttr, 0)));
  // CHECK: diagnostic: tile.alloc expects a memref type, got a null type
  EXPECT(mlirOperationIsNull(
      tileCopyOpCreate(loc, nullValue, 0, NULL, nullValue, 0, NULL)));
  // CHECK: diagnostic: tile.copy source is a null value
  EXPECT(mlirOperationIsNull(tileGemmOpCreate(
      loc, nullValue, nullValue, nullValue, false, false, false, 0)));
  // CHECK: diagnostic: tile.gemm operand A is a null value
  EXPECT(mlirOperationIsNull(tileFillOpCreate(loc, nullValue, nullValue)));
  // CHECK: diagnostic: tile.fill target is a null value
  EXPECT(mlirOperationIsNull(tileParallelOpCreate(loc, 2, NULL, nullAttr)));
  // CHECK: diagnostic: tile.parallel needs at least one extent, got 2 at NULL
  EXPECT(mlirOperationIsNull(
      tileReduceOpCreate(loc, 0, nullValue, nullValue, 0, false)));
  // CHECK: diagnostic: tile.reduce source is a null value

  // Queries on a null operation and on an operation of another kind.
  MlirOperation kernel =
      tileKernelOpCreate(loc, str("k"), 1, grid, 0, NULL, 128);
  EXPECT(!mlirOperationIsNull(kernel));
  int64_t extents[1] = {8};
  MlirOperation parallel = tileParallelOpCreate(loc, 1, extents, nullAttr);
  EXPECT(!mlirOperationIsNull(parallel));
  MlirOperation ops[3] = {nullOp, parallel, kernel};
  for (int i = 0; i < 2; ++i) {
    MlirOperation op = ops[i];
    EXPECT(mlirBlockIsNull(tileKernelOpGetBody(op)));
    EXPECT(mlirValueIsNull(tileKernelOpGetBlockIndex(op, 0)));
    EXPECT(tileKernelOpGetName(op).length == 0);
    EXPECT(tileKernelOpGetGridRank(op) == -1);
    EXPECT(tileKernelOpGetStaticGridExtent(op, 0) == -1);
    EXPECT(tileKernelOpGetThreads(op) == -1);
    EXPECT(tileKernelOpGetSharedMemoryBytes(op) == -1);
    EXPECT(tileKernelOpGetFragmentRegisters(op) == -1);
    EXPECT(mlirBlockIsNull(tileWsOpGetBody(op)));
    EXPECT(!tileGemmOpGetTransposeA(op) && !tileGemmOpGetTransposeB(op) &&
           !tileGemmOpGetClearAccum(op));
    EXPECT((int)tileGemmOpGetPolicy(op) == -1);
    EXPECT((int)tileReduceOpGetKind(op) == -1);
    EXPECT(tileReduceOpGetDim(op) == -1);
    EXPECT(!tileOperationIsAKernelOp(op) && !tileOperationIsAWsOp(op) &&
           !tileOperationIsAYieldOp(op) && !tileOperationIsAAllocOp(op) &&
           !tileOperationIsACopyOp(op) && !tileOperationIsAGemmOp(op) &&
           !tileOperationIsAFillOp(op) && !tileOperationIsAReduceOp(op));
  }
  EXPECT(!tileOperationIsAParallelOp(nullOp));
  EXPECT(mlirBlockIsNull(tileParallelOpGetBody(nullOp)));
  EXPECT(mlirBlockIsNull(tileParallelOpGetBody(kernel)));
  EXPECT(mlirValueIsNull(tileParallelOpGetInductionVar(kernel, 0)));

  // Index getters: in range, then out of range on both sides.
  EXPECT(!mlirValueIsNull(tileKernelOpGetBlockIndex(kernel, 0)));
  EXPECT(mlirValueIsNull(tileKernelOpGetBlockIndex(kernel, 1)));
  EXPECT(mlirValueIsNull(tileKernelOpGetBlockIndex(kernel, -1)));
  EXPECT(tileKernelOpGetStaticGridExtent(kernel, 0) == 4);
  EXPECT(tileKernelOpGetStaticGridExtent(kernel, 1) == -1);
  EXPECT(tileKernelOpGetStaticGridExtent(kernel, -1) == -1);
  EXPECT(!mlirValueIsNull(tileParallelOpGetInductionVar(parallel, 0)));
  EXPECT(mlirValueIsNull(tileParallelOpGetInductionVar(parallel, 1)));
  EXPECT(mlirValueIsNull(tileParallelOpGetInductionVar(parallel, -1)));

  // Blocks: nothing happens (false) for null handles or an operation that
  // is not owned by the caller.
  MlirBlock body = tileKernelOpGetBody(kernel);
  EXPECT(!tileBlockInsertOwnedOperation(nullBlock, parallel));
  EXPECT(!tileBlockInsertOwnedOperation(body, nullOp));
  EXPECT(!tileBlockInsertOwnedOperation(body, kernel)); // into itself
  EXPECT(tileBlockInsertOwnedOperation(body, parallel));
  EXPECT(!tileBlockInsertOwnedOperation(body, parallel)); // already in one
  mlirOperationDestroy(kernel);
}

/// Layout queries on null and foreign attributes (tile-c/Layout.h).
static void testLayouts(MlirContext ctx) {
  MlirAttribute unit = mlirUnitAttrGet(ctx);
  MlirAttribute attrs[2] = {nullAttr, unit};
  for (int i = 0; i < 2; ++i) {
    MlirAttribute a = attrs[i];
    int64_t coord[2] = {0, 0}, thread = 7, reg = 7;
    EXPECT(!tileAttributeIsALinearLayout(a));
    EXPECT(tileLinearLayoutGetRank(a) == -1);
    EXPECT(tileLinearLayoutGetDimSize(a, 0) == -1);
    EXPECT(tileLinearLayoutGetNumThreads(a) == -1);
    EXPECT(tileLinearLayoutGetRegistersPerThread(a) == -1);
    EXPECT(tileLinearLayoutGetReplication(a) == -1);
    EXPECT(tileLinearLayoutGetVectorWidth(a) == -1);
    EXPECT(!tileLinearLayoutGetElement(a, 0, 0, coord));
    EXPECT(!tileLinearLayoutGetHolder(a, coord, &thread, &reg));
    EXPECT(!tileLinearLayoutIsContainedIn(a, a));
    EXPECT(!tileAttributeIsASharedLayout(a));
    EXPECT(tileSharedLayoutGetSwizzle(a) == -1);
    EXPECT(tileSharedLayoutGetPad(a) == -1);
    EXPECT(tileSharedLayoutGetByteOffset(a, 2, coord, coord, 16) == -1);
  }
  // Constructors on a null context.
  int64_t shape[2] = {64, 64};
  EXPECT(mlirAttributeIsNull(
      tileLinearLayoutGetMmaSyncAccumulator(nullCtx, 16, 8, 1, 1)));
  EXPECT(mlirAttributeIsNull(
      tileLinearLayoutGetBlocked(nullCtx, 2, shape, 128, 4, 32)));
  EXPECT(mlirAttributeIsNull(tileSharedLayoutGet(nullCtx, 128, 0)));
  // NULL arrays and out-pointers, out-of-range indices.
  MlirAttribute acc = tileLinearLayoutGetMmaSyncAccumulator(ctx, 16, 8, 1, 1);
  int64_t coord[2] = {0, 0}, thread, reg;
  EXPECT(tileLinearLayoutGetDimSize(acc, 2) == -1);
  EXPECT(tileLinearLayoutGetDimSize(acc, -1) == -1);
  EXPECT(!tileLinearLayoutGetElement(acc, 0, 0, NULL));
  EXPECT(!tileLinearLayoutGetElement(acc, 32, 0, coord));
  EXPECT(!tileLinearLayoutGetElement(acc, 0, 4, coord));
  EXPECT(!tileLinearLayoutGetHolder(acc, NULL, &thread, &reg));
  EXPECT(!tileLinearLayoutGetHolder(acc, coord, NULL, &reg));
  EXPECT(!tileLinearLayoutGetHolder(acc, coord, &thread, NULL));
  EXPECT(mlirAttributeIsNull(
      tileLinearLayoutGetBlocked(ctx, 2, NULL, 128, 4, 32)));
  MlirAttribute shared = tileSharedLayoutGet(ctx, 128, 0);
  int64_t tile[2] = {64, 64}, at[2] = {1, 2}, outside[2] = {64, 0};
  EXPECT(tileSharedLayoutGetByteOffset(shared, 2, tile, at, 16) >= 0);
  EXPECT(tileSharedLayoutGetByteOffset(shared, 2, NULL, at, 16) == -1);
  EXPECT(tileSharedLayoutGetByteOffset(shared, 2, tile, NULL, 16) == -1);
  EXPECT(tileSharedLayoutGetByteOffset(shared, 2, tile, outside, 16) == -1);
  EXPECT(tileSharedLayoutGetByteOffset(shared, 2, tile, at, 0) == -1);
  // A tile whose bytes overflow 64 bits.
  int64_t huge[2] = {INT64_MAX / 2, INT64_MAX / 2};
  EXPECT(tileSharedLayoutGetByteOffset(shared, 2, huge, at, 16) == -1);
}

/// Parsing, registration, compiled-module and host queries.
static void testModules(MlirContext ctx) {
  EXPECT(mlirModuleIsNull(
      tileModuleCreateParse(nullCtx, str("module {}"), str("x"))));
  EXPECT(mlirModuleIsNull(tileModuleCreateParseFromFile(nullCtx, str("x"))));
  tileRegisterAllDialects((MlirDialectRegistry){NULL});

  const void *data = (const void *)1;
  size_t size = 1;
  int64_t shared = 1, block[3] = {1, 1, 1};
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleGetGPUBinary(nullModule, str(""), &data, &size)));
  EXPECT(data == NULL && size == 0);
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleGetLaunchInfo(nullModule, str(""), &shared, block)));
  EXPECT(shared == -1 && block[0] == -1);
  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleGetGPUBinary(module, str(""), NULL, &size)));
  // CHECK: diagnostic: tileModuleGetGPUBinary: NULL data or size pointer
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleGetGPUBinary(module, str(""), &data, NULL)));
  // CHECK: diagnostic: tileModuleGetGPUBinary: NULL data or size pointer
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleGetLaunchInfo(module, str(""), NULL, block)));
  // CHECK: diagnostic: tileModuleGetLaunchInfo: NULL shared-bytes or block
  // pointer
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleGetLaunchInfo(module, str(""), &shared, NULL)));
  // CHECK: diagnostic: tileModuleGetLaunchInfo: NULL shared-bytes or block
  // pointer
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleGetGPUBinary(module, str(""), &data, &size)));
  // CHECK: diagnostic: no gpu.binary for kernel ''

  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitCHeader(nullModule, str("G_H"), printText, NULL)));
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitCHeader(module, str("G_H"), NULL, NULL)));
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitObjectFile(nullModule, str("/dev/null"), 0)));
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitObjectFile(module, (MlirStringRef){NULL, 0}, 0)));
  // CHECK: diagnostic: no object file path
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitObjectFile(module, str("/dev/null"), 9)));
  // CHECK: diagnostic: host opt-level must be from 0 to 3, got 9
  mlirModuleDestroy(module);

  // I/O failures are error returns, not LLVM's fatal "IO failure".
  MlirModule lowered = tileModuleCreateParse(
      ctx, str("llvm.func @f() {\n  llvm.return\n}\n"), str("lowered"));
  EXPECT(!mlirModuleIsNull(lowered));
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitObjectFile(lowered, str("/dev/full"), 0)));
  // CHECK: diagnostic: cannot write '/dev/full': No space left on device
  EXPECT(mlirLogicalResultIsSuccess(
      tileModuleEmitObjectFile(lowered, str("/dev/null"), 0)));
  mlirModuleDestroy(lowered);

  // Header names: the guard and the functions must be C identifiers and
  // no keywords.
  MlirModule named = tileModuleCreateParse(
      ctx, str("func.func @\"void\"() {\n  return\n}\n"), str("named"));
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitCHeader(named, str("G_H"), printText, NULL)));
  // CHECK: diagnostic: 'func.func' op cannot be declared in a C header: its
  // name 'void' is a C or C++ keyword
  mlirModuleDestroy(named);
  MlirModule fine = tileModuleCreateParse(
      ctx, str("func.func @f() {\n  return\n}\n"), str("fine"));
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitCHeader(fine, str("A B"), printText, NULL)));
  // CHECK: diagnostic: the header's include guard 'A B' is not a C identifier
  // or is a C or C++ keyword
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitCHeader(fine, (MlirStringRef){NULL, 3}, printText, NULL)));

  // The function table: null handles, then what it cannot describe.
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitSignatures((MlirModule){NULL}, printText, NULL)));
  EXPECT(
      mlirLogicalResultIsFailure(tileModuleEmitSignatures(fine, NULL, NULL)));
  printf("\n");
  EXPECT(mlirLogicalResultIsSuccess(
      tileModuleEmitSignatures(fine, printText, NULL)));
  printf("\n");
  // CHECK: {"functions":[{"args":[],"name":"f","result":null}],"version":1}
  MlirModule unranked = tileModuleCreateParse(
      ctx, str("func.func @u(%x: memref<*xf32>) {\n  return\n}\n"),
      str("unranked"));
  EXPECT(mlirLogicalResultIsFailure(
      tileModuleEmitSignatures(unranked, printText, NULL)));
  // CHECK: diagnostic: 'func.func' op cannot be described for callers:
  // argument #0 is an unranked memref
  mlirModuleDestroy(unranked);
  mlirModuleDestroy(fine);
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  testAttributesAndTypes(ctx);
  testOps(ctx);
  testLayouts(ctx);
  testModules(ctx);

  mlirContextDestroy(ctx);
  printf("failures: %d\n", failures);
  // CHECK: failures: 0
  return failures != 0;
}
