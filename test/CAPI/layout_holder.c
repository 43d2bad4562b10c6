//===- layout_holder.c - Layout queries in bounded time -----------*- C -*-===//
//
// Issue 26: tileLinearLayoutGetHolder searched threads x registers, over a
// minute on a large layout. It now solves the layout's linear system over
// GF(2): this test checks it against a direct search on small layouts
// (every element of each, with replication), then queries layouts far too
// large to search (2^60 elements) and checks the answers with
// tileLinearLayoutGetElement. The named layouts' arguments are limited
// (powers of two up to 2^30, tiles up to 2^62 elements, rank up to 16):
// beyond that they give a null attribute instead of overflowing.
//
//===----------------------------------------------------------------------===//

// clang-format off
// RUN: %cc -std=c11 -Wall -Wextra -Werror %tile_capi_cflags %s -o %t -L%tile_lib_dir -lTileMLIR-C -Wl,-rpath,%tile_lib_dir
// RUN: %t 2>&1 | FileCheck %s
// clang-format on

#include "mlir-c/IR.h"
#include "tile-c/Dialect.h"
#include "tile-c/Layout.h"

#include <stdint.h>
#include <stdio.h>

#include "expect.h"

/// The holder by direct search: the lowest thread, then its lowest
/// register, whose element is `coord`.
static int searchHolder(MlirAttribute layout, const int64_t *coord,
                        int64_t *thread, int64_t *reg) {
  int64_t threads = tileLinearLayoutGetNumThreads(layout);
  int64_t regs = tileLinearLayoutGetRegistersPerThread(layout);
  intptr_t rank = tileLinearLayoutGetRank(layout);
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t r = 0; r < regs; ++r) {
      int64_t at[4];
      tileLinearLayoutGetElement(layout, t, r, at);
      int same = 1;
      for (intptr_t d = 0; d < rank; ++d)
        same &= at[d] == coord[d];
      if (same) {
        *thread = t;
        *reg = r;
        return 1;
      }
    }
  return 0;
}

/// Every element of a 2-d `layout`: the holder is the searched one.
static void compareWithSearch(MlirAttribute layout, const char *name) {
  EXPECT(!mlirAttributeIsNull(layout));
  int mismatches = 0, checked = 0;
  int64_t rows = tileLinearLayoutGetDimSize(layout, 0);
  int64_t cols = tileLinearLayoutGetDimSize(layout, 1);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      int64_t coord[2] = {i, j}, t1 = -1, r1 = -1, t2 = -2, r2 = -2;
      int found = tileLinearLayoutGetHolder(layout, coord, &t1, &r1);
      int searched = searchHolder(layout, coord, &t2, &r2);
      mismatches += found != searched || (found && (t1 != t2 || r1 != r2));
      ++checked;
    }
  printf("%s: %d elements, %d mismatches\n", name, checked, mismatches);
  EXPECT(mismatches == 0);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__tile__(), ctx);

  compareWithSearch(tileLinearLayoutGetMmaSyncAccumulator(ctx, 64, 32, 2, 2),
                    "mma accumulator");
  // CHECK: mma accumulator: 2048 elements, 0 mismatches
  compareWithSearch(tileLinearLayoutGetMmaSyncOperandB(ctx, 32, 32, 16, 2, 2),
                    "mma operand B");
  // CHECK: mma operand B: 1024 elements, 0 mismatches
  compareWithSearch(tileLinearLayoutGetWgmmaAccumulator(ctx, 64, 64, 1),
                    "wgmma accumulator");
  // CHECK: wgmma accumulator: 4096 elements, 0 mismatches
  // Replicated: 256 threads over 8 x 8 elements.
  int64_t small[2] = {8, 8};
  compareWithSearch(tileLinearLayoutGetBlocked(ctx, 2, small, 256, 1, 32),
                    "replicated blocked");
  // CHECK: replicated blocked: 64 elements, 0 mismatches

  // 2^60 elements: 2^55 registers per thread, far beyond any search.
  int64_t huge[2] = {INT64_C(1) << 30, INT64_C(1) << 30};
  MlirAttribute big = tileLinearLayoutGetBlocked(ctx, 2, huge, 1024, 4, 32);
  EXPECT(!mlirAttributeIsNull(big));
  EXPECT(tileLinearLayoutGetRegistersPerThread(big) == INT64_C(1) << 50);
  int64_t probes[3][2] = {{0, 0},
                          {(INT64_C(1) << 30) - 1, (INT64_C(1) << 30) - 1},
                          {123456789, 987654321}};
  for (int p = 0; p < 3; ++p) {
    int64_t thread = -1, reg = -1, back[2] = {-1, -1};
    EXPECT(tileLinearLayoutGetHolder(big, probes[p], &thread, &reg));
    EXPECT(tileLinearLayoutGetElement(big, thread, reg, back));
    EXPECT(back[0] == probes[p][0] && back[1] == probes[p][1]);
    printf("holder %d: thread %lld register %lld\n", p, (long long)thread,
           (long long)reg);
  }
  // The blocked layout gives 4 consecutive elements of a row to a thread,
  // then the next 4 to the next thread (lanes, then warps), then wraps.
  // CHECK: holder 0: thread 0 register 0
  // CHECK: holder 1: thread 1023 register 1125899906842623
  // CHECK: holder 2: thread 556 register 129453826946969

  // Beyond the limits: a null attribute, not an overflow.
  int64_t tooBig[3] = {INT64_C(1) << 30, INT64_C(1) << 30, 8};
  EXPECT(mlirAttributeIsNull(
      tileLinearLayoutGetBlocked(ctx, 3, tooBig, 1024, 4, 32)));
  int64_t tooLong[2] = {INT64_C(1) << 31, 2};
  EXPECT(mlirAttributeIsNull(
      tileLinearLayoutGetBlocked(ctx, 2, tooLong, 1024, 4, 32)));
  EXPECT(mlirAttributeIsNull(tileLinearLayoutGetMmaSyncAccumulator(
      ctx, INT64_C(1) << 62, 8, INT64_C(1) << 60, 1)));
  EXPECT(mlirAttributeIsNull(
      tileLinearLayoutGetBlocked(ctx, 17, tooBig, 1024, 4, 32)));

  mlirContextDestroy(ctx);
  printf("failures: %d\n", failures);
  // CHECK: failures: 0
  return failures != 0;
}
