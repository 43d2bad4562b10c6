//===- gemm_host.c - Compile examples/gemm.mlir and run it -------*- C -*-===//
//
// The C host of examples/gemm.mlir: compiles the example through the tile C
// API for a given element type, runs it on the GPU for a given M, N, K and
// checks the result against a CPU reference.
//
//   tile-gemm-host --shape=1024x1024x1024 --dtype=bf16
//   tile-gemm-host --dtype=f16 --compile-only --emit-cubin=gemm_f16.cubin
//                  --emit-launch-info=gemm_f16.info
//   tile-gemm-host-cubin --cubin=gemm_f16.cubin --launch-info=gemm_f16.info
//                  --dtype=f16 --shape=1000x1000x1000
//
// Two builds of this file (bench/CMakeLists.txt):
//  - tile-gemm-host links libTileMLIR-C.so and TileRuntime and can compile;
//  - tile-gemm-host-cubin (TILE_GEMM_HOST_NO_MLIR) links TileRuntime only and
//    runs a binary compiled elsewhere (--cubin): it starts on machines
//    without MLIR/LLVM, such as the GPU machine.
// The CUDA driver is loaded at run time (TileRuntime): without a GPU, the
// compiling build prints what it compiled, "no GPU: compiled only", and
// exits 0.
//
// Compilation (tile-gemm-host):
//  1. read examples/gemm.mlir (--mlir=FILE); for --dtype=bf16, substitute the
//     element type textually: every `f16` not preceded by `b` and not followed
//     by a letter or digit becomes `bf16` (the example is written for f16;
//     comments change too, harmlessly);
//  2. mlirContextCreate, tileRegisterAllDialects, tileRegisterAllPasses,
//     mlirModuleCreateParse;
//  3. mlirParsePassPipeline("builtin.module(tile-to-nvvm{chip=sm_90a})")
//     (--pipeline=... overrides) and mlirPassManagerRunOnOp;
//  4. the C API of tile-c/Compile.h extracts the result:
//       MlirLogicalResult tileModuleGetGPUBinary(MlirModule module,
//           MlirStringRef kernelName, const void **data, size_t *size);
//       MlirLogicalResult tileModuleGetLaunchInfo(MlirModule module,
//           MlirStringRef kernelName, int64_t *sharedBytes, int64_t block[3]);
//     i.e. the first object of the gpu.binary holding `gemm_kernel` (cubin,
//     fatbin or PTX) and the dynamic shared memory and block size of its
//     gpu.launch_func.
//
// Launch (the ABI of the compiled kernel): parameters A, B, C, each a
// row-major memref<?x?xT> as an MLIR memref descriptor (7 parameters);
// grid (ceil(N / 128), ceil(M / 128), 1) (the 128 x 128 C tile of the
// example), block and dynamic shared memory as the compiler reports them.
//
// Exit status: 0 on success (or compiled only without a GPU), 1 when the
// result is wrong, 2 on any other error.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "tile_runtime.h"

#ifndef TILE_GEMM_HOST_NO_MLIR
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Compile.h"
#include "tile-c/Registration.h"
#endif

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TILE_GEMM_MLIR_DEFAULT
#define TILE_GEMM_MLIR_DEFAULT "examples/gemm.mlir"
#endif

enum { kTileM = 128, kTileN = 128 };

typedef struct {
  const char *mlir;
  const char *pipeline;
  const char *kernel;
  const char *cubin;
  const char *launchInfo;
  const char *emitCubin;
  const char *emitLaunchInfo;
  const char *emitSource;
  int compileOnly;
  int noSubstitution;
  int bf16;
  int64_t m, n, k;
  long long smem;
  unsigned block[3];
  int blockSet;
} Options;

