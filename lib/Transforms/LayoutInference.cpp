//===- LayoutInference.cpp - Infer fragment and shared layouts --*- C++ -*-===//
//
// Assigns a distributed linear layout to every fragment and tile.parallel,
// and a physical layout to every shared tile. See Passes.td for the levels
// (strict, common, free) and the conflict policy.
//
//===----------------------------------------------------------------------===//

#include "SharedLayouts.h"

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tile {
#define GEN_PASS_DEF_LAYOUTINFERENCE
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// An access of a tile.parallel body to a fragment: dimension d of the
/// fragment is indexed by induction variable `loopDims[d]`.
struct Access {
  Operation *op;
  Value fragment;
  SmallVector<unsigned> loopDims;
  bool isWrite;
  bool isIdentity(unsigned loopRank) const {
    if (loopDims.size() != loopRank)
      return false;
    for (auto [i, d] : llvm::enumerate(loopDims))
      if (d != i)
        return false;
    return true;
  }
};

/// A candidate layout for a tile.parallel and what it costs.
struct Candidate {
  LinearLayout layout;
  std::string origin;
  unsigned conversions = 0;
  bool valid = true;
};

class LayoutInference {
public:
  LayoutInference(KernelOp kernel)
      : kernel(kernel), target(getTargetInfo(kernel)) {}

  LogicalResult run();

private:
  // Collection.
  LogicalResult collectAccesses();
  LogicalResult checkWarps(Operation *op, int64_t threads);
  // Levels.
  LogicalResult assignUserLayouts();
  LogicalResult assignGemmLayouts();
  LogicalResult propagate();
  void resolveLoop(ParallelOp loop, bool freeChoice);
  void assignDefaults();
  void convertReduceTargets();
  LogicalResult materialize();

  // Helpers.
  // Both take the layout by value: it may live in `layouts`, whose storage
  // moves when a fragment is added.
  LogicalResult setFixed(Value fragment, LinearLayout layout, Operation *origin,
                         StringRef what);
  bool setIfUnknown(Value fragment, LinearLayout layout, Operation *origin);
  LinearLayout projectForAccess(const LinearLayout &loopLayout,
                                const Access &access, unsigned loopRank);
  std::optional<LinearLayout> getReduceTargetLayout(ReduceOp reduce);
  Candidate evaluate(ParallelOp loop, LinearLayout layout, std::string origin);
  Value createConversion(Value fragment, const LinearLayout &layout);

  KernelOp kernel;
  std::unique_ptr<TargetInfo> target;
  llvm::MapVector<Value, LinearLayout> layouts;
  DenseMap<Value, Operation *> origins;
  DenseSet<Value> fixed;
  llvm::MapVector<Operation *, LinearLayout> loopLayouts;
  DenseMap<Operation *, std::string> loopOrigins;
  DenseMap<Operation *, SmallVector<Access>> accesses;
  SmallVector<ParallelOp> loops;
  // Conversions to materialize: (fragment, layout, user op, operand index or
  // -1 for a loop, copy in, copy out).
  struct Conversion {
    Value fragment;
    LinearLayout layout;
    Operation *user;
    int operandIndex;
    bool copyIn, copyOut;
  };
  SmallVector<Conversion> conversions;

public:
  bool emitRemarks = false;
};

LogicalResult LayoutInference::checkWarps(Operation *op, int64_t threads) {
  int64_t warpSize = target->getWarpSize();
  if (threads % warpSize != 0 || !llvm::isPowerOf2_64(threads / warpSize))
    return op->emitOpError("layout inference needs a power-of-two number of "
                           "warps of ")
           << warpSize << " threads (" << target->getChipName() << "), got "
           << threads << " threads";
  return success();
}

LogicalResult LayoutInference::setFixed(Value fragment, LinearLayout layout,
                                        Operation *origin, StringRef what) {
  auto it = layouts.find(fragment);
  if (it != layouts.end() && fixed.contains(fragment)) {
    if (it->second == layout)
      return success();
    InFlightDiagnostic diag =
        origin->emitOpError("conflicting layouts for a fragment: ")
        << what << " needs "
        << LinearLayoutAttr::get(kernel.getContext(), layout);
    diag.attachNote(origins[fragment]->getLoc())
        << "but this use requires "
        << LinearLayoutAttr::get(kernel.getContext(), it->second);
    return diag;
  }
  layouts[fragment] = std::move(layout);
  origins[fragment] = origin;
  fixed.insert(fragment);
  return success();
}

bool LayoutInference::setIfUnknown(Value fragment, LinearLayout layout,
                                   Operation *origin) {
  if (layouts.count(fragment))
    return false;
  layouts[fragment] = std::move(layout);
  origins[fragment] = origin;
  return true;
}

LogicalResult LayoutInference::collectAccesses() {
  WalkResult result = kernel.walk([&](ParallelOp loop) {
    loops.push_back(loop);
    unsigned rank = loop.getExtents().size();
    if (failed(checkWarps(loop, getNumThreads(loop, kernel))))
      return WalkResult::interrupt();
    SmallVector<Access> &list = accesses[loop];
    WalkResult inner = loop.getBody().walk([&](Operation *op) {
      Value memref;
      ValueRange indices;
      bool isWrite = false;
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        memref = load.getMemRef();
        indices = load.getIndices();
      } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
        memref = store.getMemRef();
        indices = store.getIndices();
        isWrite = true;
      } else {
        return WalkResult::advance();
      }
      if (!isFragment(memref))
        return WalkResult::advance();
      if (!memref.getDefiningOp<AllocOp>()) {
        op->emitOpError("accesses a fragment that is not a tile.alloc "
                        "result; layout inference cannot follow it");
        return WalkResult::interrupt();
      }
      Access access{op, memref, {}, isWrite};
      auto type = cast<MemRefType>(memref.getType());
      for (auto [d, index] : llvm::enumerate(indices)) {
        auto arg = dyn_cast<BlockArgument>(index);
        if (!arg || arg.getOwner() != &loop.getBody().front() ||
            (!access.loopDims.empty() &&
             arg.getArgNumber() <= access.loopDims.back()) ||
            loop.getExtents()[arg.getArgNumber()] != type.getDimSize(d)) {
          op->emitOpError("unsupported fragment access in tile.parallel: "
                          "each index must be a distinct induction variable, "
                          "in loop order, over a dimension of the same "
                          "extent");
          return WalkResult::interrupt();
        }
        access.loopDims.push_back(arg.getArgNumber());
      }
      (void)rank;
      list.push_back(std::move(access));
      return WalkResult::advance();
    });
    return inner;
  });
  return failure(result.wasInterrupted());
}

