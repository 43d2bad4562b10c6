//===- ir.c - Build tile IR through the C API ---------------------*- C -*-===//
//
// Builds a gemm kernel and a row-max kernel with the tile C API builders,
// verifies and prints them, and queries attributes and types back.
//
//===----------------------------------------------------------------------===//

// RUN: tile-capi-ir-test 2>&1 | FileCheck %s

#include "mlir-c/IR.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "tile-c/Dialect.h"
#include "tile-c/Registration.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static void printAttr(const char *what, MlirAttribute attr) {
  printf("%s: ", what);
  mlirAttributePrint(attr, printToStdout, NULL);
  printf("\n");
}

static void printType(const char *what, MlirType type) {
  printf("%s: ", what);
  mlirTypePrint(type, printToStdout, NULL);
  printf("\n");
}

static MlirOperation expectOp(MlirOperation op, const char *what) {
  if (mlirOperationIsNull(op)) {
    fprintf(stderr, "failed to create %s\n", what);
    exit(1);
  }
  return op;
}

/// Appends `op` to `block` (before its terminator, if any).
static MlirOperation insert(MlirBlock block, MlirOperation op) {
  tileBlockInsertOwnedOperation(block, op);
  return op;
}

static MlirValue result(MlirOperation op) {
  return mlirOperationGetResult(op, 0);
}

/// Appends a `tile.alloc` of `type` (without layout) to `block`; returns the
/// tile.
static MlirValue allocTile(MlirBlock block, MlirLocation loc, MlirType type,
                           int64_t alignment) {
  return result(insert(
      block,
      expectOp(tileAllocOpCreate(loc, type, mlirAttributeGetNull(), alignment),
               "tile.alloc")));
}

static MlirOperation createGeneric(const char *name, MlirLocation loc,
                                   intptr_t numOperands,
                                   const MlirValue *operands,
                                   intptr_t numResults, const MlirType *results,
                                   intptr_t numAttrs,
                                   const MlirNamedAttribute *attrs) {
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddOperands(&state, numOperands, operands);
  mlirOperationStateAddResults(&state, numResults, results);
  mlirOperationStateAddAttributes(&state, numAttrs, attrs);
  return expectOp(mlirOperationCreate(&state), name);
}

static MlirNamedAttribute namedAttr(MlirContext ctx, const char *name,
                                    MlirAttribute attr) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), attr);
}

static MlirValue indexConstant(MlirContext ctx, MlirBlock block,
                               MlirLocation loc, int64_t value) {
  MlirType index = mlirIndexTypeGet(ctx);
  MlirNamedAttribute attr =
      namedAttr(ctx, "value", mlirIntegerAttrGet(index, value));
  return result(insert(block, createGeneric("arith.constant", loc, 0, NULL, 1,
                                            &index, 1, &attr)));
}

static MlirValue f32Constant(MlirContext ctx, MlirBlock block, MlirLocation loc,
                             double value) {
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirNamedAttribute attr =
      namedAttr(ctx, "value", mlirFloatAttrDoubleGet(ctx, f32, value));
  return result(insert(
      block, createGeneric("arith.constant", loc, 0, NULL, 1, &f32, 1, &attr)));
}

static MlirValue muli(MlirBlock block, MlirLocation loc, MlirValue lhs,
                      MlirValue rhs) {
  MlirValue operands[] = {lhs, rhs};
  MlirType type = mlirValueGetType(lhs);
  return result(insert(
      block, createGeneric("arith.muli", loc, 2, operands, 1, &type, 0, NULL)));
}

