//===- LaunchOrder.cpp - Choose the launch order of 2-D grids ---*- C++ -*-===//
//
// `tile-launch-order`: a kernel whose blocks read operand panels shared
// along grid rows and grid columns (a GEMM's A panel depends on the block's
// y index, its B panel on x) is launched in groups of grid rows, Triton's
// "grouped ordering": a wave of blocks then reads a few panels of each
// operand, which stay in L2, instead of one panel of A against all of B.
// The pass only decides (`tile.launch_group` on the kernel);
// `convert-tile-to-gpu` emits the block index mapping.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/LaunchOrder.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Builders.h"

namespace mlir::tile {
#define GEN_PASS_DEF_LAUNCHORDER
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Which of the kernel's block indices x and y the value `index` depends on,
/// through the ops of the kernel that compute it.
struct BlockDependence {
  bool x = false, y = false;
};

BlockDependence dependenceOn(Value index, KernelOp kernel) {
  BlockDependence dep;
  auto note = [&](Value value) {
    if (value == kernel.getBlockIndex(0))
      dep.x = true;
    if (value == kernel.getBlockIndex(1))
      dep.y = true;
  };
  note(index);
  Operation *def = index.getDefiningOp();
  if (!def || !kernel->isAncestor(def))
    return dep;
  BackwardSliceOptions options;
  options.omitBlockArguments = false;
  options.inclusive = true;
  // A loop's index is a position every block may reach: how far the loop
  // runs (causal attention's key loop, to the block's diagonal) is not
  // where its copies read.
  options.filter = [&](Operation *op) {
    return kernel->isAncestor(op) && !isa<scf::ForOp>(op);
  };
  SetVector<Operation *> slice;
  if (failed(getBackwardSlice(def, &slice, options)))
    return dep;
  for (Operation *op : slice)
    for (Value operand : op->getOperands())
      note(operand);
  return dep;
}

} // namespace

bool mlir::tile::dependsOnBlockY(Value value, KernelOp kernel) {
  return kernel.getGridRank() >= 2 && dependenceOn(value, kernel).y;
}

/// Whether some copy from global memory of `kernel` follows the block's y
/// index but not x (`rows`), or x but not y (`columns`).
static std::pair<bool, bool> findOperandPanels(KernelOp kernel) {
  bool rowPanel = false, columnPanel = false;
  if (kernel.getGridRank() < 2)
    return {false, false};
  kernel.walk([&](CopyOp copy) {
    if (getMemoryKind(copy.getSourceType()) != MemoryKind::Global ||
        getMemoryKind(copy.getTargetType()) == MemoryKind::Global)
      return;
    // The offsets, and the source itself where it is a view made inside
    // the kernel.
    BlockDependence dep = dependenceOn(copy.getSource(), kernel);
    for (Value index : copy.getSourceOffsets()) {
      BlockDependence d = dependenceOn(index, kernel);
      dep.x |= d.x;
      dep.y |= d.y;
    }
    rowPanel |= dep.y && !dep.x;
    columnPanel |= dep.x && !dep.y;
  });
  return {rowPanel, columnPanel};
}

bool mlir::tile::sharesOperandPanels(KernelOp kernel) {
  auto [rows, columns] = findOperandPanels(kernel);
  return rows && columns;
}

bool mlir::tile::sharesOperandPanel(KernelOp kernel) {
  auto [rows, columns] = findOperandPanels(kernel);
  return rows || columns;
}

std::pair<Value, Value>
mlir::tile::emitGroupedPosition(OpBuilder &b, Location loc, Value linear,
                                Value gx, Value gy, int64_t group) {
  Value rowsPerGroup = arith::ConstantIndexOp::create(b, loc, group);
  Value groupSize = arith::MulIOp::create(b, loc, rowsPerGroup, gx);
  Value groupId = arith::DivUIOp::create(b, loc, linear, groupSize);
  Value firstRow = arith::MulIOp::create(b, loc, groupId, rowsPerGroup);
  Value rows = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, gy, firstRow), rowsPerGroup);
  Value inGroup = arith::RemUIOp::create(b, loc, linear, groupSize);
  Value row = arith::AddIOp::create(
      b, loc, firstRow, arith::RemUIOp::create(b, loc, inGroup, rows));
  Value column = arith::DivUIOp::create(b, loc, inGroup, rows);
  return {column, row};
}

namespace {

struct LaunchOrderPass : public tile::impl::LaunchOrderBase<LaunchOrderPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t rows = group;
    if (rows < 1) {
      getOperation().emitError()
          << "tile-launch-order: group must be positive, got " << rows;
      return signalPassFailure();
    }
    getOperation().walk([&](KernelOp kernel) {
      if (kernel->hasAttr(TileDialect::kLaunchGroupAttrName))
        return;
      if (!sharesOperandPanels(kernel)) {
        if (emitRemarks)
          kernel.emitRemark("launch order kept: no operand panels shared "
                            "along both grid dimensions");
        return;
      }
      Builder b(kernel.getContext());
      kernel->setAttr(TileDialect::kLaunchGroupAttrName,
                      b.getI64IntegerAttr(rows));
      if (emitRemarks)
        kernel.emitRemark() << "launched in groups of " << rows
                            << " grid rows: its blocks share operand panels "
                               "along both grid dimensions";
    });
  }
};

} // namespace
