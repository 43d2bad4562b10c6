//===- TileOps.cpp - Tile dialect operations --------------------*- C++ -*-===//

#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Maximum threads per block on every supported target.
static constexpr int64_t kMaxThreadsPerBlock = 1024;

static InFlightDiagnostic emitMemoryKindError(Operation *op, StringRef what,
                                              MemRefType type,
                                              StringRef expected) {
  return op->emitOpError() << what << " must be in " << expected
                           << " memory, got "
                           << stringifyMemoryKind(getMemoryKind(type))
                           << " memory";
}

static bool isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// Whether tiles (and the global operands they are copied from and to) may
/// hold elements of `type`: the types the lowering can size, store and
/// convert. Signless i8 to i64, f16, bf16, f32, f64 and the two 8-bit floats
/// of `tile.gemm`; i1 (stored as one byte) only in register tiles when
/// `allowI1`. No `index` (no fixed bit width), no sub-byte, wider or
/// non-power-of-two types, no signed/unsigned integers (arith needs
/// signless ones), no tf32/f80/f128 (no NVPTX lowering).
static bool isSupportedElementType(Type type, bool allowI1) {
  if (auto integer = dyn_cast<IntegerType>(type)) {
    if (!integer.isSignless())
      return false;
    unsigned width = integer.getWidth();
    return width == 8 || width == 16 || width == 32 || width == 64 ||
           (allowI1 && width == 1);
  }
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isFp8(type);
}

/// Emits an error unless `type`, the element type of `what`, is supported
/// (see isSupportedElementType).
static LogicalResult verifyElementType(Operation *op, StringRef what,
                                       Type type, bool allowI1) {
  if (isSupportedElementType(type, allowI1))
    return success();
  if (!type.isIntOrFloat()) {
    InFlightDiagnostic diag =
        op->emitOpError("expects integer or floating-point elements, got ")
        << type;
    if (type.isIndex())
      diag << " (" << what
           << "): index has no fixed bit width; use i32 or i64";
    else
      diag << " (" << what << ")";
    return diag;
  }
  InFlightDiagnostic diag = op->emitOpError()
                            << what << " has element type " << type
                            << ", which tiles do not support: use i8, i16, "
                               "i32 or i64 (signless), f16, bf16, f32, f64, "
                               "f8E4M3FN or f8E5M2";
  if (type.isSignlessInteger(1))
    diag << " (i1 only in fragment and local tiles)";
  return diag;
}

/// Tiles and parallel iteration spaces are at most 2^32 elements once each
/// dimension is padded to a power of two (the size layouts work with).
static constexpr unsigned kMaxPaddedElementBits = 32;

/// Most iterations of a `tile.parallel` that one thread may execute, and
/// most elements of a fragment one thread may hold: the lowering unrolls
/// the body (the accesses) once per element a thread owns. A register tile
/// at the register limit holds at most 255 x 4 = 1020 8-bit elements per
/// thread, so every tile that fits a register file stays below it.
static constexpr int64_t kMaxParallelIterationsPerThread = 2048;
static constexpr int64_t kMaxElementsPerThread = 2048;

/// Largest shared tile: 1 MiB, over four times the shared memory of any
/// supported chip (the copies into it are unrolled per thread too).
static constexpr int64_t kMaxSharedTileBytes = int64_t(1) << 20;

/// Threads that cooperate on `op`: those of the enclosing tile.ws, else the
/// kernel's (at least 1).
static int64_t getCooperatingThreadCount(Operation *op) {
  int64_t threads = 0;
  if (auto ws = op->getParentOfType<WsOp>())
    threads = ws.getNumThreads();
  else if (auto kernel = op->getParentOfType<KernelOp>())
    threads = kernel.getThreads();
  return std::max<int64_t>(threads, 1);
}

