//===- TileDialect.cpp - Tile dialect ---------------------------*- C++ -*-===//

#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Dialect/TileOrder.h"
#include "tile/Transforms/Epilogue.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/TileDialect.cpp.inc"
#include "tile/Dialect/TileEnums.cpp.inc"
#include "tile/Dialect/TileInterfaces.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/TileOps.cpp.inc"
      >();
  registerAttributes();
  registerTypes();
}

//===----------------------------------------------------------------------===//
// Discardable attributes: pipelined loops
//===----------------------------------------------------------------------===//

/// Number of ops in the body of `forOp`, terminator excluded.
static int64_t getNumBodyOps(scf::ForOp forOp) {
  return std::distance(forOp.getBody()->begin(), forOp.getBody()->end()) - 1;
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  // Attributes of kernels only.
  if (llvm::is_contained(
          {kSharedMemoryBytesAttrName.str(), kFragmentRegistersAttrName.str(),
           kBlocksPerMultiprocessorAttrName.str(),
           kWarpSpecializeAttrName.str(), kPingpongAttrName.str(),
           kSparseInFlightAttrName.str(), kLaunchGroupAttrName.str(),
           kAlternateTilesAttrName.str(), kPersistentAttrName.str(),
           kClusterAttrName.str(), kSplitKAttrName.str(),
           kSplitTailAttrName.str(), kSynchronizedAttrName.str(),
           kTileOrderAttrName.str(), kDependentLaunchAttrName.str(),
           kEarlyLoadsAttrName.str(), kWarpgroupStoresAttrName.str()},
          name) &&
      !isa<KernelOp>(op))
    return op->emitError() << "'" << name
                           << "' may only be attached to a tile.kernel";
  // Resource annotations written by `tile-check-resources` on kernels.
  if (name == kSharedMemoryBytesAttrName ||
      name == kFragmentRegistersAttrName) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be an integer";
    return success();
  }
  if (name == kSynchronizedAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == kTargetAttrName) {
    if (!isa<ModuleOp, KernelOp>(op))
      return op->emitError() << "'" << name
                             << "' may only be attached to a module or a "
                                "tile.kernel";
    if (!isa<TargetAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a #tile.target";
    return success();
  }
  if (name == kBlocksPerMultiprocessorAttrName) {
    auto blocks = dyn_cast<IntegerAttr>(attr.getValue());
    if (!blocks || blocks.getInt() < 1)
      return op->emitError() << "'" << name << "' must be a positive integer";
    return success();
  }
  if (name == kLaunchGroupAttrName) {
    auto group = dyn_cast<IntegerAttr>(attr.getValue());
    if (!group || group.getInt() < 1)
      return op->emitError() << "'" << name << "' must be a positive integer";
    if (cast<KernelOp>(op).getGridRank() < 2 && group.getInt() > 1)
      return op->emitError() << "'" << name
                             << "' groups grid rows: the kernel needs a grid "
                                "of at least two dimensions";
    return success();
  }
  if (name == kPersistentAttrName) {
    auto blocks = dyn_cast<IntegerAttr>(attr.getValue());
    if (!blocks || blocks.getInt() < 0)
      return op->emitError()
             << "'" << name << "' must be a non-negative integer";
    if (cast<KernelOp>(op).getGridRank() < 2 && blocks.getInt() > 0)
      return op->emitError() << "'" << name
                             << "' loops over the tiles of a grid of at least "
                                "two dimensions";
    return success();
  }
  if (name == kSplitKAttrName) {
    auto splits = dyn_cast<IntegerAttr>(attr.getValue());
    if (!splits || splits.getInt() < 1)
      return op->emitError() << "'" << name << "' must be a positive integer";
    return success();
  }
  if (name == kSplitTailAttrName) {
    auto parts = dyn_cast<IntegerAttr>(attr.getValue());
    if (!parts || parts.getInt() < 1)
      return op->emitError() << "'" << name << "' must be a positive integer";
    return success();
  }
  if (name == kDependentLaunchAttrName) {
    if (!isa<BoolAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a boolean";
    return success();
  }
  if (name == kClusterAttrName) {
    auto blocks = dyn_cast<IntegerAttr>(attr.getValue());
    if (!blocks || blocks.getInt() < 1 || blocks.getInt() > 2)
      return op->emitError()
             << "'" << name << "' must be 1 or 2 (blocks per cluster)";
    return success();
  }
  if (name == kMulticastAttrName) {
    auto copy = dyn_cast<CopyOp>(op);
    if (!copy || !copy.getTma())
      return op->emitError() << "'" << name
                             << "' may only be attached to a tensor copy "
                                "(tile.copy async tma)";
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    auto kernel = op->getParentOfType<KernelOp>();
    auto cluster = kernel ? kernel->getAttrOfType<IntegerAttr>(kClusterAttrName)
                          : IntegerAttr();
    if (!cluster || cluster.getInt() < 2)
      return op->emitError()
             << "'" << name << "' needs a kernel with tile.cluster = 2";
    return success();
  }
  // Loop attributes: a unit (exact count) or a boolean (prefetching).
  if (name == kExactStagesAttrName || name == kRegisterPrefetchAttrName ||
      name == kRotateAttrName) {
    if (!isa<scf::ForOp>(op))
      return op->emitError()
             << "'" << name << "' may only be attached to an scf.for loop";
    if (name == kExactStagesAttrName && !isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    if ((name == kRegisterPrefetchAttrName || name == kRotateAttrName) &&
        !isa<BoolAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a boolean";
    return success();
  }
  if (name == kHandOffAttrName) {
    auto copy = dyn_cast<CopyOp>(op);
    if (!copy || getMemoryKind(copy.getSourceType()) != MemoryKind::Global ||
        getMemoryKind(copy.getTargetType()) != MemoryKind::Shared)
      return op->emitError() << "'" << name
                             << "' may only be attached to a tile.copy from "
                                "global memory into a shared tile";
    if (!isa<BoolAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a boolean";
    return success();
  }
  if (name == kTileOrderAttrName) {
    auto order = dyn_cast<StringAttr>(attr.getValue());
    if (!order || failed(parseTileOrder(order.getValue())))
      return op->emitError() << "'" << name
                             << "' must be \"launch\" or \"<x|y|z>-"
                                "<descending|ascending>\"";
    return success();
  }
  if (name == kTileLoopAttrName) {
    if (!isa<scf::ForOp>(op))
      return op->emitError()
             << "'" << name << "' may only be attached to an scf.for loop";
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == kConsumerLateAttrName) {
    auto gemm = dyn_cast<GemmOp>(op);
    if (!gemm || !gemm.getClearAccum())
      return op->emitError() << "'" << name
                             << "' may only be attached to a clearing "
                                "tile.gemm (clear_accum)";
    if (!isa<BoolAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a boolean";
    return success();
  }
  if (name == kEpilogueLateAttrName) {
    if (isa<KernelOp>(op)) {
      if (!isa<BoolAttr>(attr.getValue()))
        return op->emitError() << "'" << name << "' must be a boolean";
      return success();
    }
    auto gemm = dyn_cast<GemmOp>(op);
    if (!gemm || !gemm.getPartials())
      return op->emitError()
             << "'" << name
             << "' may only be attached to a tile.kernel or to a tile.gemm "
                "that promotes one K block late (partials)";
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' on a tile.gemm must be a unit attribute";
    return success();
  }
  if (name == kUnrollAttrName) {
    if (!isa<scf::ForOp>(op))
      return op->emitError()
             << "'" << name << "' may only be attached to an scf.for loop";
    auto count = dyn_cast<IntegerAttr>(attr.getValue());
    if (!count || (count.getInt() != 1 && count.getInt() != 2))
      return op->emitError() << "'" << name << "' must be 1 or 2";
    return success();
  }
  if (name == kWarpSpecializeAttrName || name == kPingpongAttrName ||
      name == kAlternateTilesAttrName || name == kSparseInFlightAttrName ||
      name == kEarlyLoadsAttrName || name == kWarpgroupStoresAttrName) {
    if (!isa<BoolAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a boolean";
    return success();
  }
  if (name == kPipelineStageAttrName) {
    if (!isa<scf::IfOp, PipeConsumeReleaseOp>(op))
      return op->emitError() << "'" << name
                             << "' may only be attached to an scf.if or a "
                                "tile.pipe.consume_release";
    auto stage = dyn_cast<IntegerAttr>(attr.getValue());
    if (!stage || stage.getInt() < 0)
      return op->emitError()
             << "'" << name << "' must be a non-negative integer";
    return success();
  }
  if (name == kProxyFenceAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == kPipelineDrainAttrName) {
    if (!isa<scf::ForOp>(op))
      return op->emitError()
             << "'" << name << "' may only be attached to an scf.for loop";
    auto extra = dyn_cast<IntegerAttr>(attr.getValue());
    if (!extra || extra.getInt() < 0)
      return op->emitError()
             << "'" << name << "' must be a non-negative integer";
    return success();
  }
  // Tensor stores: the staging buffers and the width of their panels.
  if (name == kTmaStoreAttrName || name == kTmaStorePanelAttrName) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    auto copy = dyn_cast<CopyOp>(op);
    if (!copy || getMemoryKind(copy.getSourceType()) != MemoryKind::Fragment ||
        getMemoryKind(copy.getTargetType()) != MemoryKind::Global)
      return op->emitError() << "'" << name
                             << "' may only be attached to a tile.copy of a "
                                "fragment into global memory";
    int64_t panel = getTmaStorePanelBytes(copy);
    bool panelOk = panel == 32 || panel == 64 || panel == 128;
    if (name == kTmaStorePanelAttrName) {
      if (!value || !panelOk)
        return op->emitError() << "'" << name
                               << "' must be 32, 64 or 128 (bytes of a "
                                  "panel row)";
      return success();
    }
    // Staging memory for two 128-byte panels holds 256 / panel bytes (an
    // invalid panel width is reported on its own attribute).
    if (!panelOk)
      return success();
    int64_t most = 2 * kTmaStorePanelBytes / panel;
    if (!value || value.getInt() < 0 || value.getInt() > most ||
        !llvm::isPowerOf2_64(std::max<int64_t>(value.getInt(), 1)))
      return op->emitError()
             << "'" << name << "' must be 0 (no tensor store) or a power of "
             << "two up to " << most << " (staging buffers of " << panel
             << "-byte panel rows)";
    return success();
  }
  if (name != kNumStagesAttrName && name != kStageAttrName &&
      name != kOrderAttrName)
    return op->emitError() << "unknown tile dialect attribute '" << name << "'";

  auto forOp = dyn_cast<scf::ForOp>(op);
  if (!forOp)
    return op->emitError() << "'" << name
                           << "' may only be attached to an scf.for loop";

  auto numStages = op->getAttrOfType<IntegerAttr>(kNumStagesAttrName);
  if (name == kNumStagesAttrName) {
    if (!numStages)
      return op->emitError() << "'" << name << "' must be an integer";
    if (numStages.getInt() < 0)
      return op->emitError() << "'" << name << "' must be non-negative, got "
                             << numStages.getInt();
    return success();
  }

  // `tile.stage` and `tile.order`.
  auto values = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
  if (!values)
    return op->emitError() << "'" << name << "' must be an array<i64>";
  if (!numStages)
    return op->emitError() << "'" << name << "' requires '"
                           << kNumStagesAttrName << "'";
  int64_t numOps = getNumBodyOps(forOp);
  if (static_cast<int64_t>(values.size()) != numOps)
    return op->emitError() << "'" << name << "' has " << values.size()
                           << " entries but the loop body has " << numOps
                           << " operations";
  if (name == kStageAttrName) {
    int64_t stages = std::max<int64_t>(numStages.getInt(), 1);
    for (int64_t stage : values.asArrayRef())
      if (stage < 0 || stage >= stages)
        return op->emitError() << "'" << name << "' entry " << stage
                               << " is out of range [0, " << stages << ")";
    return success();
  }
  llvm::SmallSet<int64_t, 16> seen;
  for (int64_t order : values.asArrayRef())
    if (order < 0 || order >= numOps || !seen.insert(order).second)
      return op->emitError() << "'" << name << "' must be a permutation of [0, "
                             << numOps << ")";
  return success();
}
