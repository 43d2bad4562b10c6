//===- tile_capi_fuzzer.c - libFuzzer target over the tile C API --*- C -*-===//
//
// A coverage-guided fuzz target (libFuzzer) over the tile C API: the input is
// one selector byte followed by MLIR text. The text is parsed and verified
// with tileModuleCreateParse; when that succeeds, the selector picks what
// runs on the module:
//
//   byte % 4 == 0  print the module and emit its C header (no pipeline)
//   byte % 4 == 1  tile-to-nvvm{chip=sm_80 format=isa}   (PTX, no ptxas)
//   byte % 4 == 2  tile-to-nvvm{chip=sm_90a format=isa}
//   byte % 4 == 3  tile-to-rocdl{chip=gfx942 format=isa} (no ROCm needed)
//
// and, after a pipeline that succeeded, the binary and launch queries of
// tile-c/Compile.h on the first kernel.
//
// Besides crashes, sanitizer reports, timeouts and memory limits (libFuzzer's
// own), an input is a finding (abort) when a run fails with an error that has
// no source location in the input (line 0, <unknown>), or succeeds although
// an error was reported: the same classes as tools/tile-fuzz's unlocated
// errors and errors with exit 0. TILE_FUZZ_CHECK_DIAGNOSTICS=0 in the
// environment turns these two checks off; TILE_FUZZ_VERBOSE=1 prints the
// diagnostics. See docs/fuzzing.md for building and running it.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "tile-c/Compile.h"
#include "tile-c/Host.h"
#include "tile-c/Parse.h"
#include "tile-c/Passes.h"
#include "tile-c/Registration.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUM_PIPELINES 3
// The context keeps every attribute and type it ever uniqued: a fresh one
// every so many inputs bounds the memory of long runs.
#define INPUTS_PER_CONTEXT 512

static const char *const kPipelines[NUM_PIPELINES] = {
    "builtin.module(tile-to-nvvm{chip=sm_80 format=isa})",
    "builtin.module(tile-to-nvvm{chip=sm_90a format=isa})",
    "builtin.module(tile-to-rocdl{chip=gfx942 format=isa})",
};
static const char kBufferName[] = "fuzz-input.mlir";

static MlirContext context;
static MlirPassManager passManagers[NUM_PIPELINES];
static unsigned inputsInContext;
static bool checkDiagnostics = true;
static bool verbose;

/// What the diagnostic handler saw during one step.
typedef struct {
  int errors;
  int unlocated;
  char first[512];
} DiagState;
static DiagState diags;

typedef struct {
  char *data;
  size_t size, capacity;
} Buffer;

static void appendToBuffer(MlirStringRef str, void *userData) {
  Buffer *buf = (Buffer *)userData;
  if (buf->size + str.length + 1 > buf->capacity) {
    size_t cap = buf->capacity ? buf->capacity : 256;
    while (cap < buf->size + str.length + 1)
      cap *= 2;
    char *grown = (char *)realloc(buf->data, cap);
    if (!grown)
      abort();
    buf->data = grown;
    buf->capacity = cap;
  }
  memcpy(buf->data + buf->size, str.data, str.length);
  buf->size += str.length;
  buf->data[buf->size] = '\0';
}

static void discard(MlirStringRef str, void *userData) {
  (void)str;
  (void)userData;
}

/// True when the printed location names a line > 0 of the input buffer
/// (directly, or inside a fused, call-site or name location).
static bool isLocatedInInput(const char *loc) {
  const char *p = loc;
  while ((p = strstr(p, kBufferName)) != NULL) {
    p += sizeof(kBufferName) - 1;
    if (p[0] == '"' && p[1] == ':' && p[2] >= '1' && p[2] <= '9')
      return true;
  }
  return false;
}

static MlirLogicalResult handleDiagnostic(MlirDiagnostic diagnostic,
                                          void *userData) {
  (void)userData;
  if (mlirDiagnosticGetSeverity(diagnostic) != MlirDiagnosticError)
    return mlirLogicalResultSuccess();
  Buffer loc = {0}, msg = {0};
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), appendToBuffer,
                    &loc);
  mlirDiagnosticPrint(diagnostic, appendToBuffer, &msg);
  bool located = loc.data && isLocatedInInput(loc.data);
  if (verbose)
    fprintf(stderr, "error at %s: %s\n", loc.data ? loc.data : "?",
            msg.data ? msg.data : "");
  if (diags.errors == 0 || (!located && diags.unlocated == 0))
    snprintf(diags.first, sizeof(diags.first), "%s: %s",
             loc.data ? loc.data : "?", msg.data ? msg.data : "");
  ++diags.errors;
  if (!located)
    ++diags.unlocated;
  free(loc.data);
  free(msg.data);
  return mlirLogicalResultSuccess();
}

static void destroyContext(void) {
  for (int i = 0; i < NUM_PIPELINES; ++i)
    if (passManagers[i].ptr) {
      mlirPassManagerDestroy(passManagers[i]);
      passManagers[i].ptr = NULL;
    }
  if (context.ptr) {
    mlirContextDestroy(context);
    context.ptr = NULL;
  }
}