static void usage(FILE *out) {
  fprintf(out,
          "usage: tile-gemm-host [options]\n"
          "  --shape=MxNxK          problem size (default 1024x1024x1024)\n"
          "  --M=, --N=, --K=       the same, one at a time\n"
          "  --dtype=f16|bf16       element type (default f16)\n"
          "  --kernel=NAME          kernel name (default gemm_kernel)\n"
#ifndef TILE_GEMM_HOST_NO_MLIR
          "  --mlir=FILE            source (default " TILE_GEMM_MLIR_DEFAULT
          ")\n"
          "  --pipeline=PIPELINE    pass pipeline (default "
          "builtin.module(tile-to-nvvm{chip=sm_90a}))\n"
          "  --emit-cubin=FILE      write the compiled binary\n"
          "  --emit-launch-info=FILE write shared_bytes= and block= lines\n"
          "  --emit-source=FILE     write the source compiled (after the\n"
          "                         bf16 substitution)\n"
          "  --no-substitution      the source is already in the element type\n"
          "                         (e.g. a module compiled by tile-opt)\n"
          "  --compile-only         do not run\n"
#endif
          "  --cubin=FILE           run this binary instead of compiling\n"
          "  --launch-info=FILE     its launch configuration\n"
          "  --smem=BYTES, --block=X[,Y,Z]  launch configuration overrides\n");
}

static const char *optionValue(const char *arg, const char *name) {
  size_t length = strlen(name);
  if (strncmp(arg, name, length) == 0 && arg[length] == '=')
    return arg + length + 1;
  return NULL;
}

static int parseSize(const char *text, int64_t *value) {
  char *end;
  long long v = strtoll(text, &end, 10);
  if (*end || v < 1 || v > 0x7fffffff)
    return 0;
  *value = v;
  return 1;
}

static int parseBlock(const char *text, unsigned block[3]) {
  unsigned x = 0, y = 1, z = 1;
  if (sscanf(text, "%u,%u,%u", &x, &y, &z) < 1 || !x || !y || !z)
    return 0;
  block[0] = x;
  block[1] = y;
  block[2] = z;
  return 1;
}

static int parseOptions(int argc, char **argv, Options *opts) {
  memset(opts, 0, sizeof(*opts));
  opts->mlir = TILE_GEMM_MLIR_DEFAULT;
  opts->pipeline = "builtin.module(tile-to-nvvm{chip=sm_90a})";
  opts->kernel = "gemm_kernel";
  opts->m = opts->n = opts->k = 1024;
  opts->smem = -1;
  opts->block[0] = 128;
  opts->block[1] = opts->block[2] = 1;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i], *value;
    int ok = 1;
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      usage(stdout);
      exit(0);
    } else if ((value = optionValue(arg, "--shape"))) {
      long long m, n, k;
      char tail;
      ok = sscanf(value, "%lldx%lldx%lld%c", &m, &n, &k, &tail) == 3 && m > 0 &&
           n > 0 && k > 0 && m <= 0x7fffffff && n <= 0x7fffffff &&
           k <= 0x7fffffff;
      opts->m = m;
      opts->n = n;
      opts->k = k;
    } else if ((value = optionValue(arg, "--M"))) {
      ok = parseSize(value, &opts->m);
    } else if ((value = optionValue(arg, "--N"))) {
      ok = parseSize(value, &opts->n);
    } else if ((value = optionValue(arg, "--K"))) {
      ok = parseSize(value, &opts->k);
    } else if ((value = optionValue(arg, "--dtype"))) {
      ok = !strcmp(value, "f16") || !strcmp(value, "bf16");
      opts->bf16 = !strcmp(value, "bf16");
    } else if ((value = optionValue(arg, "--kernel"))) {
      opts->kernel = value;
    } else if ((value = optionValue(arg, "--mlir"))) {
      opts->mlir = value;
    } else if ((value = optionValue(arg, "--pipeline"))) {
      opts->pipeline = value;
    } else if ((value = optionValue(arg, "--emit-cubin"))) {
      opts->emitCubin = value;
    } else if ((value = optionValue(arg, "--emit-launch-info"))) {
      opts->emitLaunchInfo = value;
    } else if ((value = optionValue(arg, "--emit-source"))) {
      opts->emitSource = value;
    } else if (!strcmp(arg, "--no-substitution")) {
      opts->noSubstitution = 1;
    } else if (!strcmp(arg, "--compile-only")) {
      opts->compileOnly = 1;
    } else if ((value = optionValue(arg, "--cubin"))) {
      opts->cubin = value;
    } else if ((value = optionValue(arg, "--launch-info"))) {
      opts->launchInfo = value;
    } else if ((value = optionValue(arg, "--smem"))) {
      opts->smem = atoll(value);
    } else if ((value = optionValue(arg, "--block"))) {
      ok = parseBlock(value, opts->block);
      opts->blockSet = 1;
    } else {
      ok = 0;
    }
    if (!ok) {
      fprintf(stderr, "error: bad argument '%s'\n", arg);
      usage(stderr);
      return 0;
    }
  }
