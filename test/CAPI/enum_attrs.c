//===- enum_attrs.c - Enum attribute constructors on bad input -----*- C
//-*-===//
//
// Issue 26: tileReduceKindAttrGet(ctx, 99) built an invalid attribute, and
// the IsA predicates crashed on the null attribute a constructor returns
// for bad input. The constructors of the memory space, warp policy and
// reduce kind attributes return a null attribute for values outside their
// enum (and for a null context); every IsA predicate is false on a null
// attribute.
//
//===----------------------------------------------------------------------===//

// clang-format off
// RUN: %cc -std=c11 -Wall -Wextra -Werror %tile_capi_cflags %s -o %t -L%tile_lib_dir -lTileMLIR-C -Wl,-rpath,%tile_lib_dir
// RUN: %t | FileCheck %s
// clang-format on

#include "mlir-c/IR.h"
#include "tile-c/Dialect.h"
#include "tile-c/Registration.h"

#include <stdio.h>

static void print(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);

  MlirAttribute good = tileReduceKindAttrGet(ctx, TileReduceKindMax);
  printf("max: ");
  mlirAttributePrint(good, print, NULL);
  printf("\n");
  // CHECK: max: #tile.reduce_kind<max>
  printf("reduce 99: %s\n",
         mlirAttributeIsNull(tileReduceKindAttrGet(ctx, (TileReduceKind)99))
             ? "null"
             : "built");
  // CHECK-NEXT: reduce 99: null
  printf("reduce -1: %s\n",
         mlirAttributeIsNull(tileReduceKindAttrGet(ctx, (TileReduceKind)-1))
             ? "null"
             : "built");
  // CHECK-NEXT: reduce -1: null
  printf("policy 7: %s\n",
         mlirAttributeIsNull(tileWarpPolicyAttrGet(ctx, (TileWarpPolicy)7))
             ? "null"
             : "built");
  // CHECK-NEXT: policy 7: null
  printf("space 5: %s\n",
         mlirAttributeIsNull(tileMemorySpaceAttrGet(ctx, (TileMemorySpace)5))
             ? "null"
             : "built");
  // CHECK-NEXT: space 5: null
  MlirContext none = {NULL};
  printf("null context: %s\n",
         mlirAttributeIsNull(tileReduceKindAttrGet(none, TileReduceKindSum))
             ? "null"
             : "built");
  // CHECK-NEXT: null context: null

  MlirAttribute null = {NULL};
  printf("IsA on null: %d %d %d %d\n", tileAttributeIsAReduceKindAttr(null),
         tileAttributeIsAWarpPolicyAttr(null),
         tileAttributeIsAMemorySpaceAttr(null),
         tileAttributeIsALayoutAttr(null));
  // CHECK-NEXT: IsA on null: 0 0 0 0
  printf("IsA on max: %d %d\n", tileAttributeIsAReduceKindAttr(good),
         tileAttributeIsAWarpPolicyAttr(good));
  // CHECK-NEXT: IsA on max: 1 0

  mlirContextDestroy(ctx);
  return 0;
}
