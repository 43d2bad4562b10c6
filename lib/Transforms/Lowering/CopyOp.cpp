//===- CopyOp.cpp - Lowering of tile.copy -----------------------*- C++ -*-===//
//
// Global <-> shared copies move vectors of up to 16 bytes spread over the
// threads (through the target's asynchronous copy engine for `async`
// copies where it has one, through registers otherwise); one uniform test
// per copy sends tiles wholly inside the tensor, with aligned rows, to an
// unmasked path. Copies involving register tiles are in FragmentCopy.cpp,
// tensor copies in TmaCopy.cpp and TmaStore.cpp.
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

namespace {
class CopyLowering {
public:
  CopyLowering(LoweringContext &ctx, CopyOp op) : ctx(ctx), op(op) {}
  LogicalResult run();

private:
  LogicalResult copyGlobalShared(bool toShared);
  LogicalResult copySharedShared();

  /// Whether the copy goes through the target's asynchronous copy engine:
  /// `async` copies on targets without one move through registers and are
  /// complete when the copy ends.
  bool useCopyEngine() { return op.getAsync() && ctx.target.asyncCopies(); }

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
  if (src == MemoryKind::Fragment || dst == MemoryKind::Fragment)
    return lowerFragmentCopy(ctx, op);
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
  // Out-of-bounds elements read as `padding` (zero when null).
  TypedAttr padding = toShared ? op.getNonZeroPadding() : TypedAttr();
  int64_t maxBits = std::max<int64_t>(ref->tile->elementBits,
                                      globalType.getElementTypeBitWidth());
  // Elements per vector: one access of the wider type, dividing the last
  // dim.
  int64_t vec = ctx.target.getCopyVectorElements(maxBits);
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
  Value aligned = ctx.alignedRows(global, dims, offsets, vec);

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
    Value width = idx(vec);
    tcoords.back() = ctx.mul(
        arith::RemUIOp::create(b, loc(), rest, idx(chunksPerRow)), width);
    rest = arith::DivUIOp::create(b, loc(), rest, idx(chunksPerRow));
    for (int d = shape.size() - 2; d >= 0; --d) {
      tcoords[d] = arith::RemUIOp::create(b, loc(), rest, idx(shape[d]));
      rest = arith::DivUIOp::create(b, loc(), rest, idx(shape[d]));
    }
    SmallVector<Value> gcoords = ctx.globalCoords(offsets, tcoords);
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
      ctx.target.asyncCopies()->emitAsyncCopy(b, loc(), ref->tile->view,
                                              smemIndex, global, coords, vec,
                                              ref->tile->elementBits, count);
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
          memref::StoreOp::create(
              b, loc(), ctx.loadOrPad(in, global, gc, sharedElt, padding),
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
    if (useCopyEngine() && padding) {
      // The copy engine fills with zero: chunks crossing the tensor's edge
      // move through registers (their stores are visible, as the engine's
      // copies are, after the wait and barrier of the group).
      auto fast =
          scf::IfOp::create(b, loc(), ctx.andBool(aligned, vecIn), true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(fast.thenBlock());
      emitAsyncCopy(gcoords, /*count=*/Value());
      b.setInsertionPointToStart(fast.elseBlock());
      emitScalar();
      return success();
    }
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
        Value one = idx(1), count = idx(iters), zero = idx(0);
        auto loop = scf::ForOp::create(b, loc(), zero, count, one);
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
  Value tileIn = ctx.andBool(aligned, ctx.regionInBounds(dims, offsets, shape));
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
  Value step = idx(threads), end = idx(numel);
  auto loop = scf::ForOp::create(b, loc(), ctx.threadId(op), end, step);
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
  Value at = ctx.sharedIndex(*dst, coords);
  memref::StoreOp::create(b, loc(),
                          ctx.convert(v, dst->tile->type.getElementType()),
                          dst->tile->view, at);
  return success();
}

LogicalResult mlir::tile::lowering::lowerCopy(LoweringContext &ctx, CopyOp op) {
  if (op.getTma())
    return lowerTmaCopy(ctx, op);
  if (getTmaStoreBuffers(op) > 0)
    return lowerTmaStore(ctx, op);
  return CopyLowering(ctx, op).run();
}
