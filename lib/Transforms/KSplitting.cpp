//===- KSplitting.cpp - Helpers of the K-splitting rewrites -----*- C++ -*-===//

#include "tile/Transforms/KSplitting.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tile;

FailureOr<int64_t> mlir::tile::decideParts(KernelOp kernel, StringRef attrName,
                                           StringRef task, bool decide,
                                           int64_t decided, std::string &why) {
  TargetAttr target = getTargetAttr(kernel);
  const ChipDescription *chip = target ? target.getDescription() : nullptr;
  bool nvidia = chip && chip->isNVIDIA();
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(attrName)) {
    int64_t most = attr.getInt();
    if (most > 1 && !why.empty())
      return kernel.emitError()
             << attrName << " = " << most << " cannot " << task << ": " << why;
    if (most > 1 && !nvidia)
      return kernel.emitError()
             << attrName << " = " << most
             << " needs a workspace allocated by the CUDA runtime: the "
                "kernel's target is not an NVIDIA chip";
    return most;
  }
  if (!decide)
    why = "decide=false";
  else if (!nvidia)
    why = "its target is not an NVIDIA chip";
  if (!why.empty())
    return 1;
  Builder builder(kernel.getContext());
  kernel->setAttr(attrName, builder.getI64IntegerAttr(decided));
  return decided;
}

bool mlir::tile::isHostValue(Value value, KernelOp kernel) {
  if (!kernel.getBody().isAncestor(value.getParentRegion()))
    return true;
  return matchPattern(value, m_Constant());
}

Value mlir::tile::hostValue(OpBuilder &b, Value value, KernelOp kernel) {
  if (!kernel.getBody().isAncestor(value.getParentRegion()))
    return value;
  return b.clone(*value.getDefiningOp())->getResult(0);
}

Value mlir::tile::emitHostTripCount(OpBuilder &b, Location loc, scf::ForOp loop,
                                    KernelOp kernel) {
  Value lower = hostValue(b, loop.getLowerBound(), kernel);
  Value upper = hostValue(b, loop.getUpperBound(), kernel);
  Value step = hostValue(b, loop.getStep(), kernel);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, upper, lower), zero);
  return arith::CeilDivUIOp::create(b, loc, span, step);
}

/// Whether `op` (or an op nested in it) writes global memory.
static bool writesGlobalMemory(Operation *op) {
  bool writes = false;
  op->walk([&](MemoryEffectOpInterface effects) {
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &effect : list) {
      if (!isa<MemoryEffects::Write>(effect.getEffect()) || !effect.getValue())
        continue;
      auto type = dyn_cast<MemRefType>(effect.getValue().getType());
      if (type && getMemoryKind(type) == MemoryKind::Global)
        writes = true;
    }
  });
  return writes;
}

