//===- TileOps.cpp - Tile dialect operations --------------------*- C++ -*-===//
//
// Structure and storage: tile.kernel, tile.ws, tile.alloc, tile.parallel.
// The data ops (copy, gemm, fill, reduce) are in TileComputeOps.cpp.
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

/// The smallest warp of any target: every block is whole warps of it.
static constexpr int64_t kMinWarpSize = 32;

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
  if (threads <= 0)
    return emitOpError("expects a positive thread count, got ") << threads;
  // Whole warps on every target (32 threads on NVIDIA, 64 on AMD CDNA: the
  // target checks its own size).
  if (threads % kMinWarpSize != 0)
    return emitOpError("expects whole warps: ")
           << threads << " threads is not a multiple of " << kMinWarpSize
           << " (a warp on NVIDIA GPUs; a wavefront on AMD CDNA is 64)";
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
  if (getPingpong() && groups.size() < 2)
    return emitOpError("takes turns (pingpong) between at least two "
                       "warpgroups, got ")
           << groups.size();
  // Barrier 0 is the whole block's.
  if (std::optional<int64_t> id = getBarrier(); id && *id <= 0)
    return emitOpError("expects a barrier id other than the block's (0), "
                       "got ")
           << *id;
  if (std::optional<int64_t> first = getTurnBarrier()) {
    if (!getPingpong())
      return emitOpError("has turn barriers but does not take turns "
                         "(pingpong)");
    if (*first <= 0)
      return emitOpError("expects turn barriers other than the block's (0), "
                         "got ")
             << *first;
  }
  if (std::optional<int64_t> first = getStoreBarrier()) {
    if (groups.size() < 2)
      return emitOpError("stores per warpgroup (store_barrier) with at least "
                         "two warpgroups, got ")
             << groups.size();
    if (*first <= 0)
      return emitOpError("expects store barriers other than the block's (0), "
                         "got ")
             << *first;
  }
  if (std::optional<ArrayRef<int64_t>> turn = getRegionTurn()) {
    if (turn->size() != 4)
      return emitOpError("expects 'region_turn' as [wait barrier, threads, "
                         "pass barrier, threads], got ")
             << turn->size() << " values";
    if ((*turn)[0] <= 0 || (*turn)[2] <= 0 || (*turn)[1] <= 0 ||
        (*turn)[3] <= 0)
      return emitOpError("expects positive barrier ids and thread counts in "
                         "'region_turn'");
  }
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
    int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
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
  if (std::optional<uint64_t> offset = getOffset()) {
    if (kind != MemoryKind::Shared)
      return emitOpError("offset only applies to shared tiles");
    int64_t alignment = getAlignment().value_or(16);
    if (static_cast<int64_t>(*offset) < 0 ||
        static_cast<int64_t>(*offset) % alignment != 0)
      return emitOpError("expects an offset that is a non-negative multiple "
                         "of the tile's alignment (")
             << alignment << " bytes), got " << static_cast<int64_t>(*offset);
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
  if (failed(detail::verifyInKernel(*this)))
    return failure();
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
#define GET_OP_CLASSES
#include "tile/Dialect/TileOps.cpp.inc"