#ifdef TILE_GEMM_HOST_NO_MLIR
  if (!opts->cubin) {
    fprintf(stderr, "error: this build cannot compile (no MLIR): pass "
                    "--cubin=FILE\n");
    return 0;
  }
#endif
  return 1;
}

/// Reads a whole file; returns a NUL-terminated buffer (caller frees).
static char *readFile(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "error: cannot open '%s': %s\n", path, strerror(errno));
    return NULL;
  }
  size_t capacity = 1 << 16, length = 0;
  char *data = malloc(capacity + 1);
  while (data) {
    length += fread(data + length, 1, capacity - length, file);
    if (length < capacity)
      break;
    capacity *= 2;
    char *grown = realloc(data, capacity + 1);
    if (!grown)
      free(data);
    data = grown;
  }
  fclose(file);
  if (!data) {
    fprintf(stderr, "error: out of memory reading '%s'\n", path);
    return NULL;
  }
  data[length] = 0;
  if (size)
    *size = length;
  return data;
}

/// Reads the launch configuration written by --emit-launch-info:
/// "shared_bytes=N" and "block=X,Y,Z" lines. Command-line values win.
static int readLaunchInfo(Options *opts) {
  if (!opts->launchInfo)
    return 1;
  char *text = readFile(opts->launchInfo, NULL);
  if (!text)
    return 0;
  int ok = 1;
  for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    const char *value;
    if ((value = optionValue(line, "shared_bytes")) && opts->smem < 0)
      opts->smem = atoll(value);
    else if ((value = optionValue(line, "block")) && !opts->blockSet)
      ok &= parseBlock(value, opts->block);
  }
  free(text);
  if (!ok)
    fprintf(stderr, "error: bad block in '%s'\n", opts->launchInfo);
  return ok;
}

static const char *binaryKind(const unsigned char *data, size_t size) {
  if (size >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' &&
      data[3] == 'F')
    return "cubin";
  if (size >= 4 && ((data[0] == 0x50 && data[1] == 0xED) ||
                    (data[0] == 0xB1 && data[1] == 0x43)))
    return "fatbin";
  return "PTX";
}

//===----------------------------------------------------------------------===//
// Compilation through the C API
//===----------------------------------------------------------------------===//

#ifndef TILE_GEMM_HOST_NO_MLIR

static int writeFile(const char *path, const void *data, size_t size) {
  FILE *file = fopen(path, "wb");
  if (!file || fwrite(data, 1, size, file) != size) {
    fprintf(stderr, "error: cannot write '%s': %s\n", path, strerror(errno));
    if (file)
      fclose(file);
    return 0;
  }
  return fclose(file) == 0;
}

/// Replaces the element type f16 by bf16 (see the file comment).
static char *substituteBF16(const char *text) {
  size_t length = strlen(text), count = 0;
  for (const char *p = strstr(text, "f16"); p; p = strstr(p + 3, "f16"))
    ++count;
  char *result = malloc(length + count + 1);
  if (!result)
    return NULL;
  char *out = result;
  for (const char *p = text; *p;) {
    if (strncmp(p, "f16", 3) == 0 && (p == text || p[-1] != 'b') &&
        !isalnum((unsigned char)p[3])) {
      memcpy(out, "bf16", 4);
      out += 4;
      p += 3;
    } else {
      *out++ = *p++;
    }
  }
  *out = 0;
  return result;
}

