//===- AllocateScratch.cpp - Scratch tiles as allocations -------*- C++ -*-===//
//
// `tile-allocate-scratch`: the shared memory some tile ops need beyond their
// operands, as explicit `tile.alloc`s at the top of the kernel, passed to the
// op as its `scratch` operand:
//
//  - a copy between register tiles of different layouts goes through a
//    row-major tile of the source's shape;
//  - a reduction whose layout spreads the reduced dimension over several
//    warps combines the warps' partial results through one element per
//    thread and target register;
//  - a tensor store (`tile.tma_store`) stages the accumulator in column
//    panels of 128 bytes or less, swizzled as the tensor map reads them,
//    in as many buffers as the copy asks for.
//
// Conversion and reduction scratch comes first in the kernel's shared
// memory, staging buffers after the kernel's own tiles (where
// tile-select-tma counted them). tile-allocate-shared places them like any
// other tile (a conversion's scratch may share the storage of a tile that is
// dead there when the kernel would not fit otherwise).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

namespace mlir::tile {
#define GEN_PASS_DEF_ALLOCATESCRATCH
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

static void allocateScratch(KernelOp kernel) {
  Block &body = kernel.getBody().front();
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(ctx);
  Attribute space = getMemorySpaceAttr(ctx, MemoryKind::Shared);
  auto makeScratch = [&](Location loc, ArrayRef<int64_t> shape,
                         Type elementType) {
    b.setInsertionPointToStart(&body);
    auto type =
        MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(), space);
    auto alloc = AllocOp::create(b, loc, type);
    alloc.setLayoutAttr(SharedLayoutAttr::get(ctx, 0, 0));
    alloc.setAlignmentAttr(b.getI64IntegerAttr(16));
    return alloc.getResult();
  };
  // Staging buffers of tensor stores: after the kernel's tiles.
  kernel.walk([&](CopyOp copy) {
    int64_t buffers = getTmaStoreBuffers(copy);
    if (buffers <= 0 || copy.getScratch())
      return;
    b.setInsertionPointToStart(&body);
    for (auto tile : body.getOps<AllocOp>())
      b.setInsertionPointAfter(tile);
    Type elt = copy.getTargetType().getElementType();
    int64_t panelBytes = getTmaStorePanelBytes(copy);
    int64_t panelCols = panelBytes * 8 / elt.getIntOrFloatBitWidth();
    auto type = MemRefType::get(
        {copy.getSourceType().getShape()[0], buffers * panelCols}, elt,
        MemRefLayoutAttrInterface(), space);
    auto alloc = AllocOp::create(b, copy.getLoc(), type);
    alloc.setLayoutAttr(SharedLayoutAttr::get(ctx, panelBytes, 0, /*unit=*/16));
    alloc.setAlignmentAttr(b.getI64IntegerAttr(1024));
    copy.getScratchMutable().assign(alloc.getResult());
  });
  kernel.walk([&](Operation *op) {
    if (!needsScratchTile(op))
      return;
    if (auto copy = dyn_cast<CopyOp>(op); copy && !copy.getScratch()) {
      MemRefType src = copy.getSourceType();
      copy.getScratchMutable().assign(
          makeScratch(op->getLoc(), src.getShape(), src.getElementType()));
    }
    if (auto reduce = dyn_cast<ReduceOp>(op); reduce && !reduce.getScratch()) {
      // One partial per thread and target register (needsScratchTile saw
      // the source's layout).
      auto src = reduce.getSource().getDefiningOp<AllocOp>();
      LinearLayout dst = cast<LinearLayoutAttr>(src.getLayoutAttr())
                             .getLinearLayout()
                             .projectOut(reduce.getDim());
      int64_t threads = getNumThreads(reduce, kernel);
      reduce.getScratchMutable().assign(
          makeScratch(op->getLoc(), {threads * dst.getRegistersPerThread()},
                      src.getType().getElementType()));
    }
  });
}

namespace {
struct AllocateScratchPass
    : public tile::impl::AllocateScratchBase<AllocateScratchPass> {
  void runOnOperation() override {
    getOperation().walk([](KernelOp kernel) { allocateScratch(kernel); });
  }
};
} // namespace
