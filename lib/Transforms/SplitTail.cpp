//===- SplitTail.cpp - Split a persistent grid's last wave ------*- C++ -*-===//
//
// `tile-split-tail`: a persistent GEMM kernel of P blocks over T tiles runs
// floor(T / P) full waves of tiles, then a last one of R = T mod P tiles
// during which the other blocks idle (5120 x 5120 x 5120 in 128 x 256
// tiles: 800 tiles on 132 multiprocessors, seven rounds for 6.06 rounds of
// work). The pass lets the host split the K loops of those R tiles into s
// equal parts computed by s R blocks at once (split-K of the last wave):
// the parts' partial sums meet in an f32 workspace and a second kernel adds
// each tile's parts in order and runs the kernel's epilogue. The parts are
// aligned in K, so blocks that share an operand panel read the same slice
// of it at the same time, as the full waves do (stream-K's uneven shares
// scatter them, and measured slower). Whether it pays depends on the
// shape, so the host picks s per call; the pass decides which kernels may
// (`tile.split_tail`) and rewrites them.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/ChipDescription.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/KSplitting.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tile {
#define GEN_PASS_DEF_SPLITTAIL
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The tile loop `tile-persistent-blocks` writes: for w in [0, waves),
/// tile = w * grid + block, computed under `tile < tiles`.
struct TileLoop {
  scf::ForOp loop;
  Value tile;
  Value tiles;
  scf::IfOp body;
};

/// Why `kernel` is not a persistent kernel of single blocks taking its
/// tiles one at a time, or "" with `found` set.
std::string matchTileLoop(KernelOp kernel, TileLoop &found) {
  if (kernel.getGridRank() != 1)
    return "it is not persistent";
  scf::ForOp loop;
  for (Operation &op : kernel.getBody().front())
    if (op.hasAttr(TileDialect::kTileLoopAttrName)) {
      if (loop || !isa<scf::ForOp>(op))
        return "its tile loops are not tile-persistent-blocks' one";
      loop = cast<scf::ForOp>(op);
    }
  if (!loop)
    return "it is not persistent";
  if (auto cluster =
          kernel->getAttrOfType<IntegerAttr>(TileDialect::kClusterAttrName);
      cluster && cluster.getInt() > 1)
    return "its tiles are paired in clusters";
  if (auto turns =
          kernel->getAttrOfType<BoolAttr>(TileDialect::kAlternateTilesAttrName);
      turns && turns.getValue())
    return "its consumer warpgroups take tiles in turn";
  if (auto order =
          kernel->getAttrOfType<StringAttr>(TileDialect::kTileOrderAttrName);
      order && order.getValue() != "launch")
    return "its blocks take its tiles longest first";
  auto branch = dyn_cast_or_null<scf::IfOp>(
      loop.getBody()->getTerminator()->getPrevNode());
  auto test = branch ? branch.getCondition().getDefiningOp<arith::CmpIOp>()
                     : arith::CmpIOp();
  if (!branch || branch.getNumResults() || !branch.getElseRegion().empty() ||
      !test || test.getPredicate() != arith::CmpIPredicate::ult ||
      !matchPattern(loop.getLowerBound(), m_Zero()) ||
      !matchPattern(loop.getStep(), m_One()) ||
      kernel.getBody().isAncestor(test.getRhs().getParentRegion()))
    return "its tile loop is not tile-persistent-blocks' one";
  // The tile's computation sees the loop only through the tile index.
  Value tile = test.getLhs();
  bool other = false;
  branch.walk([&](Operation *op) {
    if (op == branch.getOperation())
      return;
    for (Value operand : op->getOperands())
      if (operand != tile && operand.getParentBlock() == loop.getBody())
        other = true;
  });
  if (other)
    return "its tile loop is not tile-persistent-blocks' one";
  found = {loop, tile, test.getRhs(), branch};
  return "";
}

