//===- PersistentBlocks.cpp - Persistent grids ------------------*- C++ -*-===//
//
// `tile-persistent-blocks`: a kernel whose grid of tiles is larger than a
// wave of the GPU runs on at most P blocks, each looping over tiles b,
// b + P, b + 2P, ... of the grid (in the kernel's launch order). The
// allocations stay outside the loop, so with warp specialization the
// producer warpgroup loads the next tile's stages while the consumers still
// store the last tile's results, and the kernel pays its start-up once per
// multiprocessor instead of once per tile. The pass decides (Hopper kernels
// whose blocks share operand panels and pipeline a loop get P = the chip's
// multiprocessors), writes `tile.persistent`, and rewrites the kernels
// that have it.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/LaunchOrder.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Resources.h"

#include "tile/Dialect/ChipDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tile {
#define GEN_PASS_DEF_PERSISTENTBLOCKS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The most stages a loop of `kernel` asks for (1 where none is
/// pipelined): loops with stages have a start-up worth amortizing and
/// stages to load ahead.
int64_t pipelineStages(KernelOp kernel) {
  int64_t most = 1;
  kernel.walk([&](scf::ForOp loop) {
    if (auto stages =
            loop->getAttrOfType<IntegerAttr>(TileDialect::kNumStagesAttrName))
      most = std::max(most, stages.getInt());
  });
  return most;
}

/// The first `tile.ws` region or pipe of `kernel`, which the user wrote
/// (the passes that make them run after this one), or null.
Operation *handWrittenSync(KernelOp kernel) {
  Operation *found = nullptr;
  kernel.walk([&](Operation *op) {
    if (isa<WsOp, PipeCreateOp>(op)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Rewrites `kernel` (a grid of two or three dimensions) into at most
/// `blocks` blocks looping over its tiles, in its launch order
/// (`tile.launch_group`, consumed here), z slowest.
void makePersistent(KernelOp kernel, int64_t blocks) {
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  SmallVector<Value> extents;
  for (OpFoldResult extent : kernel.getMixedGrid())
    extents.push_back(getValueOrCreateConstantIndexOp(b, loc, extent));
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value plane = arith::MulIOp::create(b, loc, extents[0], extents[1]);
  Value tiles = plane;
  if (extents.size() == 3)
    tiles = arith::MulIOp::create(b, loc, plane, extents[2]);
  // No tiles, no blocks: an empty grid launches nothing, as before.
  Value most = arith::ConstantIndexOp::create(b, loc, blocks);
  Value grid = arith::MinUIOp::create(b, loc, tiles, most);
  Value waves = arith::CeilDivUIOp::create(
      b, loc, tiles, arith::MaxUIOp::create(b, loc, grid, one));

  auto persistent =
      KernelOp::create(b, loc, kernel.getSymName(),
                       ArrayRef<OpFoldResult>{grid}, kernel.getThreads());
  int64_t group = 1;
  if (auto attr =
          kernel->getAttrOfType<IntegerAttr>(TileDialect::kLaunchGroupAttrName))
    group = attr.getInt();
  for (NamedAttribute attr : kernel->getDiscardableAttrs())
    if (attr.getName() != TileDialect::kLaunchGroupAttrName &&
        attr.getName() != TileDialect::kPersistentAttrName)
      persistent->setAttr(attr.getName(), attr.getValue());

  // Allocations first, then the loop over this block's tiles.
  Block &oldBody = kernel.getBody().front();
  Block &body = persistent.getBody().front();
  Operation *end = body.getTerminator();
  for (Operation &op : llvm::make_early_inc_range(oldBody.without_terminator()))
    if (isa<AllocOp>(op))
      op.moveBefore(end);
  b.setInsertionPoint(end);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, waves, step);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value tile = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, loop.getInductionVar(), grid),
      body.getArgument(0));
  Value valid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tile, tiles);
  auto branch = scf::IfOp::create(b, loc, valid, /*withElseRegion=*/false);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  // The tile's grid position: z, then (x, y) in the launch order.
  Value inPlane = tile;
  SmallVector<Value> position(extents.size());
  if (extents.size() == 3) {
    position[2] = arith::DivUIOp::create(b, loc, tile, plane);
    inPlane = arith::RemUIOp::create(b, loc, tile, plane);
  }
  if (group > 1) {
    std::tie(position[0], position[1]) =
        emitGroupedPosition(b, loc, inPlane, extents[0], extents[1], group);
  } else {
    position[1] = arith::DivUIOp::create(b, loc, inPlane, extents[0]);
    position[0] = arith::RemUIOp::create(b, loc, inPlane, extents[0]);
  }
  Operation *thenEnd = branch.thenBlock()->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(oldBody.without_terminator()))
    op.moveBefore(thenEnd);
  for (auto [index, value] : llvm::zip_equal(oldBody.getArguments(), position))
    index.replaceAllUsesWith(value);
  kernel.erase();
}