LogicalResult LayoutInference::assignUserLayouts() {
  for (Operation &op : kernel.getBody().front()) {
    auto alloc = dyn_cast<AllocOp>(op);
    if (!alloc || !isFragment(alloc.getResult()))
      continue;
    if (auto user = dyn_cast_or_null<LinearLayoutAttr>(alloc.getLayoutAttr()))
      if (failed(setFixed(alloc.getResult(), user.getLinearLayout(), alloc,
                          "the user layout")))
        return failure();
  }
  for (ParallelOp loop : loops)
    if (auto user = dyn_cast_or_null<LinearLayoutAttr>(loop.getLayoutAttr())) {
      loopLayouts[loop] = user.getLinearLayout();
      loopOrigins[loop] = "user";
    }
  return success();
}

LogicalResult LayoutInference::assignGemmLayouts() {
  SmallVector<GemmOp> gemms;
  kernel.walk([&](GemmOp gemm) { gemms.push_back(gemm); });
  struct Plan {
    GemmOp gemm;
    MmaLayouts layouts;
  };
  SmallVector<Plan, 2> plans;
  for (GemmOp gemm : gemms) {
    int64_t threads = getNumThreads(gemm, kernel);
    if (failed(checkWarps(gemm, threads)))
      return failure();
    FailureOr<MmaAttr> mma = getOrSelectMma(gemm, *target, threads);
    if (failed(mma))
      return failure();
    plans.push_back({gemm, target->getMmaLayouts(gemm, *mma)});
  }
  // Accumulators first: they are written, so they cannot be converted.
  // The partial sums in flight (`partials`) are an accumulator of the same
  // instructions.
  for (Plan &plan : plans) {
    if (failed(setFixed(plan.gemm.getC(), plan.layouts.c, plan.gemm,
                        "the accumulator of this gemm")))
      return failure();
    if (Value partials = plan.gemm.getPartials())
      if (failed(setFixed(partials, plan.layouts.c, plan.gemm,
                          "the partial sums of this gemm")))
        return failure();
  }
  // Register operands: read only, converted on conflict.
  for (Plan &plan : plans) {
    GemmOp gemm = plan.gemm;
    for (auto [index, operand] :
         llvm::enumerate(SmallVector<Value>{gemm.getA(), gemm.getB()})) {
      if (!isFragment(operand))
        continue;
      LinearLayout needed = index == 0 ? plan.layouts.a : plan.layouts.b;
      auto it = layouts.find(operand);
      if (it == layouts.end()) {
        layouts[operand] = needed;
        origins[operand] = gemm;
        fixed.insert(operand);
      } else if (it->second != needed) {
        conversions.push_back(
            {operand, needed, gemm, static_cast<int>(index), true, false});
      }
    }
  }
  return success();
}

