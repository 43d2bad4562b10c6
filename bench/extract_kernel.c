//===- extract_kernel.c - A compiled kernel and its launch info ---*- C -*-===//
//
//   tile-extract-kernel INPUT.mlir --kernel=NAME [--pipeline=PIPELINE]
//                       [--binary=FILE] [--launch-info=FILE]
//
// Compiles INPUT through the tile C API (default pipeline
// builtin.module(tile-to-nvvm{chip=sm_90a}); "builtin.module()" for a
// module compiled already, e.g. by tile-opt) and writes, for kernel NAME,
// the GPU object (cubin, fatbin or PTX, as the pipeline's format says) and
// its launch information: the lines "kernel=NAME", "shared_bytes=N" (dynamic
// shared memory) and "block=X,Y,Z", which tile-gemm-bench --cubin and
// tile-fa-bench read (tile-c/Compile.h: tileModuleGetGPUBinary and
// tileModuleGetLaunchInfo).
//
// The harnesses' direct-launch paths need this: they launch a kernel
// themselves, without the host code tile-compile builds around it (the
// example host and tile-gemm-bench --library use that instead). The grid is
// the harness's business (the kernel's tile), not written here.
//
// Prints "NAME: N bytes of <kind>, S B dynamic shared memory, block (X, Y,
// Z)". Exit status 0 on success, 1 on any error (diagnostics on stderr).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "bench_options.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Compile.h"
#include "tile-c/Registration.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *input, *kernel, *pipeline, *binary, *launchInfo;
} Options;

static void usage(FILE *out) {
  fprintf(out,
          "usage: tile-extract-kernel INPUT.mlir --kernel=NAME [options]\n"
          "  --kernel=NAME       the kernel (its gpu.launch_func and binary)\n"
          "  --pipeline=P        pass pipeline (default "
          "builtin.module(tile-to-nvvm{chip=sm_90a});\n"
          "                      builtin.module() for a compiled module)\n"
          "  --binary=FILE       write the GPU object (cubin, fatbin or PTX)\n"
          "  --launch-info=FILE  write kernel=, shared_bytes= and block= "
          "lines\n");
}

static int parseOptions(int argc, char **argv, Options *o) {
  memset(o, 0, sizeof(*o));
  o->pipeline = "builtin.module(tile-to-nvvm{chip=sm_90a})";
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      exit(0);
    } else if ((v = benchOptionValue(a, "--kernel"))) {
      o->kernel = v;
    } else if ((v = benchOptionValue(a, "--pipeline"))) {
      o->pipeline = v;
    } else if ((v = benchOptionValue(a, "--binary"))) {
      o->binary = v;
    } else if ((v = benchOptionValue(a, "--launch-info"))) {
      o->launchInfo = v;
    } else if (a[0] != '-' && !o->input) {
      o->input = a;
    } else {
      fprintf(stderr, "error: bad argument '%s'\n", a);
      usage(stderr);
      return 0;
    }
  }
  if (!o->input || !o->kernel) {
    fprintf(stderr, "error: %s\n",
            !o->input ? "no input file" : "no kernel (--kernel=NAME)");
    usage(stderr);
    return 0;
  }
  return 1;
}

static int writeFile(const char *path, const void *data, size_t size) {
  FILE *file = fopen(path, "wb");
  int ok = file && fwrite(data, 1, size, file) == size;
  if (file && fclose(file) != 0)
    ok = 0;
  if (!ok)
    fprintf(stderr, "error: cannot write '%s': %s\n", path, strerror(errno));
  return ok;
}

static const char *binaryKind(const unsigned char *data, size_t size) {
  if (size >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' &&
      data[3] == 'F')
    return "cubin";
  if (size >= 2 && ((data[0] == 0x50 && data[1] == 0xED) ||
                    (data[0] == 0xB1 && data[1] == 0x43)))
    return "fatbin";
  return "PTX";
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

int main(int argc, char **argv) {
  Options o;
  if (!parseOptions(argc, argv, &o))
    return 1;

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  tileRegisterAllPasses();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);

  int status = 1;
  MlirPassManager pm = {NULL};
  MlirModule module = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(o.input));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "error: cannot parse '%s'\n", o.input);
    goto done;
  }
  pm = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(o.pipeline), printToStderr, NULL))) {
    fprintf(stderr, "\nerror: cannot parse the pass pipeline '%s'\n",
            o.pipeline);
    goto done;
  }
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "error: the pass pipeline failed on '%s'\n", o.input);
    goto done;
  }

  MlirStringRef kernel = mlirStringRefCreateFromCString(o.kernel);
  const void *data = NULL;
  size_t size = 0;
  int64_t shared = -1, block[3] = {-1, -1, -1};
  if (mlirLogicalResultIsFailure(
          tileModuleGetGPUBinary(module, kernel, &data, &size)) ||
      mlirLogicalResultIsFailure(
          tileModuleGetLaunchInfo(module, kernel, &shared, block))) {
    fprintf(stderr, "error: no compiled kernel '%s' in the result\n",
            o.kernel);
    goto done;
  }
  if (shared < 0 || block[0] < 1 || block[1] < 1 || block[2] < 1) {
    fprintf(stderr,
            "error: the launch configuration of '%s' is not constant "
            "(shared %" PRId64 ", block %" PRId64 ", %" PRId64 ", %" PRId64
            ")\n",
            o.kernel, shared, block[0], block[1], block[2]);
    goto done;
  }
  printf("%s: %zu bytes of %s, %" PRId64 " B dynamic shared memory, block "
         "(%" PRId64 ", %" PRId64 ", %" PRId64 ")\n",
         o.kernel, size, binaryKind(data, size), shared, block[0], block[1],
         block[2]);
  if (o.binary && !writeFile(o.binary, data, size))
    goto done;
  if (o.launchInfo) {
    char info[512];
    int length = snprintf(info, sizeof(info),
                          "kernel=%s\nshared_bytes=%" PRId64
                          "\nblock=%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
                          o.kernel, shared, block[0], block[1], block[2]);
    if (length < 0 || (size_t)length >= sizeof(info)) {
      fprintf(stderr, "error: kernel name too long\n");
      goto done;
    }
    if (!writeFile(o.launchInfo, info, (size_t)length))
      goto done;
  }
  status = 0;

done:
  if (pm.ptr)
    mlirPassManagerDestroy(pm);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return status;
}
