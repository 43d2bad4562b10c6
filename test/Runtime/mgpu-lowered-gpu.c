//===- mgpu-lowered-gpu.c - Lowered MLIR GPU code on the runtime --*- C -*-===//
//
// A kernel and its host function compiled by upstream MLIR 22 alone
// (gpu-lower-to-nvvm-pipeline: a cubin in a gpu.binary, loaded by a global
// constructor, launched with 96 KiB of dynamic shared memory on its own
// stream), linked with libtile_cuda_runtime.so and run on the GPU.
//
//===----------------------------------------------------------------------===//

// clang-format off
// REQUIRES: cuda-gpu, ptxas
// RUN: %mlir_opt %S/Inputs/mgpu_kernel.mlir \
// RUN:   --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=bin opt-level=3" \
// RUN:   -o %t.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.llvm.mlir -o %t.ll
// RUN: llc -O1 -relocation-model=pic -filetype=obj %t.ll -o %t.o
// RUN: %cc -std=c11 -Wall -Wextra -Werror -Wno-comment %tile_runtime_cflags %s %t.o \
// RUN:   %tile_cuda_runtime -Wl,-rpath,%tile_lib_dir -o %t
// RUN: %t | FileCheck %s

// CHECK: before main: status 0
// CHECK-NEXT: run: status 0: , values ok
// CHECK-NEXT: run again: status 0: , values ok
// clang-format on

#include "tile_mgpu.h"
#include "tile_runtime.h"

#include <stdint.h>
#include <stdio.h>

// func.func @run(%out: memref<?xi32>, %blocks: index) of
// Inputs/mgpu_kernel.mlir, with the memref's descriptor expanded.
void run(int32_t *allocated, int32_t *aligned, int64_t offset, int64_t size,
         int64_t stride, int64_t blocks);

enum { kBlocks = 64, kCount = kBlocks * 128 };

static int call(const char *name) {
  int32_t *out = mgpuMemAlloc(sizeof(int32_t) * kCount, NULL, false);
  mgpuMemset32(out, 0xffffffffu, kCount, NULL);
  tileRtHostBegin(name);
  run(out, out, 0, kCount, 1, kBlocks);
  tileRtHostEnd(tileRtHostStream());
  static int32_t host[kCount];
  mgpuMemcpy(host, out, sizeof(host), NULL);
  mgpuStreamSynchronize(NULL);
  mgpuMemFree(out, NULL);
  int ok = 1;
  for (int i = 0; i < kCount; ++i)
    ok &= host[i] == 3 * i;
  printf("%s: status %d: %s, values %s\n", name, tileRtGetError(),
         tileRtGetErrorMessage(), ok ? "ok" : "WRONG");
  return ok && tileRtGetError() == 0;
}

int main(void) {
  printf("before main: status %d: %s\n", tileRtGetError(),
         tileRtGetErrorMessage());
  int ok = call("run");
  ok &= call("run again");
  return ok ? 0 : 1;
}
