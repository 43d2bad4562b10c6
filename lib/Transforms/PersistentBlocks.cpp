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

#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/LaunchOrder.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Resources.h"
#include "tile/Transforms/TileOrder.h"
#include "tile/Transforms/Utils.h"

#include "tile/Dialect/ChipDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tile {
#define GEN_PASS_DEF_PERSISTENTBLOCKS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The registers a consumer thread of a block of three warpgroups gets
/// beside a producer of kAddressRegisters (tile-warp-specialize's budgets:
/// 65536 registers over 384 threads, 40 of them for the producer's).
constexpr int64_t kAlternateRegisters = 232;

/// The most registers a thread (estimateKernelRegisters, before layouts
/// and warp specialization) an attention-like kernel may need to be made
/// persistent: FlashAttention's estimates are about 203 at D128 and 171 at
/// D64, which run faster persistent (docs/perf.md runs 115, 117, 118); at
/// D256, 219, it spilled.
constexpr int64_t kTileLoopRegisters = 208;

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

/// Why the tiles of `kernel` cannot be computed in clusters of two blocks
/// (adjacent grid rows), or "": each block of a cluster must make the same
/// hand-offs, so whether and how often a pipelined loop runs must not
/// depend on the block's grid row.
std::string whyNoClusterPairs(KernelOp kernel) {
  if (kernel.getGridRank() < 2)
    return "its grid has one dimension";
  std::string why;
  kernel.walk([&](scf::ForOp loop) {
    if (!loop->hasAttr(TileDialect::kNumStagesAttrName) || !why.empty())
      return;
    for (Operation *op = loop; op != kernel; op = op->getParentOp()) {
      bool rowDependent;
      if (auto branch = dyn_cast<scf::IfOp>(op))
        rowDependent = dependsOnBlockY(branch.getCondition(), kernel);
      else if (isa<scf::ForOp>(op))
        rowDependent = llvm::any_of(op->getOperands(), [&](Value operand) {
          return dependsOnBlockY(operand, kernel);
        });
      else
        rowDependent = !isa<WsOp>(op); // control flow we do not follow
      if (rowDependent) {
        why = "whether or how often a pipelined loop runs may depend on the "
              "block's grid row";
        return;
      }
    }
  });
  return why;
}

