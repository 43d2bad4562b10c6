//===- ParallelOp.cpp - Lowering of tile.parallel ---------------*- C++ -*-===//
//
// The body is cloned once per register of the loop's layout, with the
// induction variables replaced by the element's coordinates; fragment
// accesses become register accesses (plus a per-thread part when the
// fragment's thread bases differ from the loop's).
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tile/Transforms/Utils.h"

#include "mlir/IR/IRMapping.h"

#include <deque>
#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// `op` (in a tile.parallel's body) rewritten, if it is a load or store of a
/// shared tile, into the access of the tile's flat view at the element its
/// (mapped) indices name; null if it is another op.
static FailureOr<Operation *>
rewriteSharedAccess(LoweringContext &ctx, Operation *op, IRMapping &mapping) {
  auto load = dyn_cast<memref::LoadOp>(op);
  auto store = dyn_cast<memref::StoreOp>(op);
  if (!load && !store)
    return static_cast<Operation *>(nullptr);
  Value memref = load ? load.getMemRef() : store.getMemRef();
  if (getMemoryKind(cast<MemRefType>(memref.getType())) != MemoryKind::Shared)
    return static_cast<Operation *>(nullptr);
  FailureOr<SharedRef> ref = ctx.resolveShared(memref, op);
  if (failed(ref))
    return failure();
  SmallVector<Value> coords;
  for (Value index : load ? load.getIndices() : store.getIndices())
    coords.push_back(mapping.lookupOrDefault(index));
  Value index = ctx.sharedIndex(*ref, coords);
  OpBuilder &b = ctx.b;
  if (load)
    return memref::LoadOp::create(b, ctx.loc(), ref->tile->view, index)
        .getOperation();
  return memref::StoreOp::create(
             b, ctx.loc(), mapping.lookupOrDefault(store.getValueToStore()),
             ref->tile->view, index)
      .getOperation();
}

/// Solves `target` = XOR of a subset of `bases`; returns the subset as a bit
/// mask over `bases`, or none.
std::optional<uint64_t> mlir::tile::lowering::solveGF2(ArrayRef<uint64_t> bases,
                                                       uint64_t target) {
  // Gaussian elimination keeping track of combinations.
  SmallVector<std::pair<uint64_t, uint64_t>> rows; // (vector, combination)
  for (auto [i, basis] : llvm::enumerate(bases)) {
    uint64_t v = basis;
    uint64_t comb = uint64_t(1) << i;
    for (auto &[rv, rc] : rows)
      if ((v ^ rv) < v) {
        v ^= rv;
        comb ^= rc;
      }
    if (v) {
      rows.push_back({v, comb});
      llvm::sort(rows, [](auto &x, auto &y) { return x.first > y.first; });
    }
  }
  uint64_t comb = 0;
  for (auto &[rv, rc] : rows)
    if ((target ^ rv) < target) {
      target ^= rv;
      comb ^= rc;
    }
  if (target)
    return std::nullopt;
  return comb;
}

