//===- LateEpilogue.cpp - A tile's epilogue one tile late -------*- C++ -*-===//
//
// The first step of lowering a tile loop whose gemm is marked
// `tile.epilogue_late` (tile-plan-pipes; Epilogue.h): the tile's epilogue
// (the ops after its K loops) and the accumulator's zero fill move to the
// next tile's first K block, right after its gemm:
//
//   tile loop:                       tile loop:
//     fill acc                         ...
//     ...                              K loop:
//     K loop: gemm acc partials(P)       gemm acc partials(P)
//     epilogue(acc, m0, ...)             if first K block:
//                                          if has_previous: epilogue(prev)
//                                          fill acc
//                                      if the K loop ran no block: the same
//                                      save m0, ...; has_previous = true
//                                    if has_previous: epilogue(prev)
//
// A gemm that promotes one K block late issues its first block's MMAs into
// its partial sums, not the accumulator: at that point the accumulator
// holds the previous tile's complete sums (the lowering added its last
// partial sums after that tile's K loop), and the epilogue reads them while
// the first block's MMAs run, instead of the tensor cores idling through
// the epilogue and the next tile's start. The scalars the epilogue takes
// from its tile's body (coordinates, scales) pass to the next tile through
// one-element allocas. Tiles of a grid are unordered, so the next tile's
// ops may run before the previous tile's epilogue.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Pipelining.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// Rewrites the tile loop of `r` for the gemms of `late`.
static void moveEpilogue(LoweringContext &ctx, LateEpilogue &r,
                         ArrayRef<GemmOp> late) {
  KernelOp kernel = ctx.kernel;
  OpBuilder b(kernel.getContext());
  Location loc = r.fill.getLoc();
  // One-element allocas at the kernel's start: whether a tile ran before,
  // and the scalars its epilogue takes.
  b.setInsertionPointToStart(&kernel.getBody().front());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto slotOf = [&](Type type) {
    auto alloca = memref::AllocaOp::create(b, loc, MemRefType::get({1}, type));
    ctx.entryAllocas.push_back(alloca);
    return alloca.getResult();
  };
  Value hasPrevious = slotOf(b.getI1Type());
  memref::StoreOp::create(
      b, loc, arith::ConstantOp::create(b, loc, b.getBoolAttr(false)),
      hasPrevious, zero);
  SmallVector<Value> slots;
  for (Value value : r.carried) {
    Operation *def = value.getDefiningOp();
    slots.push_back(def && def->hasTrait<OpTrait::ConstantLike>()
                        ? Value()
                        : slotOf(value.getType()));
  }
  // Where the epilogue was: its scalars saved for the next tile.
  b.setInsertionPoint(r.ops.front());
  for (auto [value, slot] : llvm::zip_equal(r.carried, slots))
    if (slot)
      memref::StoreOp::create(b, loc, value, slot, zero);
  memref::StoreOp::create(
      b, loc, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)),
      hasPrevious, zero);

  auto emitEpilogue = [&](OpBuilder &b, Location loc) {
    IRMapping map;
    for (auto [value, slot] : llvm::zip_equal(r.carried, slots))
      map.map(value,
              slot ? memref::LoadOp::create(b, loc, slot, zero).getResult()
                   : b.clone(*value.getDefiningOp())->getResult(0));
    for (Operation *op : r.ops)
      b.clone(*op, map);
  };
  // The fill of the accumulator, after an epilogue (and before the tile
  // loop): never before the next tile's first K block, where the
  // accumulator's last sums would then be dead on the path that fills it
  // and LLVM would move their additions past the epilogue, with three sets
  // of sums live in it (ptxas spilled).
  auto emitFill = [&](OpBuilder &b) {
    IRMapping map;
    Value value = r.fill.getValue();
    if (Operation *def = value.getDefiningOp();
        def && r.tileLoop->isAncestor(def))
      map.map(value, b.clone(*def)->getResult(0));
    b.clone(*r.fill, map);
  };
  // The previous tile's epilogue, if a tile ran before; `fill`: then the
  // fill for the next tile.
  auto ifPrevious = [&](OpBuilder &b, Location loc, bool fill) {
    Value ran = memref::LoadOp::create(b, loc, hasPrevious, zero);
    auto branch =
        scf::IfOp::create(b, loc, ran, [&](OpBuilder &b, Location loc) {
          emitEpilogue(b, loc);
          if (fill)
            emitFill(b);
          scf::YieldOp::create(b, loc);
        });
    ctx.localScopes.insert(branch);
  };
  auto emitStart = [&](OpBuilder &b, Location loc) {
    ifPrevious(b, loc, /*fill=*/true);
    scf::YieldOp::create(b, loc);
  };
  b.setInsertionPoint(r.tileLoop);
  emitFill(b);
  for (GemmOp gemm : late) {
    auto loop = gemm->getParentOfType<scf::ForOp>();
    int64_t stage = std::max<int64_t>(0, getPipelineStage(gemm->getParentOp()));
    b.setInsertionPointAfter(gemm);
    Value first = createStageStart(b, loc, loop, stage);
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          loop.getInductionVar(), first);
    // Once a tile: LLVM places the epilogue's code out of the loop's body.
    isFirst = LLVM::ExpectOp::create(
        b, loc, isFirst,
        arith::ConstantOp::create(b, loc, b.getBoolAttr(false)));
    scf::IfOp::create(b, loc, isFirst, emitStart);
    // A tile whose K loop runs no block of the gemm (K = 0) starts here.
    b.setInsertionPointAfter(loop);
    first = createStageStart(b, loc, loop, stage);
    Value none =
        arith::CmpIOp::create(b, loc,
                              loop.getUnsignedCmp() ? arith::CmpIPredicate::uge
                                                    : arith::CmpIPredicate::sge,
                              first, loop.getUpperBound());
    scf::IfOp::create(b, loc, none, emitStart);
  }
  // The block's last tile.
  b.setInsertionPointAfter(r.tileLoop);
  ifPrevious(b, loc, /*fill=*/false);
  for (Operation *op : llvm::reverse(r.ops))
    op->erase();
  r.fill->erase();
}

LogicalResult
mlir::tile::lowering::scheduleLateEpilogues(LoweringContext &ctx) {
  KernelOp kernel = ctx.kernel;
  SmallVector<GemmOp> marked;
  kernel.walk([&](GemmOp gemm) {
    if (gemm->hasAttr(kEpilogueLateAttrName))
      marked.push_back(gemm);
  });
  llvm::MapVector<Operation *, std::pair<LateEpilogue, SmallVector<GemmOp>>>
      byFill;
  for (GemmOp gemm : marked) {
    LateEpilogue r;
    std::string why = analyzeLateEpilogue(gemm, r);
    if (why.empty() && !gemm.getMmaGroupsInFlight().value_or(0))
      why = "its gemm completes its MMAs";
    if (!why.empty())
      return gemm.emitOpError("runs its tile's epilogue one tile late "
                              "(tile.epilogue_late), which its tile loop "
                              "does not allow: ")
             << why;
    auto &entry = byFill[r.fill];
    if (entry.second.empty())
      entry.first = std::move(r);
    entry.second.push_back(gemm);
  }
  for (auto &[fill, entry] : byFill)
    moveEpilogue(ctx, entry.first, entry.second);
  return success();
}
