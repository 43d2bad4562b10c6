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

static int parseShape(const char *text, Shape *shape) {
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

static int parseShapes(const char *text, Options *opts) {
  opts->numShapes = 0;
  char *copy = strdup(text);
  int ok = copy != NULL;
  for (char *save = NULL, *item = copy ? strtok_r(copy, ",", &save) : NULL;
       ok && item; item = strtok_r(NULL, ",", &save)) {
    if (opts->numShapes == kMaxShapes ||
        !parseShape(item, &opts->shapes[opts->numShapes])) {
      fprintf(stderr, "error: bad shape '%s' (expected MxNxK)\n", item);
      ok = 0;
      break;
    }
    ++opts->numShapes;
  }
  free(copy);
  return ok && opts->numShapes > 0;
}

static int parseOptions(int argc, char **argv, Options *opts) {
  memset(opts, 0, sizeof(*opts));
  opts->kernel = "gemm_kernel";
  opts->function = "gemm";
  opts->dtype = DTYPE_BF16;
  opts->useCublas = 1;
  opts->runs = 5;
  opts->warmup = 5;
  opts->targetMs = 50;
  opts->smem = -1;
  opts->block[0] = 128;
  opts->block[1] = opts->block[2] = 1;
  opts->tileM = opts->tileN = 128;
  opts->seed = 1234;
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
    } else if ((value = benchOptionValue(arg, "--cubin"))) {
      opts->cubin = value;
    } else if ((value = benchOptionValue(arg, "--kernel"))) {
      opts->kernel = value;
    } else if ((value = benchOptionValue(arg, "--launch-info"))) {
      opts->launchInfo = value;
    } else if ((value = benchOptionValue(arg, "--smem"))) {
      opts->smem = atoll(value);
    } else if ((value = benchOptionValue(arg, "--block"))) {
      if (!benchParseBlock(value, opts->block)) {
        fprintf(stderr, "error: bad block size '%s'\n", value);
        return 0;
      }
      opts->blockSet = 1;
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
      if (!parseShapes(value, opts))
        return 0;
    } else if (!strcmp(arg, "--check")) {
      opts->check = 1;
    } else if (!strcmp(arg, "--overhead")) {
      opts->overhead = 1;
    } else if (!strcmp(arg, "--no-cublas")) {
      opts->useCublas = 0;
    } else if (!strcmp(arg, "--flush-l2")) {
      opts->flushL2 = 1;
    } else if (!strcmp(arg, "--no-cpu-ref")) {
      opts->cpuRef = 0;
    } else if ((value = benchOptionValue(arg, "--cpu-full-limit"))) {
      opts->cpuFullLimit = atof(value);
    } else if ((value = benchOptionValue(arg, "--runs"))) {
      opts->runs = atoi(value);
    } else if ((value = benchOptionValue(arg, "--iters"))) {
      opts->iters = atoi(value);
    } else if ((value = benchOptionValue(arg, "--target-ms"))) {
      opts->targetMs = atof(value);
    } else if ((value = benchOptionValue(arg, "--warmup"))) {
      opts->warmup = atoi(value);
    } else if ((value = benchOptionValue(arg, "--seed"))) {
      opts->seed = strtoull(value, NULL, 10);
    } else if ((value = benchOptionValue(arg, "--offset"))) {
      char *end;
      opts->offset = strtoll(value, &end, 10);
      if (*end || opts->offset < 0 || opts->offset > 4096) {
        fprintf(stderr, "error: --offset expects 0 to 4096 elements\n");
        return 0;
      }
    } else if ((value = benchOptionValue(arg, "--device"))) {
      opts->device = atoi(value);
    } else if (arg[0] != '-' && !opts->cubin) {
      opts->cubin = arg;
    } else {
      fprintf(stderr, "error: unknown argument '%s'\n", arg);
      usage(stderr);
      return 0;
    }
  }
  if (!opts->library && !opts->cubin) {
    fprintf(stderr, "error: nothing to run: --library=FILE or --cubin=FILE\n");
    usage(stderr);
    return 0;
  }
  if (opts->overhead && (!opts->library || !opts->cubin)) {
    fprintf(stderr, "error: --overhead compares gemm() of --library=FILE "
                    "with direct launches of its kernel, --cubin=FILE: "
                    "both are needed\n");
    return 0;
  }
  if (opts->overhead && opts->check) {
    fprintf(stderr, "error: --overhead and --check are separate runs\n");
    return 0;
  }
  if (opts->runs < 1)
    opts->runs = 1;
  if (opts->warmup < 0)
    opts->warmup = 0;
  if (opts->targetMs <= 0)
    opts->targetMs = 50;
  return 1;
}