std::optional<LinearLayout>
LayoutInference::getReduceTargetLayout(ReduceOp reduce) {
  auto it = layouts.find(reduce.getSource());
  if (it == layouts.end() || !isFragment(reduce.getTarget()))
    return std::nullopt;
  LinearLayout projected = it->second.projectOut(reduce.getDim());
  auto targetShape =
      getPaddedShape(cast<MemRefType>(reduce.getTarget().getType()).getShape());
  SmallVector<LinearLayout::InDim> dims(projected.getInDims());
  return LinearLayout(std::move(dims), targetShape);
}

LinearLayout LayoutInference::projectForAccess(const LinearLayout &loopLayout,
                                               const Access &access,
                                               unsigned loopRank) {
  LinearLayout result = loopLayout;
  for (int d = loopRank - 1; d >= 0; --d)
    if (!llvm::is_contained(access.loopDims, static_cast<unsigned>(d)))
      result = result.projectOut(d);
  return result;
}

Candidate LayoutInference::evaluate(ParallelOp loop, LinearLayout layout,
                                    std::string origin) {
  Candidate candidate{std::move(layout), std::move(origin)};
  unsigned rank = loop.getExtents().size();
  for (const Access &access : accesses[loop]) {
    auto it = layouts.find(access.fragment);
    if (it == layouts.end())
      continue;
    LinearLayout seen = projectForAccess(candidate.layout, access, rank);
    bool ok = seen.isContainedIn(it->second) &&
              (!access.isWrite || it->second.isContainedIn(seen));
    if (ok)
      continue;
    // Reads convert into a temporary; writes only when the loop writes the
    // whole fragment.
    if (access.isWrite && !access.isIdentity(rank))
      candidate.valid = false;
    ++candidate.conversions;
  }
  return candidate;
}

void LayoutInference::resolveLoop(ParallelOp loop, bool freeChoice) {
  unsigned rank = loop.getExtents().size();
  int64_t threads = getNumThreads(loop, kernel);
  SmallVector<Candidate> candidates;
  if (auto it = loopLayouts.find(loop); it != loopLayouts.end()) {
    candidates.push_back(evaluate(loop, it->second, loopOrigins[loop]));
  } else {
    for (const Access &access : accesses[loop]) {
      if (!access.isIdentity(rank))
        continue;
      auto it = layouts.find(access.fragment);
      if (it != layouts.end())
        candidates.push_back(evaluate(loop, it->second, "fragment"));
    }
    if (candidates.empty() && !freeChoice)
      return;
    // A plain partition of the iteration space, vectorized for the widest
    // element accessed.
    int64_t bits = 8;
    loop.getBody().walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (auto type = dyn_cast<MemRefType>(operand.getType()))
          bits = std::max<int64_t>(bits, type.getElementTypeBitWidth());
    });
    candidates.push_back(evaluate(
        loop, getPartitionLayout(loop.getExtents(), threads, bits, *target),
        "partition"));
  }
  // Fewest conversions, then least replication, then widest vectors; ties
  // keep the first candidate (program order, then the plain partition).
  const Candidate *best = nullptr;
  auto key = [](const Candidate &c) {
    return std::make_tuple(c.conversions, c.layout.getReplication(),
                           -c.layout.getVectorWidth());
  };
  for (const Candidate &c : candidates)
    if (c.valid && (!best || key(c) < key(*best)))
      best = &c;
  if (!best)
    best = &candidates.front();
  LinearLayout chosen = best->layout;
  loopLayouts[loop] = chosen;
  loopOrigins[loop] = best->origin;

  // Derive unknown fragments from the loop; convert where needed.
  for (const Access &access : accesses[loop]) {
    LinearLayout seen = projectForAccess(chosen, access, rank);
    if (setIfUnknown(access.fragment, seen, loop))
      continue;
    const LinearLayout &have = layouts.find(access.fragment)->second;
    bool ok = seen.isContainedIn(have) &&
              (!access.isWrite || have.isContainedIn(seen));
    if (ok)
      continue;
    auto existing = llvm::find_if(conversions, [&](const Conversion &c) {
      return c.user == loop && c.fragment == access.fragment;
    });
    if (existing != conversions.end()) {
      existing->copyIn |= !access.isWrite;
      existing->copyOut |= access.isWrite;
      continue;
    }
    conversions.push_back(
        {access.fragment, seen, loop, -1, !access.isWrite, access.isWrite});
  }
}

