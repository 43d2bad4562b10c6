//===- Passes.h - Tile host passes ------------------------------*- C++ -*-===//

#ifndef TILE_HOST_PASSES_H
#define TILE_HOST_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tile {

#define GEN_PASS_DECL
#include "tile/Host/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Host/Passes.h.inc"

} // namespace mlir::tile

#endif // TILE_HOST_PASSES_H