/// Why the last wave of `kernel` cannot be split, or "" with `tiles` and
/// `candidate` set.
std::string whyNoTailSplit(KernelOp kernel, const ChipDescription *chip,
                           TileLoop &tiles, KLoopCandidate &candidate) {
  if (std::string why = matchTileLoop(kernel, tiles); !why.empty())
    return why;
  return whyNoKSplit(*tiles.body.thenBlock(), kernel, chip, candidate);
}

/// Rewrites the persistent `kernel` into the run-time choice between itself
/// and the form whose last wave is split in at most `most` parts along K.
void splitTail(KernelOp kernel, TileLoop tiles, KLoopCandidate candidate,
               int64_t most, int64_t minIterations, int64_t minShare) {
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  scf::ForOp loop = candidate.loop;
  auto tileType =
      cast<MemRefType>(candidate.accumulator->getResult(0).getType());
  auto index = [&](OpBuilder &at, int64_t value) {
    return arith::ConstantIndexOp::create(at, loc, value).getResult();
  };
  using Pred = arith::CmpIPredicate;

  // The choice, on the host: s = min(S, floor(P / R)) parts of ceil(I / s)
  // iterations, where that saves at least the least iterations asked.
  Value trips = emitHostTripCount(b, loc, loop, kernel);
  Value grid =
      getValueOrCreateConstantIndexOp(b, loc, kernel.getMixedGrid().front());
  // (One op a statement: the order of the ops is what tests check.)
  Value one = index(b, 1);
  Value blocks = arith::MaxUIOp::create(b, loc, grid, one);
  Value full = arith::DivUIOp::create(b, loc, tiles.tiles, blocks);
  Value done = arith::MulIOp::create(b, loc, full, grid);
  Value left = arith::SubIOp::create(b, loc, tiles.tiles, done);
  Value cap = index(b, most);
  Value someLeft = arith::MaxUIOp::create(b, loc, left, one);
  Value fit = arith::DivUIOp::create(b, loc, blocks, someLeft);
  Value parts = arith::MinUIOp::create(b, loc, fit, cap);
  Value someParts = arith::MaxUIOp::create(b, loc, parts, one);
  Value chunk = arith::CeilDivUIOp::create(b, loc, trips, someParts);
  Value zero = index(b, 0);
  Value two = index(b, 2);
  Value least = index(b, minIterations);
  Value saved = arith::SubIOp::create(b, loc, trips, chunk);
  Value hasLeft = arith::CmpIOp::create(b, loc, Pred::ugt, left, zero);
  Value hasFull = arith::CmpIOp::create(b, loc, Pred::ugt, full, zero);
  Value split = arith::CmpIOp::create(b, loc, Pred::uge, parts, two);
  Value pays = arith::CmpIOp::create(b, loc, Pred::sge, saved, least);
  Value pick = arith::AndIOp::create(b, loc, hasLeft, hasFull);
  pick = arith::AndIOp::create(b, loc, pick, split);
  pick = arith::AndIOp::create(b, loc, pick, pays);
  // The tail kernel's whole tiles run a little slower than the kernel's
  // own: the saving must be a share of the block's whole run.
  if (minShare > 0) {
    Value share = index(b, minShare);
    Value weighed = arith::MulIOp::create(b, loc, saved, share);
    Value units = arith::AddIOp::create(b, loc, full, one);
    Value run = arith::MulIOp::create(b, loc, units, trips);
    Value worth = arith::CmpIOp::create(b, loc, Pred::sge, weighed, run);
    pick = arith::AndIOp::create(b, loc, pick, worth);
  }
  auto choice = scf::IfOp::create(b, loc, pick, /*withElseRegion=*/true);
  kernel->moveBefore(choice.elseBlock()->getTerminator());

  // The workspace: the parts of each tile left, stacked along rows.
  b.setInsertionPoint(choice.thenBlock()->getTerminator());
  Value rowsPerTile = index(b, tileType.getDimSize(0));
  Value slots = arith::MulIOp::create(b, loc, left, parts);
  Value rows = arith::MulIOp::create(b, loc, slots, rowsPerTile);
  Value cols = index(b, tileType.getDimSize(1));
  Value workspace = allocateWorkspace(b, loc, rows, cols);
  auto keepWhole = [&](KernelOp k) {
    k->setAttr(TileDialect::kSplitTailAttrName, b.getI64IntegerAttr(1));
  };

  // The full waves, then (blocks below s R) a part of a tile left.
  Value units = arith::AddIOp::create(b, loc, full, one);
  IRMapping tailMap;
  auto tail = cast<KernelOp>(b.clone(*kernel.getOperation(), tailMap));
  tail.setSymName((kernel.getSymName() + "_tail").str());
  keepWhole(tail);
  {
    auto unitLoop = cast<scf::ForOp>(tailMap.lookup(tiles.loop.getOperation()));
    auto branch = cast<scf::IfOp>(tailMap.lookup(tiles.body.getOperation()));
    Value tile = tailMap.lookup(tiles.tile);
    Value block = tail.getBody().front().getArgument(0);
    unitLoop.getUpperBoundMutable().assign(units);
    // Per unit: a whole tile of the full waves, or the block's part b mod s
    // of tile left b / s (where b < s R and the part has iterations).
    OpBuilder in(branch);
    Value w = unitLoop.getInductionVar();
    Value whole = arith::CmpIOp::create(in, loc, Pred::ult, w, full);
    Value t = arith::DivUIOp::create(in, loc, block, parts);
    Value part = arith::RemUIOp::create(in, loc, block, parts);
    Value partBegin = arith::MulIOp::create(in, loc, part, chunk);
    Value partEnd = arith::MinUIOp::create(
        in, loc, arith::AddIOp::create(in, loc, partBegin, chunk), trips);
    Value ours = arith::CmpIOp::create(in, loc, Pred::ult, t, left);
    Value any = arith::CmpIOp::create(in, loc, Pred::ult, partBegin, partEnd);
    Value some = arith::AndIOp::create(in, loc, ours, any);
    Value leftTile = arith::AddIOp::create(in, loc, done, t);
    Value unit = arith::SelectOp::create(in, loc, whole, tile, leftTile);
    Value valid = arith::OrIOp::create(in, loc, whole, some);
    Value start = index(in, 0);
    Value first = arith::SelectOp::create(in, loc, whole, start, partBegin);
    Value last = arith::SelectOp::create(in, loc, whole, trips, partEnd);
    branch.getConditionMutable().assign(valid);
    tile.replaceUsesWithIf(unit, [&](OpOperand &use) {
      return branch->isAncestor(use.getOwner());
    });

    // The K loop over the unit's iterations.
    auto kLoop = cast<scf::ForOp>(tailMap.lookup(loop.getOperation()));
    Value lower = kLoop.getLowerBound(), upper = kLoop.getUpperBound(),
          step = kLoop.getStep();
    OpBuilder at(kLoop);
    Value lo = arith::AddIOp::create(
        at, loc, lower, arith::MulIOp::create(at, loc, first, step));
    Value hi = arith::MinSIOp::create(
        at, loc,
        arith::AddIOp::create(at, loc, lower,
                              arith::MulIOp::create(at, loc, last, step)),
        upper);
    kLoop.getLowerBoundMutable().assign(lo);
    kLoop.getUpperBoundMutable().assign(hi);

    // The epilogue for whole tiles; a part's partial sums otherwise.
    Block *then = branch.thenBlock();
    OpBuilder after(then->getTerminator());
    auto epilogue =
        scf::IfOp::create(after, loc, whole, /*withElseRegion=*/true);
    Operation *epilogueEnd = epilogue.thenBlock()->getTerminator();
    SmallVector<Operation *> moved;
    for (Operation *op = kLoop->getNextNode(); op != epilogue;
         op = op->getNextNode())
      moved.push_back(op);
    for (Operation *op : moved)
      op->moveBefore(epilogueEnd);
    // Part j of tile left r is block r s + j: its workspace tile is the
    // block's.
    OpBuilder partial(epilogue.elseBlock()->getTerminator());
    Value acc = tailMap.lookup(candidate.accumulator->getResult(0));
    Value row = arith::MulIOp::create(partial, loc, block, rowsPerTile);
    CopyOp::create(partial, loc, acc, ValueRange{}, workspace,
                   ValueRange{row, index(partial, 0)});
  }

  // One block per tile left and slice of its rows: its parts added in
  // order, the epilogue.
  auto buildReduce = [&](int64_t sliceCount) {
    SmallVector<OpFoldResult> grid = {left};
    if (sliceCount > 1)
      grid.push_back(b.getIndexAttr(sliceCount));
    auto reduce =
        KernelOp::create(b, loc, (kernel.getSymName() + "_tail_reduce").str(),
                         grid, kernel.getThreads());
    if (Attribute target = kernel->getAttr(TileDialect::kTargetAttrName))
      reduce->setAttr(TileDialect::kTargetAttrName, target);
    keepWhole(reduce);
    Block &body = reduce.getBody().front();
    OpBuilder in = OpBuilder::atBlockTerminator(&body);
    IRMapping reduceMap;
    for (Operation &op : kernel.getBody().front().without_terminator())
      if (&op != tiles.loop.getOperation())
        in.clone(op, reduceMap);
    Value r = body.getArgument(0);
    reduceMap.map(tiles.tile, arith::AddIOp::create(in, loc, done, r));
    for (Operation &op : tiles.body.thenBlock()->without_terminator())
      in.clone(op, reduceMap);
    auto kLoop = cast<scf::ForOp>(reduceMap.lookup(loop.getOperation()));
    Value acc = reduceMap.lookup(candidate.accumulator->getResult(0));
    OpBuilder at(kLoop);
    // The parts that have iterations (the last ones may have none).
    Value count = arith::CeilDivUIOp::create(at, loc, trips, chunk);
    Value base = arith::MulIOp::create(at, loc, r, parts);
    emitPartSum(at, loc, acc, workspace, count, [&](OpBuilder &o, Value j) {
      Value slot = arith::AddIOp::create(o, loc, base, j);
      Value row = arith::MulIOp::create(o, loc, slot, rowsPerTile);
      return std::make_pair(row, index(o, 0));
    });
    kLoop.erase();
    eraseDeadOps(body);
    return std::make_pair(reduce, acc);
  };
  buildReduction(candidate.accumulator.getResult(), /*sliceArg=*/1,
                 buildReduce);
  keepWhole(kernel);
}