LogicalResult LayoutInference::propagate() {
  bool changed = true;
  while (changed) {
    changed = false;
    // tile.parallel loops whose accessed fragments have layouts.
    for (ParallelOp loop : loops) {
      if (loopLayouts.count(loop) &&
          llvm::all_of(accesses[loop], [&](const Access &a) {
            return layouts.count(a.fragment);
          }))
        continue;
      size_t before = layouts.size() + loopLayouts.size();
      if (loopLayouts.count(loop)) {
        // Known loop layout: derive the fragments it accesses.
        LinearLayout known = loopLayouts.find(loop)->second;
        unsigned rank = loop.getExtents().size();
        for (const Access &access : accesses[loop])
          setIfUnknown(access.fragment, projectForAccess(known, access, rank),
                       loop);
      } else {
        resolveLoop(loop, /*freeChoice=*/false);
      }
      changed |= layouts.size() + loopLayouts.size() != before;
    }
    // Reductions: the target is the source without the reduced dimension.
    kernel.walk([&](ReduceOp reduce) {
      if (std::optional<LinearLayout> projected = getReduceTargetLayout(reduce))
        changed |= setIfUnknown(reduce.getTarget(), *projected, reduce);
    });
    // Fragment-to-fragment copies of the same shape: share layouts.
    kernel.walk([&](CopyOp copy) {
      if (!isFragment(copy.getSource()) || !isFragment(copy.getTarget()))
        return;
      auto src = layouts.find(copy.getSource());
      auto dst = layouts.find(copy.getTarget());
      if (src != layouts.end() && dst == layouts.end())
        changed |= setIfUnknown(copy.getTarget(), src->second, copy);
      else if (dst != layouts.end() && src == layouts.end())
        changed |= setIfUnknown(copy.getSource(), dst->second, copy);
    });
  }
  return success();
}

void LayoutInference::assignDefaults() {
  // Targets of reductions last, from their sources (propagate): a
  // partition of their own would not be the source layout without the
  // reduced dimension.
  DenseSet<Value> reduceTargets;
  kernel.walk(
      [&](ReduceOp reduce) { reduceTargets.insert(reduce.getTarget()); });
  for (bool targets : {false, true}) {
    for (Operation &op : kernel.getBody().front()) {
      auto alloc = dyn_cast<AllocOp>(op);
      if (!alloc || !isFragment(alloc.getResult()) ||
          layouts.count(alloc.getResult()) ||
          reduceTargets.contains(alloc.getResult()) != targets)
        continue;
      // Threads of the first user (fragments used only inside a tile.ws are
      // distributed over its warpgroups).
      int64_t threads = kernel.getThreads();
      for (Operation *user : alloc->getUsers()) {
        threads = getNumThreads(user, kernel);
        break;
      }
      layouts[alloc.getResult()] =
          getPartitionLayout(alloc.getType().getShape(), threads,
                             alloc.getType().getElementTypeBitWidth(), *target);
      origins[alloc.getResult()] = alloc;
    }
    (void)propagate(); // (fails only on fixed layouts, which these are not)
  }
}