/// Reads "shared_bytes=N" and "block=X,Y,Z" lines; command-line values win.
static int readLaunchInfo(Options *opts) {
  if (!opts->launchInfo)
    return 1;
  BenchLaunchInfo info;
  if (!benchReadLaunchInfo(opts->launchInfo, &info))
    return 0;
  if (opts->smem < 0)
    opts->smem = info.sharedBytes;
  if (info.haveBlock && !opts->blockSet)
    memcpy(opts->block, info.block, sizeof(opts->block));
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
  int ok = problemInit(bench, s, &p);
  double tileIters = ok ? calibrate(bench, &p, launchTile) : -1;
  double cublasIters = 0;
  if (tileIters < 0) {
    problemFree(bench, &p);
    return 0;
  }
  if (bench->haveCublas &&
      (cublasIters = calibrate(bench, &p, launchCublas)) < 0) {
    problemFree(bench, &p);
    return 0;
  }
  double tileRuns[64], cublasRuns[64];
  int runs = opts->runs > 64 ? 64 : opts->runs;
  for (int r = 0; r < runs; ++r) {
    tileRuns[r] = timeLaunches(bench, &p, launchTile, (int)tileIters);
    if (tileRuns[r] < 0) {
      problemFree(bench, &p);
      return 0;
    }
    if (bench->haveCublas) {
      cublasRuns[r] = timeLaunches(bench, &p, launchCublas, (int)cublasIters);
      if (cublasRuns[r] < 0) {
        problemFree(bench, &p);
        return 0;
      }
    }
  }
  double flop = 2.0 * (double)s.m * s.n * s.k;
  qsort(tileRuns, runs, sizeof(double), benchCompareDoubles);
  row->tileMs = tileRuns[runs / 2];
  row->tileTflops = flop / (row->tileMs * 1e-3) / 1e12;
  snprintf(row->check, sizeof(row->check), "-");
  if (bench->haveCublas) {
    qsort(cublasRuns, runs, sizeof(double), benchCompareDoubles);
    row->cublasMs = cublasRuns[runs / 2];
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
  if (tileRtInit(&bench->ctx, opts->device) != TILE_RT_SUCCESS) {
    printf("no GPU: %s\n", tileRtLastError(NULL));
    return 0;
  }
  TileRtContext *ctx = bench->ctx;
  char device[256] = "?";
  int major = 0, minor = 0, sms = 0, driver = 0;
  tileRtDeviceName(ctx, device, sizeof(device));
  tileRtDeviceComputeCapability(ctx, &major, &minor);
  tileRtDeviceSMCount(ctx, &sms);
  tileRtDriverVersion(&driver);
  printf("device: %s (sm_%d%d, %d SMs, driver %d.%d)\n", device, major, minor,
         sms, driver / 1000, driver % 1000 / 10);
  if (opts->library && !libraryKernelsLoaded(bench))
    return 0;
  if (opts->cubin) {
    if (!kernelLoad(bench))
      return 0;
    int regs = 0, staticSmem = 0, local = 0, maxThreads = 0;
    tileRtFunctionInfo(bench->fn, &regs, &staticSmem, &local, &maxThreads);
    printf("kernel: %s from %s: %d registers, %d B static shared memory, %d B "
           "local memory; launch: block (%u, %u, %u), %lld B dynamic shared "
           "memory, C tile %dx%d%s\n",
           opts->kernel, opts->cubin, regs, staticSmem, local, opts->block[0],
           opts->block[1], opts->block[2], opts->smem, opts->tileM,
           opts->tileN, opts->library ? " (for --overhead)" : "");
  }
  if (opts->flushL2 && !opts->overhead) {
    bench->flushBytes = (size_t)256 << 20;
    if (tileRtMalloc(ctx, bench->flushBytes, &bench->flush) !=
        TILE_RT_SUCCESS) {
      printf("error: %s\n", tileRtLastError(ctx));
      return 0;
    }
    printf("timing with a cold L2: 256 MiB overwritten before each launch\n");
  }
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
  if (!parseOptions(argc, argv, &opts) || !readLaunchInfo(&opts))
    return 2;
  if (opts.smem < 0)
    opts.smem = 0;
  bench.opts = &opts;
  for (uint32_t i = 0; i < 65536; ++i)
    bench.lut[i] = opts.dtype == DTYPE_BF16 ? tileRtBF16ToFloat((uint16_t)i)
                                            : tileRtHalfToFloat((uint16_t)i);

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
