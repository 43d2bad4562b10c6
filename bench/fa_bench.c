//===- fa_bench.c - tile-mlir FlashAttention check and benchmark --*- C -*-===//
//
// Checks and times the FlashAttention forward kernel compiled by tile-mlir
// from examples/flash_attention.mlir (a cubin or PTX file holding
// `flash_attention_fwd_kernel`):
//
//   tile-fa-bench --cubin=fa.cubin --launch-info=fa.info --check [--offset=E]
//   tile-fa-bench --cubin=fa.cubin --launch-info=fa.info [--bench]
//                 [--shapes=4x16x4096,4x16x1024]
//
// The kernel ABI (see examples/flash_attention.mlir): parameters Q, K, V, O,
// each a memref<?x?x128xf16> [B*H, S, D = 128], row-major, passed as an MLIR
// memref descriptor of rank 3 (9 parameters: allocated, aligned, offset,
// sizes[3], strides[3]); O = softmax(Q K^T / sqrt(128)) V, non-causal. The
// host function of the example launches grid (ceil(S / 128), B*H, 1) (S and
// B*H are dim 1 and dim 0 of Q); block and dynamic shared memory are what the
// compiler reports (--launch-info FILE from tile-extract-kernel
// --launch-info, or --block / --smem).
//
// Modes:
//  - --check: correctness. For each shape (default: S in {1, 2, 17, 64, 100,
//    128, 129, 257, 1000} times B*H in {1, 3, 8}), fresh random inputs
//    (seeded per shape; V uniform in [-1, 1], Q and K uniform in [-a, a]
//    with a = 1, 2 or 4 by turns, so that some softmax rows are flat and
//    others peaked), rounded to f16. The whole O allocation (the view and a
//    64 KiB guard on each side) is filled with 0xFF bytes (an f16 NaN) before
//    each launch; afterwards every element of O must be written, every byte
//    outside it untouched, a second run bit-identical, and every element
//    within tolerance of a CPU fp64 reference of all of O (see
//    faTolerance). One line per shape; a last line PASS or FAIL.
//  - --bench (the default): for each shape (default B=4 H=16 S=4096 and
//    S=1024), warm-up, then `--runs` timed runs of `--iters` back-to-back
//    launches (auto: about --target-ms per run) timed with CUDA events; the
//    median run gives ms and TFLOP/s (4 B H S^2 D flops, non-causal). The
//    output of the last launch is checked on sampled rows against the CPU
//    fp64 reference.
//
// Views (--offset=E, issue 10): Q, K, V and O each start E elements into
// their allocations, as slices a framework hands out do, so their data
// pointers are only 2-byte aligned for odd E. The descriptors then hold
// allocated = start of the allocation, aligned = the view, offset = 0.
// With --offset-in-descriptor, aligned is the start of the data's
// allocation (its guard excluded) and the descriptor's offset field is E
// instead. NOTE: memref<?x?x128xf16> has the identity layout, whose offset is
// statically 0, so the compiled kernel never reads that field (MLIR's
// lowering uses the static offset): a nonzero offset does not describe a
// memref of this type, and this mode is expected to fail the check (the
// kernel works on the data at `aligned`) without faulting. It will pass
// only if the example's types become strided<[?, 128, 1], offset: ?>.
//
// This file: options, set-up, --bench and main; fa_problem.c: the tensors,
// their descriptors and the launch; fa_check.c: the CPU reference, the
// tolerances and the checks (fa_bench.h).
//
// Nothing here links CUDA or MLIR: TileRuntime loads libcuda.so.1 at run
// time. Exit status: 0 when all checks pass, 1 on a correctness failure, 2 on
// a usage or setup error (no GPU, kernel not loadable, launch or kernel
// fault, ...).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "fa_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static const char *const kDefaultKernel = "flash_attention_fwd_kernel";
static const char *const kDefaultCheckShapes =
    "1x1,3x1,8x1,1x2,3x2,8x2,1x17,3x17,8x17,1x64,3x64,8x64,1x100,3x100,8x100,"
    "1x128,3x128,8x128,1x129,3x129,8x129,1x257,3x257,8x257,1x1000,3x1000,"
    "8x1000";
static const char *const kDefaultBenchShapes = "4x16x4096,4x16x1024";

