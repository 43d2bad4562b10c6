//===- TileSyncOps.cpp - Synchronization ops --------------------*- C++ -*-===//

#include "tile/Dialect/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult BarrierOp::verify() {
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError("must be nested in a tile.kernel");
  if ((*this)->getParentOfType<ParallelOp>())
    return emitOpError("cannot be nested in a tile.parallel: its threads "
                       "execute different numbers of iterations");
  return success();
}

/// Turn ops synchronize whole tile.ws regions: inside one, outside any
/// tile.parallel.
static LogicalResult verifyTurnOp(Operation *op) {
  if (!op->getParentOfType<WsOp>())
    return op->emitOpError("must be nested in a tile.ws region: turns pass "
                           "between the regions of a kernel");
  if (op->getParentOfType<ParallelOp>())
    return op->emitOpError("cannot be nested in a tile.parallel: its threads "
                           "execute different numbers of iterations");
  return success();
}

LogicalResult TurnWaitOp::verify() { return verifyTurnOp(*this); }
LogicalResult TurnPassOp::verify() { return verifyTurnOp(*this); }

//===----------------------------------------------------------------------===//
// Pipes
//===----------------------------------------------------------------------===//

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/TileTypes.cpp.inc"

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/TileTypes.cpp.inc"
      >();
}

LogicalResult PipeType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t slots) {
  if (slots < 1)
    return emitError() << "a pipe needs at least one slot, got " << slots;
  // Checked here, at parse time, before anything sets up per-slot barriers
  // (unrolled over the slots).
  if (slots > PipeType::kMaxSlots)
    return emitError() << "a pipe has at most " << PipeType::kMaxSlots
                       << " slots (the most stages tile-pipeline-planning "
                          "makes), got "
                       << slots;
  return success();
}

LogicalResult PipeCreateOp::verify() {
  if (!isa_and_nonnull<KernelOp>((*this)->getParentOp()))
    return emitOpError("must be at the top level of a tile.kernel");
  return success();
}

/// Pipe ops synchronize the threads executing them: they may not sit where
/// threads run different iteration counts.
static LogicalResult verifyPipeUse(Operation *op) {
  if (!op->getParentOfType<KernelOp>())
    return op->emitOpError("must be nested in a tile.kernel");
  if (op->getParentOfType<ParallelOp>())
    return op->emitOpError("cannot be nested in a tile.parallel");
  return success();
}

LogicalResult RingPositionOp::verify() {
  if (getSlots() < 1 || getSlots() > PipeType::kMaxSlots)
    return emitOpError("needs 1 to ")
           << PipeType::kMaxSlots << " slots, not " << getSlots();
  return success();
}

LogicalResult PipeBaseOp::verify() { return verifyPipeUse(*this); }
LogicalResult PipeAdvanceOp::verify() { return verifyPipeUse(*this); }
LogicalResult PipeProduceAcquireOp::verify() { return verifyPipeUse(*this); }
LogicalResult PipeProduceCommitOp::verify() { return verifyPipeUse(*this); }
LogicalResult PipeConsumeReleaseOp::verify() { return verifyPipeUse(*this); }
LogicalResult PipeConsumeWaitOp::verify() {
  if (failed(verifyPipeUse(*this)))
    return failure();
  int64_t slots = cast<PipeType>(getPipe().getType()).getSlots();
  if (getInFlight() >= slots)
    return emitOpError("cannot have ")
           << getInFlight() << " later hand-offs in flight on a pipe of "
           << slots << " slots";
  return success();
}