/// log2 of the element count of `shape` with every dimension padded to a
/// power of two (never overflows).
static unsigned getPaddedElementBits(ArrayRef<int64_t> shape) {
  unsigned bits = 0;
  for (int64_t size : shape)
    bits += llvm::Log2_64_Ceil(static_cast<uint64_t>(std::max<int64_t>(size, 1)));
  return bits;
}

/// Verifies that `layout` (if any) fits a tile of `type`.
static LogicalResult verifyLayoutFor(Operation *op, LayoutAttrInterface layout,
                                     ArrayRef<int64_t> shape, Type elementType,
                                     std::optional<bool> distributed) {
  if (!layout)
    return success();
  if (distributed && layout.isDistributed() != *distributed)
    return op->emitOpError()
           << "expects a " << (*distributed ? "distributed" : "memory")
           << " layout, got " << layout;
  return layout.verifyShape(shape, elementType,
                            [&] { return op->emitOpError(); });
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     ArrayRef<OpFoldResult> grid, int64_t threads) {
  SmallVector<int64_t> staticGrid;
  SmallVector<Value> dynamicGrid;
  dispatchIndexOpFoldResults(grid, dynamicGrid, staticGrid);
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addOperands(dynamicGrid);
  state.addAttribute(getStaticGridAttrName(state.name),
                     builder.getDenseI64ArrayAttr(staticGrid));
  state.addAttribute(getThreadsAttrName(state.name),
                     builder.getI64IntegerAttr(threads));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (size_t i = 0, e = grid.size(); i < e; ++i)
    block->addArgument(builder.getIndexType(), state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  YieldOp::create(builder, state.location);
}

SmallVector<OpFoldResult> KernelOp::getMixedGrid() {
  Builder b(getContext());
  return getMixedValues(getStaticGrid(), getDynamicGrid(), b);
}

// tile.kernel @name blocks(%bx, %by) in [%gx, 4] threads(128) attrs {body}
ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name))
    return failure();
  result.addAttribute(getSymNameAttrName(result.name), name);

  SmallVector<OpAsmParser::Argument> blockIds;
  if (parser.parseKeyword("blocks") ||
      parser.parseArgumentList(blockIds, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/false) ||
      parser.parseKeyword("in"))
    return failure();

  SmallVector<OpAsmParser::UnresolvedOperand> dynamicGrid;
  DenseI64ArrayAttr staticGrid;
  if (parseDynamicIndexList(parser, dynamicGrid, staticGrid,
                            /*valueTypes=*/nullptr,
                            AsmParser::Delimiter::Square) ||
      parser.resolveOperands(dynamicGrid, parser.getBuilder().getIndexType(),
                             result.operands))
    return failure();
  result.addAttribute(getStaticGridAttrName(result.name), staticGrid);

  int64_t threads;
  if (parser.parseKeyword("threads") || parser.parseLParen() ||
      parser.parseInteger(threads) || parser.parseRParen())
    return failure();
  result.addAttribute(getThreadsAttrName(result.name),
                      parser.getBuilder().getI64IntegerAttr(threads));

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  for (OpAsmParser::Argument &arg : blockIds)
    arg.type = parser.getBuilder().getIndexType();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, blockIds))
    return failure();
  KernelOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << " blocks(";
  llvm::interleaveComma(getBody().getArguments(), p,
                        [&](BlockArgument arg) { p.printOperand(arg); });
  p << ") in ";
  printDynamicIndexList(p, *this, getDynamicGrid(), getStaticGrid(),
                        /*valueTypes=*/TypeRange(),
                        AsmParser::Delimiter::Square);
  p << " threads(" << getThreads() << ")";
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getStaticGridAttrName(), getThreadsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult KernelOp::verify() {
  if (getSymName().empty())
    return emitOpError("requires a non-empty kernel name");
  unsigned rank = getGridRank();
  if (rank < 1 || rank > 3)
    return emitOpError("expects 1 to 3 grid dimensions, got ") << rank;
  for (int64_t extent : getStaticGrid())
    if (!ShapedType::isDynamic(extent) && extent <= 0)
      return emitOpError("expects positive grid extents, got ") << extent;
  int64_t numDynamic = llvm::count_if(getStaticGrid(), ShapedType::isDynamic);
  if (numDynamic != static_cast<int64_t>(getDynamicGrid().size()))
    return emitOpError("expects ")
           << numDynamic << " dynamic grid extents, got "
           << getDynamicGrid().size();
  int64_t threads = getThreads();
  // Whole warps (of the target's size) are checked against the target.
  if (threads <= 0)
    return emitOpError("expects a positive thread count, got ") << threads;
  if (threads > kMaxThreadsPerBlock)
    return emitOpError("expects at most ")
           << kMaxThreadsPerBlock << " threads per block, got " << threads;
  if ((*this)->getParentOfType<KernelOp>())
    return emitOpError("cannot be nested in another tile.kernel");
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getGridRank())
    return emitOpError("expects ")
           << getGridRank() << " block index arguments, got "
           << body.getNumArguments();
  for (BlockArgument arg : body.getArguments())
    if (!arg.getType().isIndex())
      return emitOpError("expects block index arguments of index type");
  return success();
}

