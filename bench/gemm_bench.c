//===- gemm_bench.c - tile-mlir GEMM vs cuBLAS benchmark ----------*- C -*-===//
//
// Benchmarks and checks the GEMM of examples/gemm.mlir compiled by tile-mlir
// against cuBLAS in the same process, in one of two ways:
//
//   tile-gemm-bench --library=libgemm.so [--dtype=bf16|f16] [--shapes=...]
//   tile-gemm-bench --cubin=gemm_bf16.cubin --launch-info=gemm_bf16.info ...
//
//  - --library: the AOT library tile-compile makes of the example (dlopen,
//    dlsym "gemm"): each computation is one call gemm(&A, &B, &C), whose
//    compiled host code checks the operands, computes the grid and launches
//    the kernel on the runtime's current stream (the legacy default stream)
//    without synchronizing; the harness knows no tile size, grid or launch
//    configuration. The tile runtime is libtile_cuda_runtime.so, shared
//    with the library. This is the path of scripts/gpu-run.sh.
//  - --cubin: a kernel file (cubin, fatbin or PTX holding `gemm_kernel`,
//    from tile-extract-kernel) launched directly through tileRtLaunch: A, B
//    and C as memref descriptors (7 parameters each), grid
//    (ceil(N / TN), ceil(M / TM)) from --tile=TMxTN (default 128x128, the
//    example's), block and dynamic shared memory from --launch-info.
//
// cuBLAS is loaded at run time (dlopen libcublas.so.13, then libcublas.so,
// then /usr/local/cuda/lib64/libcublas.so.13; TILE_CUBLAS overrides) and
// called through cublasGemmEx with f32 compute (CUBLAS_COMPUTE_32F) and the
// output in the input type; row-major C = A B is computed as the
// column-major C^T = B^T A^T. Nothing here links CUDA or MLIR.
//
// Modes:
//  - default: benchmark. For each shape: random inputs in [-1, 1] (fixed
//    seed), warm-up, then `--runs` timed runs of `--iters` back-to-back
//    computations each (auto: about --target-ms per run) for tile-mlir and
//    cuBLAS, alternating, timed with CUDA events on the default stream
//    (nothing synchronizes inside a run); the median run gives TFLOP/s
//    (2 M N K / time). The last column compares tile-mlir's output with
//    cuBLAS's.
//  - --check: correctness (gemm_check.c): poisoned output and guards, every
//    element written, nothing outside C, a second run bit-identical, within
//    tolerance of cuBLAS and of a CPU fp64 reference.
//  - --overhead (--library and --cubin of the same kernel): what a gemm()
//    call costs over a direct launch of its kernel. For each shape, the
//    same number of back-to-back gemm() calls and direct launches
//    (alternating runs, median), as GPU time per call (CUDA events) and as
//    host time per call spent issuing them (wall clock); then 51 single
//    calls of each, synchronized, with events right around the call (the
//    GPU then also waits for the host's work before the launch); and
//    whether both give the same bits.
//
// Exit status: 0 when all checks pass, 1 on a correctness failure, 2 on a
// usage or setup error (no GPU, kernel not loadable, ...).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "gemm_bench.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static const Shape kDefaultShapes[] = {{1024, 1024, 1024},
                                       {4096, 4096, 4096},
                                       {8192, 8192, 8192},
                                       {4096, 4096, 512}};

