//===- FragmentCopy.cpp - tile.copy of register tiles -----------*- C++ -*-===//
//
// Copies to and from fragments move each thread's own elements: as runs of
// registers for interior tiles of global memory (after one uniform test
// that the tile is in bounds and aligned; stores first gather longer runs
// across lanes), with the target's shared -> register instruction when the
// layout has one, element by element otherwise (out-of-bounds elements
// read as the copy's padding). Fragment -> fragment copies between layouts
// go through a shared scratch tile.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {
class FragmentCopy {
public:
  FragmentCopy(LoweringContext &ctx, CopyOp op) : ctx(ctx), op(op) {}
  LogicalResult run() {
    if (getMemoryKind(op.getSourceType()) == MemoryKind::Fragment &&
        getMemoryKind(op.getTargetType()) == MemoryKind::Fragment)
      return copyFragmentFragment();
    return copyFragmentMemory();
  }

private:
  LogicalResult copyFragmentMemory();
  LogicalResult copyFragmentFragment();

  LoweringContext &ctx;
  CopyOp op;
  OpBuilder &b = ctx.b;
  Location loc() { return ctx.loc(); }
  Value idx(int64_t v) { return ctx.idx(v); }
};
} // namespace

LogicalResult FragmentCopy::copyFragmentMemory() {
  bool fromFragment = getMemoryKind(op.getSourceType()) == MemoryKind::Fragment;
  Value fragValue = fromFragment ? op.getSource() : op.getTarget();
  Value other = fromFragment ? op.getTarget() : op.getSource();
  ValueRange offsets =
      fromFragment ? op.getTargetOffsets() : op.getSourceOffsets();
  RegisterOperand *tile = ctx.getRegTile(fragValue, op);
  if (!tile)
    return failure();
  MemoryKind otherKind = getMemoryKind(cast<MemRefType>(other.getType()));
  Type fragElt = tile->type.getElementType();
  Type otherElt = cast<MemRefType>(other.getType()).getElementType();
  ArrayRef<int64_t> shape = tile->type.getShape();
  Value tid = ctx.threadId(op);
  SmallVector<uint64_t> masks;
  SmallVector<Value> tcoords = ctx.threadCoords(tile->layout, tid, masks);
  // Replicas write once; every holder reads.
  Value writer =
      fromFragment ? ctx.canonicalHolder(tile->layout, tid) : Value();

  std::optional<SharedRef> ref;
  SmallVector<Value> dims;
  if (otherKind == MemoryKind::Shared) {
    FailureOr<SharedRef> r = ctx.resolveShared(other, op);
    if (failed(r))
      return failure();
    ref = *r;
  } else if (otherKind == MemoryKind::Global) {
    for (int64_t d = 0; d < cast<MemRefType>(other.getType()).getRank(); ++d)
      dims.push_back(memref::DimOp::create(b, loc(), other, d));
  } else {
    return op.emitOpError("copies between fragments and ")
           << stringifyMemoryKind(otherKind)
           << " memory are not supported by the lowering yet";
  }
  SmallVector<int64_t> padded = getPaddedShape(shape);
  if (ref && !fromFragment &&
      succeeded(ctx.target.emitSharedToRegisters(b, loc(), ctx.toOperand(*ref),
                                                 *tile, tid)))
    return success();

  // Interior tiles of global memory: runs of registers holding consecutive
  // elements of a row move as one unmasked vector (up to 16 bytes), after
  // one uniform test that the whole tile is in bounds and aligned.
  auto otherType = cast<MemRefType>(other.getType());
  int64_t want =
      ctx.target.getCopyVectorElements(otherType.getElementTypeBitWidth());
  int64_t vec = std::min<int64_t>(contiguousRegisters(tile->layout), want);
  // Stores of fragments whose rows are spread over neighbouring lanes
  // first gather longer runs through shuffles (LaneExchange.cpp).
  std::optional<LaneExchange> wide;
  if (fromFragment && !ref && otherElt.isIntOrFloat() &&
      otherElt.getIntOrFloatBitWidth() >= 8)
    wide = planLaneExchange(tile->layout, want);
  // Vectors of `width` elements of `layout`, whose registers are `values`
  // (stores; loads and empty `values` use the fragment's registers).
  auto emitVectors = [&](const LinearLayout &layout, int64_t width,
                         ArrayRef<Value> values) {
    SmallVector<uint64_t> bits;
    SmallVector<Value> thread = ctx.threadCoords(layout, tid, bits);
    auto vecType = VectorType::get({width}, otherElt);
    int64_t align = width * otherType.getElementTypeBitWidth() / 8;
    for (int64_t r = 0; r < layout.getRegistersPerThread(); r += width) {
      SmallVector<Value> coords = ctx.elementCoords(layout, r, thread, bits);
      SmallVector<Value> memCoords = ctx.globalCoords(offsets, coords);
      if (fromFragment) {
        SmallVector<Value> elems;
        for (int64_t e = 0; e < width; ++e)
          elems.push_back(values.empty() ? ctx.convert(memref::LoadOp::create(
                                                           b, loc(), tile->regs,
                                                           idx(r + e)),
                                                       otherElt)
                                         : values[r + e]);
        Value v = vector::FromElementsOp::create(b, loc(), vecType, elems);
        OpBuilder::InsertionGuard g(b);
        if (writer) {
          auto branch = scf::IfOp::create(b, loc(), writer, false);
          b.setInsertionPointToStart(branch.thenBlock());
        }
        vector::StoreOp::create(b, loc(), v, other, memCoords,
                                /*nontemporal=*/false, llvm::MaybeAlign(align));
      } else {
        Value v = vector::LoadOp::create(b, loc(), vecType, other, memCoords,
                                         /*nontemporal=*/false,
                                         llvm::MaybeAlign(align));
        for (int64_t e = 0; e < width; ++e) {
          Value x =
              vector::ExtractOp::create(b, loc(), v, ArrayRef<int64_t>{e});
          Value at = idx(r + e);
          memref::StoreOp::create(b, loc(), ctx.convert(x, fragElt), tile->regs,
                                  at);
        }
      }
    }
  };
  auto emitElements = [&]() {
    for (int64_t r = 0; r < tile->layout.getRegistersPerThread(); ++r) {
      SmallVector<Value> coords =
          ctx.elementCoords(tile->layout, r, tcoords, masks);
      // Elements of the padded layout beyond the tile, and (for global
      // memory) beyond the tensor.
      Value valid = writer;
      for (unsigned d = 0; d < shape.size(); ++d)
        if (padded[d] != shape[d])
          valid = ctx.andBool(valid, ctx.ult(coords[d], idx(shape[d])));
      SmallVector<Value> memCoords;
      if (ref) {
        memCoords.push_back(ctx.sharedIndex(*ref, coords));
      } else {
        memCoords = ctx.globalCoords(offsets, coords);
        for (auto [c, dim] : llvm::zip_equal(memCoords, dims))
          valid = ctx.andBool(valid, ctx.ult(c, dim));
      }
      Value memref = ref ? ref->tile->view : other;
      if (fromFragment) {
        auto emitStore = [&]() {
          Value v = memref::LoadOp::create(b, loc(), tile->regs, idx(r));
          memref::StoreOp::create(b, loc(), ctx.convert(v, otherElt), memref,
                                  memCoords);
        };
        if (!valid) {
          emitStore();
          continue;
        }
        auto branch = scf::IfOp::create(b, loc(), valid, false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(branch.thenBlock());
        emitStore();
      } else {
        Value at = idx(r);
        memref::StoreOp::create(b, loc(),
                                ctx.loadOrPad(valid, memref, memCoords, fragElt,
                                              op.getNonZeroPadding()),
                                tile->regs, at);
      }
    }
  };
  if (ref && padded == SmallVector<int64_t>(shape) &&
      succeeded(copySharedVectors(ctx, *tile, *ref, fromFragment, tcoords,
                                  masks, writer)))
    return success();
  if (ref || (vec < 2 && !wide) || padded != SmallVector<int64_t>(shape) ||
      !otherType.getLayout().isIdentity()) {
    emitElements();
    return success();
  }
  OpBuilder::InsertionGuard g(b);
  Value inBounds =
      op.getInBounds() ? Value() : ctx.regionInBounds(dims, offsets, shape);
  // Interior tiles with rows aligned for the widest vectors, then for the
  // fragment's own runs, then element by element.
  if (wide) {
    Value aligned = ctx.alignedRows(other, dims, offsets, wide->vector);
    auto split = scf::IfOp::create(b, loc(), ctx.andBool(inBounds, aligned),
                                   /*withElseRegion=*/true);
    b.setInsertionPointToStart(split.thenBlock());
    SmallVector<Value> values;
    for (int64_t r = 0; r < tile->layout.getRegistersPerThread(); ++r)
      values.push_back(ctx.convert(
          memref::LoadOp::create(b, loc(), tile->regs, idx(r)), otherElt));
    emitVectors(wide->layout, wide->vector,
                exchangeLanes(ctx, *wide, values, tid));
    b.setInsertionPointToStart(split.elseBlock());
  }
  if (vec < 2) {
    emitElements();
    return success();
  }
  if (op.getInBounds()) {
    emitVectors(tile->layout, vec, {});
    return success();
  }
  Value interior =
      ctx.andBool(ctx.alignedRows(other, dims, offsets, vec), inBounds);
  auto split = scf::IfOp::create(b, loc(), interior, /*withElseRegion=*/true);
  b.setInsertionPointToStart(split.thenBlock());
  emitVectors(tile->layout, vec, {});
  b.setInsertionPointToStart(split.elseBlock());
  emitElements();
  return success();
}

LogicalResult FragmentCopy::copyFragmentFragment() {
  RegisterOperand *src = ctx.getRegTile(op.getSource(), op);
  RegisterOperand *dst = ctx.getRegTile(op.getTarget(), op);
  if (!src || !dst)
    return failure();
  Type dstElt = dst->type.getElementType();
  if (src->layout == dst->layout) {
    for (int64_t r = 0; r < src->layout.getRegistersPerThread(); ++r) {
      Value v = memref::LoadOp::create(b, loc(), src->regs, idx(r));
      Value at = idx(r);
      memref::StoreOp::create(b, loc(), ctx.convert(v, dstElt), dst->regs, at);
    }
    return success();
  }
  // Different layouts: through shared memory (row-major scratch tile).
  Value scratchTile = ctx.scratch.lookup(op);
  if (!scratchTile)
    return op.emitOpError("converts between register layouts through shared "
                          "memory but has no scratch tile: run "
                          "tile-allocate-scratch before tile-lower-ops");
  SharedRef ref{&ctx.shared[scratchTile], idx(0), src->type.getShape()};
  Value tid = ctx.threadId(op);
  ArrayRef<int64_t> shape = src->type.getShape();
  SmallVector<int64_t> padded = getPaddedShape(shape);
  auto visit = [&](RegisterOperand *tile, bool store) {
    SmallVector<uint64_t> masks;
    SmallVector<Value> tcoords = ctx.threadCoords(tile->layout, tid, masks);
    for (int64_t r = 0; r < tile->layout.getRegistersPerThread(); ++r) {
      SmallVector<Value> coords =
          ctx.elementCoords(tile->layout, r, tcoords, masks);
      Value valid;
      for (unsigned d = 0; d < shape.size(); ++d)
        if (padded[d] != shape[d])
          valid = ctx.andBool(valid, ctx.ult(coords[d], idx(shape[d])));
      OpBuilder::InsertionGuard g(b);
      if (valid) {
        auto branch = scf::IfOp::create(b, loc(), valid, false);
        b.setInsertionPointToStart(branch.thenBlock());
      }
      Value sIdx = ctx.sharedIndex(ref, coords);
      if (store) {
        Value v = memref::LoadOp::create(b, loc(), tile->regs, idx(r));
        memref::StoreOp::create(b, loc(), v, ref.tile->view, sIdx);
      } else {
        Value v = memref::LoadOp::create(b, loc(), ref.tile->view, sIdx);
        Value at = idx(r);
        memref::StoreOp::create(b, loc(), ctx.convert(v, dstElt), tile->regs,
                                at);
      }
    }
  };
  ctx.barrier(op);
  visit(src, /*store=*/true);
  ctx.barrier(op);
  visit(dst, /*store=*/false);
  ctx.barrier(op);
  return success();
}

LogicalResult mlir::tile::lowering::lowerFragmentCopy(LoweringContext &ctx,
                                                      CopyOp op) {
  return FragmentCopy(ctx, op).run();
}
