//===- RotateLoops.cpp - A loop's second gemm one iteration behind -*- C++ -*-//
//
// `tile-rotate-loops`: in FlashAttention's key loop, iteration kb computes
// S = Q K_kb^T, the softmax of S into P, then O += P V_kb. With asynchronous
// MMAs (Hopper's wgmma) the softmax can run while the tensor cores compute,
// if the loop is rotated by one gemm (FlashAttention-3's intra-warpgroup
// overlap):
//
//   <stage A of iteration lb>                        // prologue
//   scf.for %kb = lb + step to ub {
//     <stage A ops before the first gemm>            // copy K_kb
//     <copies of the second gemm's B, at kb - step>  // copy V_(kb-1)
//     S = Q K_kb^T        {mma_groups_in_flight = 1}
//     O += P V_(kb-1)     {mma_groups_in_flight = 1} // waits for S only
//     <stage A ops that touch neither P, O nor V>    // softmax of S
//     tile.mma_wait 0                                // P V done
//     <stage A ops that touch P or O>                // rescale O, new P
//   }
//   <the second gemm at the last iteration>          // epilogue
//
// Stage B is the second gemm and the copies into its B tile; stage A every
// other op. A `tile.parallel` that writes P and other tiles (the softmax's
// exponentials and their f16 copy) is split: the part after the wait reads
// back what the first part stored instead of recomputing it. The prologue
// and epilogue copy into tiles of their own, so the loop's shared tiles stay
// the pipeline's alone, and run only if the loop runs; their copies come
// first, outside that test, so that their loads overlap (the epilogue's
// share the prologue's tiles where the shared memory has no room for two).
//
// The pass decides (on targets whose MMAs for both gemms are asynchronous),
// writes `tile.rotate = false` where it declines a loop it could rotate, and
// rotates every loop with `tile.rotate = true` or reports why it cannot.
//
//===----------------------------------------------------------------------===//

#include "RotateLoopsSchedule.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Resources.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_ROTATELOOPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::rotation;

namespace {

/// Why the target argues against rotating a loop with these gemms (one
/// rotated by default), or "": synchronous MMAs leave nothing to overlap.
std::string checkProfitable(GemmOp first, GemmOp second, KernelOp kernel) {
  std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
  const AsyncMmaInfo *async = target->asyncMma();
  int64_t threads = getNumThreads(first, kernel);
  for (GemmOp gemm : {first, second}) {
    MmaAttr mma = peekMma(gemm, *target, threads);
    if (!async || !mma || !async->isAsync(mma))
      return "the target's MMAs for its gemms complete when issued, so "
             "nothing runs beside them";
  }
  return "";
}

/// Shared tiles for the copies of the prologue and the epilogue, of the
/// types of the loop's own, made next to them.
struct EdgeTiles {
  llvm::DenseMap<Type, SmallVector<Value>> byType;
  llvm::DenseMap<Type, unsigned> used;

