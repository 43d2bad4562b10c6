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
// diagnostics (fuzz_common.h). See docs/fuzzing.md for building and running
// it.
//
//===----------------------------------------------------------------------===//

#include "fuzz_common.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "tile-c/Compile.h"
#include "tile-c/Host.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NUM_PIPELINES 3

static const char *const kPipelines[NUM_PIPELINES] = {
    "builtin.module(tile-to-nvvm{chip=sm_80 format=isa})",
    "builtin.module(tile-to-nvvm{chip=sm_90a format=isa})",
    "builtin.module(tile-to-rocdl{chip=gfx942 format=isa})",
};

static MlirContext context;
static MlirPassManager passManagers[NUM_PIPELINES];
static unsigned inputsInContext;

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
  context = fuzzCreateContext();
  for (int i = 0; i < NUM_PIPELINES; ++i)
    passManagers[i] = fuzzCreatePassManager(context, kPipelines[i]);
  inputsInContext = 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzzInitialize();
  createContext();
  return 0;
}

/// Reads the compiled module back through the C API queries.
static void queryCompiled(MlirModule module) {
  const void *data = NULL;
  size_t size = 0;
  MlirStringRef first = mlirStringRefCreate(NULL, 0);
  fuzzResetDiagnostics();
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
  fuzzResetDiagnostics();
}

static void runInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return;
  if (++inputsInContext > FUZZ_INPUTS_PER_CONTEXT) {
    destroyContext();
    createContext();
  }
  unsigned selector = data[0] % (NUM_PIPELINES + 1);
  MlirModule module = fuzzParse(context, data, size);
  if (mlirModuleIsNull(module))
    return;
  MlirOperation op = mlirModuleGetOperation(module);
  fuzzResetDiagnostics();
  bool verified = mlirOperationVerify(op);
  fuzzCheckStep("verifying the parsed module", verified);

  if (verified && selector == 0) {
    mlirOperationPrint(op, fuzzDiscard, NULL);
    fuzzResetDiagnostics();
    MlirLogicalResult header = tileModuleEmitCHeader(
        module, mlirStringRefCreateFromCString("FUZZ_H"), fuzzDiscard, NULL);
    fuzzCheckStep("tileModuleEmitCHeader", mlirLogicalResultIsSuccess(header));
  } else if (verified) {
    fuzzResetDiagnostics();
    MlirLogicalResult result =
        mlirPassManagerRunOnOp(passManagers[selector - 1], op);
    fuzzCheckStep(kPipelines[selector - 1], mlirLogicalResultIsSuccess(result));
    if (mlirLogicalResultIsSuccess(result))
      queryCompiled(module);
  }
  mlirModuleDestroy(module);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzzTraceBegin(data, size);
  runInput(data, size);
  fuzzTraceEnd();
  return 0;
}
