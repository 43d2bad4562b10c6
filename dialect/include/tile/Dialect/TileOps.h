//===- TileOps.h - Tile dialect operations ----------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILEOPS_H
#define TILE_DIALECT_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileDialect.h"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/TileTypes.h.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/TileOps.h.inc"

#endif // TILE_DIALECT_TILEOPS_H
