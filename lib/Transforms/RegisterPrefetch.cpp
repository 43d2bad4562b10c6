//===- RegisterPrefetch.cpp - Stage the next tiles in registers -*- C++ -*-===//
//
// Rewrites loops marked `tile.register_prefetch = true` so that each
// iteration stores the tiles loaded by the previous one into shared memory
// and then issues the global loads of the next iteration into registers,
// which are in flight during the current iteration's compute. See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"

#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_REGISTERPREFETCH
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Leaves `loop` sequential after telling why.
void keepSequential(scf::ForOp loop, const Twine &why) {
  loop.emitRemark() << "loop not prefetched through registers: " << why;
  loop->removeAttr(TileDialect::kRegisterPrefetchAttrName);
}

/// The producer copies of `loop` and the ops of its body computing their
/// operands, in body order; null (after a remark) when the loop cannot be
/// prefetched.
std::optional<llvm::SetVector<Operation *>>
collectProducers(scf::ForOp loop, SmallVectorImpl<CopyOp> &copies) {
  if (!loop->getParentOfType<KernelOp>()) {
    keepSequential(loop, "it is not inside a tile.kernel");
    return std::nullopt;
  }
  if (loop.getNumResults() != 0) {
    keepSequential(loop, "loop-carried values (iter_args) are not supported");
    return std::nullopt;
  }
  for (Operation &op : loop.getBody()->without_terminator())
    if (isProducerCopy(&op, loop))
      copies.push_back(cast<CopyOp>(op));
  if (copies.empty()) {
    keepSequential(loop, "the body has no copy from global into a whole "
                         "shared tile");
    return std::nullopt;
  }
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> worklist(copies.begin(), copies.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!slice.insert(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != loop.getBody())
        continue;
      if (!isMemoryEffectFree(def) || def->getNumRegions()) {
        keepSequential(loop, "a copy's operands depend on an op with side "
                             "effects or regions");
        return std::nullopt;
      }
      worklist.push_back(def);
    }
  }
  // Global memory the loop writes may not be read ahead of the writes.
  bool writesSource = false;
  loop.getBody()->walk([&](CopyOp other) {
    if (getMemoryKind(other.getTargetType()) != MemoryKind::Global)
      return;
    for (CopyOp copy : copies)
      if (copy.getSource() == other.getTarget())
        writesSource = true;
  });
  if (writesSource) {
    keepSequential(loop, "the loop writes a tensor its copies read");
    return std::nullopt;
  }
  // Body order.
  llvm::SetVector<Operation *> ordered;
  for (Operation &op : loop.getBody()->without_terminator())
    if (slice.contains(&op))
      ordered.insert(&op);
  return ordered;
}

/// Clones the ops of `slice` for iteration `iv` at `b`'s insertion point,
/// each producer copy writing its staging fragment instead of its tile.
void cloneLoads(OpBuilder &b, scf::ForOp loop,
                const llvm::SetVector<Operation *> &slice, Value iv,
                const DenseMap<Operation *, Value> &staging) {
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  for (Operation *op : slice) {
    auto it = staging.find(op);
    if (it != staging.end())
      map.map(cast<CopyOp>(op).getTarget(), it->second);
    b.clone(*op, map);
  }
}

LogicalResult prefetch(scf::ForOp loop) {
  SmallVector<CopyOp> copies;
  std::optional<llvm::SetVector<Operation *>> slice =
      collectProducers(loop, copies);
  if (!slice)
    return success();
  auto kernel = loop->getParentOfType<KernelOp>();
  MLIRContext *ctx = loop.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToStart(&kernel.getBody().front());
  auto fragmentSpace = MemorySpaceAttr::get(ctx, MemorySpace::Fragment);
  DenseMap<Operation *, Value> staging;
  for (CopyOp copy : copies) {
    MemRefType shared = copy.getTargetType();
    auto type = MemRefType::get(shared.getShape(), shared.getElementType(),
                                MemRefLayoutAttrInterface(), fragmentSpace);
    staging[copy] = AllocOp::create(b, copy.getLoc(), type).getResult();
  }

  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  auto pred = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                    : arith::CmpIPredicate::slt;
  // The first iteration's tiles, before the loop.
  b.setInsertionPoint(loop);
  Value runs = arith::CmpIOp::create(b, loc, pred, lb, ub);
  auto first = scf::IfOp::create(b, loc, runs, /*withElseRegion=*/false);
  b.setInsertionPointToStart(first.thenBlock());
  cloneLoads(b, loop, *slice, lb, staging);

  // In the loop: the registers into the shared tiles, then the next
  // iteration's loads.
  for (CopyOp copy : copies) {
    b.setInsertionPoint(copy);
    CopyOp::create(b, copy.getLoc(), staging[copy], ValueRange(),
                   copy.getTarget(), ValueRange());
  }
  b.setInsertionPointAfter(copies.back());
  Value next =
      arith::AddIOp::create(b, loc, loop.getInductionVar(), loop.getStep());
  Value more = arith::CmpIOp::create(b, loc, pred, next, ub);
  auto ahead = scf::IfOp::create(b, loc, more, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ahead.thenBlock());
  cloneLoads(b, loop, *slice, next, staging);
  for (CopyOp copy : copies)
    copy.erase();
  loop->removeAttr(TileDialect::kRegisterPrefetchAttrName);
  loop->removeAttr(TileDialect::kNumStagesAttrName);
  return success();
}

struct RegisterPrefetchPass
    : public tile::impl::RegisterPrefetchBase<RegisterPrefetchPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      auto prefetch =
          loop->getAttrOfType<BoolAttr>(TileDialect::kRegisterPrefetchAttrName);
      auto stages =
          loop->getAttrOfType<IntegerAttr>(TileDialect::kNumStagesAttrName);
      if (prefetch && prefetch.getValue() && (!stages || stages.getInt() <= 1))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      if (failed(prefetch(loop)))
        return signalPassFailure();
  }
};

} // namespace
