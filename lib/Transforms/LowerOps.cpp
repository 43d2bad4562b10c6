//===- LowerOps.cpp - Lower tile ops to per-thread code ---------*- C++ -*-===//
//
// The driver of `tile-lower-ops`. After layout inference every fragment and
// tile.parallel has a distributed layout and every shared tile a memory
// layout. For each kernel, this pass checks the kernel against its target
// and the decisions earlier passes wrote into it (barriers and barrier ids
// by tile-insert-barriers, pipe plans by tile-plan-pipes), lowers the
// allocations (shared tiles to views of dynamic shared memory, fragments to
// per-thread register arrays) and then each tile op with its per-op lowering
// (Lowering/<Op>.cpp), innermost first. The per-op lowerings are
// target-independent; instructions come from the kernel's TargetInfo
// (lib/Target/<vendor>/). The kernel op itself stays; the conversion to gpu
// outlines it afterwards.
//
//===----------------------------------------------------------------------===//

#include "Lowering/LoweringContext.h"

#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Resources.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tile {
#define GEN_PASS_DEF_LOWEROPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

static LogicalResult checkLayouts(KernelOp kernel) {
  WalkResult result = kernel.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      MemoryKind kind = getMemoryKind(alloc.getType());
      if ((kind == MemoryKind::Fragment &&
           !isa_and_nonnull<LinearLayoutAttr>(alloc.getLayoutAttr())) ||
          (kind == MemoryKind::Shared &&
           !isa_and_nonnull<SharedLayoutAttr>(alloc.getLayoutAttr()))) {
        alloc.emitOpError("has no layout: run tile-layout-inference before "
                          "tile-lower-ops");
        return WalkResult::interrupt();
      }
    }
    if (auto loop = dyn_cast<ParallelOp>(op))
      if (!isa_and_nonnull<LinearLayoutAttr>(loop.getLayoutAttr())) {
        loop.emitOpError("has no layout: run tile-layout-inference before "
                         "tile-lower-ops");
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The scratch tiles tile-allocate-scratch gave ops (their `scratch`
/// operands): staging buffers of tensor stores, conversion and reduction
/// scratch.
static void collectScratch(LoweringContext &ctx) {
  ctx.kernel.walk([&](Operation *op) {
    Value scratch;
    if (auto copy = dyn_cast<CopyOp>(op)) {
      scratch = copy.getScratch();
      if (scratch && getTmaStoreBuffers(copy) > 0) {
        ctx.storeStaging[copy] = scratch;
        return;
      }
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      scratch = reduce.getScratch();
    }
    if (scratch)
      ctx.scratch[op] = scratch;
  });
}

static LogicalResult lowerAllocs(LoweringContext &ctx) {
  KernelOp kernel = ctx.kernel;
  OpBuilder &b = ctx.b;
  auto loc = [&] { return ctx.loc(); };
  auto idx = [&](int64_t v) { return ctx.idx(v); };
  Block &body = kernel.getBody().front();
  b.setInsertionPointToStart(&body);
  ctx.currentLoc = kernel.getLoc();
  MLIRContext *mlirCtx = kernel.getContext();
  ctx.tidValue = gpu::ThreadIdOp::create(b, loc(), gpu::Dimension::x);
  ctx.initUniformWarp();
  Attribute sharedSpace = getMemorySpaceAttr(mlirCtx, MemoryKind::Shared);
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), sharedSpace);
  Value dynamicShared;

  SmallVector<AllocOp> allocs;
  kernel.walk([&](AllocOp alloc) { allocs.push_back(alloc); });
  // Shared tiles where tile-allocate-shared placed them.
  int64_t sharedEnd = 0;
  for (AllocOp alloc : allocs) {
    if (getMemoryKind(alloc.getType()) != MemoryKind::Shared)
      continue;
    std::optional<uint64_t> offset = alloc.getOffset();
    if (!offset)
      return alloc.emitOpError("has no place in shared memory: run "
                               "tile-allocate-shared before tile-lower-ops");
    sharedEnd = std::max(sharedEnd, addSizes(static_cast<int64_t>(*offset),
                                             getSharedTileSizeInBytes(alloc)));
  }
  if (failed(verifySharedPlacement(kernel)))
    return failure();
  int64_t limit = ctx.target.getChip().maxSharedMemoryPerBlock;
  int64_t offset = 0;
  for (AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    ctx.currentLoc = alloc.getLoc();
    if (alloc->getParentOp() != kernel)
      return alloc.emitOpError("must be at the top level of its tile.kernel "
                               "to be lowered");
    switch (getMemoryKind(type)) {
    case MemoryKind::Shared: {
      if (!dynamicShared)
        dynamicShared = gpu::DynamicSharedMemoryOp::create(b, loc(), bytesType);
      auto layout = cast<SharedLayoutAttr>(alloc.getLayoutAttr());
      offset = static_cast<int64_t>(*alloc.getOffset());
      int64_t bytes = getSharedTileSizeInBytes(alloc);
      int64_t bits = type.getElementTypeBitWidth();
      auto viewType = MemRefType::get({bytes * 8 / bits}, type.getElementType(),
                                      MemRefLayoutAttrInterface(), sharedSpace);
      Value view = memref::ViewOp::create(b, loc(), viewType, dynamicShared,
                                          idx(offset), ValueRange());
      ctx.shared[alloc.getResult()] = {view, type, layout, bits};
      break;
    }
    case MemoryKind::Fragment: {
      LinearLayout layout =
          cast<LinearLayoutAttr>(alloc.getLayoutAttr()).getLinearLayout();
      auto regType = MemRefType::get({layout.getRegistersPerThread()},
                                     type.getElementType());
      Value regs = memref::AllocaOp::create(b, loc(), regType);
      ctx.frags[alloc.getResult()] = {regs, type, layout};
      break;
    }
    case MemoryKind::Local:
      return alloc.emitOpError("local tiles are not supported by the "
                               "lowering yet");
    default:
      return alloc.emitOpError("unexpected memory space");
    }
  }
  offset = sharedEnd;
  // Barriers of the pipes fed by tensor copies, then their initialization.
  for (auto &[pipe, entry] : ctx.barrierPipes) {
    if (!dynamicShared)
      dynamicShared = gpu::DynamicSharedMemoryOp::create(b, loc(), bytesType);
    offset = llvm::alignTo(offset, 8);
    auto type = MemRefType::get({2 * entry.slots}, b.getI64Type(),
                                MemRefLayoutAttrInterface(), sharedSpace);
    entry.barriers = memref::ViewOp::create(b, loc(), type, dynamicShared,
                                            idx(offset), ValueRange());
    offset += 16 * entry.slots;
  }
  ctx.currentLoc = kernel.getLoc();
  // A counter per pipe some thread advances, starting at 0.
  for (auto create : body.getOps<PipeCreateOp>()) {
    if (llvm::none_of(create->getUsers(),
                      [](Operation *user) { return isa<PipeAdvanceOp>(user); }))
      continue;
    Value counter = memref::AllocaOp::create(
        b, loc(), MemRefType::get({1}, b.getIndexType()));
    Value at = idx(0);
    memref::StoreOp::create(b, loc(), idx(0), counter, ValueRange{at});
    ctx.pipeCounters[create.getPipe()] = counter;
  }
  initBarrierPipes(ctx);
  // What the lowering adds (scratch tiles, pipe barriers) can push a kernel
  // that tile-check-resources accepted over the chip's limit.
  if (offset > limit) {
    // Scratch tiles that lie over another tile take no bytes of their own.
    int64_t scratch = 0;
    for (auto [op, tile] : ctx.scratch) {
      auto alloc = tile.getDefiningOp<AllocOp>();
      bool hosted = llvm::any_of(allocs, [&](AllocOp other) {
        return other != alloc && other.getOffset() == alloc.getOffset() &&
               !llvm::is_contained(llvm::make_second_range(ctx.scratch),
                                   other.getResult());
      });
      if (!hosted)
        scratch += getSharedTileSizeInBytes(alloc);
    }
    return kernel.emitOpError("needs ")
           << offset << " bytes of shared memory once lowered (" << scratch
           << " of them scratch tiles for layout conversions and cross-warp "
              "reductions), more than the "
           << limit << " a block has on " << ctx.target.getChipName();
  }
  ctx.kernel->setAttr(TileDialect::kSharedMemoryBytesAttrName,
                      b.getI64IntegerAttr(offset));
  return success();
}