std::string mlir::tile::whyNoKSplit(Block &body, KernelOp kernel,
                                    const ChipDescription *chip,
                                    KLoopCandidate &candidate) {
  Block &top = kernel.getBody().front();
  scf::ForOp loop;
  for (Operation &op : body.without_terminator()) {
    auto found = dyn_cast<scf::ForOp>(op);
    if (!found)
      continue;
    if (loop)
      return "its body has more than one loop";
    loop = found;
  }
  if (!loop)
    return "its body has no loop";
  if (loop.getNumResults())
    return "its loop has results";
  for (Value bound :
       {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (!isHostValue(bound, kernel))
      return "its loop bounds are computed in the kernel";

  SmallVector<GemmOp> gemms;
  loop.walk([&](GemmOp gemm) { gemms.push_back(gemm); });
  if (gemms.empty())
    return "its loop has no tile.gemm";
  Value acc = gemms.front().getC();
  for (GemmOp gemm : gemms) {
    if (gemm.getC() != acc)
      return "its gemms accumulate into different tiles";
    if (gemm.getClearAccum() || gemm.getAccumulate())
      return "a gemm of its loop may overwrite the accumulator";
    if (gemm.getPartials())
      return "a gemm of its loop promotes partial sums";
  }
  auto alloc = acc.getDefiningOp<AllocOp>();
  auto accType = cast<MemRefType>(acc.getType());
  if (!alloc || alloc->getBlock() != &top)
    return "its accumulator is not a tile.alloc of the kernel";
  if (getMemoryKind(accType) != MemoryKind::Fragment ||
      !accType.getElementType().isF32() || accType.getRank() != 2)
    return "its accumulator is not a two-dimensional f32 register tile";
  int64_t partBytes = accType.getNumElements() * 4;
  if (chip && partBytes > chip->maxSharedMemoryPerBlock)
    return "its accumulator's " + std::to_string(partBytes) +
           " bytes, which the reduction stages in shared memory, exceed the "
           "chip's " +
           std::to_string(chip->maxSharedMemoryPerBlock);

  // The accumulator: zero before the loop, the gemms' alone in it.
  for (OpOperand &use : acc.getUses()) {
    Operation *user = use.getOwner();
    if (loop->isAncestor(user)) {
      if (!isa<GemmOp>(user) || use.get() != cast<GemmOp>(user).getC() ||
          use.getOperandNumber() !=
              cast<GemmOp>(user).getCMutable().getOperandNumber())
        return "its accumulator is used in the loop other than by its gemms";
      continue;
    }
    Operation *inBody = body.findAncestorOpInBlock(*user);
    if (!inBody)
      return "its accumulator is used outside the body of its loop";
    if (!inBody->isBeforeInBlock(loop))
      continue; // the epilogue
    auto fill = dyn_cast<FillOp>(user);
    if (!fill || !matchPattern(fill.getValue(), m_AnyZeroFloat()))
      return "its accumulator is written before the loop other than by a "
             "zero fill";
  }

  // No global writes before the epilogue; no tile the loop uses read after.
  for (Operation &op : body.without_terminator()) {
    if (&op == loop.getOperation() || op.isBeforeInBlock(loop)) {
      if (writesGlobalMemory(&op))
        return "it writes global memory before its epilogue";
      continue;
    }
    bool readsLoopTile = false;
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        auto tile = operand.getDefiningOp<AllocOp>();
        if (!tile || operand == acc)
          continue;
        for (Operation *other : operand.getUsers())
          if (loop->isAncestor(other))
            readsLoopTile = true;
      }
    });
    if (readsLoopTile)
      return "its epilogue reads a tile its loop writes";
  }
  candidate.loop = loop;
  candidate.accumulator = alloc;
  return "";
}

void mlir::tile::eraseDeadOps(Block &block) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> ops;
    for (Operation &op : block.without_terminator())
      ops.push_back(&op);
    for (Operation *op : llvm::reverse(ops))
      if (op->use_empty() && (isPure(op) || isa<AllocOp>(op))) {
        op->erase();
        changed = true;
      }
  }
}

Value mlir::tile::allocateWorkspace(OpBuilder &b, Location loc, Value rows,
                                    Value cols) {
  MLIRContext *ctx = b.getContext();
  auto workspaceType = MemRefType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic}, Float32Type::get(ctx));
  Type tokenType = gpu::AsyncTokenType::get(ctx);
  Value start =
      gpu::WaitOp::create(b, loc, tokenType, ValueRange{}).getAsyncToken();
  auto alloc = gpu::AllocOp::create(b, loc, workspaceType, tokenType,
                                    ValueRange{start}, ValueRange{rows, cols},
                                    ValueRange{}, /*hostShared=*/nullptr);
  gpu::WaitOp::create(b, loc, Type(), ValueRange{alloc.getAsyncToken()});
  Value workspace = alloc.getMemref();
  // A failed allocation (reported by the runtime) launches nothing.
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, workspace);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value made =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, address, zero);
  auto guard = scf::IfOp::create(b, loc, made, /*withElseRegion=*/false);
  Value freeStart =
      gpu::WaitOp::create(b, loc, tokenType, ValueRange{}).getAsyncToken();
  auto dealloc = gpu::DeallocOp::create(b, loc, tokenType,
                                        ValueRange{freeStart}, workspace);
  gpu::WaitOp::create(b, loc, Type(), ValueRange{dealloc.getAsyncToken()});
  b.setInsertionPoint(guard.thenBlock()->getTerminator());
  return workspace;
}