static void printToStderr(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stderr);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fprintf(stderr, "diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

/// Compiles the example; on success returns the binary (caller frees) and
/// fills the launch configuration unless the command line set it.
static unsigned char *compile(Options *opts, size_t *binarySize) {
  char *source = readFile(opts->mlir, NULL);
  if (!source)
    return NULL;
  if (opts->bf16 && !opts->noSubstitution) {
    char *substituted = substituteBF16(source);
    free(source);
    if (!(source = substituted))
      return NULL;
  }
  if (opts->emitSource &&
      !writeFile(opts->emitSource, source, strlen(source))) {
    free(source);
    return NULL;
  }

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  tileRegisterAllPasses();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  unsigned char *binary = NULL;
  MlirPassManager pm = {NULL};
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  free(source);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "error: cannot parse '%s'\n", opts->mlir);
    goto done;
  }
  pm = mlirPassManagerCreate(ctx);
  fprintf(stderr, "compiling %s (%s) with %s\n", opts->mlir,
          opts->bf16 ? "bf16" : "f16", opts->pipeline);
  if (mlirLogicalResultIsFailure(
          mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                mlirStringRefCreateFromCString(opts->pipeline),
                                printToStderr, NULL))) {
    fprintf(stderr, "\nerror: cannot parse the pass pipeline '%s'\n",
            opts->pipeline);
    goto done;
  }
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "error: the pass pipeline failed\n");
    goto done;
  }

  MlirStringRef kernel = mlirStringRefCreateFromCString(opts->kernel);
  const void *data = NULL;
  size_t size = 0;
  int64_t shared = -1, block[3] = {-1, -1, -1};
  if (mlirLogicalResultIsFailure(
          tileModuleGetGPUBinary(module, kernel, &data, &size)) ||
      mlirLogicalResultIsFailure(
          tileModuleGetLaunchInfo(module, kernel, &shared, block))) {
    fprintf(stderr, "error: no compiled kernel '%s' in the result\n",
            opts->kernel);
    goto done;
  }
  if (shared < 0 || block[0] < 1 || block[1] < 1 || block[2] < 1) {
    fprintf(stderr,
            "error: launch configuration of '%s' is not constant (shared "
            "%" PRId64 ", block %" PRId64 ", %" PRId64 ", %" PRId64 ")\n",
            opts->kernel, shared, block[0], block[1], block[2]);
    goto done;
  }
  if (opts->smem < 0)
    opts->smem = shared;
  if (!opts->blockSet)
    for (int i = 0; i < 3; ++i)
      opts->block[i] = (unsigned)block[i];
  // The bytes belong to the context: copy them (with a NUL for PTX).
  binary = malloc(size + 1);
  if (binary) {
    memcpy(binary, data, size);
    binary[size] = 0;
    *binarySize = size;
  }

done:
  if (pm.ptr)
    mlirPassManagerDestroy(pm);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return binary;
}

#endif // TILE_GEMM_HOST_NO_MLIR

//===----------------------------------------------------------------------===//
// Run and check
//===----------------------------------------------------------------------===//

static float toFloat(int bf16, uint16_t bits) {
  return bf16 ? tileRtBF16ToFloat(bits) : tileRtHalfToFloat(bits);
}

static uint16_t fromFloat(int bf16, float value) {
  return bf16 ? tileRtFloatToBF16(value) : tileRtFloatToHalf(value);
}

#define RT(call)                                                               \
  do {                                                                         \
    if ((call) != TILE_RT_SUCCESS) {                                           \
      fprintf(stderr, "error: %s\n", tileRtLastError(ctx));                    \
      goto done;                                                               \
    }                                                                          \
  } while (0)