//===----------------------------------------------------------------------===//
// WsOp
//===----------------------------------------------------------------------===//

void WsOp::build(OpBuilder &builder, OperationState &state,
                 ArrayRef<int64_t> warpgroups) {
  state.addAttribute(getWarpgroupsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(warpgroups));
  Region *body = state.addRegion();
  body->push_back(new Block());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&body->front());
  YieldOp::create(builder, state.location);
}

LogicalResult WsOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("must be nested in a tile.kernel");
  if ((*this)->getParentOfType<WsOp>())
    return emitOpError("cannot be nested in another tile.ws");
  if ((*this)->getParentOfType<ParallelOp>())
    return emitOpError("cannot be nested in a tile.parallel");
  ArrayRef<int64_t> groups = getWarpgroups();
  if (groups.empty())
    return emitOpError("expects at least one warpgroup");
  // Warpgroup sizes, ranges and register budgets depend on the target:
  // TargetInfo::verifyKernel checks them before lowering.
  for (auto [i, group] : llvm::enumerate(groups)) {
    if (group < 0)
      return emitOpError("expects non-negative warpgroup ids, got ") << group;
    if (i > 0 && groups[i - 1] >= group)
      return emitOpError("expects strictly increasing warpgroup ids");
  }
  if (std::optional<int64_t> regs = getRegisters())
    if (*regs <= 0)
      return emitOpError("expects a positive register count, got ") << *regs;
  return success();
}

int64_t WsOp::getNumThreads() {
  return getTargetAttr(*this).getDescription()->warpgroupSize *
         static_cast<int64_t>(getWarpgroups().size());
}

int64_t WsOp::getFirstThread() {
  return getTargetAttr(*this).getDescription()->warpgroupSize *
         getWarpgroups().front();
}

