//===- gemm_bench.h - tile-gemm-bench's pieces --------------------*- C -*-===//
//
// The parts of tile-gemm-bench (see gemm_bench.c): options, the problem
// data, the three ways to compute C = A B (the AOT-compiled gemm() of a
// library, a direct launch of a kernel file, cuBLAS) in gemm_launch.c, the
// correctness checks in gemm_check.c and the call overhead in
// gemm_overhead.c.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_GEMM_BENCH_H
#define TILE_GEMM_BENCH_H

#include "bench_common.h"

#include <stddef.h>
#include <stdint.h>

typedef enum { DTYPE_BF16, DTYPE_F16 } DType;

typedef struct {
  int64_t m, n, k;
} Shape;

enum { kMaxShapes = 64 };

typedef struct {
  BenchOptions common;  // --cubin, --kernel, timing, seed, --offset, ...
  const char *library;  // --library: an AOT-compiled library exporting gemm
  const char *function; // its function (default gemm)
  DType dtype;
  Shape shapes[kMaxShapes];
  int numShapes;
  int check;
  int overhead; // --overhead: gemm() calls vs direct launches
  int useCublas;
  int tileM, tileN;
  double cpuFullLimit;
  int cpuRef; // 1: compare with a CPU reference in --check mode
} Options;

/// cuBLAS, loaded at run time.
typedef struct {
  void *library;
  void *handle;
  int (*create)(void **);
  int (*destroy)(void *);
  const char *(*statusString)(int);
  int (*gemmEx)(void *, int, int, int, int, int, const void *, const void *,
                int, int, const void *, int, int, const void *, void *, int,
                int, int, int);
} Cublas;

/// The C interface tile-compile gives examples/gemm.mlir's host function:
/// pointers to the memref descriptors of A, B and C (TileRtMemRef2D has the
/// layout of the header's tile_memref_2d).
typedef void (*GemmFn)(TileRtMemRef2D *A, TileRtMemRef2D *B,
                       TileRtMemRef2D *C);

typedef struct {
  TileRtContext *ctx;
  const Options *opts;
  GemmFn gemm;        // --library: the compiled host function
  void *library;      // its dlopen handle
  int libraryStatus;  // the thread's error after dlopen: kernels not loaded
  char libraryError[1024];
  TileRtFunction *fn; // --cubin: the kernel
  TileRtModule *module;
  TileRtDevicePtr flush; // --flush-l2 buffer
  size_t flushBytes;
  Cublas cublas;
  int haveCublas;
  float lut[65536]; // 16-bit value -> float, for opts->dtype
} Bench;

typedef struct {
  Shape shape;
  uint16_t *hostA, *hostB;
  TileRtDevicePtr aBase, bBase, a, b, cBase, c, cRef;
  size_t guardBytes;
} Problem;

const char *dtypeName(DType dtype);
void shapeName(Shape s, char *buffer, size_t size);

//===----------------------------------------------------------------------===//
// gemm_launch.c
//===----------------------------------------------------------------------===//

/// Loads cuBLAS and creates a handle; on failure says why in `error`.
int cublasLoad(Cublas *cublas, char *error, size_t errorSize);

/// dlopens opts->library and finds opts->function; prints an error and
/// returns 0 on failure. The library loads its kernels as it is opened: a
/// failure is reported by the first call (libraryKernelsLoaded says it).
int libraryOpen(Bench *bench);

/// After libraryOpen: 1 if the library's kernels loaded, else prints the
/// runtime's error and returns 0.
int libraryKernelsLoaded(const Bench *bench);

/// Random A and B (from the seed), device buffers (views `offset` elements
/// into their allocations, C between two guards), copies of A and B.
int problemInit(Bench *bench, Shape shape, Problem *p);
void problemFree(Bench *bench, Problem *p);

/// One computation of C on the default stream, unsynchronized; 1 on
/// success, 0 after printing an error.
typedef int (*LaunchFn)(Bench *, const Problem *);
/// gemm() of the library.
int launchLibrary(Bench *bench, const Problem *p);
/// A direct launch of the kernel file, grid from --tile.
int launchKernel(Bench *bench, const Problem *p);
/// The tile-mlir GEMM under test: launchLibrary in library mode, else
/// launchKernel.
int launchTile(Bench *bench, const Problem *p);
/// cublasGemmEx into p->cRef.
int launchCublas(Bench *bench, const Problem *p);

/// Warms up and returns the number of launches per timed run (--iters, or
/// about --target-ms worth); < 0 on error.
double calibrate(Bench *bench, const Problem *p, LaunchFn launch);

/// benchMedianTimes of `count` ways to compute C side by side: ms[i], the
/// median ms per computation of launches[i]. 1 on success.
int medianTimes(Bench *bench, const Problem *p, int count,
                const LaunchFn *launches, double *ms);

/// benchRunPoisoned of `launch`, C's `bytes` from `window`.
int runPoisoned(Bench *bench, const Problem *p, LaunchFn launch,
                TileRtDevicePtr window, size_t bytes, uint16_t *host);

//===----------------------------------------------------------------------===//
// gemm_check.c
//===----------------------------------------------------------------------===//

typedef BenchStats Stats;

/// Compares two M x N results copied to the host, `ref` the reference.
Stats compareFull(const Bench *bench, const uint16_t *out,
                  const uint16_t *ref, Shape s);
int statsPass(const Stats *stats, DType dtype);

/// Correctness of one shape (--check); 1 pass, 0 fail, -1 setup error.
int checkShape(Bench *bench, Shape s);

//===----------------------------------------------------------------------===//
// gemm_overhead.c
//===----------------------------------------------------------------------===//

/// --overhead on every shape, and its table; 0 if both paths gave the same
/// bits everywhere, 1 if not, -1 on an error.
int runOverhead(Bench *bench);

#endif // TILE_GEMM_BENCH_H
