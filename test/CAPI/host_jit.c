//===- host_jit.c - JIT-compile and call a tile module from C -----*- C -*-===//
//
// Just-in-time: a C host parses examples/gemm.mlir, compiles it with
// tile-to-nvvm (kernels and host function), creates an ExecutionEngine
// through the upstream C API with the tile runtime (libtile_cuda_runtime.so,
// the mgpu ABI) as its shared library, and calls `gemm` with pointers to
// memref descriptors, both through the function pointer and packed. With no
// GPU (TILE_RT_LIBCUDA points nowhere) the call reports the runtime's clean
// error; operands that disagree are reported before any launch.
//
//===----------------------------------------------------------------------===//

// RUN: %cc -std=c11 -Wall -Wextra -Werror %tile_capi_cflags -I%tile_src_root/runtime/include %s -o %t -L%tile_lib_dir -lTileMLIR-C -ltile_cuda_runtime -Wl,-rpath,%tile_lib_dir
// RUN: env TILE_RT_LIBCUDA=/nonexistent %t %examples/gemm.mlir %tile_cuda_runtime 2>&1 | FileCheck %s

#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Registration.h"
#include "tile_runtime.h"

#include <stdint.h>
#include <stdio.h>

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2D;

static MemRef2D view(void *data, int64_t rows, int64_t cols) {
  MemRef2D d = {data, data, 0, {rows, cols}, {cols, 1}};
  return d;
}

static void print(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stderr);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s gemm.mlir libtile_cuda_runtime.so\n", argv[0]);
    return 2;
  }
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  tileRegisterAllPasses();

  MlirModule module =
      mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module))
    return 1;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(
              "builtin.module(tile-to-nvvm{format=isa})"),
          print, NULL)))
    return 1;
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return 1;
  mlirPassManagerDestroy(pm);

  MlirStringRef libs[] = {mlirStringRefCreateFromCString(argv[2])};
  MlirExecutionEngine jit = mlirExecutionEngineCreate(
      module, /*optLevel=*/2, 1, libs, /*enableObjectDump=*/false,
      /*enablePIC=*/false);
  if (mlirExecutionEngineIsNull(jit)) {
    fprintf(stderr, "no execution engine\n");
    return 1;
  }
  // Global constructors: the GPU module is registered (it loads at the
  // first call that needs it).
  mlirExecutionEngineInitialize(jit);
  // CHECK: engine created
  printf("engine created\n");


  typedef void (*GemmFn)(MemRef2D *, MemRef2D *, MemRef2D *);
  GemmFn gemm = (GemmFn)mlirExecutionEngineLookup(
      jit, mlirStringRefCreateFromCString("gemm"));
  // CHECK: gemm found: 1
  printf("gemm found: %d\n", gemm != NULL);
  if (!gemm)
    return 1;

  // 16-byte aligned: the call takes the TMA kernel (its tensor maps are
  // made first, so their failure is the error reported).
  static _Alignas(16) uint16_t a[64 * 32], b[32 * 48], c[64 * 48];
  MemRef2D A = view(a, 64, 32), B = view(b, 32, 48), C = view(c, 64, 48);
  gemm(&A, &B, &C);
  // CHECK: call: status -1: gemm: mgpuTensorMapEncodeTiledMemref: libcuda.so.1 not found (dlopen("/nonexistent"){{.*}}
  printf("call: status %d: %s\n", tileRtGetError(), tileRtGetErrorMessage());

  MemRef2D shortB = view(b, 31, 48);
  gemm(&A, &shortB, &C);
  // CHECK: mismatch: status -3: gemm: argument #1 dimension 0 ('K') differs from argument #0 dimension 1 ('K')
  printf("mismatch: status %d: %s\n", tileRtGetError(),
         tileRtGetErrorMessage());

  // Packed: one pointer per argument, each to a descriptor pointer.
  MemRef2D *pa = &A, *pb = &shortB, *pc = &C;
  void *args[] = {&pa, &pb, &pc};
  MlirLogicalResult invoked = mlirExecutionEngineInvokePacked(
      jit, mlirStringRefCreateFromCString("gemm"), args);
  // CHECK: packed: 1, status -3: gemm: argument #1 dimension 0 ('K') differs
  printf("packed: %d, status %d: %s\n", mlirLogicalResultIsSuccess(invoked),
         tileRtGetError(), tileRtGetErrorMessage());

  mlirExecutionEngineDestroy(jit);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
