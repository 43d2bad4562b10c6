//===- mgpu-lowered-host.c - Lowered MLIR host code, tile runtime -*- C -*-===//
//
// Host code as MLIR 22 lowers it (gpu-to-llvm, gpu.binary's translation with
// module loads in global constructors, nvgpu TMA descriptors), compiled to an
// object file and linked with libtile_cuda_runtime.so in place of upstream's
// libmlir_cuda_runtime.so: the mgpu symbols and argument types it calls must
// all be there. Modules load lazily: nothing fails before main (the
// constructors only register the images); without a driver, each call that
// looks up a kernel reports it. The process exits normally (the destructors
// unload the modules, never loaded).
//
//===----------------------------------------------------------------------===//

// clang-format off
// RUN: %mlir_opt %S/Inputs/mgpu_host.mlir --convert-nvgpu-to-nvvm --gpu-to-llvm \
// RUN:   --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm \
// RUN:   --reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.llvm.mlir -o %t.ll
// RUN: llc -O1 -relocation-model=pic -filetype=obj %t.ll -o %t.o
// RUN: %cc -std=c11 -Wall -Wextra -Werror -Wno-comment %tile_runtime_cflags %s %t.o \
// RUN:   %tile_cuda_runtime -Wl,-rpath,%tile_lib_dir -o %t
// RUN: env TILE_RT_LIBCUDA=/nonexistent/libcuda.so.1 %t | FileCheck %s

// CHECK: before main: status 0:
// CHECK-NEXT: launch: status -1: launch: mgpuModuleGetFunction('k'): libcuda.so.1 not found (dlopen("/nonexistent/libcuda.so.1"): {{.*}}
// CHECK-NEXT: cluster: status -1: cluster: mgpuModuleGetFunction('k'): libcuda.so.1 not found {{.*}}
// CHECK-NEXT: memory: status -1: memory: mgpuMemHostRegisterMemRef: libcuda.so.1 not found {{.*}}
// CHECK-NEXT: done
// clang-format on

#include "tile_runtime.h"

#include <stdint.h>
#include <stdio.h>

// The functions of Inputs/mgpu_host.mlir (index arguments are i64).
void launch(int64_t n);
void cluster(int64_t n);
void memory(int64_t n);

static void call(const char *name, void (*function)(int64_t)) {
  tileRtHostBegin(name);
  function(4);
  tileRtHostEnd(tileRtHostStream());
  printf("%s: status %d: %s\n", name, tileRtGetError(),
         tileRtGetErrorMessage());
}

int main(void) {
  printf("before main: status %d: %s\n", tileRtGetError(),
         tileRtGetErrorMessage());
  call("launch", launch);
  call("cluster", cluster);
  call("memory", memory);
  printf("done\n");
  return 0;
}
