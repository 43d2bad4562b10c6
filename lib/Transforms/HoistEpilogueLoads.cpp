//===- HoistEpilogueLoads.cpp - Epilogue scalars read early ----*- C++ -*-===//
//
// `tile-hoist-epilogue-loads`: a `memref.load` of global memory that follows
// a kernel's main loop (an `scf.for` holding a `tile.gemm`) in the same block
// moves before the loop when its indices are defined before it and nothing
// from the loop to the load writes global memory. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_HOISTEPILOGUELOADS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// Whether `value` may be global memory (a memref outside shared memory,
/// fragments and local buffers, or a value of unknown kind).
static bool mayBeGlobal(Value value) {
  auto type = value ? dyn_cast<MemRefType>(value.getType()) : MemRefType();
  if (!type)
    return true;
  MemoryKind kind = getMemoryKind(type);
  return kind == MemoryKind::Global || kind == MemoryKind::Unknown;
}

/// Whether `op` or an op nested in it may write global memory.
static bool mayWriteGlobal(Operation *op) {
  return mayAccessMemory(
      op,
      [](MemoryKind kind) {
        return kind == MemoryKind::Global || kind == MemoryKind::Unknown;
      },
      /*writesOnly=*/true);
}

namespace {
struct HoistEpilogueLoadsPass
    : public tile::impl::HoistEpilogueLoadsBase<HoistEpilogueLoadsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      auto early =
          kernel->getAttrOfType<BoolAttr>(TileDialect::kEarlyLoadsAttrName);
      if (early && !early.getValue())
        return;
      SmallVector<scf::ForOp> loops;
      kernel.walk([&](scf::ForOp loop) {
        bool gemm = loop.getBody()
                        ->walk([](GemmOp) { return WalkResult::interrupt(); })
                        .wasInterrupted();
        if (gemm)
          loops.push_back(loop);
      });
      for (scf::ForOp loop : loops)
        hoistAfter(loop);
    });
  }

  /// Moves the loads that may read early from after `loop` to before it.
  void hoistAfter(scf::ForOp loop) {
    if (mayWriteGlobal(loop))
      return;
    SmallVector<memref::LoadOp> moved;
    for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
      if (auto load = dyn_cast<memref::LoadOp>(op);
          load && mayBeGlobal(load.getMemRef()) &&
          llvm::all_of(load->getOperands(), [&](Value v) {
            return v.getParentRegion()->isProperAncestor(
                       &loop.getBodyRegion()) &&
                   (!v.getDefiningOp() ||
                    v.getDefiningOp()->getBlock() != loop->getBlock() ||
                    v.getDefiningOp()->isBeforeInBlock(loop));
          })) {
        moved.push_back(load);
        continue;
      }
      // Past an op that may write global memory, a load may read another
      // value than it would before.
      if (mayWriteGlobal(op))
        break;
    }
    for (memref::LoadOp load : moved) {
      load->moveBefore(loop);
      if (emitRemarks)
        load.emitRemark("read before its main loop (tile-hoist-epilogue-"
                        "loads)");
    }
  }
};
} // namespace
