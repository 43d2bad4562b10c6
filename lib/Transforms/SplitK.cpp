//===- SplitK.cpp - Split the K loop of small-grid GEMM kernels -*- C++ -*-===//
//
// `tile-split-k`: a GEMM kernel whose grid has fewer blocks than the GPU has
// multiprocessors leaves most of them idle however long its K loop runs.
// The pass splits the loop over more blocks: a kernel computes each tile's
// partial sums over consecutive parts of the loop into an f32 workspace, a
// second one adds a tile's parts in split order and runs the kernel's
// epilogue. The count is picked on the host from the grid and the loop's trip
// count, so one compiled module serves every shape (a count of 1 launches the
// kernel as written). The pass decides (NVIDIA kernels that qualify get
// `tile.split_k = 16`), writes the decision, and rewrites the kernels that
// have `tile.split_k` > 1.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/ChipDescription.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/KSplitting.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_SPLITK
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The fewest K iterations a split gets: each split costs the reduction one
/// more pass over the tile's workspace.
constexpr int64_t kMinIterationsPerSplit = 32;

/// Why the K loop of `kernel` cannot be split, or "" with `candidate` set.
std::string whyNoSplit(KernelOp kernel, const ChipDescription *chip,
                       KLoopCandidate &candidate) {
  if (kernel.getGridRank() > 2)
    return "its grid has three dimensions";
  if (Operation *manual = findHandWrittenSync(kernel))
    return "it has hand-written '" + manual->getName().getStringRef().str() +
           "'";
  return whyNoKSplit(kernel.getBody().front(), kernel, chip, candidate);
}

/// A new kernel named `name` over `grid`, with the body of `kernel` cloned
/// into it (block indices mapped to the first of the new ones); `mapping`
/// maps the old body's values to the clone's.
KernelOp cloneKernel(OpBuilder &b, KernelOp kernel, StringRef name,
                     ArrayRef<OpFoldResult> grid, IRMapping &mapping) {
  auto clone =
      KernelOp::create(b, kernel.getLoc(), name, grid, kernel.getThreads());
  Block &body = clone.getBody().front();
  Block &old = kernel.getBody().front();
  for (unsigned dim = 0; dim < kernel.getGridRank(); ++dim)
    mapping.map(old.getArgument(dim), body.getArgument(dim));
  OpBuilder inner = OpBuilder::atBlockTerminator(&body);
  for (Operation &op : old.without_terminator())
    inner.clone(op, mapping);
  return clone;
}

/// The first row and column of the workspace tile of split `split` of grid
/// block (`x`, `y`): splits are stacked along rows, each a grid of tiles.
std::pair<Value, Value> workspaceOrigin(OpBuilder &b, Location loc, Value split,
                                        Value x, Value y, Value gridRows,
                                        MemRefType tile) {
  Value rows = arith::ConstantIndexOp::create(b, loc, tile.getDimSize(0));
  Value cols = arith::ConstantIndexOp::create(b, loc, tile.getDimSize(1));
  Value row = arith::MulIOp::create(b, loc, split, gridRows);
  if (y)
    row = arith::AddIOp::create(b, loc, row, y);
  row = arith::MulIOp::create(b, loc, row, rows);
  Value col = arith::MulIOp::create(b, loc, x, cols);
  return {row, col};
}