/// Creates `func.func @name(inputs) { return }` in `module` and returns its
/// entry block.
static MlirBlock createFunc(MlirContext ctx, MlirModule module,
                            const char *name, intptr_t numInputs,
                            const MlirType *inputs, MlirLocation loc) {
  MlirType funcType = mlirFunctionTypeGet(ctx, numInputs, inputs, 0, NULL);
  MlirNamedAttribute attrs[] = {
      namedAttr(ctx, "sym_name",
                mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(name))),
      namedAttr(ctx, "function_type", mlirTypeAttrGet(funcType)),
  };
  MlirRegion body = mlirRegionCreate();
  MlirLocation *locs = malloc(sizeof(MlirLocation) * (numInputs + 1));
  for (intptr_t i = 0; i < numInputs; ++i)
    locs[i] = loc;
  MlirBlock entry = mlirBlockCreate(numInputs, inputs, locs);
  free(locs);
  mlirRegionAppendOwnedBlock(body, entry);
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("func.func"), loc);
  mlirOperationStateAddAttributes(&state, 2, attrs);
  mlirOperationStateAddOwnedRegions(&state, 1, &body);
  MlirOperation func = expectOp(mlirOperationCreate(&state), "func.func");
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), func);
  mlirBlockAppendOwnedOperation(
      entry, createGeneric("func.return", loc, 0, NULL, 0, NULL, 0, NULL));
  return entry;
}

/// func.func @gemm(%A, %B, %C: memref<?x?xf16>, %gx: index): a 128x128x32
/// gemm kernel over a [%gx, 4] grid.
static MlirOperation buildGemm(MlirContext ctx, MlirModule module) {
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirType f16 = mlirF16TypeGet(ctx);
  MlirType f32 = mlirF32TypeGet(ctx);
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  int64_t globalShape[] = {dyn, dyn};
  MlirType global = tileGlobalMemRefTypeGet(f16, 2, globalShape);
  MlirType inputs[] = {global, global, global, mlirIndexTypeGet(ctx)};
  MlirBlock entry = createFunc(ctx, module, "gemm", 4, inputs, loc);
  MlirValue A = mlirBlockGetArgument(entry, 0);
  MlirValue B = mlirBlockGetArgument(entry, 1);
  MlirValue C = mlirBlockGetArgument(entry, 2);
  MlirValue gx = mlirBlockGetArgument(entry, 3);

  MlirValue c128 = indexConstant(ctx, entry, loc, 128);
  int64_t grid[] = {dyn, 4};
  MlirOperation kernel = insert(
      entry,
      expectOp(tileKernelOpCreate(
                   mlirLocationFileLineColGet(
                       ctx, mlirStringRefCreateFromCString("ir.c"), 1, 1),
                   mlirStringRefCreateFromCString("gemm_kernel"), 2, grid, 1,
                   &gx, 128),
               "tile.kernel"));
  MlirBlock body = tileKernelOpGetBody(kernel);
  MlirValue bx = tileKernelOpGetBlockIndex(kernel, 0);
  MlirValue by = tileKernelOpGetBlockIndex(kernel, 1);

  int64_t aShape[] = {128, 32}, bShape[] = {32, 128}, cShape[] = {128, 128};
  MlirValue As =
      allocTile(body, loc, tileSharedMemRefTypeGet(f16, 2, aShape), 0);
  MlirValue Bs =
      allocTile(body, loc, tileSharedMemRefTypeGet(f16, 2, bShape), 128);
  MlirValue acc =
      allocTile(body, loc, tileFragmentMemRefTypeGet(f32, 2, cShape), 0);
  MlirValue zero = f32Constant(ctx, body, loc, 0.0);
  insert(body, expectOp(tileFillOpCreate(loc, acc, zero), "tile.fill"));

  MlirValue m0 = muli(body, loc, by, c128);
  MlirValue n0 = muli(body, loc, bx, c128);
  MlirValue k0 = indexConstant(ctx, body, loc, 0);
  MlirValue aOffsets[] = {m0, k0}, bOffsets[] = {k0, n0}, cOffsets[] = {m0, n0};
  MlirOperation copyA =
      insert(body, expectOp(tileCopyOpCreate(loc, A, 2, aOffsets, As, 0, NULL),
                            "tile.copy"));
  // A padding (here zero, as without one); only numbers, only on copies.
  MlirAttribute zero16 = mlirFloatAttrDoubleGet(ctx, mlirF16TypeGet(ctx), 0.0);
  printf(
      "padding set: %d, on a kernel: %d, a string: %d\n",
      mlirLogicalResultIsSuccess(tileCopyOpSetPadding(copyA, zero16)),
      mlirLogicalResultIsSuccess(
          tileCopyOpSetPadding(mlirOperationGetParentOperation(copyA), zero16)),
      mlirLogicalResultIsSuccess(tileCopyOpSetPadding(
          copyA, mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("x")))));
  insert(body, expectOp(tileCopyOpCreate(loc, B, 2, bOffsets, Bs, 0, NULL),
                        "tile.copy"));
  insert(body, expectOp(tileGemmOpCreate(loc, As, Bs, acc, false, false, false,
                                         TileWarpPolicyFullRow),
                        "tile.gemm"));
  insert(body, expectOp(tileCopyOpCreate(loc, acc, 0, NULL, C, 2, cOffsets),
                        "tile.copy"));
  return kernel;
}

