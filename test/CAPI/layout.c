//===- layout.c - C API for tile layouts --------------------------*- C -*-===//
//
// Builds the named layouts through the C API and checks their thread and
// register queries against the PTX ISA fragment formulas of mma.sync
// m16n8k16 (computed here independently), replication, vector widths,
// containment and shared-memory swizzle offsets.
//
//===----------------------------------------------------------------------===//

// RUN: tile-capi-layout-test 2>&1 | FileCheck %s

#include "mlir-c/IR.h"
#include "tile-c/Dialect.h"
#include "tile-c/Layout.h"

#include <stdio.h>
#include <stdlib.h>

#include "expect.h"

static void testMmaAccumulator(MlirContext ctx) {
  MlirAttribute acc = tileLinearLayoutGetMmaSyncAccumulator(ctx, 16, 8, 1, 1);
  EXPECT(!mlirAttributeIsNull(acc) && tileAttributeIsALinearLayout(acc));
  EXPECT(tileLinearLayoutGetRank(acc) == 2);
  EXPECT(tileLinearLayoutGetNumThreads(acc) == 32);
  EXPECT(tileLinearLayoutGetRegistersPerThread(acc) == 4);
  EXPECT(tileLinearLayoutGetReplication(acc) == 1);
  EXPECT(tileLinearLayoutGetVectorWidth(acc) == 2);
  // PTX: c_i of lane l is at row l/4 + 8*(i>=2), column 2*(l%4) + (i&1).
  int mismatches = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      int64_t coord[2], thread, reg;
      EXPECT(tileLinearLayoutGetElement(acc, lane, i, coord));
      mismatches += coord[0] != lane / 4 + 8 * (i >= 2) ||
                    coord[1] != 2 * (lane % 4) + (i & 1);
      EXPECT(tileLinearLayoutGetHolder(acc, coord, &thread, &reg));
      mismatches += thread != lane || reg != i;
    }
  EXPECT(mismatches == 0);
  // CHECK: mma accumulator: 4 registers, replication 1
  printf("mma accumulator: %lld registers, replication %lld\n",
         (long long)tileLinearLayoutGetRegistersPerThread(acc),
         (long long)tileLinearLayoutGetReplication(acc));
  fflush(stdout);
  mlirAttributeDump(acc);
  // CHECK: #tile.linear<[16, 8], register = {{\[\[}}0, 1], [8, 0{{\]\]}}, lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0{{\]\]}}, warp = []>
}

static void testOperandsAndContainment(MlirContext ctx) {
  // The A operand over 2 x 2 warps is held by the 2 warps sharing its rows.
  MlirAttribute a =
      tileLinearLayoutGetMmaSyncOperandA(ctx, 64, 32, 16, 2, 2);
  EXPECT(tileLinearLayoutGetReplication(a) == 2);
  int64_t coord[2] = {40, 9}, thread = -1, reg = -1;
  EXPECT(tileLinearLayoutGetHolder(a, coord, &thread, &reg));
  // Row 40 is in the second row-slab (warps 2, 3); lowest holder is warp 2.
  EXPECT(thread / 32 == 2);
  // PTX: element (40, 9) is at row 8, column 9 of the warp's 16x16 tile:
  // rows 8..15 and columns 8..15 are a6/a7, column 9 = 8 + 2 * 0 + 1 -> a7;
  // lane = 4 * (row % 8) + (col % 8) / 2 = 0.
  EXPECT(thread % 32 == 0 && reg == 7);
  // CHECK: operand A: replication 2, holder of (40, 9): thread 64 register 7
  printf("operand A: replication %lld, holder of (40, 9): thread %lld "
         "register %lld\n",
         (long long)tileLinearLayoutGetReplication(a), (long long)thread,
         (long long)reg);
  // FlashAttention: with warps along M the accumulator is the A operand.
  MlirAttribute acc = tileLinearLayoutGetMmaSyncAccumulator(ctx, 128, 64, 4, 1);
  MlirAttribute opA =
      tileLinearLayoutGetMmaSyncOperandA(ctx, 128, 64, 16, 4, 1);
  EXPECT(mlirAttributeEqual(acc, opA));
  EXPECT(tileLinearLayoutIsContainedIn(acc, opA));
  // A blocked layout is not contained in an mma layout.
  int64_t shape[2] = {64, 64};
  MlirAttribute blocked = tileLinearLayoutGetBlocked(ctx, 2, shape, 128, 4, 32);
  EXPECT(tileLinearLayoutGetVectorWidth(blocked) == 4);
  EXPECT(!tileLinearLayoutIsContainedIn(
      blocked, tileLinearLayoutGetMmaSyncAccumulator(ctx, 64, 64, 2, 2)));
  // Invalid shapes give a null attribute.
  EXPECT(mlirAttributeIsNull(
      tileLinearLayoutGetMmaSyncAccumulator(ctx, 24, 8, 1, 1)));
  // CHECK: wgmma 64x64: 32 registers; mfma 32x32: 16 registers, 64 threads
  MlirAttribute wg = tileLinearLayoutGetWgmmaAccumulator(ctx, 64, 64, 1);
  MlirAttribute mfma = tileLinearLayoutGetMfmaAccumulator(ctx, 32, 32, 32, 1, 1);
  printf("wgmma 64x64: %lld registers; mfma 32x32: %lld registers, %lld "
         "threads\n",
         (long long)tileLinearLayoutGetRegistersPerThread(wg),
         (long long)tileLinearLayoutGetRegistersPerThread(mfma),
         (long long)tileLinearLayoutGetNumThreads(mfma));
}

static void testShared(MlirContext ctx) {
  MlirAttribute swz = tileSharedLayoutGet(ctx, 128, 0);
  EXPECT(tileAttributeIsASharedLayout(swz));
  EXPECT(tileSharedLayoutGetSwizzle(swz) == 128);
  int64_t shape[2] = {64, 64};
  // 16-byte chunk c of row r lands in chunk c ^ (r % 8).
  int mismatches = 0;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 8; ++c) {
      int64_t coord[2] = {r, c * 8};
      mismatches += tileSharedLayoutGetByteOffset(swz, 2, shape, coord, 16) !=
                    r * 128 + ((c ^ (r % 8)) * 16);
    }
  EXPECT(mismatches == 0);
  MlirAttribute pad = tileSharedLayoutGet(ctx, 0, 16);
  int64_t coord[2] = {3, 5};
  EXPECT(tileSharedLayoutGetByteOffset(pad, 2, shape, coord, 16) ==
         3 * 144 + 10);
  fflush(stdout);
  mlirAttributeDump(swz);
  // CHECK: #tile.shared<swizzle = 128>
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__tile__(), ctx);
  testMmaAccumulator(ctx);
  testOperandsAndContainment(ctx);
  testShared(ctx);
  mlirContextDestroy(ctx);
  fflush(stderr);
  // CHECK: layout C API: 0 failures
  printf("layout C API: %d failures\n", failures);
  return failures != 0;
}