/// Rewrites `kernel` (qualifying, per `candidate`) into the run-time choice
/// between itself and its split form with at most `most` splits.
void splitKernel(KernelOp kernel, const KLoopCandidate &candidate, int64_t most,
                 const ChipDescription &chip) {
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  scf::ForOp loop = candidate.loop;
  auto tileType =
      cast<MemRefType>(candidate.accumulator->getResult(0).getType());
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };

  // The split count, on the host.
  Value trips = emitHostTripCount(b, loc, loop, kernel);
  SmallVector<Value> extents;
  for (OpFoldResult extent : kernel.getMixedGrid())
    extents.push_back(getValueOrCreateConstantIndexOp(b, loc, extent));
  Value blocks = extents[0];
  if (extents.size() == 2)
    blocks = arith::MulIOp::create(b, loc, blocks, extents[1]);
  Value someBlocks = arith::MaxUIOp::create(b, loc, blocks, index(1));
  Value fill =
      arith::DivUIOp::create(b, loc, index(chip.multiprocessors), someBlocks);
  Value deep =
      arith::DivUIOp::create(b, loc, trips, index(kMinIterationsPerSplit));
  Value least = arith::MinUIOp::create(b, loc, fill, deep);
  Value cap = index(most);
  Value splits = arith::MinUIOp::create(b, loc, least, cap);
  Value two = index(2);
  Value split =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, splits, two);
  auto choice = scf::IfOp::create(b, loc, split, /*withElseRegion=*/true);
  kernel->moveBefore(choice.elseBlock()->getTerminator());

  // The workspace: splits x grid rows tiles of rows, grid columns of columns.
  b.setInsertionPoint(choice.thenBlock()->getTerminator());
  Value gridRows = extents.size() == 2 ? extents[1] : index(1);
  Value tileRows = index(tileType.getDimSize(0));
  Value rows = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, splits, gridRows), tileRows);
  Value cols =
      arith::MulIOp::create(b, loc, extents[0], index(tileType.getDimSize(1)));
  Value chunk = arith::CeilDivUIOp::create(b, loc, trips, splits);
  Value workspace = allocateWorkspace(b, loc, rows, cols);

  auto keepWhole = [&](KernelOp k) {
    k->setAttr(TileDialect::kSplitKAttrName, b.getI64IntegerAttr(1));
  };
  // The partial sums: one more grid dimension, the split.
  SmallVector<OpFoldResult> splitGrid(extents.begin(), extents.end());
  splitGrid.push_back(splits);
  IRMapping partialMap;
  KernelOp partial = cloneKernel(
      b, kernel, (kernel.getSymName() + "_split").str(), splitGrid, partialMap);
  // (Not a late epilogue: the kernel's blocks take a piece each, and its
  // epilogue stores f32 partial sums.)
  for (NamedAttribute attr : kernel->getDiscardableAttrs())
    if (attr.getName() != kEpilogueLateAttrName)
      partial->setAttr(attr.getName(), attr.getValue());
  keepWhole(partial);
  // Its tiles are split already: no split of its last wave.
  partial->setAttr(TileDialect::kSplitTailAttrName, b.getI64IntegerAttr(1));
  {
    Block &body = partial.getBody().front();
    auto clonedLoop = cast<scf::ForOp>(partialMap.lookup(loop.getOperation()));
    Value acc = partialMap.lookup(candidate.accumulator->getResult(0));
    OpBuilder in(clonedLoop);
    Value z = body.getArgument(extents.size());
    Value inLower = partialMap.lookupOrDefault(loop.getLowerBound());
    Value inUpper = partialMap.lookupOrDefault(loop.getUpperBound());
    Value inStep = partialMap.lookupOrDefault(loop.getStep());
    Value stride = arith::MulIOp::create(in, loc, chunk, inStep);
    Value first = arith::AddIOp::create(
        in, loc, inLower, arith::MulIOp::create(in, loc, z, stride));
    Value last = arith::MinSIOp::create(
        in, loc, arith::AddIOp::create(in, loc, first, stride), inUpper);
    clonedLoop.getLowerBoundMutable().assign(first);
    clonedLoop.getUpperBoundMutable().assign(last);
    // The epilogue gives way to the store of the partial sums.
    while (body.getTerminator()->getPrevNode() != clonedLoop.getOperation())
      body.getTerminator()->getPrevNode()->erase();
    OpBuilder end = OpBuilder::atBlockTerminator(&body);
    auto [row, col] =
        workspaceOrigin(end, loc, z, body.getArgument(0),
                        extents.size() == 2 ? body.getArgument(1) : Value(),
                        gridRows, tileType);
    CopyOp::create(end, loc, acc, ValueRange{}, workspace,
                   ValueRange{row, col});
    eraseDeadOps(body);
  }

  // The sum of the parts in split order, then the epilogue: one block per
  // tile and slice of its rows.
  auto buildReduce = [&](int64_t sliceCount) {
    SmallVector<OpFoldResult> grid = kernel.getMixedGrid();
    if (sliceCount > 1)
      grid.push_back(b.getIndexAttr(sliceCount));
    IRMapping reduceMap;
    KernelOp reduce = cloneKernel(
        b, kernel, (kernel.getSymName() + "_reduce").str(), grid, reduceMap);
    if (Attribute target = kernel->getAttr(TileDialect::kTargetAttrName))
      reduce->setAttr(TileDialect::kTargetAttrName, target);
    keepWhole(reduce);
    Block &body = reduce.getBody().front();
    auto clonedLoop = cast<scf::ForOp>(reduceMap.lookup(loop.getOperation()));
    Value acc = reduceMap.lookup(candidate.accumulator->getResult(0));
    OpBuilder in(clonedLoop);
    emitPartSum(in, loc, acc, workspace, splits, [&](OpBuilder &at, Value z) {
      return workspaceOrigin(at, loc, z, body.getArgument(0),
                             extents.size() == 2 ? body.getArgument(1)
                                                 : Value(),
                             gridRows, tileType);
    });
    clonedLoop.erase();
    eraseDeadOps(body);
    return std::make_pair(reduce, acc);
  };
  buildReduction(candidate.accumulator->getResult(0), extents.size(),
                 buildReduce);
  keepWhole(kernel);
}

struct SplitKPass : public tile::impl::SplitKBase<SplitKPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels) {
      TargetAttr target = getTargetAttr(kernel);
      const ChipDescription *chip = target ? target.getDescription() : nullptr;
      KLoopCandidate candidate;
      std::string why = whyNoSplit(kernel, chip, candidate);
      FailureOr<int64_t> parts =
          decideParts(kernel, TileDialect::kSplitKAttrName,
                      "split the kernel's loop", decide, splits, why);
      if (failed(parts))
        return signalPassFailure();
      int64_t most = *parts;
      if (emitRemarks) {
        if (most > 1)
          kernel.emitRemark() << "split-K: up to " << most
                              << " splits of the K loop where the grid leaves "
                                 "multiprocessors idle (picked at run time)";
        else
          kernel.emitRemark() << "K loop not split: "
                              << (why.empty() ? "tile.split_k = 1" : why);
      }
      if (most > 1)
        splitKernel(kernel, candidate, most, *chip);
    }
  }
};

} // namespace