static void usage(FILE *out) {
  fprintf(
      out,
      "usage: tile-gemm-bench --library=FILE | --cubin=FILE [options]\n"
      "  --library=FILE       AOT library (tile-compile) whose gemm() runs\n"
      "  --function=NAME      its function (default gemm)\n"
      "  --cubin=FILE         cubin, fatbin or PTX holding the kernel, "
      "launched\n"
      "                       directly (without --library, or for "
      "--overhead)\n"
      "  --kernel=NAME        kernel name (default gemm_kernel)\n"
      "  --launch-info=FILE   launch configuration written by\n"
      "                       tile-extract-kernel --launch-info "
      "(shared_bytes=, block=)\n"
      "  --smem=BYTES         dynamic shared memory (overrides the file)\n"
      "  --block=X[,Y,Z]      block size (overrides the file; default 128)\n"
      "  --tile=MxN           C tile of one block, for the grid (default "
      "128x128)\n"
      "  --dtype=bf16|f16     element type of A, B and C (default bf16)\n"
      "  --shapes=MxNxK,...   problem sizes (default "
      "1024x1024x1024,4096x4096x4096,8192x8192x8192,4096x4096x512)\n"
      "  --check              correctness mode (no timing)\n"
      "  --overhead           gemm() calls vs direct launches of the kernel\n"
      "                       (--library and --cubin)\n"
      "  --no-cublas          do not load cuBLAS\n"
      "  --no-cpu-ref         --check: skip the CPU reference\n"
      "  --cpu-full-limit=X   --check: full CPU reference when M*N*K <= X "
      "(default 2^31)\n"
      "  --runs=N             timed runs per kernel, median taken (default 5)\n"
      "  --iters=N            launches per timed run (default: auto)\n"
      "  --target-ms=T        auto iterations: about T ms per run (default "
      "50)\n"
      "  --warmup=N           warm-up launches (default 5)\n"
      "  --flush-l2           overwrite 256 MiB before each timed launch "
      "(cold\n"
      "                       L2; each launch timed alone, at most 200 per "
      "run)\n"
      "  --seed=N             input seed (default 1234)\n"
      "  --device=N           CUDA device ordinal (default 0)\n"
      "  --offset=E           A, B and C start E elements past an aligned\n"
      "                       allocation (views; default 0)\n");
}

static int parseShape(const char *text, void *item) {
  Shape *shape = item;
  long long m, n, k;
  char tail;
  if (sscanf(text, "%lldx%lldx%lld%c", &m, &n, &k, &tail) != 3)
    return 0;
  if (m < 1 || n < 1 || k < 1 || m > 0x7fffffff || n > 0x7fffffff ||
      k > 0x7fffffff)
    return 0;
  shape->m = m;
  shape->n = n;
  shape->k = k;
  return 1;
}

static int parseOptions(int argc, char **argv, Options *opts) {
  memset(opts, 0, sizeof(*opts));
  BenchOptions *common = &opts->common;
  benchOptionsInit(common, 128);
  common->kernel = "gemm_kernel";
  opts->function = "gemm";
  opts->dtype = DTYPE_BF16;
  opts->useCublas = 1;
  opts->tileM = opts->tileN = 128;
  opts->cpuFullLimit = 2147483648.0;
  opts->cpuRef = 1;
  memcpy(opts->shapes, kDefaultShapes, sizeof(kDefaultShapes));
  opts->numShapes = sizeof(kDefaultShapes) / sizeof(kDefaultShapes[0]);

  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i], *value;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      usage(stdout);
      exit(0);
    } else if ((value = benchOptionValue(arg, "--library"))) {
      opts->library = value;
    } else if ((value = benchOptionValue(arg, "--function"))) {
      opts->function = value;
    } else if ((value = benchOptionValue(arg, "--tile"))) {
      if (sscanf(value, "%dx%d", &opts->tileM, &opts->tileN) != 2 ||
          opts->tileM < 1 || opts->tileN < 1) {
        fprintf(stderr, "error: bad tile '%s'\n", value);
        return 0;
      }
    } else if ((value = benchOptionValue(arg, "--dtype"))) {
      if (!strcmp(value, "bf16"))
        opts->dtype = DTYPE_BF16;
      else if (!strcmp(value, "f16"))
        opts->dtype = DTYPE_F16;
      else {
        fprintf(stderr, "error: unknown dtype '%s' (bf16 or f16)\n", value);
        return 0;
      }
    } else if ((value = benchOptionValue(arg, "--shapes"))) {
      if (!benchParseShapes(value, parseShape, opts->shapes, sizeof(Shape),
                            kMaxShapes, &opts->numShapes, "MxNxK"))
        return 0;
    } else if (!strcmp(arg, "--check")) {
      opts->check = 1;
    } else if (!strcmp(arg, "--overhead")) {
      opts->overhead = 1;
    } else if (!strcmp(arg, "--no-cublas")) {
      opts->useCublas = 0;
    } else if (!strcmp(arg, "--no-cpu-ref")) {
      opts->cpuRef = 0;
    } else if ((value = benchOptionValue(arg, "--cpu-full-limit"))) {
      opts->cpuFullLimit = atof(value);
    } else if (!benchParseOption(arg, common, usage)) {
      return 0;
    }
  }
  if (!opts->library && !common->cubin) {
    fprintf(stderr, "error: nothing to run: --library=FILE or --cubin=FILE\n");
    usage(stderr);
    return 0;
  }
  if (opts->overhead && (!opts->library || !common->cubin)) {
    fprintf(stderr, "error: --overhead compares gemm() of --library=FILE "
                    "with direct launches of its kernel, --cubin=FILE: "
                    "both are needed\n");
    return 0;
  }
  if (opts->overhead && opts->check) {
    fprintf(stderr, "error: --overhead and --check are separate runs\n");
    return 0;
  }
  benchOptionsFinish(common);
  return 1;
}