/// Runs the kernel in `binary` and checks C against a CPU fp64 reference
/// (all rows when M N K <= 2^30, else 16 rows, the edges included).
/// Returns the exit status.
static int run(const Options *opts, TileRtContext *ctx,
               const unsigned char *binary, size_t size) {
  const int64_t M = opts->m, N = opts->n, K = opts->k;
  const int bf16 = opts->bf16;
  int status = 2;
  TileRtModule *module = NULL;
  TileRtFunction *fn = NULL;
  TileRtDevicePtr a = 0, b = 0, c = 0;
  TileRtEvent *start = NULL, *end = NULL;
  uint16_t *hostA = malloc((size_t)M * K * 2);
  uint16_t *hostB = malloc((size_t)K * N * 2);
  uint16_t *hostC = malloc((size_t)M * N * 2);
  double *ref = malloc((size_t)N * sizeof(double));
  if (!hostA || !hostB || !hostC || !ref) {
    fprintf(stderr, "error: out of host memory\n");
    goto done;
  }
  RT(tileRtModuleLoadData(ctx, binary, size, &module));
  RT(tileRtGetFunction(module, opts->kernel, &fn));

  // Inputs: uniform in [-1, 1] from a fixed-seed LCG.
  uint64_t state = 42;
  for (size_t i = 0; i < (size_t)M * K; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    hostA[i] = fromFloat(bf16, (float)((state >> 40) * 0x1.0p-23 - 1.0));
  }
  for (size_t i = 0; i < (size_t)K * N; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    hostB[i] = fromFloat(bf16, (float)((state >> 40) * 0x1.0p-23 - 1.0));
  }
  RT(tileRtMalloc(ctx, (size_t)M * K * 2, &a));
  RT(tileRtMalloc(ctx, (size_t)K * N * 2, &b));
  RT(tileRtMalloc(ctx, (size_t)M * N * 2, &c));
  RT(tileRtMemcpyHtoD(ctx, a, hostA, (size_t)M * K * 2));
  RT(tileRtMemcpyHtoD(ctx, b, hostB, (size_t)K * N * 2));
  // Poison C (0xFFFF is a NaN in f16 and bf16): every element must be written.
  RT(tileRtMemsetD16(ctx, c, 0xffff, (size_t)M * N));

  TileRtMemRef2D descA, descB, descC;
  void *params[21];
  size_t count = 0;
  RT(tileRtMemRefArgs2D(&descA, a, M, K, params, 21, &count));
  RT(tileRtMemRefArgs2D(&descB, b, K, N, params, 21, &count));
  RT(tileRtMemRefArgs2D(&descC, c, M, N, params, 21, &count));
  unsigned grid[3] = {(unsigned)((N + kTileN - 1) / kTileN),
                      (unsigned)((M + kTileM - 1) / kTileM), 1};
  float ms = 0;
  RT(tileRtEventCreate(ctx, &start));
  RT(tileRtEventCreate(ctx, &end));
  RT(tileRtEventRecord(ctx, start));
  RT(tileRtLaunch(fn, grid, opts->block, (unsigned)opts->smem, params));
  RT(tileRtEventRecord(ctx, end));
  RT(tileRtSynchronize(ctx));
  RT(tileRtEventElapsedMs(ctx, start, end, &ms));
  RT(tileRtMemcpyDtoH(ctx, hostC, c, (size_t)M * N * 2));
  printf("ran %s: %" PRId64 "x%" PRId64 "x%" PRId64 " %s, grid (%u, %u), "
         "block (%u, %u, %u), %lld B dynamic shared memory, %.3f ms "
         "(first launch)\n",
         opts->kernel, M, N, K, bf16 ? "bf16" : "f16", grid[0], grid[1],
         opts->block[0], opts->block[1], opts->block[2], opts->smem, ms);

  // Rows to check: all of them, or the edges, tile boundaries and a few more.
  int full = (double)M * N * K <= 1073741824.0;
  int64_t rows[16];
  int numRows = 0;
  if (!full) {
    const int64_t picks[16] = {0,         1,         127,       128,
                               129,       M / 4,     M / 3,     M / 2,
                               M / 2 + 1, 2 * M / 3, 3 * M / 4, M - 129,
                               M - 128,   M - 127,   M - 2,     M - 1};
    for (int i = 0; i < 16; ++i)
      if (picks[i] >= 0 && picks[i] < M)
        rows[numRows++] = picks[i];
  }
  size_t unwritten = 0;
  for (size_t i = 0; i < (size_t)M * N; ++i)
    unwritten += hostC[i] == 0xffff;
  double rtol = bf16 ? 0x1.0p-8 : 0x1.0p-11, atol = (double)K * 0x1.0p-20;
  double maxAbs = 0, sumSqDiff = 0, sumSqRef = 0;
  size_t bad = 0, checked = 0;
  for (int64_t r = 0; r < (full ? M : numRows); ++r) {
    int64_t i = full ? r : rows[r];
    for (int64_t j = 0; j < N; ++j)
      ref[j] = 0;
    for (int64_t k = 0; k < K; ++k) {
      double av = toFloat(bf16, hostA[i * K + k]);
      for (int64_t j = 0; j < N; ++j)
        ref[j] += av * toFloat(bf16, hostB[k * N + j]);
    }
    for (int64_t j = 0; j < N; ++j) {
      double out = toFloat(bf16, hostC[i * N + j]);
      double diff = fabs(out - ref[j]);
      if (!(diff <= atol + 2 * rtol * fabs(ref[j])))
        ++bad; // also counts NaN (unwritten) elements
      if (isfinite(diff)) {
        maxAbs = fmax(maxAbs, diff);
        sumSqDiff += diff * diff;
      }
      sumSqRef += ref[j] * ref[j];
      ++checked;
    }
  }
  double normRel = sqrt(sumSqDiff / (sumSqRef > 0 ? sumSqRef : 1));
  int pass = unwritten == 0 && bad == 0 && normRel <= (bf16 ? 8e-3 : 1e-3);
  printf("check against CPU fp64 (%s, %zu elements): max abs error %.3e, "
         "||C - ref|| / ||ref|| = %.3e, %zu out of tolerance, %zu unwritten "
         "elements of C: %s\n",
         full ? "all rows" : "sampled rows", checked, maxAbs, normRel, bad,
         unwritten, pass ? "PASS" : "FAIL");
  status = pass ? 0 : 1;

done:
  tileRtEventDestroy(ctx, start);
  tileRtEventDestroy(ctx, end);
  tileRtFree(ctx, a);
  tileRtFree(ctx, b);
  tileRtFree(ctx, c);
  tileRtModuleUnload(module);
  free(hostA);
  free(hostB);
  free(hostC);
  free(ref);
  return status;
}