/// Ops the per-op lowerings replace.
static bool isLoweredOp(Operation *op) {
  return isa<FillOp, CopyOp, GemmOp, ParallelOp, ReduceOp, WsOp, BarrierOp,
             TurnWaitOp, TurnPassOp, AsyncCommitOp, AsyncWaitOp, MmaWaitOp,
             PipeBaseOp, PipeAdvanceOp, PipeProduceAcquireOp,
             PipeProduceCommitOp, PipeConsumeWaitOp, PipeConsumeReleaseOp>(op);
}

static LogicalResult lowerOp(LoweringContext &ctx, Operation *op) {
  ctx.b.setInsertionPoint(op);
  ctx.currentLoc = op->getLoc();
  LogicalResult result =
      TypeSwitch<Operation *, LogicalResult>(op)
          .Case<FillOp>([&](auto o) { return lowerFill(ctx, o); })
          .Case<CopyOp>([&](auto o) { return lowerCopy(ctx, o); })
          .Case<GemmOp>([&](auto o) { return lowerGemm(ctx, o); })
          .Case<ParallelOp>([&](auto o) { return lowerParallel(ctx, o); })
          .Case<ReduceOp>([&](auto o) { return lowerReduce(ctx, o); })
          .Case<WsOp>([&](auto o) { return lowerWs(ctx, o); })
          .Case<BarrierOp>([&](auto o) { return lowerBarrier(ctx, o); })
          .Case<TurnWaitOp, TurnPassOp>(
              [&](auto o) { return lowerRegionTurn(ctx, o); })
          .Case<AsyncCommitOp>([&](auto o) { return lowerAsyncCommit(ctx, o); })
          .Case<AsyncWaitOp>([&](auto o) { return lowerAsyncWait(ctx, o); })
          .Case<MmaWaitOp>([&](auto o) { return lowerMmaWait(ctx, o); })
          .Case<PipeBaseOp, PipeAdvanceOp, PipeProduceAcquireOp,
                PipeProduceCommitOp, PipeConsumeWaitOp, PipeConsumeReleaseOp>(
              [&](Operation *o) { return lowerPipeOp(ctx, o); })
          .Default([](Operation *o) {
            return o->emitOpError("has no lowering in tile-lower-ops");
          });
  if (failed(result))
    return failure();
  if (isLoweredOp(op))
    op->erase();
  return success();
}