LogicalResult mlir::tile::lowering::lowerParallel(LoweringContext &ctx,
                                                  ParallelOp op,
                                                  const ParallelChunk *chunk) {
  OpBuilder &b = ctx.b;
  auto loc = [&] { return ctx.loc(); };
  LinearLayout layout =
      op.getLayoutAttr()
          ? cast<LinearLayoutAttr>(op.getLayoutAttr()).getLinearLayout()
          : LinearLayout();
  ArrayRef<int64_t> extents = op.getExtents();
  unsigned rank = extents.size();
  SmallVector<int64_t> padded = getPaddedShape(extents);
  Value tid = ctx.threadId(op);
  SmallVector<uint64_t> masks;
  SmallVector<Value> tcoords = ctx.threadCoords(layout, tid, masks);
  SmallVector<uint64_t> loopThread;
  llvm::append_range(loopThread, layout.getBases(LinearLayout::kLane));
  llvm::append_range(loopThread, layout.getBases(LinearLayout::kWarp));

  // For every fragment access, the register index of the accessed element:
  // a static part per loop register plus, when the fragment's thread bases
  // differ from the loop's, a per-thread part.
  struct AccessPlan {
    RegisterOperand *tile;
    SmallVector<unsigned> loopDims;
    Value threadPart; // null if none
  };
  DenseMap<Operation *, AccessPlan> plans;
  auto project = [&](uint64_t flat, ArrayRef<unsigned> loopDims,
                     const LinearLayout &fragLayout) {
    SmallVector<int64_t> coord = layout.unpackCoord(flat);
    SmallVector<int64_t> kept;
    for (unsigned d : loopDims)
      kept.push_back(coord[d]);
    return fragLayout.packCoord(kept);
  };
  WalkResult walk = op.getBody().walk([&](Operation *inner) {
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(inner)) {
      memref = load.getMemRef();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<memref::StoreOp>(inner)) {
      memref = store.getMemRef();
      indices = store.getIndices();
    } else {
      return WalkResult::advance();
    }
    auto type = cast<MemRefType>(memref.getType());
    if (getMemoryKind(type) != MemoryKind::Fragment)
      return WalkResult::advance();
    RegisterOperand *tile = ctx.getRegTile(memref, inner);
    if (!tile)
      return WalkResult::interrupt();
    AccessPlan plan{tile, {}, nullptr};
    for (Value index : indices) {
      auto arg = dyn_cast<BlockArgument>(index);
      if (!arg || arg.getOwner() != &op.getBody().front()) {
        inner->emitOpError("unsupported fragment access in tile.parallel");
        return WalkResult::interrupt();
      }
      plan.loopDims.push_back(arg.getArgNumber());
    }
    // Per-thread part: for each thread bit, the register combination that
    // makes up for the difference of thread bases.
    ArrayRef<uint64_t> fragRegs =
        tile->layout.getBases(LinearLayout::kRegister);
    SmallVector<uint64_t> fragThread;
    llvm::append_range(fragThread, tile->layout.getBases(LinearLayout::kLane));
    llvm::append_range(fragThread, tile->layout.getBases(LinearLayout::kWarp));
    if (fragThread.size() != loopThread.size()) {
      inner->emitOpError("accesses a fragment distributed over a different "
                         "number of threads than the tile.parallel");
      return WalkResult::interrupt();
    }
    Value threadPart;
    for (auto [bit, lb] : llvm::enumerate(loopThread)) {
      uint64_t diff =
          project(lb, plan.loopDims, tile->layout) ^ fragThread[bit];
      if (!diff)
        continue;
      std::optional<uint64_t> comb = solveGF2(fragRegs, diff);
      if (!comb) {
        inner->emitOpError("accesses a fragment element that the executing "
                           "thread does not hold; layouts are inconsistent");
        return WalkResult::interrupt();
      }
      Value set = ctx.andConst(ctx.shrConst(tid, bit), 1);
      Value term = ctx.mul(set, ctx.idx(*comb));
      threadPart =
          threadPart ? arith::XOrIOp::create(b, loc(), threadPart, term) : term;
    }
    plan.threadPart = threadPart;
    plans[inner] = plan;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // Lowered in parts: the iterations whose reads of the chunked fragment
  // fall in the part's registers. Every iteration reads it (the
  // element at its own coordinates, tile-fuse-consumer), at a register
  // that the loop register alone decides.
  auto inChunk = [&](int64_t r) -> FailureOr<bool> {
    uint64_t loopFlat = layout.applyFlat({{LinearLayout::kRegister, r}});
    std::optional<bool> in;
    for (auto &[inner, plan] : plans) {
      if (plan.tile != chunk->tile)
        continue;
      std::optional<uint64_t> reg =
          solveGF2(plan.tile->layout.getBases(LinearLayout::kRegister),
                   project(loopFlat, plan.loopDims, plan.tile->layout));
      if (plan.threadPart || !reg || isa<memref::StoreOp>(inner))
        return op.emitOpError("cannot run chunk by chunk: it writes the "
                              "gemm's product or reads it at registers its "
                              "own do not decide");
      bool here = *reg < chunk->registers.size() && chunk->registers[*reg];
      if (in && *in != here)
        return op.emitOpError("cannot run chunk by chunk: one iteration "
                              "reads the product from two chunks");
      in = here;
    }
    if (!in)
      return op.emitOpError("cannot run chunk by chunk: an iteration does "
                            "not read the gemm's product");
    return *in;
  };

  Block &body = op.getBody().front();
  // Emits `inner` for the element of loop register `loopFlat`: fragment
  // accesses become register accesses, shared ones accesses of the flat
  // views, the rest is cloned.
  auto emitOp = [&](Operation &inner, IRMapping &mapping,
                    uint64_t loopFlat) -> LogicalResult {
    if (auto it = plans.find(&inner); it != plans.end()) {
      AccessPlan &plan = it->second;
      uint64_t target = project(loopFlat, plan.loopDims, plan.tile->layout);
      std::optional<uint64_t> comb =
          solveGF2(plan.tile->layout.getBases(LinearLayout::kRegister), target);
      Value index = ctx.idx(comb.value_or(0));
      if (plan.threadPart)
        index = arith::XOrIOp::create(b, loc(), index, plan.threadPart);
      Operation *replaced;
      if (isa<memref::LoadOp>(inner))
        replaced = memref::LoadOp::create(b, loc(), plan.tile->regs, index);
      else
        replaced = memref::StoreOp::create(
            b, loc(),
            mapping.lookupOrDefault(
                cast<memref::StoreOp>(inner).getValueToStore()),
            plan.tile->regs, index);
      mapping.map(inner.getResults(), replaced->getResults());
      return success();
    }
    // Shared tiles are read and written through their flat views.
    FailureOr<Operation *> shared = rewriteSharedAccess(ctx, &inner, mapping);
    if (failed(shared))
      return failure();
    if (*shared) {
      mapping.map(inner.getResults(), (*shared)->getResults());
      return success();
    }
    Operation *clone = b.clone(inner, mapping);
    // Nested regions of the clone may contain accesses too.
    bool nestedFragment = false;
    clone->walk([&](Operation *n) {
      if (n != clone && isa<memref::LoadOp, memref::StoreOp>(n) &&
          getMemoryKind(cast<MemRefType>(
              n->getOperand(isa<memref::LoadOp>(n) ? 0 : 1).getType())) ==
              MemoryKind::Fragment)
        nestedFragment = true;
    });
    if (nestedFragment)
      return inner.emitOpError("fragment accesses inside nested regions of "
                               "a tile.parallel are not supported by the "
                               "lowering yet");
    return success();
  };

  // The loop registers to emit, with the coordinates of their elements.
  SmallVector<std::pair<int64_t, SmallVector<Value>>> elements;
  for (int64_t r = 0; r < layout.getRegistersPerThread(); ++r) {
    if (chunk) {
      FailureOr<bool> in = inChunk(r);
      if (failed(in))
        return failure();
      if (!*in)
        continue;
    }
    elements.push_back({r, ctx.elementCoords(layout, r, tcoords, masks)});
  }

  // The operands of the divisions with a shared divisor, per element.
  struct Operands {
    Value numerator, divisor;
    Value *reciprocal; // shared by the registers that share the divisor
  };
  using DivisionOperands = DenseMap<Operation *, Operands>;

  // Emits the body for every element; divisions found in `operands` (per
  // element) become exact quotients through the divisor's reciprocal,
  // computed at its first use.
  auto emitElements =
      [&](MutableArrayRef<DivisionOperands> operands) -> LogicalResult {
    for (auto [k, element] : llvm::enumerate(elements)) {
      auto &[r, coords] = element;
      Value valid;
      for (unsigned d = 0; d < rank; ++d)
        if (padded[d] != extents[d])
          valid = ctx.andBool(valid, ctx.ult(coords[d], ctx.idx(extents[d])));
      OpBuilder::InsertionGuard g(b);
      if (valid) {
        auto branch = scf::IfOp::create(b, loc(), valid, false);
        b.setInsertionPointToStart(branch.thenBlock());
      }
      IRMapping mapping;
      for (unsigned d = 0; d < rank; ++d)
        mapping.map(body.getArgument(d), coords[d]);
      uint64_t loopFlat = layout.applyFlat({{LinearLayout::kRegister, r}});
      for (Operation &inner : body.without_terminator()) {
        if (!operands.empty())
          if (auto it = operands[k].find(&inner); it != operands[k].end()) {
            Operands &o = it->second;
            if (!*o.reciprocal)
              *o.reciprocal = ExactDivision::reciprocal(b, loc(), o.divisor);
            mapping.map(inner.getResult(0),
                        ExactDivision::quotient(b, loc(), o.numerator,
                                                o.divisor, *o.reciprocal));
            continue;
          }
        if (failed(emitOp(inner, mapping, loopFlat)))
          return failure();
      }
    }
    return success();
  };

  // Divisions by a divisor that several registers share: their operands
  // computed ahead and tested, then the quotients through one reciprocal
  // per divisor where every operand is in the range where that is exact,
  // the IEEE divisions otherwise (Division.cpp).
  std::optional<SharedDivisions> divisions;
  if (!chunk && padded == SmallVector<int64_t>(extents))
    divisions = findSharedDivisions(op, layout.getRegistersPerThread());
  if (!divisions)
    return emitElements({});
  ExactDivision exact;
  SmallVector<DivisionOperands> operands(elements.size());
  // The divisor of each division per static coordinates along the
  // dimensions it reads: registers with the same ones share it.
  std::map<std::pair<Operation *, SmallVector<int64_t>>, Operands> shared;
  std::deque<Value> reciprocals;
  for (auto [k, element] : llvm::enumerate(elements)) {
    auto &[r, coords] = element;
    IRMapping mapping;
    for (unsigned d = 0; d < rank; ++d)
      mapping.map(body.getArgument(d), coords[d]);
    uint64_t loopFlat = layout.applyFlat({{LinearLayout::kRegister, r}});
    for (Operation *inner : divisions->slice)
      if (failed(emitOp(*inner, mapping, loopFlat)))
        return failure();
    SmallVector<int64_t> staticCoord = layout.unpackCoord(loopFlat);
    for (SharedDivisions::Division &div : divisions->divisions) {
      Value x = mapping.lookupOrDefault(div.op.getLhs());
      exact.checkNumerator(b, loc(), x);
      SmallVector<int64_t> key;
      for (unsigned d : div.divisorDims)
        key.push_back(staticCoord[d]);
      auto [it, added] = shared.try_emplace({div.op, key});
      if (added) {
        Value d = mapping.lookupOrDefault(div.op.getRhs());
        exact.checkDivisor(b, loc(), d);
        it->second = {nullptr, d, &reciprocals.emplace_back()};
      }
      operands[k][div.op] = {x, it->second.divisor, it->second.reciprocal};
    }
  }
  auto branch =
      scf::IfOp::create(b, loc(), exact.inRange(b, loc()), /*else=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  if (failed(emitElements(operands)))
    return failure();
  b.setInsertionPointToStart(branch.elseBlock());
  if (failed(emitElements({})))
    return failure();
  return success();
}