struct PersistentBlocksPass
    : public tile::impl::PersistentBlocksBase<PersistentBlocksPass> {
  using Base::Base;

  /// The persistent grid size the compiler picks for `kernel`, or 0 with
  /// `why` set.
  int64_t choose(KernelOp kernel, std::string &why) {
    TargetAttr target = getTargetAttr(kernel);
    const ChipDescription *chip = target ? target.getDescription() : nullptr;
    if (!chip || !chip->tma) {
      why = "the target has no tensor copies to load the next tile's stages "
            "ahead";
      return 0;
    }
    if (!sharesOperandPanels(kernel)) {
      why = "its blocks share no operand panels along both grid dimensions";
      return 0;
    }
    int64_t stages = pipelineStages(kernel);
    if (stages < 2) {
      why = "it pipelines no loop";
      return 0;
    }
    // One block a multiprocessor already (registers, or the shared tiles
    // multi-buffered as asked): the tile loop costs no occupancy, and the
    // specialized kernel keeps the largest register budgets. Where several
    // blocks share a multiprocessor, one's epilogue already overlaps the
    // others' main loops.
    int64_t shared = mulSizes(computeSharedMemoryBytes(kernel),
                              std::max<int64_t>(stages, 1));
    int64_t resident = residentBlocksPerMultiprocessor(
        *chip, kernel.getThreads(), estimateKernelRegisters(kernel), shared);
    if (resident > 1) {
      why = std::to_string(resident) +
            " of its blocks fit a multiprocessor at once";
      return 0;
    }
    return blocks > 0 ? static_cast<int64_t>(blocks) : chip->multiprocessors;
  }

  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    Builder builder(&getContext());
    for (KernelOp kernel : kernels) {
      auto attr =
          kernel->getAttrOfType<IntegerAttr>(TileDialect::kPersistentAttrName);
      int64_t count;
      std::string why;
      if (Operation *manual = handWrittenSync(kernel)) {
        // Its pipes and regions are the user's own, set up once per block.
        count = 0;
        why = "it has hand-written '" + manual->getName().getStringRef().str() +
              "'";
        if (attr && attr.getInt() > 0)
          kernel.emitRemark() << "tile.persistent ignored: " << why;
        kernel->removeAttr(TileDialect::kPersistentAttrName);
      } else if (attr) {
        count = attr.getInt();
      } else if (!decide) {
        count = 0;
        why = "decide=false";
      } else {
        count = choose(kernel, why);
        // The decision, where a test can see it and a user override it.
        if (count > 0)
          kernel->setAttr(TileDialect::kPersistentAttrName,
                          builder.getI64IntegerAttr(count));
      }
      if (emitRemarks) {
        if (count > 0)
          kernel.emitRemark() << "persistent: at most " << count
                              << " blocks loop over the grid's tiles";
        else
          kernel.emitRemark() << "one block per tile: "
                              << (why.empty() ? "tile.persistent = 0" : why);
      }
      if (count > 0)
        makePersistent(kernel, count);
    }
  }
};

} // namespace