static void usage(FILE *out) {
  fprintf(
      out,
      "usage: tile-fa-bench --cubin=FILE [options]\n"
      "  --cubin=FILE         cubin, fatbin or PTX holding the kernel\n"
      "  --kernel=NAME        kernel name (default: the launch info's, else\n"
      "                       flash_attention_fwd_kernel)\n"
      "  --launch-info=FILE   launch configuration written by\n"
      "                       tile-extract-kernel --launch-info (kernel=,\n"
      "                       shared_bytes=, block=)\n"
      "  --smem=BYTES         dynamic shared memory (overrides the file)\n"
      "  --block=X[,Y,Z]      block size (overrides the file; default 256)\n"
      "  --check              correctness mode (no timing)\n"
      "  --bench              benchmark mode (the default)\n"
      "  --shapes=S,...       problems, each BHxS (B*H heads) or BxHxS\n"
      "                       (default --check: S in 1,2,17,64,100,128,129,\n"
      "                       257,1000 times B*H in 1,3,8; benchmark: %s)\n"
      "  --offset=E           Q, K, V and O are views starting E elements\n"
      "                       into their allocations (default 0)\n"
      "  --offset-in-descriptor  pass E in the descriptors' offset field\n"
      "                       instead of in the data pointer (expected to\n"
      "                       fail: the kernel's memref type has offset 0)\n"
      "  --runs=N             timed runs, median taken (default 5)\n"
      "  --iters=N            launches per timed run (default: auto)\n"
      "  --target-ms=T        auto iterations: about T ms per run (default "
      "50)\n"
      "  --warmup=N           warm-up launches (default 5)\n"
      "  --flush-l2           overwrite 256 MiB before each timed launch\n"
      "  --samples=N          benchmark: rows checked per shape (default 32)\n"
      "  --seed=N             input seed (default 1234)\n"
      "  --device=N           CUDA device ordinal (default 0)\n",
      kDefaultBenchShapes);
}

static int parseShape(const char *text, void *item) {
  Shape *shape = item;
  long long a, b, c;
  char tail;
  memset(shape, 0, sizeof(*shape));
  int n = sscanf(text, "%lldx%lldx%lld%c", &a, &b, &c, &tail);
  if (n == 3) {
    if (a < 1 || b < 1 || c < 1 || a > 65535 || b > 65535 || a * b > 65535)
      return 0;
    shape->b = a;
    shape->h = b;
    shape->bh = a * b;
    shape->s = c;
  } else if (sscanf(text, "%lldx%lld%c", &a, &b, &tail) == 2) {
    if (a < 1 || b < 1 || a > 65535)
      return 0;
    shape->bh = a;
    shape->s = b;
  } else {
    return 0;
  }
  // The grid's x is ceil(S / 128), at most 2^31 - 1.
  return shape->s <= 0x7fffffffll;
}

static int parseOptions(int argc, char **argv, Options *opts) {
  memset(opts, 0, sizeof(*opts));
  BenchOptions *common = &opts->common;
  benchOptionsInit(common, 256);
  opts->samples = 32;
  const char *shapes = NULL;

  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i], *value;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      usage(stdout);
      exit(0);
    } else if ((value = benchOptionValue(arg, "--shapes"))) {
      shapes = value;
    } else if (!strcmp(arg, "--check")) {
      opts->check = 1;
    } else if (!strcmp(arg, "--bench")) {
      opts->check = 0;
    } else if (!strcmp(arg, "--offset-in-descriptor")) {
      opts->offsetInDescriptor = 1;
    } else if ((value = benchOptionValue(arg, "--samples"))) {
      opts->samples = atoi(value);
    } else if (!benchParseOption(arg, common, usage)) {
      return 0;
    }
  }
  if (!common->cubin) {
    fprintf(stderr, "error: no kernel file (--cubin=FILE)\n");
    usage(stderr);
    return 0;
  }
  if (!shapes)
    shapes = opts->check ? kDefaultCheckShapes : kDefaultBenchShapes;
  if (!benchParseShapes(shapes, parseShape, opts->shapes, sizeof(Shape),
                        kMaxShapes, &opts->numShapes, "BHxS or BxHxS"))
    return 0;
  benchOptionsFinish(common);
  if (opts->samples < 1)
    opts->samples = 1;
  return 1;
}

/// The launch information file: kernel name, dynamic shared memory and
/// block size; command-line values win.
static int readLaunchInfo(BenchOptions *opts) {
  if (!benchApplyLaunchInfo(opts))
    return 0;
  if (!opts->kernel)
    opts->kernel = kDefaultKernel;
  if (opts->smem < 0) {
    fprintf(stderr, "error: no dynamic shared memory size (--launch-info=FILE "
                    "or --smem=BYTES)\n");
    return 0;
  }
  return 1;
}

//===----------------------------------------------------------------------===//
// --bench
//===----------------------------------------------------------------------===//

typedef struct {
  char shape[96];
  double ms, tflops;
  char check[64];
  int wrong;
} Row;