//===----------------------------------------------------------------------===//
// Benchmark
//===----------------------------------------------------------------------===//

typedef struct {
  char shape[64];
  double tileMs, cublasMs, tileTflops, cublasTflops;
  char check[64];
  int wrong;
} Row;

static int benchShape(Bench *bench, Shape s, Row *row) {
  const Options *opts = bench->opts;
  memset(row, 0, sizeof(*row));
  shapeName(s, row->shape, sizeof(row->shape));
  row->cublasMs = -1;
  Problem p;
  // tile-mlir and cuBLAS (when loaded) side by side.
  const LaunchFn launches[2] = {launchTile, launchCublas};
  double ms[2];
  if (!problemInit(bench, s, &p) ||
      !medianTimes(bench, &p, bench->haveCublas ? 2 : 1, launches, ms)) {
    problemFree(bench, &p);
    return 0;
  }
  double flop = 2.0 * (double)s.m * s.n * s.k;
  row->tileMs = ms[0];
  row->tileTflops = flop / (row->tileMs * 1e-3) / 1e12;
  snprintf(row->check, sizeof(row->check), "-");
  if (bench->haveCublas) {
    row->cublasMs = ms[1];
    row->cublasTflops = flop / (row->cublasMs * 1e-3) / 1e12;
    // Both outputs hold the result of their last launch.
    size_t count = (size_t)s.m * s.n;
    uint16_t *out = malloc(count * 2), *ref = malloc(count * 2);
    if (out && ref &&
        tileRtMemcpyDtoH(bench->ctx, out, p.c, count * 2) == TILE_RT_SUCCESS &&
        tileRtMemcpyDtoH(bench->ctx, ref, p.cRef, count * 2) ==
            TILE_RT_SUCCESS) {
      Stats stats = compareFull(bench, out, ref, s);
      row->wrong = !statsPass(&stats, opts->dtype);
      snprintf(row->check, sizeof(row->check), "%s (%.1e)",
               row->wrong ? "WRONG" : "ok", benchNormRel(&stats));
    } else {
      snprintf(row->check, sizeof(row->check), "n/a");
    }
    free(out);
    free(ref);
  }
  problemFree(bench, &p);
  return 1;
}

static void printTable(const Bench *bench, const Row *rows, int numRows) {
  printf("\n| shape (MxNxK) | dtype | tile-mlir TFLOP/s | cuBLAS TFLOP/s | "
         "ratio | tile-mlir ms | cuBLAS ms | vs cuBLAS (norm rel err) |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < numRows; ++i) {
    const Row *row = &rows[i];
    char cublas[32] = "n/a", ratio[32] = "n/a", cublasMs[32] = "n/a";
    if (row->cublasMs > 0) {
      snprintf(cublas, sizeof(cublas), "%.1f", row->cublasTflops);
      snprintf(ratio, sizeof(ratio), "%.2f",
               row->tileTflops / row->cublasTflops);
      snprintf(cublasMs, sizeof(cublasMs), "%.4f", row->cublasMs);
    }
    printf("| %s | %s | %.1f | %s | %s | %.4f | %s | %s |\n", row->shape,
           dtypeName(bench->opts->dtype), row->tileTflops, cublas, ratio,
           row->tileMs, cublasMs, row->check);
  }
}