void LayoutInference::convertReduceTargets() {
  // A reduction writes its target in the source layout without the reduced
  // dimension (the target may keep it with size 1). A target with another
  // layout (a gemm's, a user's, a loop's) is written through a temporary,
  // copied into it after (and from it before, without `clear`).
  kernel.walk([&](ReduceOp reduce) {
    std::optional<LinearLayout> projected = getReduceTargetLayout(reduce);
    auto have = layouts.find(reduce.getTarget());
    if (!projected || have == layouts.end())
      return;
    auto same = [&](StringRef dim) {
      return have->second.getBases(dim) == projected->getBases(dim);
    };
    if (same(LinearLayout::kRegister) && same(LinearLayout::kLane) &&
        same(LinearLayout::kWarp))
      return;
    conversions.push_back(
        {reduce.getTarget(), *projected, reduce,
         static_cast<int>(reduce.getTargetMutable().getOperandNumber()),
         !reduce.getClear(), true});
  });
}

Value LayoutInference::createConversion(Value fragment,
                                        const LinearLayout &layout) {
  auto alloc = fragment.getDefiningOp<AllocOp>();
  OpBuilder b(alloc);
  b.setInsertionPointAfter(alloc);
  auto converted = AllocOp::create(b, alloc.getLoc(), alloc.getType());
  converted.setLayoutAttr(LinearLayoutAttr::get(b.getContext(), layout));
  return converted.getResult();
}

LogicalResult LayoutInference::materialize() {
  MLIRContext *ctx = kernel.getContext();
  for (Conversion &conv : conversions) {
    Value converted = createConversion(conv.fragment, conv.layout);
    Operation *user = conv.user;
    OpBuilder b(user);
    if (conv.copyIn)
      CopyOp::create(b, user->getLoc(), conv.fragment, ValueRange(), converted,
                     ValueRange());
    if (conv.operandIndex >= 0) {
      user->setOperand(conv.operandIndex, converted);
    } else {
      user->walk([&](Operation *op) {
        op->replaceUsesOfWith(conv.fragment, converted);
      });
    }
    if (conv.copyOut) {
      b.setInsertionPointAfter(user);
      CopyOp::create(b, user->getLoc(), converted, ValueRange(), conv.fragment,
                     ValueRange());
    }
    if (emitRemarks)
      user->emitRemark("inserted a layout conversion of a fragment: ")
          << (conv.copyIn ? "copied in before" : "")
          << (conv.copyIn && conv.copyOut ? ", " : "")
          << (conv.copyOut ? "copied back after" : "") << " this op";
  }
  for (auto &[fragment, layout] : layouts)
    if (auto alloc = fragment.getDefiningOp<AllocOp>())
      if (!alloc.getLayoutAttr())
        alloc.setLayoutAttr(LinearLayoutAttr::get(ctx, layout));
  for (auto &[op, layout] : loopLayouts) {
    auto loop = cast<ParallelOp>(op);
    loop.setLayoutAttr(LinearLayoutAttr::get(ctx, layout));
    if (emitRemarks)
      loop.emitRemark() << "layout from " << loopOrigins[op] << ": replication "
                        << layout.getReplication() << ", "
                        << layout.getRegistersPerThread()
                        << " iterations per thread, vector width "
                        << layout.getVectorWidth();
  }
  return success();
}

LogicalResult LayoutInference::run() {
  if (failed(collectAccesses()) || failed(assignUserLayouts()) ||
      failed(assignGemmLayouts()) || failed(propagate()))
    return failure();
  // Free choice, one loop at a time in program order, re-propagating after
  // each decision.
  for (ParallelOp loop : loops) {
    if (loopLayouts.count(loop))
      continue;
    resolveLoop(loop, /*freeChoice=*/true);
    if (failed(propagate()))
      return failure();
  }
  assignDefaults();
  convertReduceTargets();
  assignSharedLayouts(kernel, *target, emitRemarks);
  // A loop that must write through a conversion it cannot make.
  for (ParallelOp loop : loops) {
    Candidate c = evaluate(loop, loopLayouts.find(loop)->second, "");
    if (!c.valid)
      return loop.emitOpError("writes a fragment whose layout conflicts "
                              "with the loop's layout through an access that "
                              "does not cover the whole fragment");
  }
  return materialize();
}

struct LayoutInferencePass
    : public tile::impl::LayoutInferenceBase<LayoutInferencePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels) {
      // Layouts partition over the threads of the kernel and its tile.ws
      // regions: their geometry must hold on the target first.
      if (failed(getTargetInfo(kernel)->verifyKernel(kernel)))
        return signalPassFailure();
      LayoutInference inference(kernel);
      inference.emitRemarks = emitRemarks;
      if (failed(inference.run()))
        return signalPassFailure();
    }
  }
};

} // namespace
