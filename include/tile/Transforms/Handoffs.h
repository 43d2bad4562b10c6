//===- Handoffs.h - Static analysis of pipe hand-offs -----------*- C++ -*-===//
//
// The analysis behind `tile-check-handoffs` (lib/Transforms/
// CheckHandoffs.cpp), shared with the lowering: what it proves of each
// `tile.pipe.consume_wait` bounds the number of copy-engine groups the
// cp.async lowering may leave in flight.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_HANDOFFS_H
#define TILE_TRANSFORMS_HANDOFFS_H

#include "tile/Dialect/TileOps.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::tile {

/// Checks the hand-off protocol of every pipe of `kernel`, per role (each
/// `tile.ws` region holding pipe ops, with the kernel-level ops every thread
/// runs; the whole kernel when no region holds any). With `diagnose`, what
/// is provably wrong is an error and what cannot be proved a warning; the
/// result is failure when an error was reported. `laterCommits`, when
/// given, receives for each `tile.pipe.consume_wait` in a role that commits
/// its pipe the number of later hand-offs provably committed by the same
/// threads when it executes (0 when nothing is proved).
LogicalResult
analyzeHandoffs(KernelOp kernel, bool diagnose,
                llvm::DenseMap<Operation *, int64_t> *laterCommits = nullptr);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_HANDOFFS_H
