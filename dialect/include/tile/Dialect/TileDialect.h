//===- TileDialect.h - Tile dialect -----------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILEDIALECT_H
#define TILE_DIALECT_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"

#include "tile/Dialect/TileDialect.h.inc"

#endif // TILE_DIALECT_TILEDIALECT_H