  /// Maps the shared tiles `copies` write to edge tiles in `mapping`, from
  /// the first of each type (`reuse`) or after those mapped before.
  void map(ArrayRef<Operation *> copies, IRMapping &mapping, bool reuse) {
    if (reuse)
      used.clear();
    for (Operation *op : copies) {
      AllocOp alloc = getSharedTarget(op);
      if (!alloc || mapping.contains(alloc.getResult()))
        continue;
      SmallVector<Value> &pool = byType[alloc.getType()];
      unsigned &next = used[alloc.getType()];
      if (next == pool.size()) {
        OpBuilder b(alloc);
        b.setInsertionPointAfter(alloc);
        pool.push_back(b.clone(*alloc)->getResult(0));
      }
      mapping.map(alloc.getResult(), pool[next++]);
    }
  }
};

/// Clones the ops `op` uses that are defined in `body` (stage B's index
/// computations), then `op`, with `mapping`.
Operation *cloneWithOperands(OpBuilder &b, Operation *op, Block *body,
                             IRMapping &mapping) {
  for (Value operand : op->getOperands())
    if (Operation *def = operand.getDefiningOp();
        def && def->getBlock() == body && !mapping.contains(operand))
      cloneWithOperands(b, def, body, mapping);
  return b.clone(*op, mapping);
}

/// Whether the kernel of `loop` has the shared memory for the epilogue's
/// copies to have tiles of their own besides the prologue's, with the
/// loop's copies multi-buffered by its `tile.num_stages`.
bool fitsSeparateEdges(scf::ForOp loop, Schedule &s, KernelOp kernel) {
  auto stages =
      loop->getAttrOfType<IntegerAttr>(TileDialect::kNumStagesAttrName);
  int64_t versions = stages ? std::max<int64_t>(stages.getInt() - 1, 0) : 0;
  int64_t bytes = computeSharedMemoryBytes(kernel);
  llvm::SmallPtrSet<Operation *, 4> seen;
  for (Operation &op : s.loop.getBody()->without_terminator())
    if (AllocOp alloc = getSharedTarget(&op);
        alloc && seen.insert(alloc).second)
      bytes =
          addSizes(bytes, mulSizes(versions, getSharedTileSizeInBytes(alloc)));
  // The prologue's tiles, then the epilogue's.
  for (ArrayRef<Operation *> copies :
       {ArrayRef<Operation *>(s.stageA), ArrayRef<Operation *>(s.copies)})
    for (Operation *op : copies)
      if (AllocOp alloc = getSharedTarget(op))
        bytes = addSizes(bytes, getSharedTileSizeInBytes(alloc));
  return bytes <= getResourceLimits(kernel, 0, 0).sharedMemoryPerBlock;
}

void rotate(scf::ForOp loop, Schedule &s, KernelOp kernel) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Block *body = s.loop.getBody();
  Value iv = s.loop.getInductionVar();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  auto pred = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                    : arith::CmpIPredicate::slt;
  bool separate = fitsSeparateEdges(loop, s, kernel);
  Value runs = arith::CmpIOp::create(b, loc, pred, lb, ub);
  IntegerAttr inFlight = b.getI64IntegerAttr(1);
  EdgeTiles edges;

  // The edge iterations' copies into shared tiles come first, outside the
  // tests that the loop runs, so that their loads overlap each other and
  // the kernel's copies before the loop: block 0's keys, and with tiles of
  // their own (where the shared memory allows) the last block's values,
  // whose iteration is lb where the loop does not run (copies read zeros
  // outside their tensors).
  IRMapping prologueMap, epilogueMap;
  prologueMap.map(iv, lb);
  edges.map(s.stageA, prologueMap, /*reuse=*/true);
  // Plain copies only: an `in_bounds` one may not read outside its tensor
  // where the loop does not run, and asynchronous ones have their waits.
  auto hoistable = [&](Operation *op) {
    auto copy = dyn_cast<CopyOp>(op);
    return copy && getSharedTarget(op) && !copy.getAsync() && !copy.getTma() &&
           !copy.getInBounds() && hasPureOperands(op, body);
  };
  bool hoistEpilogue = separate && llvm::all_of(s.copies, hoistable);
  llvm::SmallPtrSet<Operation *, 4> hoisted;
  for (Operation *op : s.before)
    if (hoistable(op)) {
      cloneWithOperands(b, op, body, prologueMap);
      hoisted.insert(op);
    }
  auto lastIteration = [&]() -> Value {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value span = arith::SubIOp::create(b, loc, ub, lb);
    Value count = arith::CeilDivUIOp::create(b, loc, span, step);
    return arith::AddIOp::create(
        b, loc, lb,
        arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, count, one),
                              step));
  };
  if (hoistEpilogue) {
    epilogueMap.map(iv,
                    arith::SelectOp::create(b, loc, runs, lastIteration(), lb));
    edges.map(s.copies, epilogueMap, /*reuse=*/false);
    for (Operation *copy : s.copies)
      cloneWithOperands(b, copy, body, epilogueMap);
  }

  // Stage A of the first iteration.
  auto prologue = scf::IfOp::create(b, loc, runs, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(prologue.thenBlock()->getTerminator());
    for (Operation *op : s.stageA)
      if (!hoisted.contains(op))
        b.clone(*op, prologueMap);
  }

  // The rotated loop.
  Value next = arith::AddIOp::create(b, loc, lb, step);
  auto rotated = scf::ForOp::create(b, loc, next, ub, step);
  rotated.setUnsignedCmp(loop.getUnsignedCmp());
  for (NamedAttribute attr : loop->getDiscardableAttrs())
    rotated->setAttr(attr.getName(), attr.getValue());
  rotated->setAttr(TileDialect::kRotateAttrName, b.getBoolAttr(true));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(rotated.getBody()->getTerminator());
    IRMapping mapping, previous;
    mapping.map(iv, rotated.getInductionVar());
    previous.map(
        iv, arith::SubIOp::create(b, loc, rotated.getInductionVar(), step));
    for (Operation *op : s.before)
      b.clone(*op, mapping);
    for (Operation *copy : s.copies)
      cloneWithOperands(b, copy, body, previous);
    Operation *first = b.clone(*s.first, mapping);
    first->setAttr("mma_groups_in_flight", inFlight);
    Operation *second = cloneWithOperands(b, s.second, body, previous);
    second->setAttr("mma_groups_in_flight", inFlight);
    for (Operation *op : s.early)
      b.clone(*op, mapping);
    MmaWaitOp::create(b, loc, 0);
    for (Operation *op : s.late)
      b.clone(*op, mapping);
  }

  // Stage B of the last iteration.
  auto epilogue = scf::IfOp::create(b, loc, runs, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(epilogue.thenBlock()->getTerminator());
    if (!hoistEpilogue) {
      epilogueMap.map(iv, lastIteration());
      edges.map(s.copies, epilogueMap, /*reuse=*/!separate);
      for (Operation *copy : s.copies)
        cloneWithOperands(b, copy, body, epilogueMap);
    }
    cloneWithOperands(b, s.second, body, epilogueMap);
  }
  loop.erase();
}

