//===- fuzz_common.c - Shared parts of the libFuzzer targets ------*- C -*-===//
//
// See fuzz_common.h.
//
//===----------------------------------------------------------------------===//

#include "fuzz_common.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Support.h"
#include "tile-c/Parse.h"
#include "tile-c/Passes.h"
#include "tile-c/Registration.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char kBufferName[] = "fuzz-input.mlir";

static bool checkDiagnostics = true;
static bool verbose;
static bool trace;

/// The input fuzzTraceBegin saw last.
static struct {
  unsigned long count;
  unsigned selector;
  size_t size;
  uint64_t hash;
  struct timespec start;
} traced;

/// What the diagnostic handler saw during one step.
static struct {
  int errors;
  int unlocated;
  char first[512];
} diags;

void fuzzAppend(MlirStringRef str, void *userData) {
  FuzzBuffer *buf = (FuzzBuffer *)userData;
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

void fuzzDiscard(MlirStringRef str, void *userData) {
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
  FuzzBuffer loc = {0}, msg = {0};
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), fuzzAppend, &loc);
  mlirDiagnosticPrint(diagnostic, fuzzAppend, &msg);
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

/// The ASan defaults of tile-opt: the uninstrumented MLIR and LLVM code
/// shares inline allocator code with the instrumented code, whose
/// poisoning of BumpPtrAllocator slabs then reads as use-after-poison
/// (allow_user_poisoning=0); and no leak report at exit. ASAN_OPTIONS,
/// when set, takes precedence.
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "detect_leaks=0:allow_user_poisoning=0";
}

void fuzzInitialize(void) {
  const char *check = getenv("TILE_FUZZ_CHECK_DIAGNOSTICS");
  checkDiagnostics = !(check && strcmp(check, "0") == 0);
  const char *v = getenv("TILE_FUZZ_VERBOSE");
  verbose = v && strcmp(v, "1") == 0;
  const char *t = getenv("TILE_FUZZ_TRACE");
  trace = t && strcmp(t, "1") == 0;
  tileRegisterAllPasses();
  tileRegisterPipelines();
}

MlirContext fuzzCreateContext(void) {
  MlirContext context = mlirContextCreate();
  // One thread: deterministic, and no thread pool per context.
  mlirContextEnableMultithreading(context, false);
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(context);
  mlirContextAttachDiagnosticHandler(context, handleDiagnostic, NULL, NULL);
  return context;
}

MlirPassManager fuzzCreatePassManager(MlirContext context,
                                      const char *pipeline) {
  MlirPassManager pm = mlirPassManagerCreate(context);
  FuzzBuffer err = {0};
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(pipeline), fuzzAppend, &err))) {
    fprintf(stderr, "tile fuzzer: cannot parse '%s': %s\n", pipeline,
            err.data ? err.data : "");
    abort();
  }
  free(err.data);
  return pm;
}

void fuzzResetDiagnostics(void) { memset(&diags, 0, sizeof(diags)); }

const char *fuzzFirstError(void) { return diags.first; }

void fuzzCheckStep(const char *step, bool succeeded) {
  if (!checkDiagnostics)
    return;
  if (succeeded && diags.errors > 0) {
    fprintf(stderr, "tile fuzzer: %s succeeded after an error: %s\n", step,
            diags.first);
    abort();
  }
  if (!succeeded && diags.unlocated > 0) {
    fprintf(stderr, "tile fuzzer: %s failed with an unlocated error: %s\n",
            step, diags.first);
    abort();
  }
}

MlirModule fuzzParse(MlirContext context, const uint8_t *data, size_t size) {
  // The text of the previous input, kept until now in case its module
  // pointed into it.
  static char *text;
  free(text);
  text = NULL;
  if (size < 1)
    return (MlirModule){NULL};
  // The parser expects a NUL after the text.
  text = (char *)malloc(size);
  if (!text)
    return (MlirModule){NULL};
  memcpy(text, data + 1, size - 1);
  text[size - 1] = '\0';
  fuzzResetDiagnostics();
  MlirModule module = tileModuleCreateParse(
      context, mlirStringRefCreate(text, size - 1),
      mlirStringRefCreate(kBufferName, sizeof(kBufferName) - 1));
  fuzzCheckStep("parsing", !mlirModuleIsNull(module));
  return module;
}

void fuzzTraceBegin(const uint8_t *data, size_t size) {
  if (!trace)
    return;
  uint64_t hash = 14695981039346656037ull;
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 1099511628211ull;
  ++traced.count;
  traced.selector = size ? data[0] : 0;
  traced.size = size;
  traced.hash = hash;
  clock_gettime(CLOCK_MONOTONIC, &traced.start);
}

void fuzzTraceEnd(void) {
  if (!trace)
    return;
  struct timespec end;
  clock_gettime(CLOCK_MONOTONIC, &end);
  double ms = (double)(end.tv_sec - traced.start.tv_sec) * 1e3 +
              (double)(end.tv_nsec - traced.start.tv_nsec) / 1e6;
  fprintf(stderr,
          "trace: input %lu selector %u size %zu fnv %016llx: %.0f ms\n",
          traced.count, traced.selector, traced.size,
          (unsigned long long)traced.hash, ms);
}
