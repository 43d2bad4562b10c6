//===- PlanPipes.h - tile-plan-pipes' shared state ---------------*- C++
//-*-===//
//
// What tile-plan-pipes (PlanPipes.cpp) gathers per kernel, shared with its
// deferred-release planning (PlanPipesDeferred.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_PLANPIPES_H
#define TILE_LIB_TRANSFORMS_PLANPIPES_H

#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Utils.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile::plan_pipes {

/// What the planning of one kernel's pipes gathers and decides.
struct PipePlanner {
  PipePlanner(KernelOp kernel, const TargetInfo &target)
      : kernel(kernel), target(target) {
    if (auto cluster =
            kernel->getAttrOfType<IntegerAttr>(TileDialect::kClusterAttrName))
      clusterSize = cluster.getInt();
    if (auto inFlight = kernel->getAttrOfType<BoolAttr>(
            TileDialect::kSparseInFlightAttrName))
      sparseInFlight = inFlight.getValue();
  }

  KernelOp kernel;
  const TargetInfo &target;
  int64_t clusterSize = 1;
  /// The pipe of each tensor copy's hand-off.
  DenseMap<Operation *, Value> tmaPipes;
  /// The decisions, per pipe, in the order of their first tensor copy.
  llvm::MapVector<Value, PipePlanAttr> plans;
  /// The partial-sum tile of each accumulator whose promotion is deferred.
  DenseMap<Operation *, Value> partials;
  /// Whether sparse gemms may leave MMAs in flight, where the kernel says
  /// (`tile.sparse_in_flight`; else the pass decides per pipe), and the
  /// loops that then run two K steps an iteration.
  std::optional<bool> sparseInFlight;
  llvm::SetVector<Operation *> unrollByTwo;

  int64_t numThreads(Operation *op) { return getNumThreads(op, kernel); }
};

/// Decides whether the slots of `pipe` can be released one hand-off late
/// and, where they can, rewrites the loops releasing them (see
/// PlanPipesDeferred.cpp). Returns whether it did.
bool planDeferredRelease(PipePlanner &ctx, Value pipe);

/// Where the kernel asks for it (`tile.epilogue_late = true`), marks its
/// gemms promoting one K block late `tile.epilogue_late`, their tile's
/// epilogue to run at the next tile's first K block (PlanPipesEpilogue.cpp);
/// a warning says why where a gemm's tile loop does not allow it.
void planLateEpilogues(KernelOp kernel);

} // namespace mlir::tile::plan_pipes

#endif // TILE_LIB_TRANSFORMS_PLANPIPES_H
