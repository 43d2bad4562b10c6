//===- SharedVectors.cpp - Registers <-> shared memory as vectors -*- C++
//-*-===//
//
// Fragment <-> shared copies whose registers hold runs of consecutive row
// elements (the blocked layouts of staged copies) move them as vectors of
// up to 16 bytes, through the swizzle, instead of element by element.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

LogicalResult mlir::tile::lowering::copySharedVectors(
    LoweringContext &ctx, RegisterOperand &tile, const SharedRef &ref,
    bool fromFragment, ArrayRef<Value> tcoords, ArrayRef<uint64_t> masks,
    Value writer) {
  int64_t bits = ref.tile->elementBits;
  int64_t vec = std::min<int64_t>(contiguousRegisters(tile.layout),
                                  ctx.target.getCopyVectorElements(bits));
  // A vector the swizzle splits must be exactly its two units.
  if (vec < 2 || ref.shape.back() % vec != 0 ||
      (ctx.splitsVectors(ref, vec) &&
       vec * bits / 8 != 2 * ref.tile->layout.getUnit()))
    return failure();
  Type sharedElt = ref.tile->type.getElementType();
  Type fragElt = tile.type.getElementType();
  auto vecType = VectorType::get({vec}, sharedElt);
  for (int64_t r = 0; r < tile.layout.getRegistersPerThread(); r += vec) {
    SmallVector<Value> coords =
        ctx.elementCoords(tile.layout, r, tcoords, masks);
    Value index = ctx.sharedIndex(ref, coords);
    if (!fromFragment) {
      Value v = ctx.accessSharedVector(ref, index, vecType);
      for (int64_t e = 0; e < vec; ++e) {
        Value x = vector::ExtractOp::create(ctx.b, ctx.loc(), v,
                                            ArrayRef<int64_t>{e});
        Value at = ctx.idx(r + e);
        memref::StoreOp::create(ctx.b, ctx.loc(), ctx.convert(x, fragElt),
                                tile.regs, at);
      }
      continue;
    }
    SmallVector<Value> elems;
    for (int64_t e = 0; e < vec; ++e)
      elems.push_back(ctx.convert(
          memref::LoadOp::create(ctx.b, ctx.loc(), tile.regs, ctx.idx(r + e)),
          sharedElt));
    Value v = vector::FromElementsOp::create(ctx.b, ctx.loc(), vecType, elems);
    OpBuilder::InsertionGuard g(ctx.b);
    if (writer) {
      auto branch = scf::IfOp::create(ctx.b, ctx.loc(), writer, false);
      ctx.b.setInsertionPointToStart(branch.thenBlock());
    }
    ctx.accessSharedVector(ref, index, vecType, v);
  }
  return success();
}