static int benchShape(Bench *bench, Shape s, Row *row) {
  const Options *opts = bench->opts;
  memset(row, 0, sizeof(*row));
  shapeName(s, row->shape, sizeof(row->shape));
  Problem p;
  LaunchArgs args = {bench, &p};
  BenchTimer timer = {bench->ctx, bench->flush, bench->flushBytes};
  const BenchLaunchFn launch = launchKernel;
  void *arg = &args;
  if (!problemInit(bench, s, opts->common.seed, 1.0, &p) ||
      !benchMedianTimes(&timer, &opts->common, 1, &launch, &arg, &row->ms)) {
    problemFree(bench, &p);
    return 0;
  }
  double flop = 4.0 * (double)s.bh * (double)s.s * (double)s.s * kHeadDim;
  row->tflops = flop / (row->ms * 1e-3) / 1e12;
  int checked = checkSamples(bench, &p, row->check, sizeof(row->check));
  problemFree(bench, &p);
  if (checked < 0)
    return 0;
  row->wrong = !checked;
  return 1;
}

//===----------------------------------------------------------------------===//
// Main
//===----------------------------------------------------------------------===//

/// Loads what runs: the device, the kernel file, the --flush-l2 buffer.
/// Prints the "no GPU" line or an error; returns 0 on failure.
static int setUp(Bench *bench) {
  const Options *opts = bench->opts;
  const BenchOptions *common = &opts->common;
  if (!benchInitDevice(&bench->ctx, common->device))
    return 0;
  char launch[64];
  snprintf(launch, sizeof(launch), "grid (ceil(S / %d), B*H)", kBlockQ);
  if (!benchLoadKernel(bench->ctx, common, launch, &bench->module, &bench->fn))
    return 0;
  if (common->offset || opts->offsetInDescriptor)
    printf("views: Q, K, V and O start %lld element(s) (%lld B) into their "
           "allocations, passed as %s\n",
           common->offset, 2 * common->offset,
           opts->offsetInDescriptor
               ? "the descriptors' offset field (aligned = allocation)"
               : "the data pointers (aligned = view, offset field 0)");
  return !common->flushL2 ||
         benchAllocFlush(bench->ctx, &bench->flush, &bench->flushBytes);
}

int main(int argc, char **argv) {
  static Bench bench; // large (lut): not on the stack
  Options opts;
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!parseOptions(argc, argv, &opts) || !readLaunchInfo(&opts.common))
    return 2;
  bench.opts = &opts;
  benchFillLut(bench.lut, tileRtHalfToFloat);
  if (!setUp(&bench)) {
    tileRtDestroy(bench.ctx); // unloads the module
    return 2;
  }

  int failures = 0, errors = 0, done = 0;
  if (opts.check) {
    BenchTolerance tol;
    double normTol;
    faTolerance(&tol, &normTol);
    printf("tolerance: |out - ref| <= %.3g + %.3g |ref| per element, "
           "||out - ref|| / ||ref|| <= %.0e; reference: CPU fp64 of all of "
           "O\n",
           tol.atol, tol.rtol, normTol);
    for (int i = 0; i < opts.numShapes; ++i) {
      int result = checkShape(&bench, opts.shapes[i], i);
      ++done;
      if (result < 0) {
        ++errors;
        break; // the context may be unusable after a kernel fault
      }
      failures += result == 0;
    }
    printf("check summary: %d of %d shape(s) run, %d failed, %d error(s)\n",
           done, opts.numShapes, failures, errors);
  } else {
    Row rows[kMaxShapes];
    int numRows = 0;
    for (int i = 0; i < opts.numShapes; ++i) {
      char name[96];
      shapeName(opts.shapes[i], name, sizeof(name));
      fprintf(stderr, "benchmarking %s...\n", name);
      if (!benchShape(&bench, opts.shapes[i], &rows[numRows])) {
        ++errors;
        break;
      }
      failures += rows[numRows].wrong;
      ++numRows;
    }
    printf("\n| shape (D=128, f16, non-causal) | tile-mlir TFLOP/s | "
           "tile-mlir ms | vs CPU fp64 (norm rel err) |\n");
    printf("|---|---|---|---|\n");
    for (int i = 0; i < numRows; ++i)
      printf("| %s | %.1f | %.4f | %s |\n", rows[i].shape, rows[i].tflops,
             rows[i].ms, rows[i].check);
  }
  printf("%s\n", errors ? "ERROR" : failures ? "FAIL" : "PASS");

  tileRtFree(bench.ctx, bench.flush);
  tileRtDestroy(bench.ctx);
  return errors ? 2 : failures ? 1 : 0;
}
