//===- fa_bench.h - tile-fa-bench's pieces ------------------------*- C -*-===//
//
// The parts of tile-fa-bench (see fa_bench.c): options, the problem data
// and the kernel's launch in fa_problem.c, the CPU fp64 reference and the
// correctness checks in fa_check.c.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FA_BENCH_H
#define TILE_FA_BENCH_H

#include "bench_common.h"

#include <stddef.h>
#include <stdint.h>

enum {
  kHeadDim = 128, // D, fixed by the kernel's memref type
  kBlockQ = 128,  // BM: query rows per thread block (the grid's x)
  kMaxShapes = 64,
  kNumParams = 4 * 9,
};

typedef struct {
  int64_t b, h; // as given (BxHxS); 0 when given as BHxS
  int64_t bh, s;
} Shape;

typedef struct {
  BenchOptions common; // --cubin, --kernel, timing, seed, --offset, ...
  Shape shapes[kMaxShapes];
  int numShapes;
  int check;
  int offsetInDescriptor; // the descriptor's offset field holds --offset
  int samples;            // --bench: rows checked per shape
} Options;

typedef struct {
  TileRtContext *ctx;
  TileRtModule *module;
  TileRtFunction *fn;
  const Options *opts;
  TileRtDevicePtr flush; // --flush-l2 buffer
  size_t flushBytes;
  float lut[65536]; // f16 bits -> float
} Bench;

/// The MLIR descriptor of a rank-3 memref: 9 kernel parameters.
typedef struct {
  TileRtDevicePtr allocated;
  TileRtDevicePtr aligned;
  int64_t offset;
  int64_t sizes[3];
  int64_t strides[3];
} MemRef3D;

enum { kQ, kK, kV, kO, kNumTensors };

typedef struct {
  Shape shape;
  size_t count;      // elements of one tensor: BH S D
  double qkRange;    // Q and K uniform in [-qkRange, qkRange]
  uint16_t *host[3]; // Q, K, V
  TileRtDevicePtr base[kNumTensors];
  size_t allocBytes[kNumTensors];
  TileRtDevicePtr view[kNumTensors];   // first element of each tensor
  size_t viewOffsetBytes[kNumTensors]; // view - base
  MemRef3D desc[kNumTensors];
  void *params[kNumParams];
} Problem;

void shapeName(Shape s, char *buffer, size_t size);

//===----------------------------------------------------------------------===//
// fa_problem.c
//===----------------------------------------------------------------------===//

/// Allocates and fills the tensors (V uniform in [-1, 1], Q and K in
/// [-qkRange, qkRange], from `seed`) and packs the kernel's parameters.
/// Prints an error and returns 0 on failure (problemFree still needed).
int problemInit(Bench *bench, Shape shape, uint64_t seed, double qkRange,
                Problem *p);
void problemFree(Bench *bench, Problem *p);

/// The grid of the example's host function: (ceil(S / 128), B*H, 1).
void gridOf(const Problem *p, unsigned grid[3]);

/// A BenchLaunchFn: one launch of the kernel on the problem.
typedef struct {
  Bench *bench;
  Problem *problem;
} LaunchArgs;
int launchKernel(void *arg);

//===----------------------------------------------------------------------===//
// fa_check.c
//===----------------------------------------------------------------------===//

/// The element and norm tolerances of O (floor 0: set per comparison).
void faTolerance(BenchTolerance *tol, double *normTol);

/// Correctness of shape number `index` (--check); 1 pass, 0 fail, -1 on a
/// setup error or a fault.
int checkShape(Bench *bench, Shape s, int index);

/// Compares sampled rows of O, as the last launch left it, with the CPU
/// reference and writes the verdict into `check`. 1 if within tolerance, 0
/// if not, -1 on an error.
int checkSamples(Bench *bench, Problem *p, char *check, size_t checkSize);

#endif // TILE_FA_BENCH_H
