//===- SplitK.cpp - Split the K loop of small-grid GEMM kernels -*- C++ -*-===//
//
// `tile-split-k`: a GEMM kernel whose grid has fewer blocks than the GPU has
// multiprocessors leaves most of them idle however long its K loop runs.
// The pass splits the loop over more blocks: a kernel computes each tile's
// partial sums over consecutive parts of the loop into an f32 workspace, a
// second one adds a tile's parts in split order and runs the kernel's
// epilogue. The count is picked on the host from the grid and the loop's trip
// count, so one compiled module serves every shape (a count of 1 launches the
// kernel as written). The pass decides (NVIDIA kernels that qualify get
// `tile.split_k = 16`), writes the decision, and rewrites the kernels that
// have `tile.split_k` > 1.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/ChipDescription.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_SPLITK
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The fewest K iterations a split gets: each split costs the reduction one
/// more pass over the tile's workspace.
constexpr int64_t kMinIterationsPerSplit = 32;

/// What the rewrite needs of a kernel that qualifies.
struct SplitCandidate {
  scf::ForOp loop;
  AllocOp accumulator;
};

/// Whether `value` is available on the host side of `kernel`: defined above
/// it, or a constant the host can rematerialize.
bool isHostValue(Value value, KernelOp kernel) {
  if (!kernel.getBody().isAncestor(value.getParentRegion()))
    return true;
  return matchPattern(value, m_Constant());
}

/// `value` on the host, before `kernel` (constants defined in the kernel are
/// cloned there).
Value hostValue(OpBuilder &b, Value value, KernelOp kernel) {
  if (!kernel.getBody().isAncestor(value.getParentRegion()))
    return value;
  return b.clone(*value.getDefiningOp())->getResult(0);
}

