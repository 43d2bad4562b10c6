//===- RotateLoopsSchedule.h - The rotated loop's schedule ------*- C++ -*-===//
//
// Analysis of tile-rotate-loops (RotateLoops.cpp): which loops it can
// rotate, and the order their ops take in the rotated loop.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_ROTATELOOPSSCHEDULE_H
#define TILE_TRANSFORMS_ROTATELOOPSSCHEDULE_H

#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir::tile::rotation {

/// A loop's ops sorted into the rotated schedule. Built on a detached copy
/// of the loop, whose tile.parallel ops it may split.
struct Schedule {
  scf::ForOp loop;
  GemmOp first, second;
  SmallVector<Operation *> stageA; // in order: the prologue
  SmallVector<Operation *> before; // stage A ops before the first gemm
  SmallVector<Operation *> copies; // stage B's copies
  SmallVector<Operation *> early, late;
};

/// The tile.alloc of a shared tile `op` copies into whole, or null.
AllocOp getSharedTarget(Operation *op);

/// Whether the operands of `op` defined in `body` are computed without
/// reading memory.
bool hasPureOperands(Operation *op, Block *body);

/// The two gemms of `loop` if it has the shape tile-rotate-loops rotates,
/// or a reason why not; `candidate` says whether its body has two gemms.
std::string matchGemms(scf::ForOp loop, GemmOp &first, GemmOp &second,
                       bool &candidate);

/// Sorts the ops of the detached loop copy `schedule.loop`, whose
/// tile.parallel ops it may split (see Schedule); a reason where the loop
/// cannot be rotated, or "".
std::string buildSchedule(Schedule &schedule);

} // namespace mlir::tile::rotation

#endif // TILE_TRANSFORMS_ROTATELOOPSSCHEDULE_H