/// func.func @row_max(): a kernel with a parallel loop, a reduction and a
/// warp-specialized region.
static MlirOperation buildRowMax(MlirContext ctx, MlirModule module) {
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirBlock entry = createFunc(ctx, module, "row_max", 0, NULL, loc);

  int64_t grid[] = {8};
  MlirOperation kernel =
      insert(entry, expectOp(tileKernelOpCreate(
                                 loc, mlirStringRefCreateFromCString("row_max"),
                                 1, grid, 0, NULL, 256),
                             "tile.kernel"));
  MlirBlock body = tileKernelOpGetBody(kernel);
  int64_t sShape[] = {128, 64}, mShape[] = {128}, lShape[] = {4};
  MlirValue S =
      allocTile(body, loc, tileFragmentMemRefTypeGet(f32, 2, sShape), 0);
  MlirValue M =
      allocTile(body, loc, tileFragmentMemRefTypeGet(f32, 1, mShape), 0);
  MlirValue L = allocTile(body, loc, tileLocalMemRefTypeGet(f32, 1, lShape), 0);
  MlirValue one = f32Constant(ctx, body, loc, 1.0);

  int64_t extents[] = {128, 64};
  MlirOperation parallel = insert(
      body,
      expectOp(tileParallelOpCreate(loc, 2, extents, mlirAttributeGetNull()),
               "tile.parallel"));
  MlirValue storeOperands[] = {one, S,
                               tileParallelOpGetInductionVar(parallel, 0),
                               tileParallelOpGetInductionVar(parallel, 1)};
  insert(
      tileParallelOpGetBody(parallel),
      createGeneric("memref.store", loc, 4, storeOperands, 0, NULL, 0, NULL));

  insert(body,
         expectOp(tileReduceOpCreate(loc, TileReduceKindMax, S, M, 1, true),
                  "tile.reduce"));
  int64_t groups[] = {1};
  MlirOperation ws =
      insert(body, expectOp(tileWsOpCreate(loc, 1, groups, 232), "tile.ws"));
  insert(tileWsOpGetBody(ws), tileFillOpCreate(loc, L, one));
  return kernel;
}

static const char *opKind(MlirOperation op) {
  if (tileOperationIsAKernelOp(op))
    return "kernel";
  if (tileOperationIsAWsOp(op))
    return "ws";
  if (tileOperationIsAYieldOp(op))
    return "yield";
  if (tileOperationIsAAllocOp(op))
    return "alloc";
  if (tileOperationIsACopyOp(op))
    return "copy";
  if (tileOperationIsAGemmOp(op))
    return "gemm";
  if (tileOperationIsAFillOp(op))
    return "fill";
  if (tileOperationIsAParallelOp(op))
    return "parallel";
  if (tileOperationIsAReduceOp(op))
    return "reduce";
  return "other";
}

