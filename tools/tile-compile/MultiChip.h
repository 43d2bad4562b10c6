//===- MultiChip.h - One library for several NVIDIA chips ---------*- C -*-===//
//
// tile-compile --chip sm_80,sm_90a (MultiChip.c).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILE_MULTICHIP_H
#define TILE_COMPILE_MULTICHIP_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/// How each module is lowered: tile-to-nvvm's options.
typedef struct {
  const char *format, *extra;
  bool remarks;
  int optLevel;
} ChipOptions;

/// The public functions with a body of `module` (what a library exports),
/// in order: stores the first `max` in `out` (which may be null when `max`
/// is 0) and returns how many there are.
int publicFunctions(MlirModule module, MlirOperation *out, int max);

/// Lowers `module` with tile-to-nvvm for `chip` (NULL: the module's or the
/// default) and writes its host code, kernels embedded, to the object file
/// `object`. Returns 0, or 1 after an error message naming `input`.
int compileToObject(MlirContext ctx, MlirModule module, const char *chip,
                    const ChipOptions *options, const char *input,
                    const char *object);

/// For a comma-separated list of chips: compiles `text` (the module as
/// written, named `input`) once per chip, its public functions renamed
/// `f__<chip>`, and a dispatcher module whose public functions `f` call the
/// variant for the device's compute capability (tileRtHostComputeCapability:
/// an exact match for an `a` chip such as sm_90a, else the highest chip of
/// the device's major version not above it). Writes the objects to
/// temporary files next to `output` and returns them (to remove and free)
/// in `*objects`, `*count` of them. `module` is the parsed module (its
/// functions' types). Returns 0, or 1 after an error message.
int compileChips(MlirContext ctx, MlirModule module, const char *text,
                 const char *input, const char *chips,
                 const ChipOptions *options, const char *output,
                 char ***objects, int *count);

#endif // TILE_COMPILE_MULTICHIP_H
