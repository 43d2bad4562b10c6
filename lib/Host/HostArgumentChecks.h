//===- HostArgumentChecks.h - Checks of a host function's memrefs -*- C++ -*-=//
//
// The checks tile-prepare-host emits for the memref arguments of a host
// function, each reporting its failure through a callback (the pass makes
// it a call of the tile runtime): negative sizes, static sizes against the
// descriptor's, null data, strides, the offset, extents that overflow, and
// `tile.shape`.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_HOSTARGUMENTCHECKS_H
#define TILE_LIB_CONVERSION_HOSTARGUMENTCHECKS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tile::host {

/// Reports a failed check: `bad` (i1) is true when it failed; the message
/// is `before`, then `value` (index) in decimal if there is one, then
/// `after`.
using ReportFn = function_ref<void(Value bad, const Twine &before, Value value,
                                   const Twine &after)>;

/// Emits the checks of the memref arguments of `func` at `builder`. An
/// argument with a strided layout is checked against its type
/// (`original`, where tile-prepare-host relaxed it to the fully dynamic
/// one): its sizes, strides and offset are read from the caller's
/// descriptor.
void checkArguments(func::FuncOp func, ArrayRef<MemRefType> original,
                    OpBuilder &builder, ReportFn report);

} // namespace mlir::tile::host

#endif // TILE_LIB_CONVERSION_HOSTARGUMENTCHECKS_H