struct RotateLoopsPass : public tile::impl::RotateLoopsBase<RotateLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, KernelOp>> loops;
    getOperation().walk([&](KernelOp kernel) {
      kernel.walk([&](scf::ForOp loop) { loops.push_back({loop, kernel}); });
    });
    for (auto [loop, kernel] : loops)
      if (failed(visit(loop, kernel)))
        return signalPassFailure();
  }

  LogicalResult visit(scf::ForOp loop, KernelOp kernel) {
    auto flag = loop->getAttrOfType<BoolAttr>(TileDialect::kRotateAttrName);
    bool forced = flag && flag.getValue();
    if (flag && !flag.getValue()) {
      if (emitRemarks)
        loop.emitRemark("loop not rotated: tile.rotate = false");
      return success();
    }
    // Loops whose MMAs are already placed (rotated by this pass or by hand)
    // are left alone.
    bool placed = false;
    loop.getBody()->walk([&](GemmOp gemm) {
      placed |= gemm.getMmaGroupsInFlight().value_or(0) > 0;
    });
    if (placed)
      return success();
    auto decline = [&](const std::string &why) -> LogicalResult {
      if (forced)
        return loop.emitError("cannot rotate this loop (tile.rotate = "
                              "true): ")
               << why;
      if (emitRemarks)
        loop.emitRemark("loop not rotated: ") << why;
      return success();
    };
    GemmOp first, second;
    bool candidate = false;
    std::string why = matchGemms(loop, first, second, candidate);
    if (!why.empty())
      return candidate || forced ? decline(why) : success();
    // The schedule is built on a copy of the loop, which it may change.
    Block *body = loop.getBody();
    auto position = [&](Operation *op) {
      return std::distance(body->begin(), op->getIterator());
    };
    Schedule s;
    s.loop = cast<scf::ForOp>(loop->clone());
    Block *copyBody = s.loop.getBody();
    s.first = cast<GemmOp>(&*std::next(copyBody->begin(), position(first)));
    s.second = cast<GemmOp>(&*std::next(copyBody->begin(), position(second)));
    why = buildSchedule(s);
    if (why.empty() && !forced) {
      why = checkProfitable(first, second, kernel);
      if (!why.empty())
        loop->setAttr(TileDialect::kRotateAttrName,
                      BoolAttr::get(loop.getContext(), false));
    }
    if (!why.empty()) {
      s.loop->erase();
      return decline(why);
    }
    if (emitRemarks) {
      int64_t overlapped = llvm::count_if(
          s.early, [](Operation *op) { return !isMemoryEffectFree(op); });
      loop.emitRemark("loop rotated: the previous iteration's second gemm "
                      "computes while ")
          << overlapped << (overlapped == 1 ? " op" : " ops")
          << " of this one run";
    }
    rotate(loop, s, kernel);
    s.loop->erase();
    return success();
  }
};

} // namespace
