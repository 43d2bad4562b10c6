//===- CopyOp.cpp - Lowering of tile.copy -----------------------*- C++ -*-===//
//
// Global <-> shared copies move vectors of up to 16 bytes spread over the
// threads (through the target's asynchronous copy engine for `async`
// copies where it has one, through registers otherwise); one uniform test
// per copy sends tiles wholly inside the tensor, with aligned rows, to an
// unmasked path. Copies to and from fragments move each thread's own
// elements (as runs of registers for interior tiles, with the target's
// shared -> register instruction when the layout has one); fragment ->
// fragment copies between layouts go through shared memory.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Epilogue.h"

#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// Global coordinates of a tile element: the region offsets plus the tile
/// coordinates aligned to the trailing dimensions.
static SmallVector<Value> globalCoords(OpBuilder &b, Location loc,
                                       ValueRange offsets,
                                       ArrayRef<Value> tileCoords) {
  SmallVector<Value> coords(offsets.begin(), offsets.end());
  if (coords.empty())
    return SmallVector<Value>(tileCoords);
  unsigned lead = coords.size() - tileCoords.size();
  for (auto [i, c] : llvm::enumerate(tileCoords))
    coords[lead + i] = arith::AddIOp::create(b, loc, coords[lead + i], c);
  return coords;
}

namespace {
class CopyLowering {
public:
  CopyLowering(LoweringContext &ctx, CopyOp op) : ctx(ctx), op(op) {}
  LogicalResult run();

private:
  LogicalResult copyGlobalShared(bool toShared);
  LogicalResult copyFragmentMemory();
  LogicalResult copyFragmentFragment();
  LogicalResult copySharedShared();
  /// True when vectors of `vec` elements of `global` (extents `dims`) are
  /// aligned at `offsets`: the data pointer is a multiple of the vector's
  /// bytes, and the rows and the last offset are multiples of `vec` (null
  /// when vec is 1). Tensors that are views into larger buffers may start
  /// at any element.
  Value alignedRows(Value global, ArrayRef<Value> dims, ValueRange offsets,
                    int64_t vec);
  /// True when the region `shape` at `offsets` lies within `dims` (the shape
  /// covers the trailing dimensions).
  Value regionInBounds(ArrayRef<Value> dims, ValueRange offsets,
                       ArrayRef<int64_t> shape);

  /// Whether the copy goes through the target's asynchronous copy engine:
  /// `async` copies on targets without one move through registers and are
  /// complete when the copy ends.
  bool useCopyEngine() { return op.getAsync() && ctx.target.hasAsyncCopy(); }

  LoweringContext &ctx;
  CopyOp op;
  OpBuilder &b = ctx.b;
  Location loc() { return ctx.loc(); }
  Value idx(int64_t v) { return ctx.idx(v); }
};
} // namespace

LogicalResult CopyLowering::run() {
  MemoryKind src = getMemoryKind(op.getSourceType());
  MemoryKind dst = getMemoryKind(op.getTargetType());
  if (src == MemoryKind::Fragment && dst == MemoryKind::Fragment)
    return copyFragmentFragment();
  if (src == MemoryKind::Fragment || dst == MemoryKind::Fragment)
    return copyFragmentMemory();
  if (src == MemoryKind::Global && dst == MemoryKind::Shared)
    return copyGlobalShared(/*toShared=*/true);
  if (src == MemoryKind::Shared && dst == MemoryKind::Global)
    return copyGlobalShared(/*toShared=*/false);
  if (src == MemoryKind::Shared && dst == MemoryKind::Shared)
    return copySharedShared();
  return op.emitOpError("copies from ")
         << stringifyMemoryKind(src) << " to " << stringifyMemoryKind(dst)
         << " memory are not supported by the lowering yet";
}

Value CopyLowering::alignedRows(Value global, ArrayRef<Value> dims,
                                ValueRange offsets, int64_t vec) {
  if (vec <= 1)
    return nullptr;
  auto isMultiple = [&](Value v, int64_t n) {
    return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                 arith::RemUIOp::create(b, loc(), v, idx(n)),
                                 idx(0));
  };
  Value aligned = isMultiple(dims.back(), vec);
  if (!offsets.empty())
    aligned = ctx.andBool(aligned, isMultiple(offsets.back(), vec));
  // Row-major memrefs have offset 0: the aligned pointer is the data's.
  int64_t bytes =
      vec * cast<MemRefType>(global.getType()).getElementTypeBitWidth() / 8;
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc(), global);
  return ctx.andBool(aligned, isMultiple(base, std::max<int64_t>(bytes, 1)));
}