/// Erases the ops of type OpTy in `kernel` that `select` picks (innermost
/// last), which the lowering left without uses; `message` reports one that
/// still has some.
template <typename OpTy>
static LogicalResult eraseUnused(
    KernelOp kernel, StringRef message,
    function_ref<bool(OpTy)> select = [](OpTy) { return true; }) {
  SmallVector<OpTy> ops;
  kernel.walk([&](OpTy op) {
    if (select(op))
      ops.push_back(op);
  });
  for (OpTy op : llvm::reverse(ops)) {
    if (!op->use_empty())
      return op.emitOpError(message);
    op->erase();
  }
  return success();
}

/// Tensor stores written by hand (`tile.tma_store` is tile-select-tma's
/// decision, which checks them): the target must have tensor copies and the
/// copy must be one the lowering can split into panels.
static LogicalResult checkTmaStores(KernelOp kernel, const TargetInfo &target) {
  WalkResult result = kernel.walk([&](CopyOp copy) {
    if (getTmaStoreBuffers(copy) <= 0)
      return WalkResult::advance();
    if (!target.tensorCopies()) {
      copy.emitOpError("is a tensor store (tile.tma_store), which needs a "
                       "chip with tensor copies; ")
          << target.getChipName() << " has none";
      return WalkResult::interrupt();
    }
    if (std::string why = whyNotTmaStore(copy, getTmaStorePanelBytes(copy));
        !why.empty()) {
      copy.emitOpError("cannot be a tensor store (tile.tma_store): ") << why;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// A proxy fence after each write tile-insert-barriers marked
/// (`tile.proxy_fence`; the copy-engine waits it marked fence when
/// lowered, SyncOps.cpp).
static void emitProxyFences(LoweringContext &ctx) {
  ctx.kernel.walk([&](Operation *op) {
    if (!op->hasAttr(TileDialect::kProxyFenceAttrName) ||
        isa<AsyncWaitOp, PipeConsumeWaitOp>(op))
      return;
    ctx.b.setInsertionPointAfter(op);
    ctx.target.emitAsyncProxyFence(ctx.b, op->getLoc());
  });
}

/// The hardware barriers of tile.ws regions are tile-insert-barriers'
/// decision (or the user's): a region that synchronizes needs one, a
/// pingpong region its turn barriers, all within the target's barriers.
static LogicalResult checkBarrierIds(KernelOp kernel,
                                     const TargetInfo &target) {
  int64_t available = target.getNumNamedBarriers();
  WalkResult result = kernel.walk([&](WsOp ws) {
    auto check = [&](int64_t first, int64_t count, StringRef what) {
      if (first + count - 1 <= available)
        return true;
      ws.emitOpError("uses ")
          << what << " up to id " << first + count - 1 << ", but "
          << target.getChipName() << " has " << available
          << " barriers for subsets of the block";
      return false;
    };
    bool syncs = false;
    ws.walk([&](Operation *op) { syncs |= synchronizesThreads(op); });
    std::optional<int64_t> id = ws.getBarrier();
    if (syncs && !id) {
      ws.emitOpError("synchronizes its warpgroups but has no barrier of its "
                     "own: run tile-insert-barriers before tile-lower-ops");
      return WalkResult::interrupt();
    }
    if (id && !check(*id, 1, "a barrier"))
      return WalkResult::interrupt();
    std::optional<int64_t> turns = ws.getTurnBarrier();
    if (ws.getPingpong() && !turns) {
      ws.emitOpError("takes turns (pingpong) but has no turn barriers: run "
                     "tile-insert-barriers before tile-lower-ops");
      return WalkResult::interrupt();
    }
    if (turns && !check(*turns, ws.getWarpgroups().size(), "turn barriers"))
      return WalkResult::interrupt();
    if (std::optional<ArrayRef<int64_t>> ring = ws.getRegionTurn())
      if (!check(std::max((*ring)[0], (*ring)[2]), 1, "turn barriers"))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Gemms whose product's consumer runs one gemm late (tile.consumer_late
/// with MMAs left in flight): checked on the tile IR, before lowering
/// rewrites the tiles the rule looks at.
static LogicalResult checkLateConsumers(KernelOp kernel) {
  WalkResult walk = kernel.walk([&](GemmOp gemm) {
    if (!consumesLate(gemm) || !gemm.getMmaGroupsInFlight().value_or(0))
      return WalkResult::advance();
    std::string why;
    if (canConsumeLate(gemm, findProductConsumer(gemm), why))
      return WalkResult::advance();
    gemm.emitOpError("consumes its product one gemm late "
                     "(tile.consumer_late), which its loop does not allow: ")
        << why;
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

static LogicalResult lowerKernel(KernelOp kernel) {
  std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
  if (failed(target->verifyKernel(kernel)) || failed(checkLayouts(kernel)) ||
      failed(checkTmaStores(kernel, *target)) ||
      failed(checkLateConsumers(kernel)))
    return failure();
  LoweringContext ctx(kernel, *target);
  if (auto cluster =
          kernel->getAttrOfType<IntegerAttr>(TileDialect::kClusterAttrName)) {
    ctx.clusterSize = cluster.getInt();
    if (ctx.clusterSize > 1 && !ctx.clusters)
      return kernel.emitOpError("runs in clusters of ")
             << ctx.clusterSize << " blocks, which " << target->getChipName()
             << " does not have";
  }
  // The block's barriers are tile-insert-barriers' decision, in the IR.
  if (!kernel->hasAttr(TileDialect::kSynchronizedAttrName))
    return kernel.emitOpError("has no barriers around its shared-memory "
                              "writes yet: run tile-insert-barriers before "
                              "tile-lower-ops");
  kernel->removeAttr(TileDialect::kSynchronizedAttrName);
  if (failed(scheduleLateEpilogues(ctx)))
    return failure();
  collectScratch(ctx);
  emitProxyFences(ctx);
  if (failed(checkBarrierIds(kernel, *target)) ||
      failed(collectBarrierPipes(ctx)) || failed(checkPipes(ctx)) ||
      failed(lowerAllocs(ctx)))
    return failure();
  // Lower innermost ops first (tile.ws bodies before the tile.ws), in
  // program order otherwise.
  SmallVector<Operation *> ops;
  kernel.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (isLoweredOp(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (ctx.loweredEarly.erase(op)) {
      op->erase();
      continue;
    }
    if (failed(lowerOp(ctx, op)))
      return failure();
  }
  // Tensor stores complete before the block exits.
  if (ctx.tensorStores) {
    Operation *end = kernel.getBody().front().getTerminator();
    ctx.b.setInsertionPoint(end);
    ctx.currentLoc = end->getLoc();
    ctx.tensorCopies->emitTensorStoreWait(ctx.b, ctx.loc(), 0,
                                          /*readOnly=*/false);
  }
  // Blocks of a cluster that arrive on each other's barriers leave
  // together.
  if (ctx.clusterRank) {
    Operation *end = kernel.getBody().front().getTerminator();
    ctx.b.setInsertionPoint(end);
    ctx.currentLoc = end->getLoc();
    ctx.clusters->emitClusterBarrier(ctx.b, ctx.loc());
  }
  // Rounding to 8-bit floats, which LLVM has no types for, is the target's
  // instruction.
  SmallVector<arith::TruncFOp> truncs;
  kernel.getBody().walk([&](arith::TruncFOp op) {
    if (isFloat8(op.getType()))
      truncs.push_back(op);
  });
  for (arith::TruncFOp op : truncs) {
    ctx.b.setInsertionPoint(op);
    // From f32 (f16 and bf16 widened exactly, f64 narrowed first).
    Value in = op.getIn();
    Type f32 = ctx.b.getF32Type();
    if (in.getType().getIntOrFloatBitWidth() < 32)
      in = arith::ExtFOp::create(ctx.b, op.getLoc(), f32, in);
    else if (in.getType().getIntOrFloatBitWidth() > 32)
      in = arith::TruncFOp::create(ctx.b, op.getLoc(), f32, in);
    FailureOr<Value> rounded = target->emitFloat8Truncate(
        ctx.b, op.getLoc(), in, cast<FloatType>(op.getType()));
    if (failed(rounded))
      return failure();
    op.replaceAllUsesWith(*rounded);
    op.erase();
  }
  // Every other op of the kernel is one the GPU lowering knows: a tile op
  // left here (one added to the dialect without a lowering) or an op of an
  // unregistered dialect is an error, not silently passed on.
  WalkResult unknown = kernel.getBody().walk([&](Operation *op) {
    if (op->getName().isRegistered() &&
        (!isa<TileDialect>(op->getDialect()) ||
         isa<YieldOp, AllocOp, PipeCreateOp, RingPositionOp>(op)))
      return WalkResult::advance();
    op->emitOpError("is not lowered by tile-lower-ops: a kernel may hold tile "
                    "ops and ops of registered dialects only");
    return WalkResult::interrupt();
  });
  if (unknown.wasInterrupted())
    return failure();
  // Values a late epilogue carries to the next tile become SSA values only
  // from allocas of the function's entry block: its allocas move to the
  // start, ahead of the barriers' initialization.
  Block &entry = kernel.getBody().front();
  for (Operation *alloca : llvm::reverse(ctx.entryAllocas))
    alloca->moveBefore(&entry.front());
  // Views of tiles (e.g. versions of multi-buffered tiles), pipes and
  // allocations are now unused.
  if (failed(eraseUnused<memref::SubViewOp>(
          kernel, "view of a tile is still used after lowering",
          [](memref::SubViewOp view) {
            return getRootAlloc(view.getResult()) != nullptr;
          })) ||
      failed(
          eraseUnused<PipeCreateOp>(kernel, "is still used after lowering")) ||
      failed(eraseUnused<AllocOp>(kernel, "is still used after lowering")))
    return failure();
  return success();
}

namespace {
struct LowerOpsPass : public tile::impl::LowerOpsBase<LowerOpsPass> {
  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels)
      if (failed(lowerKernel(kernel)))
        return signalPassFailure();
  }
};
} // namespace