int64_t KernelOp::getNumWarpgroups() {
  int64_t size = getTargetAttr(*this).getDescription()->warpgroupSize;
  return size && getThreads() % size == 0 ? getThreads() / size : 0;
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  MemRefType type = getType();
  MemoryKind kind = getMemoryKind(type);
  if (!isOnChip(kind))
    return emitMemoryKindError(*this, "allocated tile", type,
                               "shared, fragment or local");
  if (!type.getLayout().isIdentity())
    return emitOpError("expects an identity memref layout, got ")
           << type.getLayout();
  if (type.getRank() == 0)
    return emitOpError("expects a tile of rank at least 1");
  // Resource accounting and the lowering need a fixed, supported element
  // size: no index, vector or complex tiles, no i4 or tf32.
  if (failed(verifyElementType(*this, "the tile", type.getElementType(),
                               /*allowI1=*/kind != MemoryKind::Shared)))
    return failure();
  if (llvm::is_contained(type.getShape(), 0))
    return emitOpError("expects a non-empty tile, got ") << type;
  unsigned bits = getPaddedElementBits(type.getShape());
  if (bits > kMaxPaddedElementBits)
    return emitOpError("expects a tile of at most 2^")
           << kMaxPaddedElementBits
           << " elements (each dimension padded to a power of two), got "
           << type;
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError("must be nested in a tile.kernel");
  // Far beyond any chip: the lowering would unroll the accesses of such a
  // tile without bound (tile-check-resources reports the target's limits).
  if (kind == MemoryKind::Fragment) {
    int64_t threads = getCooperatingThreadCount(*this);
    int64_t perThread = llvm::divideCeil(int64_t(1) << bits, threads);
    if (perThread > kMaxElementsPerThread)
      return emitOpError("a fragment of ")
             << (int64_t(1) << bits)
             << " elements (padded to powers of two) over " << threads
             << " threads holds " << perThread
             << " per thread, more than the limit of " << kMaxElementsPerThread
             << ", far beyond any register file";
  }
  if (kind == MemoryKind::Shared) {
    int64_t elementBytes =
        llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    int64_t bytes = type.getNumElements() * elementBytes;
    if (bytes > kMaxSharedTileBytes)
      return emitOpError("a shared tile of ")
             << bytes << " bytes is larger than the limit of "
             << kMaxSharedTileBytes
             << " bytes (1 MiB, beyond any chip's shared memory)";
  }
  if (std::optional<int64_t> alignment = getAlignment()) {
    if (*alignment <= 0 || !llvm::isPowerOf2_64(*alignment))
      return emitOpError("expects a power-of-two alignment, got ")
             << *alignment;
    if (kind != MemoryKind::Shared)
      return emitOpError("alignment only applies to shared tiles");
  }
  if (getLayoutAttr() && kind == MemoryKind::Local)
    return emitOpError("local tiles have no layout");
  if (failed(verifyLayoutFor(*this, getLayoutAttr(), type.getShape(),
                             type.getElementType(),
                             /*distributed=*/kind == MemoryKind::Fragment)))
    return failure();
  if (auto shared = dyn_cast_or_null<SharedLayoutAttr>(getLayoutAttr())) {
    int64_t required = shared.getRequiredAlignment();
    // Shared tiles without `alignment` are 16-byte aligned (see
    // tile-check-resources).
    if (static_cast<int64_t>(getAlignment().value_or(16)) < required)
      return emitOpError("a tile with layout ")
             << shared << " must be aligned to at least " << required
             << " bytes";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

static bool isNumeric(Type type) {
  return isa<FloatType, IntegerType, IndexType>(type);
}

LogicalResult CopyOp::verify() {
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

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::verify() {
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
  if (aKind == MemoryKind::Fragment && getTransposeA())
    return emitOpError("a fragment A operand cannot be transposed");
  if (bKind == MemoryKind::Fragment && getTransposeB())
    return emitOpError("a fragment B operand cannot be transposed");

  int64_t m = aType.getDimSize(getTransposeA() ? 1 : 0);
  int64_t ka = aType.getDimSize(getTransposeA() ? 0 : 1);
  int64_t kb = bType.getDimSize(getTransposeB() ? 1 : 0);
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
           << aElt << ": expected f16, bf16, f32, f8E4M3FN, f8E5M2 or i8";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// FillOp
//===----------------------------------------------------------------------===//

LogicalResult FillOp::verify() {
  auto type = cast<MemRefType>(getTarget().getType());
  if (!isOnChip(getMemoryKind(type)))
    return emitMemoryKindError(*this, "filled tile", type,
                               "shared, fragment or local");
  return verifyElementType(*this, "the filled tile", type.getElementType(),
                           /*allowI1=*/getMemoryKind(type) !=
                               MemoryKind::Shared);
}

//===----------------------------------------------------------------------===//
// ParallelOp
//===----------------------------------------------------------------------===//

void ParallelOp::build(OpBuilder &builder, OperationState &state,
                       ArrayRef<int64_t> extents) {
  state.addAttribute(getExtentsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(extents));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (size_t i = 0, e = extents.size(); i < e; ++i)
    block->addArgument(builder.getIndexType(), state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  YieldOp::create(builder, state.location);
}

// tile.parallel (%i, %j) in [128, 64] attrs {body}
ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> ivs;
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/false) ||
      parser.parseKeyword("in"))
    return failure();
  SmallVector<int64_t> extents;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            return parser.parseInteger(extents.emplace_back());
          }))
    return failure();
  result.addAttribute(getExtentsAttrName(result.name),
                      parser.getBuilder().getDenseI64ArrayAttr(extents));
  // `layout` is only given through the attribute dictionary: check it like
  // generated parsers do (an ill-typed one would otherwise be dropped).
  SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      failed(verifyInherentAttrs(result.name, result.attributes, [&]() {
        return parser.emitError(attrLoc)
               << "'" << result.name.getStringRef() << "' op ";
      })))
    return failure();
  for (OpAsmParser::Argument &iv : ivs)
    iv.type = parser.getBuilder().getIndexType();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, ivs))
    return failure();
  ParallelOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void ParallelOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getInductionVars(), p,
                        [&](BlockArgument arg) { p.printOperand(arg); });
  p << ") in [";
  llvm::interleaveComma(getExtents(), p);
  p << "]";
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getExtentsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult ParallelOp::verify() {
  if (getExtents().empty())
    return emitOpError("expects at least one dimension");
  for (int64_t extent : getExtents())
    if (extent <= 0)
      return emitOpError("expects positive extents, got ") << extent;
  unsigned bits = getPaddedElementBits(getExtents());
  if (bits > kMaxPaddedElementBits)
    return emitOpError("expects at most 2^")
           << kMaxPaddedElementBits
           << " iterations (each extent padded to a power of two), got ["
           << getExtents() << "]";
  // The lowering unrolls the body once per iteration a thread owns: bound
  // that count (the layout covers the padded space; the cooperating threads
  // are those of the enclosing tile.ws, else the kernel's).
  if ((*this)->getParentOfType<KernelOp>()) {
    int64_t threads = getCooperatingThreadCount(*this);
    int64_t perThread = llvm::divideCeil(int64_t(1) << bits, threads);
    if (perThread > kMaxParallelIterationsPerThread)
      return emitOpError("unrolls ")
             << perThread
             << " iterations per thread (its iteration space padded to "
                "powers of two, over "
             << threads << " threads), more than the limit of "
             << kMaxParallelIterationsPerThread
             << "; split the loop or use smaller tiles";
  }
  return verifyLayoutFor(*this, getLayoutAttr(), getExtents(),
                         /*elementType=*/Type(), /*distributed=*/true);
}

LogicalResult ParallelOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getExtents().size())
    return emitOpError("expects ")
           << getExtents().size() << " induction variables, got "
           << body.getNumArguments();
  for (BlockArgument arg : body.getArguments())
    if (!arg.getType().isIndex())
      return emitOpError("expects induction variables of index type");
  WalkResult nested = getBody().walk([&](Operation *op) {
    if (isa<KernelOp, WsOp, AllocOp, CopyOp, GemmOp, ReduceOp, FillOp,
            ParallelOp>(op)) {
      op->emitOpError("cannot be nested in a tile.parallel: its body is "
                      "executed per element");
      return WalkResult::interrupt();
    }
    // Layouts and the lowering size the elements the body accesses.
    if (isa<memref::LoadOp, memref::StoreOp>(op)) {
      auto type = cast<MemRefType>(
          op->getOperand(isa<memref::LoadOp>(op) ? 0 : 1).getType());
      if (failed(verifyElementType(op, "the accessed memref",
                                   type.getElementType(), /*allowI1=*/true)))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(nested.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
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

#define GET_OP_CLASSES
#include "tile/Dialect/TileOps.cpp.inc"