/// Whether `op` (or an op nested in it) writes global memory.
bool writesGlobalMemory(Operation *op) {
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

/// Why the K loop of `kernel` cannot be split, or "" with `candidate` set.
std::string whyNoSplit(KernelOp kernel, const ChipDescription *chip,
                       SplitCandidate &candidate) {
  if (kernel.getGridRank() > 2)
    return "its grid has three dimensions";
  if (Operation *manual = findHandWrittenSync(kernel))
    return "it has hand-written '" + manual->getName().getStringRef().str() +
           "'";
  Block &body = kernel.getBody().front();
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
  if (!alloc || alloc->getBlock() != &body)
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
    Operation *top = body.findAncestorOpInBlock(*user);
    if (!top || !top->isBeforeInBlock(loop))
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

/// Erases the ops of `block` that nothing uses and that only compute or
/// allocate, until none is left.
void eraseDeadOps(Block &block) {
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

/// A new kernel named `name` over `grid`, with the body of `kernel` cloned
/// into it (block indices mapped to the first of the new ones); `mapping`
/// maps the old body's values to the clone's.
KernelOp cloneKernel(OpBuilder &b, KernelOp kernel, StringRef name,
                     ArrayRef<OpFoldResult> grid, IRMapping &mapping) {
  auto clone =
      KernelOp::create(b, kernel.getLoc(), name, grid, kernel.getThreads());
  Block &body = clone.getBody().front();
  Block &old = kernel.getBody().front();
  for (unsigned dim = 0; dim < kernel.getGridRank(); ++dim)
    mapping.map(old.getArgument(dim), body.getArgument(dim));
  OpBuilder inner = OpBuilder::atBlockTerminator(&body);
  for (Operation &op : old.without_terminator())
    inner.clone(op, mapping);
  return clone;
}

/// The first row and column of the workspace tile of split `split` of grid
/// block (`x`, `y`): splits are stacked along rows, each a grid of tiles.
std::pair<Value, Value> workspaceOrigin(OpBuilder &b, Location loc, Value split,
                                        Value x, Value y, Value gridRows,
                                        MemRefType tile) {
  Value rows = arith::ConstantIndexOp::create(b, loc, tile.getDimSize(0));
  Value cols = arith::ConstantIndexOp::create(b, loc, tile.getDimSize(1));
  Value row = arith::MulIOp::create(b, loc, split, gridRows);
  if (y)
    row = arith::AddIOp::create(b, loc, row, y);
  row = arith::MulIOp::create(b, loc, row, rows);
  Value col = arith::MulIOp::create(b, loc, x, cols);
  return {row, col};
}

/// Rewrites `kernel` (qualifying, per `candidate`) into the run-time choice
/// between itself and its split form with at most `most` splits.
void splitKernel(KernelOp kernel, const SplitCandidate &candidate, int64_t most,
                 const ChipDescription &chip) {
  Location loc = kernel.getLoc();
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(kernel);
  scf::ForOp loop = candidate.loop;
  auto tileType =
      cast<MemRefType>(candidate.accumulator->getResult(0).getType());
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };

  // The split count, on the host.
  Value lower = hostValue(b, loop.getLowerBound(), kernel);
  Value upper = hostValue(b, loop.getUpperBound(), kernel);
  Value step = hostValue(b, loop.getStep(), kernel);
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, upper, lower), index(0));
  Value trips = arith::CeilDivUIOp::create(b, loc, span, step);
  SmallVector<Value> extents;
  for (OpFoldResult extent : kernel.getMixedGrid())
    extents.push_back(getValueOrCreateConstantIndexOp(b, loc, extent));
  Value blocks = extents[0];
  if (extents.size() == 2)
    blocks = arith::MulIOp::create(b, loc, blocks, extents[1]);
  Value fill =
      arith::DivUIOp::create(b, loc, index(chip.multiprocessors),
                             arith::MaxUIOp::create(b, loc, blocks, index(1)));
  Value deep =
      arith::DivUIOp::create(b, loc, trips, index(kMinIterationsPerSplit));
  Value least = arith::MinUIOp::create(b, loc, fill, deep);
  Value cap = index(most);
  Value splits = arith::MinUIOp::create(b, loc, least, cap);
  Value two = index(2);
  Value split =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, splits, two);
  auto choice = scf::IfOp::create(b, loc, split, /*withElseRegion=*/true);
  kernel->moveBefore(choice.elseBlock()->getTerminator());

  // The workspace: splits x grid rows tiles of rows, grid columns of columns.
  b.setInsertionPoint(choice.thenBlock()->getTerminator());
  Value gridRows = extents.size() == 2 ? extents[1] : index(1);
  Value rows = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, splits, gridRows),
      index(tileType.getDimSize(0)));
  Value cols =
      arith::MulIOp::create(b, loc, extents[0], index(tileType.getDimSize(1)));
  Value chunk = arith::CeilDivUIOp::create(b, loc, trips, splits);
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
  Value made = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, address,
                                     index(0));
  auto guard = scf::IfOp::create(b, loc, made, /*withElseRegion=*/false);
  Value freeStart =
      gpu::WaitOp::create(b, loc, tokenType, ValueRange{}).getAsyncToken();
  auto dealloc = gpu::DeallocOp::create(b, loc, tokenType,
                                        ValueRange{freeStart}, workspace);
  gpu::WaitOp::create(b, loc, Type(), ValueRange{dealloc.getAsyncToken()});

  auto keepWhole = [&](KernelOp k) {
    k->setAttr(TileDialect::kSplitKAttrName, b.getI64IntegerAttr(1));
  };
  b.setInsertionPoint(guard.thenBlock()->getTerminator());

  // The partial sums: one more grid dimension, the split.
  SmallVector<OpFoldResult> splitGrid(extents.begin(), extents.end());
  splitGrid.push_back(splits);
  IRMapping partialMap;
  KernelOp partial = cloneKernel(
      b, kernel, (kernel.getSymName() + "_split").str(), splitGrid, partialMap);
  for (NamedAttribute attr : kernel->getDiscardableAttrs())
    partial->setAttr(attr.getName(), attr.getValue());
  keepWhole(partial);
  {
    Block &body = partial.getBody().front();
    auto clonedLoop = cast<scf::ForOp>(partialMap.lookup(loop.getOperation()));
    Value acc = partialMap.lookup(candidate.accumulator->getResult(0));
    OpBuilder in(clonedLoop);
    Value z = body.getArgument(extents.size());
    Value inLower = partialMap.lookupOrDefault(loop.getLowerBound());
    Value inUpper = partialMap.lookupOrDefault(loop.getUpperBound());
    Value inStep = partialMap.lookupOrDefault(loop.getStep());
    Value stride = arith::MulIOp::create(in, loc, chunk, inStep);
    Value first = arith::AddIOp::create(
        in, loc, inLower, arith::MulIOp::create(in, loc, z, stride));
    Value last = arith::MinSIOp::create(
        in, loc, arith::AddIOp::create(in, loc, first, stride), inUpper);
    clonedLoop.getLowerBoundMutable().assign(first);
    clonedLoop.getUpperBoundMutable().assign(last);
    // The epilogue gives way to the store of the partial sums.
    while (body.getTerminator()->getPrevNode() != clonedLoop.getOperation())
      body.getTerminator()->getPrevNode()->erase();
    OpBuilder end = OpBuilder::atBlockTerminator(&body);
    auto [row, col] =
        workspaceOrigin(end, loc, z, body.getArgument(0),
                        extents.size() == 2 ? body.getArgument(1) : Value(),
                        gridRows, tileType);
    CopyOp::create(end, loc, acc, ValueRange{}, workspace,
                   ValueRange{row, col});
    eraseDeadOps(body);
  }

  // The sum of the parts in split order, then the epilogue.
  IRMapping reduceMap;
  KernelOp reduce =
      cloneKernel(b, kernel, (kernel.getSymName() + "_reduce").str(),
                  kernel.getMixedGrid(), reduceMap);
  if (Attribute target = kernel->getAttr(TileDialect::kTargetAttrName))
    reduce->setAttr(TileDialect::kTargetAttrName, target);
  keepWhole(reduce);
  {
    Block &body = reduce.getBody().front();
    auto clonedLoop = cast<scf::ForOp>(reduceMap.lookup(loop.getOperation()));
    Value acc = reduceMap.lookup(candidate.accumulator->getResult(0));
    OpBuilder in(clonedLoop);
    // A part goes through shared memory: a second register tile of the
    // accumulator's size would double the registers it takes.
    auto partType = MemRefType::get(
        tileType.getShape(), tileType.getElementType(),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    Value part = AllocOp::create(in, loc, partType);
    Value zero = arith::ConstantIndexOp::create(in, loc, 0);
    Value one = arith::ConstantIndexOp::create(in, loc, 1);
    auto sum = scf::ForOp::create(in, loc, zero, splits, one);
    in.setInsertionPoint(sum.getBody()->getTerminator());
    auto [row, col] =
        workspaceOrigin(in, loc, sum.getInductionVar(), body.getArgument(0),
                        extents.size() == 2 ? body.getArgument(1) : Value(),
                        gridRows, tileType);
    CopyOp::create(in, loc, workspace, ValueRange{row, col}, part,
                   ValueRange{});
    auto add = ParallelOp::create(in, loc, tileType.getShape());
    OpBuilder inner(add.getBody().front().getTerminator());
    ValueRange ij = add.getInductionVars();
    Value a = memref::LoadOp::create(inner, loc, acc, ij);
    Value p = memref::LoadOp::create(inner, loc, part, ij);
    memref::StoreOp::create(inner, loc, arith::AddFOp::create(inner, loc, a, p),
                            acc, ij);
    clonedLoop.erase();
    eraseDeadOps(body);
  }
  keepWhole(kernel);
}