int main(int argc, char **argv) {
  Options opts;
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!parseOptions(argc, argv, &opts) || !readLaunchInfo(&opts))
    return 2;

  unsigned char *binary = NULL;
  size_t size = 0;
  if (opts.cubin) {
    binary = (unsigned char *)readFile(opts.cubin, &size);
    if (!binary)
      return 2;
    printf("loaded %s: %zu bytes of %s\n", opts.cubin, size,
           binaryKind(binary, size));
  } else {
#ifndef TILE_GEMM_HOST_NO_MLIR
    binary = compile(&opts, &size);
    if (!binary)
      return 2;
    printf("compiled %s (%s): %zu bytes of %s, %lld B dynamic shared memory, "
           "block (%u, %u, %u)\n",
           opts.kernel, opts.bf16 ? "bf16" : "f16", size,
           binaryKind(binary, size), opts.smem, opts.block[0], opts.block[1],
           opts.block[2]);
    if (opts.emitCubin && !writeFile(opts.emitCubin, binary, size)) {
      free(binary);
      return 2;
    }
    if (opts.emitLaunchInfo) {
      char info[256];
      int length =
          snprintf(info, sizeof(info),
                   "kernel=%s\ndtype=%s\nshared_bytes=%lld\n"
                   "block=%u,%u,%u\ntile=%dx%d\n",
                   opts.kernel, opts.bf16 ? "bf16" : "f16", opts.smem,
                   opts.block[0], opts.block[1], opts.block[2], kTileM, kTileN);
      if (!writeFile(opts.emitLaunchInfo, info, (size_t)length)) {
        free(binary);
        return 2;
      }
    }
    if (opts.compileOnly) {
      free(binary);
      return 0;
    }
#endif
  }
  if (opts.smem < 0)
    opts.smem = 0;

  TileRtContext *ctx = NULL;
  if (tileRtInit(&ctx, 0) != TILE_RT_SUCCESS) {
    free(binary);
    if (opts.cubin) {
      printf("error: no GPU: %s\n", tileRtLastError(NULL));
      return 2;
    }
    printf("no GPU: compiled only (%s)\n", tileRtLastError(NULL));
    return 0;
  }
  char device[256] = "?";
  tileRtDeviceName(ctx, device, sizeof(device));
  printf("device: %s\n", device);
  int status = run(&opts, ctx, binary, size);
  free(binary);
  tileRtDestroy(ctx);
  return status;
}
