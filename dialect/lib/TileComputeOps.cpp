//===- TileComputeOps.cpp - Tile data and compute ops -----------*- C++ -*-===//
//
// Verifiers of tile.copy, tile.gemm, tile.fill and tile.reduce.
//

#include "tile/Dialect/TileOps.h"

#include "OpVerification.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

static bool isNumeric(Type type) {
  return isa<FloatType, IntegerType, IndexType>(type);
}

/// A scratch tile, where an op has one, lives in shared memory.
static LogicalResult verifyScratch(Operation *op, Value scratch) {
  if (!scratch)
    return success();
  auto type = cast<MemRefType>(scratch.getType());
  if (getMemoryKind(type) != MemoryKind::Shared)
    return emitMemoryKindError(op, "scratch tile", type, "shared");
  return success();
}

LogicalResult CopyOp::verify() {
  if (failed(detail::verifyInKernel(*this)) ||
      failed(verifyScratch(*this, getScratch())))
    return failure();
  MemRefType srcType = getSourceType(), dstType = getTargetType();
  MemoryKind srcKind = getMemoryKind(srcType), dstKind = getMemoryKind(dstType);
  if (srcKind == MemoryKind::Unknown || dstKind == MemoryKind::Unknown)
    return emitOpError("operands must be in global, shared, fragment or "
                       "local memory");
  if (!isOnChip(srcKind) && !isOnChip(dstKind))
    return emitOpError("cannot copy from global memory to global memory");
  Type srcElt = srcType.getElementType(), dstElt = dstType.getElementType();
  if (!isNumeric(srcElt) || !isNumeric(dstElt))
    return emitOpError("expects integer or floating-point element types");
  if (failed(verifyElementType(*this, "the source", srcElt,
                               /*allowI1=*/false)) ||
      failed(verifyElementType(*this, "the target", dstElt,
                               /*allowI1=*/false)))
    return failure();
  if (srcElt != dstElt) {
    // The lowering converts with one arith cast: bf16 <-> f16 has none, and
    // 8-bit floats have no conversions on the way to LLVM.
    if (isFp8(srcElt) || isFp8(dstElt))
      return emitOpError("cannot convert ")
             << srcElt << " to " << dstElt
             << ": copies of 8-bit float tiles must keep their element type";
    if ((srcElt.isBF16() && dstElt.isF16()) ||
        (srcElt.isF16() && dstElt.isBF16()))
      return emitOpError("cannot convert ")
             << srcElt << " to " << dstElt
             << " directly: copy through an f32 tile";
  }

  if (getAsync() &&
      (srcKind != MemoryKind::Global || dstKind != MemoryKind::Shared))
    return emitOpError("only copies from global to shared memory can be "
                       "asynchronous");

  if (getTma() && !getAsync())
    return emitOpError("'tma' copies are asynchronous: add 'async'");
  if (getTma() &&
      (getSourceType().getElementType() != getTargetType().getElementType() ||
       getTargetType().getRank() != 2 || getSourceType().getRank() < 2 ||
       getSourceType().getRank() > 5))
    return emitOpError("'tma' copies move 2-D tiles of tensors of rank 2 to "
                       "5 without converting the element type");

  if (TypedAttr padding = getPaddingAttr()) {
    if (!isa<FloatAttr, IntegerAttr>(padding))
      return emitOpError("expects a float or integer padding, got ") << padding;
    if (srcKind != MemoryKind::Global)
      return emitOpError("'padding' needs a copy from global memory");
    if (padding.getType() != dstElt)
      return emitOpError("expects a padding of the destination's element "
                         "type ")
             << dstElt << ", got " << padding.getType();
    if (getTma() && getNonZeroPadding())
      return emitOpError("'tma' copies fill out-of-bounds elements with "
                         "zero: a padding other than zero needs a copy "
                         "without 'tma'");
  }

  if (getInBounds() && srcKind != MemoryKind::Global &&
      dstKind != MemoryKind::Global)
    return emitOpError("'in_bounds' needs a global operand");

  bool srcHasOffsets = !getSourceOffsets().empty();
  bool dstHasOffsets = !getTargetOffsets().empty();
  if (srcHasOffsets && dstHasOffsets)
    return emitOpError("only one operand may have offsets: the other one "
                       "defines the copy extent");
  auto checkOffsets = [&](StringRef what, MemRefType type, MemoryKind kind,
                          size_t numOffsets) -> LogicalResult {
    if (numOffsets == 0)
      return success();
    if (kind != MemoryKind::Global)
      return emitOpError() << what
                           << " offsets are only allowed on a global "
                              "operand; use memref.subview for on-chip tiles";
    if (numOffsets != static_cast<size_t>(type.getRank()))
      return emitOpError() << "expects " << type.getRank() << " " << what
                           << " offsets, got " << numOffsets;
    return success();
  };
  if (failed(checkOffsets("source", srcType, srcKind,
                          getSourceOffsets().size())) ||
      failed(
          checkOffsets("target", dstType, dstKind, getTargetOffsets().size())))
    return failure();

  MemRefType tileType = srcHasOffsets ? dstType : srcType;
  MemRefType regionType = srcHasOffsets ? srcType : dstType;
  if (!tileType.hasStaticShape())
    return emitOpError("expects the operand without offsets to have a "
                       "static shape, got ")
           << tileType;
  if (!srcHasOffsets && !dstHasOffsets) {
    if (srcType.getShape() != dstType.getShape())
      return emitOpError("expects operands of the same shape, got ")
             << srcType << " and " << dstType;
    return success();
  }
  if (regionType.getRank() < tileType.getRank())
    return emitOpError("expects the operand with offsets to have rank at "
                       "least ")
           << tileType.getRank() << ", got " << regionType.getRank();
  return success();
}