struct SplitTailPass : public tile::impl::SplitTailBase<SplitTailPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels) {
      TargetAttr target = getTargetAttr(kernel);
      const ChipDescription *chip = target ? target.getDescription() : nullptr;
      TileLoop tiles;
      KLoopCandidate candidate;
      std::string why = whyNoTailSplit(kernel, chip, tiles, candidate);
      FailureOr<int64_t> parts =
          decideParts(kernel, TileDialect::kSplitTailAttrName,
                      "split the kernel's last wave", decide, splits, why);
      if (failed(parts))
        return signalPassFailure();
      int64_t most = *parts;
      if (emitRemarks) {
        if (most > 1)
          kernel.emitRemark()
              << "last wave split: up to " << most
              << " parts of the K loops of the tiles left after the full "
                 "waves, where that saves at least "
              << static_cast<int64_t>(minIterations) << " iterations"
              << (minShare > 0
                      ? " and 1/" + std::to_string(minShare) + " of a block's"
                      : std::string())
              << " (picked at run time)";
        else
          kernel.emitRemark() << "last wave kept whole: "
                              << (why.empty() ? "tile.split_tail = 1" : why);
      }
      if (most > 1)
        splitTail(kernel, tiles, candidate, most, minIterations, minShare);
    }
  }
};

} // namespace