struct SplitKPass : public tile::impl::SplitKBase<SplitKPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    Builder builder(&getContext());
    for (KernelOp kernel : kernels) {
      auto attr =
          kernel->getAttrOfType<IntegerAttr>(TileDialect::kSplitKAttrName);
      TargetAttr target = getTargetAttr(kernel);
      const ChipDescription *chip = target ? target.getDescription() : nullptr;
      SplitCandidate candidate;
      std::string why = whyNoSplit(kernel, chip, candidate);
      int64_t most = 1;
      if (attr) {
        most = attr.getInt();
        if (most > 1 && !why.empty()) {
          kernel.emitError() << "tile.split_k = " << most
                             << " cannot split the kernel's loop: " << why;
          return signalPassFailure();
        }
        if (most > 1 && (!chip || !chip->isNVIDIA())) {
          kernel.emitError() << "tile.split_k = " << most
                             << " needs a workspace allocated by the CUDA "
                                "runtime: the kernel's target is not an "
                                "NVIDIA chip";
          return signalPassFailure();
        }
      } else if (!decide) {
        why = "decide=false";
      } else if (!chip || !chip->isNVIDIA()) {
        why = "its target is not an NVIDIA chip";
      } else if (why.empty()) {
        most = splits;
        // The decision, where a test can see it and a user override it.
        kernel->setAttr(TileDialect::kSplitKAttrName,
                        builder.getI64IntegerAttr(most));
      }
      if (emitRemarks) {
        if (most > 1)
          kernel.emitRemark() << "split-K: up to " << most
                              << " splits of the K loop where the grid leaves "
                                 "multiprocessors idle (picked at run time)";
        else
          kernel.emitRemark() << "K loop not split: "
                              << (why.empty() ? "tile.split_k = 1" : why);
      }
      if (most > 1)
        splitKernel(kernel, candidate, most, *chip);
    }
  }
};

} // namespace
