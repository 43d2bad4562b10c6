//===- Passes.cpp - C API for the tile passes -------------------*- C++ -*-===//

#include "tile-c/Passes.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/Pass/Pass.h"
#include "tile/Conversion/Passes.h"
#include "tile/Host/Passes.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Transforms/Passes.h"

// The generated definitions call the pass constructors and registration
// functions unqualified.
using namespace mlir;
using namespace mlir::tile;

#ifdef __cplusplus
extern "C" {
#endif

#include "tile/Conversion/Passes.capi.cpp.inc"
#include "tile/Host/Passes.capi.cpp.inc"
#include "tile/Transforms/Passes.capi.cpp.inc"

void tileRegisterPipelines(void) { registerTilePipelines(); }

#ifdef __cplusplus
}
#endif