void mlir::tile::emitPartSum(
    OpBuilder &b, Location loc, Value acc, Value workspace, Value count,
    function_ref<std::pair<Value, Value>(OpBuilder &, Value)> origin) {
  auto tileType = cast<MemRefType>(acc.getType());
  auto partType = MemRefType::get(
      tileType.getShape(), tileType.getElementType(),
      MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  Value part = AllocOp::create(b, loc, partType);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto sum = scf::ForOp::create(b, loc, zero, count, one);
  OpBuilder in = OpBuilder::atBlockTerminator(sum.getBody());
  auto [row, col] = origin(in, sum.getInductionVar());
  CopyOp::create(in, loc, workspace, ValueRange{row, col}, part, ValueRange{});
  auto add = ParallelOp::create(in, loc, tileType.getShape());
  OpBuilder inner(add.getBody().front().getTerminator());
  ValueRange ij = add.getInductionVars();
  Value a = memref::LoadOp::create(inner, loc, acc, ij);
  Value p = memref::LoadOp::create(inner, loc, part, ij);
  memref::StoreOp::create(inner, loc, arith::AddFOp::create(inner, loc, a, p),
                          acc, ij);
}

int64_t mlir::tile::countRowSlices(Value acc) {
  auto type = cast<MemRefType>(acc.getType());
  if (type.getRank() != 2 || type.getDimSize(0) % kReduceSliceRows)
    return 1;
  return std::max<int64_t>(1, type.getDimSize(0) / kReduceSliceRows);
}

namespace {
/// The ops sliceRows rewrites.
struct RowSlicing {
  SmallVector<AllocOp> tiles;
  DenseSet<Value> tileValues;
  // Copies between a sliced tile and global memory, with the index of the
  // global side's row offset.
  SmallVector<std::pair<CopyOp, bool>> copies; // (copy, offsets on source)
  SetVector<ParallelOp> loops;
};
} // namespace

static bool indexedByLoop(Operation *access, ParallelOp loop) {
  ValueRange indices = isa<memref::LoadOp>(access)
                           ? cast<memref::LoadOp>(access).getIndices()
                           : cast<memref::StoreOp>(access).getIndices();
  return llvm::equal(indices, loop.getInductionVars());
}

static Value accessedMemref(Operation *access) {
  if (auto load = dyn_cast<memref::LoadOp>(access))
    return load.getMemRef();
  return cast<memref::StoreOp>(access).getMemRef();
}

static LogicalResult planRowSlicing(Block &body, MemRefType accType,
                                    RowSlicing &plan) {
  body.walk([&](AllocOp alloc) {
    if (alloc.getType().getShape() == accType.getShape()) {
      plan.tiles.push_back(alloc);
      plan.tileValues.insert(alloc.getResult());
    }
  });
  for (AllocOp alloc : plan.tiles) {
    for (Operation *user : alloc->getUsers()) {
      if (isa<FillOp>(user))
        continue;
      if (auto copy = dyn_cast<CopyOp>(user)) {
        bool fromTile = plan.tileValues.contains(copy.getSource());
        bool toTile = plan.tileValues.contains(copy.getTarget());
        if (fromTile && toTile)
          continue;
        Value other = fromTile ? copy.getTarget() : copy.getSource();
        ValueRange offsets =
            fromTile ? copy.getTargetOffsets() : copy.getSourceOffsets();
        if (getMemoryKind(cast<MemRefType>(other.getType())) !=
                MemoryKind::Global ||
            offsets.size() < 2)
          return failure();
        if (!llvm::is_contained(plan.copies, std::make_pair(copy, !fromTile)))
          plan.copies.push_back({copy, !fromTile});
        continue;
      }
      if (isa<memref::LoadOp, memref::StoreOp>(user)) {
        auto loop = user->getParentOfType<ParallelOp>();
        if (!loop || loop.getExtents() != accType.getShape() ||
            !indexedByLoop(user, loop))
          return failure();
        plan.loops.insert(loop);
        continue;
      }
      return failure();
    }
  }
  // A loop's row index may address global memory or feed arithmetic, but
  // not index a register or shared tile that is not sliced with it.
  for (ParallelOp loop : plan.loops) {
    for (Operation *user : loop.getInductionVars()[0].getUsers()) {
      if (!isa<memref::LoadOp, memref::StoreOp>(user))
        continue;
      Value memref = accessedMemref(user);
      if (plan.tileValues.contains(memref))
        continue;
      if (getMemoryKind(cast<MemRefType>(memref.getType())) !=
          MemoryKind::Global)
        return failure();
    }
  }
  return success();
}

LogicalResult mlir::tile::sliceRows(Block &body, Value acc, Value slice,
                                    int64_t slices) {
  auto accType = cast<MemRefType>(acc.getType());
  if (slices < 2 || accType.getRank() != 2 || accType.getDimSize(0) % slices)
    return failure();
  RowSlicing plan;
  if (failed(planRowSlicing(body, accType, plan)))
    return failure();

  int64_t rows = accType.getDimSize(0) / slices;
  SmallVector<int64_t> shape = {rows, accType.getDimSize(1)};
  Location loc = acc.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Value offset = arith::MulIOp::create(
      b, loc, slice, arith::ConstantIndexOp::create(b, loc, rows));
  for (AllocOp alloc : plan.tiles)
    alloc.getResult().setType(MemRefType::Builder(alloc.getType())
                                  .setShape(shape)
                                  .setLayout(MemRefLayoutAttrInterface()));
  for (auto [copy, onSource] : plan.copies) {
    MutableOperandRange offsets = onSource ? copy.getSourceOffsetsMutable()
                                           : copy.getTargetOffsetsMutable();
    unsigned row = offsets.size() - 2;
    b.setInsertionPoint(copy);
    Value moved =
        arith::AddIOp::create(b, copy.getLoc(), offsets[row].get(), offset);
    offsets.slice(row, 1).assign(moved);
  }
  for (ParallelOp loop : plan.loops) {
    loop.setExtents(shape);
    loop.removeLayoutAttr();
    Value row = loop.getInductionVars()[0];
    auto needsOffset = [&](OpOperand &use) {
      Operation *user = use.getOwner();
      return !(isa<memref::LoadOp, memref::StoreOp>(user) &&
               plan.tileValues.contains(accessedMemref(user)));
    };
    if (llvm::none_of(row.getUses(), needsOffset))
      continue;
    b.setInsertionPointToStart(&loop.getBody().front());
    Value moved = arith::AddIOp::create(b, loop.getLoc(), row, offset);
    row.replaceUsesWithIf(moved, [&](OpOperand &use) {
      return use.getOwner() != moved.getDefiningOp() && needsOffset(use);
    });
  }
  return success();
}

void mlir::tile::buildReduction(
    Value acc, unsigned sliceArg,
    function_ref<std::pair<KernelOp, Value>(int64_t count)> build) {
  int64_t slices = countRowSlices(acc);
  auto [reduce, reduceAcc] = build(slices);
  if (slices == 1)
    return;
  Block &body = reduce.getBody().front();
  if (succeeded(sliceRows(body, reduceAcc, body.getArgument(sliceArg), slices)))
    return;
  reduce.erase();
  build(1);
}