Value CopyLowering::regionInBounds(ArrayRef<Value> dims, ValueRange offsets,
                                   ArrayRef<int64_t> shape) {
  Value inBounds;
  unsigned lead = dims.size() - shape.size();
  for (unsigned d = 0; d < dims.size(); ++d) {
    Value start = offsets.empty() ? idx(0) : offsets[d];
    int64_t extent = d < lead ? 1 : shape[d - lead];
    inBounds = ctx.andBool(
        inBounds, arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule,
                                        ctx.addConst(start, extent), dims[d]));
  }
  return inBounds;
}
LogicalResult CopyLowering::copyGlobalShared(bool toShared) {
  Value global = toShared ? op.getSource() : op.getTarget();
  Value sharedValue = toShared ? op.getTarget() : op.getSource();
  ValueRange offsets = toShared ? op.getSourceOffsets() : op.getTargetOffsets();
  FailureOr<SharedRef> ref = ctx.resolveShared(sharedValue, op);
  if (failed(ref))
    return failure();
  auto globalType = cast<MemRefType>(global.getType());
  if (!globalType.getLayout().isIdentity())
    return op.emitOpError("expects a row-major global memref");
  ArrayRef<int64_t> shape = ref->shape;
  Type sharedElt = ref->tile->type.getElementType();
  Type globalElt = globalType.getElementType();
  int64_t maxBits = std::max<int64_t>(ref->tile->elementBits,
                                      globalType.getElementTypeBitWidth());
  // Elements per vector: 16 bytes of the wider type, dividing the last dim.
  int64_t vec = std::max<int64_t>(1, 128 / maxBits);
  while (vec > 1 && shape.back() % vec != 0)
    vec /= 2;
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  int64_t chunks = numel / vec;
  int64_t chunksPerRow = shape.back() / vec;
  int64_t threads = ctx.numThreads(op);
  Value tid = ctx.threadId(op);
  unsigned grank = globalType.getRank();

  // Global extents (for masking) and whether vector accesses are aligned:
  // the row length and the last offset must be multiples of the vector.
  SmallVector<Value> dims;
  for (unsigned d = 0; d < grank; ++d)
    dims.push_back(memref::DimOp::create(b, loc(), global, d));
  Value aligned = alignedRows(global, dims, offsets, vec);

  int64_t iters = llvm::divideCeil(chunks, threads);
  // Small copies are unrolled (each thread moves a few chunks).
  bool unroll = iters <= 16;
  auto sharedVecType = VectorType::get({vec}, sharedElt);
  auto globalVecType = VectorType::get({vec}, globalElt);
  int64_t globalAlign = vec * globalType.getElementTypeBitWidth() / 8;
  if (useCopyEngine() && ctx.splitsVectors(*ref, vec))
    return op.emitOpError("asynchronous copies need a shared tile whose "
                          "swizzle permutes 16-byte chunks");
  // `unmasked`: the whole region is known to be in bounds and aligned.
  auto emitChunk = [&](Value chunk, bool unmasked) -> LogicalResult {
    // Tile coordinates of the chunk's first element.
    SmallVector<Value> tcoords(shape.size());
    Value rest = chunk;
    tcoords.back() = ctx.mul(
        arith::RemUIOp::create(b, loc(), rest, idx(chunksPerRow)), idx(vec));
    rest = arith::DivUIOp::create(b, loc(), rest, idx(chunksPerRow));
    for (int d = shape.size() - 2; d >= 0; --d) {
      tcoords[d] = arith::RemUIOp::create(b, loc(), rest, idx(shape[d]));
      rest = arith::DivUIOp::create(b, loc(), rest, idx(shape[d]));
    }
    SmallVector<Value> gcoords = globalCoords(b, loc(), offsets, tcoords);
    Value smemIndex = ctx.sharedIndex(*ref, tcoords);
    // One 16-byte vector between global and shared memory, through
    // registers.
    auto emitVectorMove = [&]() {
      Value swapped =
          ctx.swappedHalves(*ref, vec, chunk, tid, threads, smemIndex);
      if (toShared) {
        Value v = vector::LoadOp::create(b, loc(), globalVecType, global,
                                         gcoords, /*nontemporal=*/false,
                                         llvm::MaybeAlign(globalAlign));
        ctx.accessSharedVector(*ref, smemIndex, sharedVecType,
                               ctx.convert(v, sharedElt), swapped);
      } else {
        Value v = ctx.accessSharedVector(*ref, smemIndex, sharedVecType,
                                         Value(), swapped);
        vector::StoreOp::create(b, loc(), ctx.convert(v, globalElt), global,
                                gcoords, /*nontemporal=*/false,
                                llvm::MaybeAlign(globalAlign));
      }
    };
    // One cp.async of up to 16 bytes reading `count` elements (all when
    // null) from `coords`.
    auto emitAsyncCopy = [&](ValueRange coords, Value count) {
      ctx.target.emitAsyncCopy(b, loc(), ref->tile->view, smemIndex, global,
                               coords, vec, ref->tile->elementBits, count);
    };
    if (unmasked) {
      if (useCopyEngine())
        emitAsyncCopy(gcoords, /*count=*/Value());
      else
        emitVectorMove();
      return success();
    }
    // In bounds in every dimension but the last; the last is checked per
    // element (or for the whole vector).
    Value rowIn;
    for (unsigned d = 0; d + 1 < grank; ++d)
      rowIn = ctx.andBool(rowIn, ctx.ult(gcoords[d], dims[d]));
    Value last = gcoords.back();
    Value vecIn = ctx.andBool(
        rowIn, arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule,
                                     ctx.addConst(last, vec), dims.back()));

    auto emitScalar = [&]() {
      for (int64_t e = 0; e < vec; ++e) {
        SmallVector<Value> gc(gcoords);
        gc.back() = ctx.addConst(last, e);
        Value in = ctx.andBool(rowIn, ctx.ult(gc.back(), dims.back()));
        Value sIdx = ctx.sharedVectorElement(*ref, smemIndex, e, vec);
        if (toShared) {
          memref::StoreOp::create(b, loc(),
                                  ctx.loadOrZero(in, global, gc, sharedElt),
                                  ref->tile->view, sIdx);
        } else {
          auto branch = scf::IfOp::create(b, loc(), in, false);
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(branch.thenBlock());
          Value v = memref::LoadOp::create(b, loc(), ref->tile->view, sIdx);
          memref::StoreOp::create(b, loc(), ctx.convert(v, globalElt), global,
                                  gc);
        }
      }
    };
    if (vec == 1) {
      emitScalar();
      return success();
    }
    if (useCopyEngine() && sharedElt != globalElt)
      return op.emitOpError("asynchronous copies cannot convert element "
                            "types");
    if (useCopyEngine()) {
      // cp.async of 16 bytes (or less), reading only the in-bounds elements
      // and zero-filling the rest; fully out-of-bounds chunks read nothing
      // (from a clamped, valid address).
      auto fast = scf::IfOp::create(b, loc(), aligned, true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(fast.thenBlock());
      Value rowOk =
          rowIn ? rowIn
                : arith::ConstantIntOp::create(b, loc(), 1, 1).getResult();
      Value colOk = ctx.ult(last, dims.back());
      Value inBounds = ctx.andBool(rowOk, colOk);
      Value remaining = arith::SubIOp::create(
          b, loc(), arith::MaxUIOp::create(b, loc(), dims.back(), last), last);
      Value count = arith::MinUIOp::create(b, loc(), remaining, idx(vec));
      count = arith::SelectOp::create(b, loc(), inBounds, count, idx(0));
      SmallVector<Value> safe;
      for (Value c : gcoords)
        safe.push_back(arith::SelectOp::create(b, loc(), inBounds, c, idx(0)));
      emitAsyncCopy(safe, count);
      b.setInsertionPointToStart(fast.elseBlock());
      emitScalar();
      return success();
    }
    auto fast = scf::IfOp::create(b, loc(), ctx.andBool(aligned, vecIn), true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(fast.thenBlock());
      emitVectorMove();
      b.setInsertionPointToStart(fast.elseBlock());
      emitScalar();
    }
    return success();
  };
  auto emitAll = [&](bool unmasked) -> LogicalResult {
    for (int64_t i = 0; i < (unroll ? iters : 1); ++i) {
      OpBuilder::InsertionGuard guard(b);
      Value chunk;
      if (unroll) {
        chunk = ctx.addConst(tid, i * threads);
      } else {
        auto loop = scf::ForOp::create(b, loc(), idx(0), idx(iters), idx(1));
        b.setInsertionPointToStart(loop.getBody());
        chunk = ctx.add(tid, ctx.mul(loop.getInductionVar(), idx(threads)));
      }
      if (chunks % threads != 0 && (!unroll || (i + 1) * threads > chunks)) {
        auto inRange = scf::IfOp::create(b, loc(), ctx.ult(chunk, idx(chunks)),
                                         /*withElseRegion=*/false);
        b.setInsertionPointToStart(inRange.thenBlock());
      }
      if (failed(emitChunk(chunk, unmasked)))
        return failure();
    }
    return success();
  };
  if (vec == 1)
    return emitAll(/*unmasked=*/false);
  // `in_bounds` copies (interior versions of loops) need no test at all.
  if (op.getInBounds())
    return emitAll(/*unmasked=*/true);
  // Residue handling: one uniform test whether the whole region is in
  // bounds and aligned; interior tiles then move unmasked 16-byte vectors
  // and only edge tiles pay for per-chunk masking.
  Value tileIn = ctx.andBool(aligned, regionInBounds(dims, offsets, shape));
  auto split = scf::IfOp::create(b, loc(), tileIn, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(split.thenBlock());
    if (failed(emitAll(/*unmasked=*/true)))
      return failure();
    b.setInsertionPointToStart(split.elseBlock());
    if (failed(emitAll(/*unmasked=*/false)))
      return failure();
  }
  return success();
}

