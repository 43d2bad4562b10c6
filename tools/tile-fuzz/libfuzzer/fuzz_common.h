//===- fuzz_common.h - Shared parts of the libFuzzer targets ------*- C -*-===//
//
// What tile_capi_fuzzer.c and tile_pass_fuzzer.c share: a context with every
// tile dialect and a diagnostic handler, the diagnostic checks that turn an
// unlocated error or an error reported by a step that succeeded into a
// finding (abort), pass managers made from textual pipelines, and the parse
// of an input (a selector byte, then MLIR text).
//
// Environment: TILE_FUZZ_CHECK_DIAGNOSTICS=0 turns the two diagnostic checks
// off; TILE_FUZZ_VERBOSE=1 prints every error; TILE_FUZZ_TRACE=1 prints a
// line per input with the time it took (fuzzTraceBegin, fuzzTraceEnd).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FUZZ_COMMON_H
#define TILE_FUZZ_COMMON_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The context keeps every attribute and type it ever uniqued: a fresh one
/// every so many inputs bounds the memory of long runs.
#define FUZZ_INPUTS_PER_CONTEXT 512

/// A growing string for the MLIR C API's print callbacks.
typedef struct {
  char *data;
  size_t size, capacity;
} FuzzBuffer;

/// Appends `str` to the FuzzBuffer `userData` (aborts when out of memory).
void fuzzAppend(MlirStringRef str, void *userData);

/// A print callback that drops the text.
void fuzzDiscard(MlirStringRef str, void *userData);

/// Reads the environment and registers the tile passes and pipelines; call
/// once, from LLVMFuzzerInitialize.
void fuzzInitialize(void);

/// A fresh context (one thread) with every tile dialect loaded and the
/// handler of fuzzCheckStep attached.
MlirContext fuzzCreateContext(void);

/// A pass manager on `context` running `pipeline` (textual, anchored on
/// builtin.module); aborts when the pipeline does not parse.
MlirPassManager fuzzCreatePassManager(MlirContext context,
                                      const char *pipeline);

/// Forgets the diagnostics seen so far (call before each step).
void fuzzResetDiagnostics(void);

/// Aborts (a libFuzzer finding) when the step that just ran reported an error
/// without a location in the input and failed, or reported an error and
/// succeeded.
void fuzzCheckStep(const char *step, bool succeeded);

/// The first error of the current step ("location: message"; empty if none).
const char *fuzzFirstError(void);

/// With TILE_FUZZ_TRACE=1: remembers when the input `data` (`size` bytes,
/// the selector byte first) started; fuzzTraceEnd then prints to stderr
/// "trace: input N selector S size B fnv H: T ms", H the 64-bit FNV-1a hash
/// of the whole input (a file of the corpus hashes alike). Finds the inputs
/// that take long in a run over many (a seed corpus).
void fuzzTraceBegin(const uint8_t *data, size_t size);
void fuzzTraceEnd(void);

/// Parses the text of an input (`data` after its selector byte) with
/// tileModuleCreateParse (which verifies), checked with fuzzCheckStep; a null
/// module when it does not parse or verify.
MlirModule fuzzParse(MlirContext context, const uint8_t *data, size_t size);

#endif // TILE_FUZZ_COMMON_H