/// Rewrites `kernel` (a grid of two or three dimensions) into at most
/// `blocks` blocks looping over its tiles, in its launch order
/// (`tile.launch_group`, consumed here), z slowest. With `cluster` = 2 the
/// blocks run in clusters of two that take pairs of tiles: tiles 2p and
/// 2p + 1 are the grid rows 2r and 2r + 1 of one column (the pair grid,
/// gx x ceil(gy / 2), walks in the launch order with half the group), the
/// block's rank in its cluster picking the row. With an odd row count the
/// last pairs have a row past the grid, which the body computes on reads
/// outside the operands and whose writes it drops. In an `order` other than
/// the launch order (single blocks only), the rounds' tiles alternate
/// direction and their positions follow the order (emitOrderedPosition).
void makePersistent(KernelOp kernel, int64_t blocks, int64_t cluster,
                    TileOrder order) {
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  SmallVector<Value> extents;
  for (OpFoldResult extent : kernel.getMixedGrid())
    extents.push_back(getValueOrCreateConstantIndexOp(b, loc, extent));
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value rowExtent = extents[1], clusterSize;
  if (cluster > 1) {
    // The body's y extent counts pairs of rows from here on.
    clusterSize = arith::ConstantIndexOp::create(b, loc, cluster);
    rowExtent = arith::CeilDivUIOp::create(b, loc, extents[1], clusterSize);
    blocks = std::max<int64_t>(cluster, blocks - blocks % cluster);
  }
  Value plane = arith::MulIOp::create(b, loc, extents[0], rowExtent);
  Value tiles = plane;
  if (extents.size() == 3)
    tiles = arith::MulIOp::create(b, loc, plane, extents[2]);
  if (cluster > 1)
    tiles = arith::MulIOp::create(b, loc, tiles, clusterSize);
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
        attr.getName() != TileDialect::kPersistentAttrName &&
        attr.getName() != TileDialect::kClusterAttrName)
      persistent->setAttr(attr.getName(), attr.getValue());
  if (cluster > 1)
    persistent->setAttr(TileDialect::kClusterAttrName,
                        b.getI64IntegerAttr(cluster));

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
  loop->setAttr(TileDialect::kTileLoopAttrName, b.getUnitAttr());
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value tile =
      order.isLaunchOrder()
          ? arith::AddIOp::create(
                b, loc,
                arith::MulIOp::create(b, loc, loop.getInductionVar(), grid),
                body.getArgument(0))
          : emitAlternatingTile(b, loc, loop.getInductionVar(), grid,
                                body.getArgument(0));
  Value valid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tile, tiles);
  auto branch = scf::IfOp::create(b, loc, valid, /*withElseRegion=*/false);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  // The tile's grid position: z, then (x, y) in the launch order; for
  // clusters, the pair's position, then the row of the block's rank.
  Value linear = tile;
  if (cluster > 1) {
    linear = arith::DivUIOp::create(b, loc, tile, clusterSize);
    group = std::max<int64_t>(1, group / cluster);
  }
  SmallVector<Value> position(extents.size());
  if (!order.isLaunchOrder()) {
    position = emitOrderedPosition(b, loc, tile, extents, grid, order);
  } else {
    Value inPlane = linear;
    if (extents.size() == 3) {
      position[2] = arith::DivUIOp::create(b, loc, linear, plane);
      inPlane = arith::RemUIOp::create(b, loc, linear, plane);
    }
    if (group > 1) {
      std::tie(position[0], position[1]) =
          emitGroupedPosition(b, loc, inPlane, extents[0], rowExtent, group);
    } else {
      position[1] = arith::DivUIOp::create(b, loc, inPlane, extents[0]);
      position[0] = arith::RemUIOp::create(b, loc, inPlane, extents[0]);
    }
  }
  if (cluster > 1) {
    Value rank = gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::x);
    position[1] = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, position[1], clusterSize), rank);
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

  /// Why two consumer warpgroups cannot take the tiles of `kernel` in
  /// turn (`tile.alternate_tiles`), or "". Each runs the kernel's body as
  /// written, so the kernel must be one warpgroup whose registers fit the
  /// budget of a consumer beside another and a producer (setmaxnreg).
  static std::string whyNoAlternateTiles(KernelOp kernel,
                                         const ChipDescription &chip) {
    auto ws =
        kernel->getAttrOfType<BoolAttr>(TileDialect::kWarpSpecializeAttrName);
    if (ws && !ws.getValue())
      return "it is not warp-specialized (tile.warp_specialize = false)";
    if (!getTargetInfo(kernel)->registerBudgets() || !chip.warpgroupSize)
      return "the target cannot move registers between warpgroups";
    if (static_cast<int64_t>(kernel.getThreads()) != chip.warpgroupSize)
      return "its " + std::to_string(kernel.getThreads()) +
             " threads are not one warpgroup";
    if (3 * chip.warpgroupSize > chip.maxThreadsPerBlock)
      return "three warpgroups exceed the threads of a block";
    if (estimateKernelRegisters(kernel) > kAlternateRegisters)
      return "its registers (about " +
             std::to_string(estimateKernelRegisters(kernel)) +
             " a thread) do not fit two consumers beside a producer";
    return "";
  }

  /// Whether the persistent `kernel` alternates its tiles between two
  /// consumer warpgroups: where the kernel asks for it with
  /// `tile.alternate_tiles = true` and qualifies (a warning says why not
  /// otherwise, and drops the attribute).
  bool chooseAlternateTiles(KernelOp kernel) {
    if (auto attr = kernel->getAttrOfType<BoolAttr>(
            TileDialect::kAlternateTilesAttrName)) {
      TargetAttr target = getTargetAttr(kernel);
      const ChipDescription *chip = target ? target.getDescription() : nullptr;
      std::string why = chip ? whyNoAlternateTiles(kernel, *chip)
                             : "the kernel has no target";
      if (attr.getValue() && !why.empty()) {
        kernel.emitWarning("tile.alternate_tiles ignored: ") << why;
        kernel->removeAttr(TileDialect::kAlternateTilesAttrName);
        return false;
      }
      if (attr.getValue() && emitRemarks)
        kernel.emitRemark("two consumer warpgroups take the block's tiles in "
                          "turn: one stores a tile while the other computes "
                          "the next");
      return attr.getValue();
    }
    // Not a default: on the H100 the alternating kernels measured slower
    // than the same tiles with one consumer warpgroup, and than the
    // example's two cooperating ones (docs/perf.md, run 41).
    return false;
  }

  /// The persistent grid size the compiler picks for `kernel`, or 0 with
  /// `why` set.
  int64_t choose(KernelOp kernel, std::string &why) {
    const ChipDescription *chip = getTargetAttr(kernel).getDescription();
    if (!getTargetInfo(kernel)->tensorCopies()) {
      why = "the target has no tensor copies to load the next tile's stages "
            "ahead";
      return 0;
    }
    // GEMMs (panels along both grid dimensions), and attention-like kernels
    // (the key and value panels of a head, along the query blocks).
    bool panels = sharesOperandPanels(kernel);
    if (!panels && !sharesOperandPanel(kernel)) {
      why = "its blocks share no operand panels";
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
    // Two consumer warpgroups taking the tiles in turn overlap one's
    // epilogue with the other's main loop within the block.
    auto alternate =
        kernel->getAttrOfType<BoolAttr>(TileDialect::kAlternateTilesAttrName);
    if (resident > 1 && !(alternate && alternate.getValue())) {
      why = std::to_string(resident) +
            " of its blocks fit a multiprocessor at once";
      return 0;
    }
    // The tile loop keeps its own state live beside the kernel's registers:
    // the persistent D256 FlashAttention spilled (docs/perf.md, run 115).
    // GEMMs keep their accumulators in fewer.
    int64_t registers = estimateKernelRegisters(kernel);
    if (!panels && registers > kTileLoopRegisters) {
      why = "its registers (about " + std::to_string(registers) +
            " a thread) leave the tile loop's state no room";
      return 0;
    }
    return blocks > 0 ? static_cast<int64_t>(blocks) : chip->multiprocessors;
  }

  /// The blocks per cluster of the persistent `kernel` (1 or 2), decided
  /// and written as `tile.cluster` unless the kernel has it; -1 after an
  /// error. Pairs of blocks that read the same operand panel (the copy that
  /// follows the grid column alone) let the copy engine load it once for
  /// both (`tile.multicast`), which halves that operand's traffic from L2.
  int64_t chooseCluster(KernelOp kernel, int64_t count) {
    Builder builder(&getContext());
    auto attr =
        kernel->getAttrOfType<IntegerAttr>(TileDialect::kClusterAttrName);
    std::string why = whyNoClusterPairs(kernel);
    if (attr) {
      if (attr.getInt() > 1 && !why.empty()) {
        kernel.emitError() << "tile.cluster = " << attr.getInt()
                           << " cannot pair the kernel's tiles: " << why;
        return -1;
      }
      return attr.getInt();
    }
    if (!decide || !clusters)
      return 1;
    int64_t cluster = 1;
    if (!getTargetInfo(kernel)->clusters())
      why = "the target has no clusters of blocks";
    else if (!sharesOperandPanels(kernel))
      why = "its blocks share no operand panels";
    else if (count < 2)
      why = "its persistent grid has one block";
    else if (why.empty())
      cluster = 2;
    kernel->setAttr(TileDialect::kClusterAttrName,
                    builder.getI64IntegerAttr(cluster));
    if (emitRemarks) {
      if (cluster > 1)
        kernel.emitRemark("clusters of 2 blocks compute tiles of adjacent "
                          "grid rows: the operand panel of their column is "
                          "loaded once for both");
      else
        kernel.emitRemark() << "no clusters: " << why;
    }
    return cluster;
  }

  /// The order in which the blocks of `kernel` take its tiles, decided and
  /// written as `tile.tile_order` unless the kernel has it; failure after
  /// an error. Only single blocks of a persistent grid that do not
  /// alternate their tiles between consumers (`ordered`) take them in
  /// another order than the launch order.
  FailureOr<TileOrder> chooseTileOrder(KernelOp kernel, bool ordered) {
    Builder builder(&getContext());
    if (auto attr = kernel->getAttrOfType<StringAttr>(
            TileDialect::kTileOrderAttrName)) {
      FailureOr<TileOrder> order = parseTileOrder(attr.getValue());
      if (failed(order) || order->dim >= int(kernel.getGridRank()))
        return kernel.emitError()
               << "tile.tile_order must be 'launch' or '<dimension of the "
                  "grid>-<descending|ascending>' (x, y, z), got '"
               << attr.getValue() << "'";
      if (!order->isLaunchOrder() && !ordered) {
        kernel.emitWarning("tile.tile_order ignored: only single blocks of a "
                           "persistent grid take their tiles in another order "
                           "than the launch order");
        kernel->removeAttr(TileDialect::kTileOrderAttrName);
        return TileOrder();
      }
      return *order;
    }
    if (!ordered || !decide)
      return TileOrder();
    std::string why;
    TileOrder order = findLongestFirstOrder(kernel, why);
    // The decision, where it is not the launch order every other persistent
    // kernel keeps.
    if (!order.isLaunchOrder())
      kernel->setAttr(TileDialect::kTileOrderAttrName,
                      builder.getStringAttr(printTileOrder(order)));
    // Said where the tiles' work differs (kernels whose tiles run loops of
    // one length keep the launch order without a word).
    if (emitRemarks && (!order.isLaunchOrder() || !why.empty())) {
      if (order.isLaunchOrder())
        kernel.emitRemark() << "tiles in the launch order: " << why;
      else
        kernel.emitRemark()
            << "tiles longest first (" << printTileOrder(order)
            << "): the trip counts of its pipelined loops follow the grid "
               "position along "
            << "xyz"[order.dim];
    }
    return order;
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
      if (Operation *manual = findHandWrittenSync(kernel)) {
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
      int64_t cluster = count > 0 ? chooseCluster(kernel, count) : 1;
      if (count <= 0 && kernel->hasAttr(TileDialect::kClusterAttrName)) {
        auto asked =
            kernel->getAttrOfType<IntegerAttr>(TileDialect::kClusterAttrName);
        if (asked && asked.getInt() > 1)
          kernel.emitWarning("tile.cluster ignored: clusters pair the tiles "
                             "of a persistent grid, and this kernel has "
                             "one block per tile");
        kernel->removeAttr(TileDialect::kClusterAttrName);
      }
      if (cluster < 0)
        return signalPassFailure();
      bool alternate = false;
      if (count > 0 && cluster == 1)
        alternate = chooseAlternateTiles(kernel);
      else if (kernel->hasAttr(TileDialect::kAlternateTilesAttrName)) {
        auto asked = kernel->getAttrOfType<BoolAttr>(
            TileDialect::kAlternateTilesAttrName);
        if (asked && asked.getValue())
          kernel.emitWarning("tile.alternate_tiles ignored: ")
              << (count > 0 ? "the kernel's tiles are paired in clusters"
                            : "the kernel has one block per tile");
        kernel->removeAttr(TileDialect::kAlternateTilesAttrName);
      }
      FailureOr<TileOrder> order =
          chooseTileOrder(kernel, count > 0 && cluster == 1 && !alternate);
      if (failed(order))
        return signalPassFailure();
      if (count > 0)
        makePersistent(kernel, count, cluster, *order);
    }
  }
};

} // namespace