static void createContext(void) {
  context = mlirContextCreate();
  // One thread: deterministic, and no thread pool per context.
  mlirContextEnableMultithreading(context, false);
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(context);
  mlirContextAttachDiagnosticHandler(context, handleDiagnostic, NULL, NULL);
  for (int i = 0; i < NUM_PIPELINES; ++i) {
    passManagers[i] = mlirPassManagerCreate(context);
    Buffer err = {0};
    if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
            mlirPassManagerGetAsOpPassManager(passManagers[i]),
            mlirStringRefCreateFromCString(kPipelines[i]), appendToBuffer,
            &err))) {
      fprintf(stderr, "tile_capi_fuzzer: cannot parse '%s': %s\n",
              kPipelines[i], err.data ? err.data : "");
      abort();
    }
    free(err.data);
  }
  inputsInContext = 0;
}

/// The ASan defaults of tile-opt: the uninstrumented MLIR and LLVM code
/// shares inline allocator code with the instrumented code, whose
/// poisoning of BumpPtrAllocator slabs then reads as use-after-poison
/// (allow_user_poisoning=0); and no leak report at exit. ASAN_OPTIONS,
/// when set, takes precedence.
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "detect_leaks=0:allow_user_poisoning=0";
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *check = getenv("TILE_FUZZ_CHECK_DIAGNOSTICS");
  checkDiagnostics = !(check && strcmp(check, "0") == 0);
  const char *v = getenv("TILE_FUZZ_VERBOSE");
  verbose = v && strcmp(v, "1") == 0;
  tileRegisterAllPasses();
  tileRegisterPipelines();
  createContext();
  return 0;
}

/// Aborts (a libFuzzer finding) on an unlocated error, or on an error
/// reported by a step that succeeded.
static void checkStep(const char *step, bool succeeded) {
  if (!checkDiagnostics)
    return;
  if (succeeded && diags.errors > 0) {
    fprintf(stderr, "tile_capi_fuzzer: %s succeeded after an error: %s\n", step,
            diags.first);
    abort();
  }
  if (!succeeded && diags.unlocated > 0) {
    fprintf(stderr, "tile_capi_fuzzer: %s failed with an unlocated error: %s\n",
            step, diags.first);
    abort();
  }
}

static void resetDiagnostics(void) { memset(&diags, 0, sizeof(diags)); }

/// Reads the compiled module back through the C API queries.
static void queryCompiled(MlirModule module) {
  const void *data = NULL;
  size_t size = 0;
  MlirStringRef first = mlirStringRefCreate(NULL, 0);
  resetDiagnostics();
  if (mlirLogicalResultIsSuccess(
          tileModuleGetGPUBinary(module, first, &data, &size))) {
    // Touch every byte (the sanitizer checks the range is live).
    volatile unsigned char sum = 0;
    for (size_t i = 0; i < size; ++i)
      sum += ((const unsigned char *)data)[i];
    (void)sum;
  }
  int64_t shared = 0, block[3] = {0, 0, 0};
  (void)tileModuleGetLaunchInfo(module, first, &shared, block);
  // A module without a launch or a binary (no kernel) legitimately fails
  // these queries with a diagnostic on the module: no check here.
  resetDiagnostics();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  if (++inputsInContext > INPUTS_PER_CONTEXT) {
    destroyContext();
    createContext();
  }
  unsigned selector = data[0] % (NUM_PIPELINES + 1);
  // The parser expects a NUL after the text.
  char *text = (char *)malloc(size);
  if (!text)
    return 0;
  memcpy(text, data + 1, size - 1);
  text[size - 1] = '\0';

  resetDiagnostics();
  MlirModule module = tileModuleCreateParse(
      context, mlirStringRefCreate(text, size - 1),
      mlirStringRefCreate(kBufferName, sizeof(kBufferName) - 1));
  checkStep("parsing", !mlirModuleIsNull(module));
  if (mlirModuleIsNull(module)) {
    free(text);
    return 0;
  }
  MlirOperation op = mlirModuleGetOperation(module);
  resetDiagnostics();
  bool verified = mlirOperationVerify(op);
  checkStep("verifying the parsed module", verified);

  if (verified && selector == 0) {
    mlirOperationPrint(op, discard, NULL);
    resetDiagnostics();
    MlirLogicalResult header = tileModuleEmitCHeader(
        module, mlirStringRefCreateFromCString("FUZZ_H"), discard, NULL);
    checkStep("tileModuleEmitCHeader", mlirLogicalResultIsSuccess(header));
  } else if (verified) {
    resetDiagnostics();
    MlirLogicalResult result =
        mlirPassManagerRunOnOp(passManagers[selector - 1], op);
    checkStep(kPipelines[selector - 1], mlirLogicalResultIsSuccess(result));
    if (mlirLogicalResultIsSuccess(result))
      queryCompiled(module);
  }
  mlirModuleDestroy(module);
  free(text);
  return 0;
}
