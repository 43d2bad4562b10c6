//===- RotateLoopsSchedule.cpp - The rotated loop's schedule ----*- C++ -*-===//
//
// Which ops of a loop tile-rotate-loops runs before the first gemm, beside
// the second one, and after the wait for it; the tile.parallel ops it splits
// for that. Reads and writes are followed through the tiles (root
// allocations) the ops' memory effects name.
//
//===----------------------------------------------------------------------===//

#include "RotateLoopsSchedule.h"

#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::rotation;

namespace {

/// The tiles an op and the ops nested in it read and write: root
/// allocations (through views), or the memref itself for global memory.
struct Access {
  llvm::SmallPtrSet<Value, 4> reads, writes;
  bool unknown = false;

  bool touches(Value tile) const {
    return reads.contains(tile) || writes.contains(tile);
  }
  bool conflictsWith(const Access &other) const {
    if (unknown || other.unknown)
      return true;
    for (Value tile : writes)
      if (other.touches(tile))
        return true;
    return llvm::any_of(other.writes,
                        [&](Value tile) { return reads.contains(tile); });
  }
};

Value getTile(Value memref) {
  if (AllocOp alloc = getRootAlloc(memref))
    return alloc.getResult();
  return memref;
}

Access getAccess(Operation *op) {
  Access access;
  op->walk([&](Operation *nested) {
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
        nested->hasTrait<OpTrait::IsTerminator>())
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!effects) {
      access.unknown = true;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &effect : list) {
      bool read = isa<MemoryEffects::Read>(effect.getEffect());
      if (!read && !isa<MemoryEffects::Write>(effect.getEffect()))
        continue;
      if (!effect.getValue()) {
        access.unknown = true;
        continue;
      }
      (read ? access.reads : access.writes).insert(getTile(effect.getValue()));
    }
  });
  return access;
}

/// Whether `user` or an op nested in it uses a result of `def`.
bool usesResultsOf(Operation *user, Operation *def) {
  if (!def->getNumResults())
    return false;
  WalkResult walk = user->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (operand.getDefiningOp() == def)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Erases the ops of `block` nothing uses that only compute or load.
void eraseDeadOps(Block &block) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
      if (op.hasTrait<OpTrait::IsTerminator>() || !op.use_empty())
        continue;
      if (isMemoryEffectFree(&op) || isa<memref::LoadOp>(op)) {
        op.erase();
        changed = true;
      }
    }
  }
}

} // namespace

/// The tile.alloc of a shared tile `op` copies into whole, or null.
AllocOp rotation::getSharedTarget(Operation *op) {
  auto copy = dyn_cast<CopyOp>(op);
  AllocOp alloc = copy ? getRootAlloc(copy.getTarget()) : nullptr;
  if (!alloc || copy.getTarget() != alloc.getResult() ||
      getMemoryKind(alloc.getType()) != MemoryKind::Shared)
    return nullptr;
  return alloc;
}

/// Whether the operands of `op` defined in `body` are computed without
/// reading memory.
bool rotation::hasPureOperands(Operation *op, Block *body) {
  SmallVector<Value> worklist(op->getOperands());
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body)
      continue;
    if (!isMemoryEffectFree(def) || def->getNumRegions())
      return false;
    worklist.append(def->operand_begin(), def->operand_end());
  }
  return true;
}

namespace {

/// Splits `par`, which writes tiles of `late` and others and reads none of
/// `late`, in two: `par` keeps its other stores, and a new tile.parallel
/// right after it stores to `late`, reading back from the other tiles
/// the values `par` stored there instead of recomputing them. Returns the
/// new op, or null (and `par` unchanged) where its stores are not all at
/// the parallel's indices or it would read back a tile `par` rewrites.
ParallelOp splitParallel(ParallelOp par,
                         const llvm::SmallPtrSet<Value, 2> &late) {
  Block &body = par.getBody().front();
  ValueRange ivs = body.getArguments();
  auto atIndices = [&](memref::StoreOp store) {
    return llvm::equal(store.getIndices(), ivs);
  };
  llvm::SmallPtrSet<Value, 4> written;
  for (Operation &op : body) {
    auto store = dyn_cast<memref::StoreOp>(op);
    Access access = getAccess(&op);
    if (!store) {
      if (access.unknown || !access.writes.empty())
        return nullptr;
      continue;
    }
    // The value is read back from where it was stored, with a load at the
    // start of the new parallel's body.
    Value tile = getTile(store.getMemRef());
    if (!late.contains(tile) &&
        (!atIndices(store) || !written.insert(tile).second ||
         store.getMemRef().getParentBlock() == &body))
      return nullptr;
  }

  OpBuilder b(par->getContext());
  b.setInsertionPointAfter(par);
  auto second = cast<ParallelOp>(b.clone(*par));
  Block &secondBody = second.getBody().front();
  b.setInsertionPointToStart(&secondBody);
  llvm::SmallPtrSet<Operation *, 4> readBack;
  for (Operation &op : llvm::make_early_inc_range(secondBody)) {
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store || late.contains(getTile(store.getMemRef())))
      continue;
    Value stored = store.getValueToStore();
    if (stored.getParentBlock() == &secondBody) {
      auto load = memref::LoadOp::create(b, store.getLoc(), store.getMemRef(),
                                         secondBody.getArguments());
      readBack.insert(load);
      stored.replaceUsesWithIf(load.getResult(), [&](OpOperand &use) {
        return use.getOwner() != store;
      });
    }
    store.erase();
  }
  eraseDeadOps(secondBody);
  bool stale = llvm::any_of(secondBody, [&](Operation &op) {
    auto load = dyn_cast<memref::LoadOp>(op);
    return load && !readBack.contains(load) &&
           written.contains(getTile(load.getMemRef()));
  });
  if (stale) {
    second.erase();
    return nullptr;
  }
  for (Operation &op : llvm::make_early_inc_range(body))
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && late.contains(getTile(store.getMemRef())))
      store.erase();
  eraseDeadOps(body);
  return second;
}

} // namespace