LogicalResult CopyLowering::copySharedShared() {
  FailureOr<SharedRef> src = ctx.resolveShared(op.getSource(), op);
  FailureOr<SharedRef> dst = ctx.resolveShared(op.getTarget(), op);
  if (failed(src) || failed(dst))
    return failure();
  ArrayRef<int64_t> shape = src->shape;
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  int64_t threads = ctx.numThreads(op);
  auto loop =
      scf::ForOp::create(b, loc(), ctx.threadId(op), idx(numel), idx(threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  SmallVector<Value> coords(shape.size());
  for (int d = shape.size() - 1; d >= 0; --d) {
    coords[d] = arith::RemUIOp::create(b, loc(), e, idx(shape[d]));
    e = arith::DivUIOp::create(b, loc(), e, idx(shape[d]));
  }
  Value v = memref::LoadOp::create(b, loc(), src->tile->view,
                                   ctx.sharedIndex(*src, coords));
  memref::StoreOp::create(b, loc(),
                          ctx.convert(v, dst->tile->type.getElementType()),
                          dst->tile->view, ctx.sharedIndex(*dst, coords));
  return success();
}

LogicalResult CopyLowering::copyFragmentMemory() {
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
  int64_t want = std::max<int64_t>(1, 128 / otherType.getElementTypeBitWidth());
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
      SmallVector<Value> memCoords = globalCoords(b, loc(), offsets, coords);
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
          memref::StoreOp::create(b, loc(), ctx.convert(x, fragElt), tile->regs,
                                  idx(r + e));
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
        memCoords = globalCoords(b, loc(), offsets, coords);
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
        memref::StoreOp::create(
            b, loc(), ctx.loadOrZero(valid, memref, memCoords, fragElt),
            tile->regs, idx(r));
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
      op.getInBounds() ? Value() : regionInBounds(dims, offsets, shape);
  // Interior tiles with rows aligned for the widest vectors, then for the
  // fragment's own runs, then element by element.
  if (wide) {
    Value aligned = alignedRows(other, dims, offsets, wide->vector);
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
      ctx.andBool(alignedRows(other, dims, offsets, vec), inBounds);
  auto split = scf::IfOp::create(b, loc(), interior, /*withElseRegion=*/true);
  b.setInsertionPointToStart(split.thenBlock());
  emitVectors(tile->layout, vec, {});
  b.setInsertionPointToStart(split.elseBlock());
  emitElements();
  return success();
}

LogicalResult CopyLowering::copyFragmentFragment() {
  RegisterOperand *src = ctx.getRegTile(op.getSource(), op);
  RegisterOperand *dst = ctx.getRegTile(op.getTarget(), op);
  if (!src || !dst)
    return failure();
  Type dstElt = dst->type.getElementType();
  if (src->layout == dst->layout) {
    for (int64_t r = 0; r < src->layout.getRegistersPerThread(); ++r) {
      Value v = memref::LoadOp::create(b, loc(), src->regs, idx(r));
      memref::StoreOp::create(b, loc(), ctx.convert(v, dstElt), dst->regs,
                              idx(r));
    }
    return success();
  }
  // Different layouts: through shared memory (row-major scratch tile).
  Value scratchTile = ctx.scratch.lookup(op);
  if (!scratchTile)
    return op.emitOpError("no scratch buffer for a layout conversion");
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
        memref::StoreOp::create(b, loc(), ctx.convert(v, dstElt), tile->regs,
                                idx(r));
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

LogicalResult mlir::tile::lowering::lowerCopy(LoweringContext &ctx, CopyOp op) {
  if (op.getTma())
    return lowerTmaCopy(ctx, op);
  if (getTmaStoreBuffers(op) > 0)
    return lowerTmaStore(ctx, op);
  return CopyLowering(ctx, op).run();
}