//===----------------------------------------------------------------------===//
// Main
//===----------------------------------------------------------------------===//

/// Loads what runs: the library (before the driver: it loads its kernels
/// as it is opened), the device, the kernel file. Prints the "no GPU" line
/// or an error; returns 0 on failure.
static int setUp(Bench *bench) {
  const Options *opts = bench->opts;
  if (opts->library) {
    if (!libraryOpen(bench))
      return 0;
    printf("library: %s: %s() (%s)\n", opts->library, opts->function,
           dtypeName(opts->dtype));
  }
  if (!benchInitDevice(&bench->ctx, opts->common.device))
    return 0;
  if (opts->library && !libraryKernelsLoaded(bench))
    return 0;
  if (opts->common.cubin) {
    char launch[64];
    snprintf(launch, sizeof(launch), "C tile %dx%d%s", opts->tileM, opts->tileN,
             opts->library ? " (for --overhead)" : "");
    if (!benchLoadKernel(bench->ctx, &opts->common, launch, &bench->module,
                         &bench->fn))
      return 0;
  }
  if (opts->common.flushL2 && !opts->overhead &&
      !benchAllocFlush(bench->ctx, &bench->flush, &bench->flushBytes))
    return 0;
  if (opts->useCublas && !opts->overhead) {
    char error[512];
    bench->haveCublas = cublasLoad(&bench->cublas, error, sizeof(error));
    if (!bench->haveCublas)
      printf("cuBLAS: not available (%s)\n", error);
  }
  return 1;
}

int main(int argc, char **argv) {
  static Bench bench; // large (lut): not on the stack
  Options opts;
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!parseOptions(argc, argv, &opts) || !benchApplyLaunchInfo(&opts.common))
    return 2;
  if (opts.common.smem < 0)
    opts.common.smem = 0;
  bench.opts = &opts;
  benchFillLut(bench.lut, opts.dtype == DTYPE_BF16 ? tileRtBF16ToFloat
                                                   : tileRtHalfToFloat);

  int failures = 0, errors = 0;
  if (!setUp(&bench)) {
    errors = 1;
  } else if (opts.check) {
    for (int i = 0; i < opts.numShapes; ++i) {
      int result = checkShape(&bench, opts.shapes[i]);
      if (result < 0)
        ++errors;
      else if (result == 0)
        ++failures;
      if (result < 0)
        break; // the context may be unusable after a kernel fault
    }
    printf("check summary: %d shape(s), %d failed, %d error(s)\n",
           opts.numShapes, failures, errors);
  } else if (opts.overhead) {
    int status = runOverhead(&bench);
    errors = status < 0;
    failures = status > 0;
  } else {
    Row rows[kMaxShapes];
    int numRows = 0;
    for (int i = 0; i < opts.numShapes; ++i) {
      char name[64];
      shapeName(opts.shapes[i], name, sizeof(name));
      fprintf(stderr, "benchmarking %s %s...\n", name, dtypeName(opts.dtype));
      if (!benchShape(&bench, opts.shapes[i], &rows[numRows])) {
        ++errors;
        break;
      }
      failures += rows[numRows].wrong;
      ++numRows;
    }
    printTable(&bench, rows, numRows);
  }

  if (bench.haveCublas)
    bench.cublas.destroy(bench.cublas.handle);
  if (bench.ctx) {
    tileRtFree(bench.ctx, bench.flush);
    tileRtModuleUnload(bench.module);
    tileRtDestroy(bench.ctx);
  }
  return errors ? 2 : failures ? 1 : 0;
}