/// The two gemms of `loop` if it has the shape the pass rotates, or a
/// reason why not; `candidate` says whether its body has two gemms.
std::string rotation::matchGemms(scf::ForOp loop, GemmOp &first, GemmOp &second,
                                 bool &candidate) {
  if (loop.getNumResults())
    return "it has results";
  SmallVector<GemmOp> gemms;
  bool nested = false;
  loop.getBody()->walk([&](GemmOp gemm) {
    nested |= gemm->getParentOp() != loop;
    gemms.push_back(gemm);
  });
  candidate = gemms.size() == 2;
  if (gemms.size() != 2 || nested)
    return "it has no two gemms in its body, the second reading a register "
           "tile the loop computes";
  first = gemms[0];
  second = gemms[1];
  if (!isFragment(second.getA()) || second.getClearAccum() ||
      second.getTransposeA())
    return "its second gemm does not accumulate a product of a register tile";
  for (GemmOp gemm : gemms)
    if (gemm.getPartials() || gemm.getAccumulate() || gemm.getPromoteKAttr() ||
        gemm.getConsumerChunkAttr() || gemm.isSparse())
      return "a gemm of its body promotes, keeps partial sums, hands its "
             "product over in chunks or is sparse";
  Value p = getTile(second.getA());
  bool computesP = false;
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode())
    computesP |= getAccess(op).writes.contains(p);
  if (!computesP)
    return "its second gemm's register operand is not computed between the "
           "two gemms";
  return "";
}

/// Sorts the ops of the detached loop copy `schedule.loop` (see Schedule).
std::string rotation::buildSchedule(Schedule &s) {
  Block *body = s.loop.getBody();
  Value p = getTile(s.second.getA()), v = getTile(s.second.getB()),
        o = getTile(s.second.getC());
  llvm::SmallPtrSet<Value, 2> secondTiles = {p, o};
  auto onChip = [](Value tile) {
    return static_cast<bool>(getRootAlloc(tile));
  };

  // Stage B: the second gemm and the copies into its B tile, from memory
  // the loop does not write.
  Access stageB = getAccess(s.second);
  for (Operation &op : body->without_terminator()) {
    auto copy = dyn_cast<CopyOp>(op);
    if (copy && getTile(copy.getTarget()) == v) {
      s.copies.push_back(copy);
      Access access = getAccess(copy);
      stageB.reads.insert(access.reads.begin(), access.reads.end());
      stageB.writes.insert(access.writes.begin(), access.writes.end());
    }
  }
  for (Operation &op : body->without_terminator()) {
    Access access = getAccess(&op);
    if (access.unknown)
      return "'" + op.getName().getStringRef().str() +
             "' in its body has effects the pass cannot follow";
    if (!llvm::all_of(access.writes, onChip))
      return "it writes global memory";
    if (&op == s.second || llvm::is_contained(s.copies, &op))
      continue;
    if (access.touches(v))
      return "its second gemm's B tile is used by other ops than its copies";
    if (s.second->isBeforeInBlock(&op) &&
        (access.conflictsWith(stageB) || usesResultsOf(&op, s.second)))
      return "an op after its second gemm uses the gemm's tiles";
  }
  // Stage B's operands: values defined before the loop, or computed in it
  // without reading memory (they are recomputed for iteration kb - step).
  for (Operation *op : s.copies)
    if (!hasPureOperands(op, body))
      return "the copies into its second gemm's B tile take their position "
             "from memory the loop reads";
  if (!hasPureOperands(s.second, body))
    return "its second gemm's operands are computed from memory the loop "
           "reads";

  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator())
    if (&op != s.second && !llvm::is_contained(s.copies, &op))
      ops.push_back(&op);
  bool afterFirst = false;
  SmallVector<std::pair<Operation *, Access>> lateOps;
  for (Operation *op : ops) {
    Access access = getAccess(op);
    if (!afterFirst) {
      if (access.touches(p) || access.touches(o))
        return "an op before its first gemm uses the second gemm's tiles";
      s.stageA.push_back(op);
      afterFirst = op == s.first;
      if (!afterFirst)
        s.before.push_back(op);
      continue;
    }
    bool dependent = llvm::any_of(lateOps, [&](auto &entry) {
      return access.conflictsWith(entry.second) ||
             usesResultsOf(op, entry.first);
    });
    if (!dependent && (access.touches(p) || access.touches(o))) {
      auto par = dyn_cast<ParallelOp>(op);
      bool splittable =
          par && !access.reads.contains(p) && !access.reads.contains(o) &&
          llvm::any_of(access.writes,
                       [&](Value tile) { return !secondTiles.contains(tile); });
      if (ParallelOp rest =
              splittable ? splitParallel(par, secondTiles) : nullptr) {
        s.stageA.append({par, rest});
        s.early.push_back(par);
        s.late.push_back(rest);
        lateOps.push_back({rest, getAccess(rest)});
        continue;
      }
      dependent = true;
    }
    s.stageA.push_back(op);
    if (dependent || access.touches(p) || access.touches(o)) {
      s.late.push_back(op);
      lateOps.push_back({op, std::move(access)});
    } else {
      s.early.push_back(op);
    }
  }
  if (llvm::none_of(s.early,
                    [](Operation *op) { return !isMemoryEffectFree(op); }))
    return "no op between its gemms can run while the second computes: "
           "every one uses the second gemm's tiles or depends on one that "
           "does";
  return "";
}