static void queryKernel(MlirOperation kernel) {
  MlirStringRef name = tileKernelOpGetName(kernel);
  printf("kernel %.*s: rank %d, threads %" PRId64 ", grid [", (int)name.length,
         name.data, (int)tileKernelOpGetGridRank(kernel),
         tileKernelOpGetThreads(kernel));
  for (intptr_t i = 0, e = tileKernelOpGetGridRank(kernel); i < e; ++i) {
    int64_t extent = tileKernelOpGetStaticGridExtent(kernel, i);
    if (mlirShapedTypeIsDynamicSize(extent))
      printf("%s?", i ? ", " : "");
    else
      printf("%s%" PRId64, i ? ", " : "", extent);
  }
  printf("], shared memory bytes %" PRId64 "\n",
         tileKernelOpGetSharedMemoryBytes(kernel));

  for (MlirOperation op =
           mlirBlockGetFirstOperation(tileKernelOpGetBody(kernel));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    printf("  %s", opKind(op));
    if (tileOperationIsACopyOp(op)) {
      MlirAttribute padding = tileCopyOpGetPadding(op);
      if (!mlirAttributeIsNull(padding))
        printf(" padding %g", mlirFloatAttrGetValueDouble(padding));
    } else if (tileOperationIsAAllocOp(op)) {
      MlirType type = mlirValueGetType(result(op));
      MlirStringRef kind =
          tileMemoryKindGetName(tileMemRefTypeGetMemoryKind(type));
      printf(" in %.*s memory", (int)kind.length, kind.data);
      MlirAttribute space = mlirMemRefTypeGetMemorySpace(type);
      if (tileAttributeIsAMemorySpaceAttr(space))
        printf(", tile memory space %d",
               (int)tileMemorySpaceAttrGetValue(space));
    } else if (tileOperationIsAGemmOp(op)) {
      printf(" transpose_a %d transpose_b %d clear_accum %d policy %d",
             tileGemmOpGetTransposeA(op), tileGemmOpGetTransposeB(op),
             tileGemmOpGetClearAccum(op), (int)tileGemmOpGetPolicy(op));
      MlirAttribute policy = mlirOperationGetAttributeByName(
          op, mlirStringRefCreateFromCString("policy"));
      printf(" (attribute: %d)", tileAttributeIsAWarpPolicyAttr(policy)
                                     ? (int)tileWarpPolicyAttrGetValue(policy)
                                     : -1);
    } else if (tileOperationIsAReduceOp(op)) {
      printf(" kind %d dim %" PRId64, (int)tileReduceOpGetKind(op),
             tileReduceOpGetDim(op));
    }
    printf("\n");
  }
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);

  // Attributes.
  printAttr("fragment", tileMemorySpaceAttrGet(ctx, TileMemorySpaceFragment));
  printAttr("local", tileMemorySpaceAttrGet(ctx, TileMemorySpaceLocal));
  printAttr("shared", tileSharedMemorySpaceAttrGet(ctx));
  printf("global is null: %d\n",
         mlirAttributeIsNull(
             tileMemoryKindGetMemorySpaceAttr(ctx, TileMemoryKindGlobal)));
  printAttr("local kind",
            tileMemoryKindGetMemorySpaceAttr(ctx, TileMemoryKindLocal));
  // CHECK: fragment: #tile.mem<fragment>
  // CHECK: local: #tile.mem<local>
  // CHECK: shared: #gpu.address_space<workgroup>
  // CHECK: global is null: 1
  // CHECK: local kind: #tile.mem<local>

  MlirAttribute policy = tileWarpPolicyAttrGet(ctx, TileWarpPolicyFullCol);
  printAttr("policy", policy);
  printf("policy: isa %d value %d, not a reduce kind %d\n",
         tileAttributeIsAWarpPolicyAttr(policy),
         (int)tileWarpPolicyAttrGetValue(policy),
         !tileAttributeIsAReduceKindAttr(policy));
  MlirAttribute kind = tileReduceKindAttrGet(ctx, TileReduceKindAbsMax);
  printAttr("reduce kind", kind);
  printf("reduce kind: isa %d value %d, not a memory space %d\n",
         tileAttributeIsAReduceKindAttr(kind),
         (int)tileReduceKindAttrGetValue(kind),
         !tileAttributeIsAMemorySpaceAttr(kind));
  // CHECK: policy: #tile.warp_policy<full_col>
  // CHECK: policy: isa 1 value 2, not a reduce kind 1
  // CHECK: reduce kind: #tile.reduce_kind<abs_max>
  // CHECK: reduce kind: isa 1 value 4, not a memory space 1

  // Types.
  int64_t shape[] = {64, 16};
  MlirType bf16 = mlirBF16TypeGet(ctx);
  printType("global", tileGlobalMemRefTypeGet(bf16, 2, shape));
  printType("shared", tileSharedMemRefTypeGet(bf16, 2, shape));
  printType("fragment", tileFragmentMemRefTypeGet(bf16, 2, shape));
  printType("local", tileLocalMemRefTypeGet(bf16, 2, shape));
  printType("generic shared",
            tileMemRefTypeGet(bf16, 2, shape, TileMemoryKindShared));
  MlirType fragment = tileFragmentMemRefTypeGet(bf16, 2, shape);
  printf(
      "kinds: %d %d %d %d, non-memref %d\n",
      (int)tileMemRefTypeGetMemoryKind(tileGlobalMemRefTypeGet(bf16, 2, shape)),
      (int)tileMemRefTypeGetMemoryKind(tileSharedMemRefTypeGet(bf16, 2, shape)),
      (int)tileMemRefTypeGetMemoryKind(fragment),
      (int)tileMemRefTypeGetMemoryKind(tileLocalMemRefTypeGet(bf16, 2, shape)),
      (int)tileMemRefTypeGetMemoryKind(bf16));
  // CHECK: global: memref<64x16xbf16>
  // CHECK: shared: memref<64x16xbf16, #gpu.address_space<workgroup>>
  // CHECK: fragment: memref<64x16xbf16, #tile.mem<fragment>>
  // CHECK: local: memref<64x16xbf16, #tile.mem<local>>
  // CHECK: generic shared: memref<64x16xbf16, #gpu.address_space<workgroup>>
  // CHECK: kinds: 0 1 2 3, non-memref 4

  // Layouts.
  MlirAttribute layout = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#tile.shared<swizzle = 128>"));
  printf("layout: isa %d distributed %d, string isa %d\n",
         tileAttributeIsALayoutAttr(layout),
         tileLayoutAttrIsDistributed(layout),
         tileAttributeIsALayoutAttr(mlirStringAttrGet(
             ctx, mlirStringRefCreateFromCString("row_major"))));
  MlirOperation swizzled =
      tileAllocOpCreate(mlirLocationUnknownGet(ctx),
                        tileSharedMemRefTypeGet(bf16, 2, shape), layout, 1024);
  mlirOperationPrint(swizzled, printToStdout, NULL);
  printf("\n");
  mlirOperationDestroy(swizzled);
  // clang-format off
  // CHECK: layout: isa 1 distributed 0, string isa 0
  // (A detached alloc does not verify: it is printed in generic form.)
  // CHECK: "tile.alloc"() <{alignment = 1024 : i64, layout = #tile.shared<swizzle = 128>}> : () -> memref<64x16xbf16, #gpu.address_space<workgroup>>
  // clang-format on

  // Kernels.
  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(ctx));
  MlirOperation gemm = buildGemm(ctx, module);
  MlirOperation rowMax = buildRowMax(ctx, module);
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  printf("verified: %d\n", mlirOperationVerify(moduleOp));
  mlirOperationPrint(moduleOp, printToStdout, NULL);
  printf("\n");
  // clang-format off
  // CHECK: padding set: 1, on a kernel: 0, a string: 0
  // CHECK: verified: 1
  // CHECK-LABEL: func.func @gemm(
  // CHECK-SAME: %[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[C:.*]]: memref<?x?xf16>, %[[GX:.*]]: index)
  // CHECK: %[[C128:.*]] = arith.constant 128 : index
  // CHECK: tile.kernel @gemm_kernel blocks(%[[BX:.*]], %[[BY:.*]]) in [%[[GX]], 4] threads(128) {
  // CHECK-NEXT: %[[AS:.*]] = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
  // CHECK-NEXT: %[[BS:.*]] = tile.alloc {alignment = 128 : i64} : memref<32x128xf16, #gpu.address_space<workgroup>>
  // CHECK-NEXT: %[[ACC:.*]] = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
  // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
  // CHECK-NEXT: tile.fill %[[ACC]], %[[ZERO]] : memref<128x128xf32, #tile.mem<fragment>>
  // CHECK-NEXT: %[[M0:.*]] = arith.muli %[[BY]], %[[C128]] : index
  // CHECK-NEXT: %[[N0:.*]] = arith.muli %[[BX]], %[[C128]] : index
  // CHECK-NEXT: %[[K0:.*]] = arith.constant 0 : index
  // CHECK-NEXT: tile.copy %[[A]][%[[M0]], %[[K0]]], %[[AS]] padding(0.000000e+00 : f16) : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  // CHECK-NEXT: tile.copy %[[B]][%[[K0]], %[[N0]]], %[[BS]] : memref<?x?xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
  // CHECK-NEXT: tile.gemm %[[AS]], %[[BS]], %[[ACC]] policy <full_row> : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  // CHECK-NEXT: tile.copy %[[ACC]], %[[C]][%[[M0]], %[[N0]]] : memref<128x128xf32, #tile.mem<fragment>> to memref<?x?xf16>
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-LABEL: func.func @row_max()
  // CHECK: tile.kernel @row_max blocks(%{{.*}}) in [8] threads(256) {
  // CHECK-NEXT: %[[S:.*]] = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
  // CHECK-NEXT: %[[M:.*]] = tile.alloc : memref<128xf32, #tile.mem<fragment>>
  // CHECK-NEXT: %[[L:.*]] = tile.alloc : memref<4xf32, #tile.mem<local>>
  // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
  // CHECK-NEXT: tile.parallel (%[[I:.*]], %[[J:.*]]) in [128, 64] {
  // CHECK-NEXT: memref.store %[[ONE]], %[[S]][%[[I]], %[[J]]] : memref<128x64xf32, #tile.mem<fragment>>
  // CHECK-NEXT: }
  // CHECK-NEXT: tile.reduce <max> %[[S]], %[[M]] dim 1 clear : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
  // CHECK-NEXT: tile.ws [1] registers(232) {
  // CHECK-NEXT: tile.fill %[[L]], %[[ONE]] : memref<4xf32, #tile.mem<local>>
  // CHECK-NEXT: }
  // CHECK-NEXT: }
  // clang-format on

  queryKernel(gemm);
  queryKernel(rowMax);
  // clang-format off
  // CHECK-LABEL: kernel gemm_kernel: rank 2, threads 128, grid [?, 4], shared memory bytes -1
  // CHECK-NEXT: alloc in shared memory
  // CHECK-NEXT: alloc in shared memory
  // CHECK-NEXT: alloc in fragment memory, tile memory space 0
  // CHECK-NEXT: other
  // CHECK-NEXT: fill
  // CHECK-NEXT: other
  // CHECK-NEXT: other
  // CHECK-NEXT: other
  // CHECK-NEXT: copy padding 0
  // CHECK-NEXT: copy
  // CHECK-NEXT: gemm transpose_a 0 transpose_b 0 clear_accum 0 policy 1 (attribute: 1)
  // CHECK-NEXT: copy
  // CHECK-NEXT: yield
  // CHECK-LABEL: kernel row_max: rank 1, threads 256, grid [8], shared memory bytes -1
  // CHECK-NEXT: alloc in fragment memory, tile memory space 0
  // CHECK-NEXT: alloc in fragment memory, tile memory space 0
  // CHECK-NEXT: alloc in local memory, tile memory space 1
  // CHECK-NEXT: other
  // CHECK-NEXT: parallel
  // CHECK-NEXT: reduce kind 1 dim 1
  // CHECK-NEXT: ws
  // CHECK-NEXT: yield
  // clang-format on

  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