TypedAttr CopyOp::getNonZeroPadding() {
  TypedAttr padding = getPaddingAttr();
  if (auto f = dyn_cast_or_null<FloatAttr>(padding))
    return f.getValue().isPosZero() ? TypedAttr() : padding;
  if (auto i = dyn_cast_or_null<IntegerAttr>(padding))
    return i.getValue().isZero() ? TypedAttr() : padding;
  return padding;
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::verify() {
  if (failed(detail::verifyInKernel(*this)))
    return failure();
  auto aType = cast<MemRefType>(getA().getType());
  auto bType = cast<MemRefType>(getB().getType());
  auto cType = cast<MemRefType>(getC().getType());
  if (aType.getRank() != 2 || bType.getRank() != 2 || cType.getRank() != 2)
    return emitOpError("expects rank-2 operands, got ranks ")
           << aType.getRank() << ", " << bType.getRank() << " and "
           << cType.getRank();

  MemoryKind aKind = getMemoryKind(aType), bKind = getMemoryKind(bType);
  if (aKind != MemoryKind::Shared && aKind != MemoryKind::Fragment)
    return emitMemoryKindError(*this, "A operand", aType, "shared or fragment");
  if (bKind != MemoryKind::Shared && bKind != MemoryKind::Fragment)
    return emitMemoryKindError(*this, "B operand", bType, "shared or fragment");
  if (getMemoryKind(cType) != MemoryKind::Fragment)
    return emitMemoryKindError(*this, "accumulator", cType, "fragment");
  if (getAccumulate() && getClearAccum())
    return emitOpError("either clears its accumulator (clear_accum) or says "
                       "when it accumulates (accumulate), not both");
  if (std::optional<int64_t> groups = getMmaGroupsInFlight();
      groups && *groups < 0)
    return emitOpError("expects a non-negative count of MMA groups in "
                       "flight, got ")
           << *groups;
  if (std::optional<int64_t> span = getPromoteK()) {
    int64_t k = getK();
    if (*span < 0 || (*span > 0 && k % *span != 0))
      return emitOpError("expects promote_k to be 0 or to divide K = ")
             << k << ", got " << *span;
    if (*span > 0 && !getPartials() &&
        (getMmaGroupsInFlight().value_or(0) > 0 || getAccumulate()))
      return emitOpError("promotes its partial sums (promote_k), so it "
                         "completes its MMAs: it can neither leave MMA "
                         "groups in flight nor accumulate on a condition");
  }
  if (Value partials = getPartials()) {
    int64_t k = getK();
    if (partials.getType() != cType)
      return emitOpError("expects partials of the accumulator's type ")
             << cType << ", got " << partials.getType();
    if (static_cast<int64_t>(getPromoteK().value_or(0)) != k)
      return emitOpError("keeps partial sums in flight (partials), which "
                         "needs promote_k = K = ")
             << k;
    if (getMmaGroupsInFlight().value_or(0) != 1)
      return emitOpError("keeps partial sums in flight (partials), which "
                         "needs mma_groups_in_flight = 1");
    if (getClearAccum())
      return emitOpError("keeps partial sums in flight (partials): it adds "
                         "them to its accumulator, which it cannot clear");
  }
  if (std::optional<int64_t> chunk = getConsumerChunk()) {
    int64_t n = cType.getDimSize(1);
    if (*chunk <= 0 || n % *chunk != 0)
      return emitOpError("expects consumer_chunk to divide N = ")
             << n << ", got " << *chunk;
    if (!getClearAccum() || getPartials() || getPromoteK().value_or(0) > 0 ||
        getMmaGroupsInFlight().value_or(0) > 0)
      return emitOpError("hands its product to a tile.parallel in column "
                         "chunks (consumer_chunk), so it clears its "
                         "accumulator (clear_accum), completes its MMAs and "
                         "neither promotes nor keeps partial sums");
  }
  if (aKind == MemoryKind::Fragment && getTransposeA())
    return emitOpError("a fragment A operand cannot be transposed");
  if (bKind == MemoryKind::Fragment && getTransposeB())
    return emitOpError("a fragment B operand cannot be transposed");

  int64_t m = aType.getDimSize(getTransposeA() ? 1 : 0);
  int64_t ka = getK();
  int64_t kb = bType.getDimSize(getTransposeB() ? 1 : 0);
  if (Value meta = getSparseMeta()) {
    auto metaType = cast<MemRefType>(meta.getType());
    if (aKind != MemoryKind::Shared || getTransposeA())
      return emitOpError("reads a 2:4-sparse A (sparse) from shared memory, "
                         "K contiguous: A cannot be a fragment or transposed");
    if (getMemoryKind(metaType) != MemoryKind::Shared)
      return emitMemoryKindError(*this, "sparsity metadata", metaType,
                                 "shared");
    if (!aType.getElementType().isF16() && !aType.getElementType().isBF16())
      return emitOpError("2:4-sparse A (sparse) is f16 or bf16, got ")
             << aType.getElementType();
    if (ka % 32 != 0)
      return emitOpError("2:4-sparse A (sparse) needs K (twice A's ")
             << aType.getDimSize(1) << " columns) to be a multiple of 32, got "
             << ka;
    if (!metaType.getElementType().isSignlessInteger(16) ||
        metaType.getRank() != 2 || metaType.getDimSize(0) != m ||
        metaType.getDimSize(1) != ka / 16)
      return emitOpError("expects the sparsity metadata of a ")
             << m << "x" << ka << " A as " << m << "x" << ka / 16
             << " i16 (a word per 16 of K), got " << metaType;
    if (getPromoteK().value_or(0) > 0 || getPartials() || getConsumerChunk())
      return emitOpError("with a 2:4-sparse A (sparse) neither promotes "
                         "partial sums nor hands its product over in parts");
  }
  int64_t n = bType.getDimSize(getTransposeB() ? 0 : 1);
  if (ka != kb)
    return emitOpError("reduction dimensions disagree: A has K = ")
           << ka << ", B has K = " << kb;
  if (cType.getDimSize(0) != m || cType.getDimSize(1) != n)
    return emitOpError("expects a ")
           << m << "x" << n << " accumulator, got " << cType.getDimSize(0)
           << "x" << cType.getDimSize(1);
  if (m == 0 || n == 0 || ka == 0)
    return emitOpError("expects non-empty operands, got M = ")
           << m << ", N = " << n << " and K = " << ka;

  Type aElt = aType.getElementType(), bElt = bType.getElementType(),
       cElt = cType.getElementType();
  bool sameInputs = aElt == bElt || (isFp8(aElt) && isFp8(bElt));
  if (!sameInputs)
    return emitOpError("expects A and B of the same element type, got ")
           << aElt << " and " << bElt;
  if (aElt.isF16()) {
    if (!cElt.isF32() && !cElt.isF16())
      return emitOpError("expects an f32 or f16 accumulator for f16 "
                         "inputs, got ")
             << cElt;
  } else if (aElt.isBF16() || aElt.isF32() || isFp8(aElt)) {
    if (!cElt.isF32())
      return emitOpError("expects an f32 accumulator for ")
             << aElt << " inputs, got " << cElt;
  } else if (aElt.isSignlessInteger(8)) {
    if (!cElt.isSignlessInteger(32))
      return emitOpError("expects an i32 accumulator for i8 inputs, got ")
             << cElt;
  } else {
    return emitOpError("unsupported input element type ")
           << aElt << ": expected f16, bf16, f32, an 8-bit float or i8";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// FillOp
//===----------------------------------------------------------------------===//

LogicalResult FillOp::verify() {
  if (failed(detail::verifyInKernel(*this)))
    return failure();
  auto type = cast<MemRefType>(getTarget().getType());
  if (!isOnChip(getMemoryKind(type)))
    return emitMemoryKindError(*this, "filled tile", type,
                               "shared, fragment or local");
  return verifyElementType(*this, "the filled tile", type.getElementType(),
                           /*allowI1=*/getMemoryKind(type) !=
                               MemoryKind::Shared);
}
//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  if (failed(detail::verifyInKernel(*this)) ||
      failed(verifyScratch(*this, getScratch())))
    return failure();
  auto srcType = cast<MemRefType>(getSource().getType());
  auto dstType = cast<MemRefType>(getTarget().getType());
  for (auto [what, type] :
       {std::pair<StringRef, MemRefType>{"source", srcType},
        std::pair<StringRef, MemRefType>{"target", dstType}}) {
    MemoryKind kind = getMemoryKind(type);
    if (kind != MemoryKind::Fragment && kind != MemoryKind::Local)
      return emitMemoryKindError(*this, what, type, "fragment or local");
  }
  if (srcType.getElementType() != dstType.getElementType())
    return emitOpError("expects source and target of the same element "
                       "type, got ")
           << srcType.getElementType() << " and " << dstType.getElementType();
  Type elt = srcType.getElementType();
  if (!isa<FloatType>(elt) && !elt.isSignlessInteger())
    return emitOpError("expects float or signless integer elements, got ")
           << elt;
  if (failed(verifyElementType(*this, "the source", elt, /*allowI1=*/false)))
    return failure();
  int64_t dim = getDim();
  if (dim < 0 || dim >= srcType.getRank())
    return emitOpError("reduction dimension ")
           << dim << " is out of range for a rank-" << srcType.getRank()
           << " source";
  SmallVector<int64_t> dropped(srcType.getShape());
  dropped.erase(dropped.begin() + dim);
  SmallVector<int64_t> kept(srcType.getShape());
  kept[dim] = 1;
  ArrayRef<int64_t> dstShape = dstType.getShape();
  bool isScalarTarget = dropped.empty() && dstShape == ArrayRef<int64_t>{1};
  if (dstShape != ArrayRef<int64_t>(dropped) &&
      dstShape != ArrayRef<int64_t>(kept) && !isScalarTarget)
    return emitOpError("expects a target of shape [")
           << ArrayRef<int64_t>(dropped) << "] (or with dimension " << dim
           << " of size 1), got " << dstType;
  return success();
}
