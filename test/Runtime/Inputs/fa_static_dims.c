// A C host of the AOT-compiled examples/flash_attention.mlir
// (host-static-dims.test) that passes descriptors disagreeing with the
// static parts of the argument type memref<?x?x128xf16>: the head dimension
// (sizes[2]), the strides it implies ([?, 128, 1]) and the offset (0). Each
// is an argument error, and nothing after the checks runs.
//
// The program defines the mgpu functions the host function calls after its
// checks (making tensor maps, launching): they interpose on
// libtile_cuda_runtime.so's and count the calls, so that a bad call shows
// that it launched nothing and a good one that it went on.
#include "flash_attention.h"
#include "tile_runtime.h"

#include <stdio.h>

static int work;

// Called with the arguments of tile_mgpu.h's declarations, which are not
// read here (no tensor map: the host function skips the launches).
void *mgpuTensorMapEncodeTiledMemref(void) {
  ++work;
  return NULL;
}
void *mgpuModuleGetFunction(void) {
  ++work;
  return NULL;
}
void mgpuLaunchKernel(void) { ++work; }
void mgpuLaunchClusterKernel(void) { ++work; }

enum { BH = 2, S = 64, D = 128 };
static _Alignas(16) uint16_t data[4][BH * S * 256];

/// A [BH, S, cols] tensor's first `d` columns.
static tile_memref_3d view(int i, int64_t s, int64_t d, int64_t cols) {
  tile_memref_3d t = {data[i], data[i], 0, {BH, s, d}, {s * cols, cols, 1}};
  return t;
}

static int call(const char *what, tile_memref_3d q) {
  tile_memref_3d k = view(1, q.sizes[1], D, D), v = view(2, q.sizes[1], D, D),
                 o = view(3, q.sizes[1], D, D);
  int before = work;
  flash_attention_fwd(&q, &k, &v, &o);
  int status = tileRtGetError();
  printf("%s: status %d, %s: %s\n", what, status,
         work > before ? "went on" : "launched nothing",
         tileRtGetErrorMessage());
  return status;
}

int main(void) {
  int ok = call("well-formed", view(0, S, D, D)) == 0;
  // D = 64 where the type says 128.
  ok &= call("head dimension 64", view(0, S, 64, 64)) ==
        TILE_RT_ERROR_INVALID_ARGUMENT;
  // The first 128 columns of a [BH, S, 256] buffer: not contiguous.
  ok &= call("non-contiguous view", view(0, S, D, 256)) ==
        TILE_RT_ERROR_INVALID_ARGUMENT;
  tile_memref_3d inner = view(0, S, D, D);
  inner.strides[2] = 2;
  ok &= call("inner stride 2", inner) == TILE_RT_ERROR_INVALID_ARGUMENT;
  tile_memref_3d shifted = view(0, S, D, D);
  shifted.offset = 5;
  ok &= call("offset 5", shifted) == TILE_RT_ERROR_INVALID_ARGUMENT;
  // A dimension of one element may have any stride (as in PyTorch).
  tile_memref_3d row = view(0, 1, D, D);
  row.strides[1] = 7;
  ok &= call("one row, stride 7", row) == 0;
  return ok ? 0 : 1;
}
