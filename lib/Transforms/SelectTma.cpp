//===- SelectTma.cpp - Tensor copies for pipelined loads --------*- C++ -*-===//
//
// `tile-select-tma`: on chips with a tensor copy engine, marks the copies a
// pipe hands off `tma` in a version of the kernel that the host launches
// only when every tensor those copies read allows tensor copies (aligned
// base, rows 16-byte multiples apart, unit innermost stride, extents a
// tensor map can describe); the original kernel runs otherwise. A copy
// that cannot be a tensor copy (a 1-D tile, rows under 16 bytes, padded
// shared rows, a converting copy) stays on the copy engine beside the
// pipe's tensor copies: its threads arrive on the slot's barrier when their
// copies land. A hand-off that barriers cannot count (copies in a later
// stage, a nested loop numbered from 0) keeps its whole pipe on the copy
// engine. Pipes whose copies are already `tma` (written so by hand) are
// the caller's choice and are left as they are. In the tensor-copy version,
// copies of accumulators into global tensors become tensor stores through
// staging buffers where those fit (`tile.tma_store`, Epilogue.h); the
// host's test then covers their tensors too.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Resources.h"
#include "tile/Transforms/Utils.h"

#include "tile/Dialect/ChipDescription.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_SELECTTMA
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// Why `copy` cannot be a tensor copy of `tensorCopies` whatever the call,
/// or "".
static std::string checkStatically(CopyOp copy, KernelOp kernel,
                                   const TensorCopyInfo &tensorCopies) {
  MemRefType src = copy.getSourceType(), dst = copy.getTargetType();
  if (dst.getRank() != 2 || src.getRank() < 2 || src.getRank() > 5)
    return "tensor copies here move 2-D tiles of tensors of rank 2 to 5";
  Type elt = src.getElementType();
  if (elt != dst.getElementType())
    return "the copy converts its element type";
  if (!elt.isF16() && !elt.isBF16() && !elt.isF32() && !isFloat8(elt) &&
      !elt.isInteger(8) && !elt.isInteger(16) && !elt.isInteger(32))
    return "tensor copies here move f16, bf16, f32, 8-bit float and 8-, 16- "
           "or 32-bit integer tiles";
  Value source = copy.getSource();
  if (kernel->isAncestor(source.getParentRegion()->getParentOp()))
    return "the tensor is defined in the kernel";
  AllocOp alloc = getRootAlloc(copy.getTarget());
  auto layout = alloc
                    ? dyn_cast_or_null<SharedLayoutAttr>(alloc.getLayoutAttr())
                    : SharedLayoutAttr();
  if (!layout)
    return "the shared tile has no layout";
  if (layout.getPad() != 0)
    return "the shared tile has padded rows";
  if (layout.getUnit() != 16)
    return "the shared tile's swizzle permutes 8-byte chunks";
  int64_t bytes = elt.getIntOrFloatBitWidth() / 8;
  int64_t rows = dst.getShape()[0], cols = dst.getShape()[1];
  int64_t boxCols =
      layout.getSwizzle() ? std::min(cols, layout.getSwizzle() / bytes) : cols;
  int64_t maxBox = tensorCopies.getMaxBoxExtent();
  if (rows > maxBox || boxCols > maxBox)
    return "a box of " + std::to_string(rows) + "x" + std::to_string(boxCols) +
           " exceeds " + std::to_string(maxBox) + " elements per dimension";
  if (!spansWholeUnits(boxCols, bytes, 16))
    return "rows of the shared tile are not a multiple of 16 bytes";
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(src.getStridesAndOffset(strides, offset)))
    return "the tensor's layout is not strided";
  int64_t inner = strides.back();
  if (!ShapedType::isDynamic(inner) && inner != 1)
    return "the tensor's innermost stride is " + std::to_string(inner) +
           ", not 1";
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back()) {
    if (!ShapedType::isDynamic(stride) &&
        stride >= tensorCopies.getMaxStrideBytes() / bytes)
      return "the tensor's stride of " + byteCountString(stride, bytes) +
             " bytes exceeds the " +
             std::to_string(tensorCopies.getMaxStrideBytes()) +
             " bytes a tensor map encodes";
    if (!ShapedType::isDynamic(stride) && !spansWholeUnits(stride, bytes, 16))
      return "the tensor's " +
             std::string(stride == strides[strides.size() - 2] ? "row"
                                                               : "outer") +
             " stride is " + byteCountString(stride, bytes) +
             " bytes, not a multiple of 16";
  }
  if (!ShapedType::isDynamic(offset) && !spansWholeUnits(offset, bytes, 16))
    return "the tensor's offset is " + byteCountString(offset, bytes) +
           " bytes, not a multiple of 16";
  return "";
}

/// Why the hand-off of `copy` cannot be counted by barriers, or "". Barrier
/// phases follow the hand-off's sequence number, which must number the
/// copies' iterations once per kernel run: from 0, or, for a loop inside
/// another loop, from the pipe's base (which its passes advance).
static std::string checkHandOff(CopyOp copy, PipeProduceAcquireOp handOff) {
  auto guard = copy->getParentOfType<scf::IfOp>();
  if (guard)
    if (auto stage = guard->getAttrOfType<IntegerAttr>(
            TileDialect::kPipelineStageAttrName);
        stage && stage.getInt() != 0)
      return "the copy runs in pipeline stage " +
             std::to_string(stage.getInt()) + ", not 0";
  bool advanced = llvm::any_of(handOff.getPipe().getUsers(), [](Operation *op) {
    return isa<PipeAdvanceOp>(op);
  });
  for (Operation *op = handOff->getParentOp(); op && !isa<KernelOp>(op);
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op) && op != handOff->getParentOp() &&
        !advanced)
      return "the pipelined loop is inside another loop and its hand-offs "
             "are not numbered from the pipe's base";
  return "";
}

/// The host's test that `tensor` allows tensor copies at run time.
static Value buildRuntimeTest(OpBuilder &b, Location loc, Value tensor,
                              const TensorCopyInfo &tensorCopies) {
  auto type = cast<MemRefType>(tensor.getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  auto rem = [&](Value x, int64_t m) -> Value {
    return arith::RemUIOp::create(b, loc, x, cst(m));
  };
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, tensor);
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, tensor);
  Value first = arith::AddIOp::create(
      b, loc, pointer,
      arith::MulIOp::create(b, loc, meta.getOffset(), cst(bytes)));
  using P = arith::CmpIPredicate;
  int64_t rank = type.getRank();
  auto strides = meta.getStrides();
  auto sizes = meta.getSizes();
  // x mod m == 0, its ops in one order whichever order the compiler
  // evaluates arguments in (the zero first, as tests check it).
  auto isMultiple = [&](Value x, int64_t m) -> Value {
    Value zero = cst(0);
    Value r = rem(x, m);
    return cmp(P::eq, r, zero);
  };
  SmallVector<Value> conds = {isMultiple(first, 16),
                              cmp(P::eq, strides[rank - 1], cst(1))};
  for (int64_t d = rank - 2; d >= 0; --d) {
    Value strideBytes = arith::MulIOp::create(b, loc, strides[d], cst(bytes));
    conds.push_back(isMultiple(strideBytes, 16));
    // Each dimension's elements apart by at least the extent of the next
    // (rows by their length), at most what a map encodes.
    conds.push_back(
        cmp(P::sge, strides[d],
            arith::MulIOp::create(b, loc, strides[d + 1], sizes[d + 1])));
    // Compared in elements: the byte count of a huge stride wraps.
    conds.push_back(
        cmp(P::slt, strides[d], cst(tensorCopies.getMaxStrideBytes() / bytes)));
  }
  // Extents a map describes and i32 box coordinates reach.
  for (Value size : sizes) {
    conds.push_back(cmp(P::sge, size, cst(1)));
    conds.push_back(cmp(P::sle, size, cst(tensorCopies.getMaxTensorExtent())));
  }
  Value all = conds.front();
  for (Value c : ArrayRef<Value>(conds).drop_front())
    all = arith::AndIOp::create(b, loc, all, c);
  return all;
}

namespace {
/// A tensor store's staging: `buffers` panels of `panelBytes`-byte rows.
struct TmaStoreChoice {
  CopyOp copy;
  int64_t buffers;
  int64_t panelBytes;
};
} // namespace

/// Whether `copy`'s rows are several whole 32-byte panels of a tensor store
/// and not whole 64-byte ones (a tile 144 bf16 columns wide).
static bool thinPanels(CopyOp copy) {
  int64_t rowBytes = copy.getSourceType().getShape().back() *
                     copy.getTargetType().getElementTypeBitWidth() / 8;
  return rowBytes > 64 && !whyNotTmaStore(copy, 64).empty() &&
         whyNotTmaStore(copy, 32).empty();
}

/// The fragment -> global copies of `kernel` that its tensor-copy version
/// writes through tensor stores, with their staging buffers: the first of
/// four buffers of 64-byte panel rows, two of 128-byte rows, two of 64-byte
/// rows and one of 128-byte rows that fits beside the kernel's shared
/// memory, two of 128-byte rows first where they hold a whole tile row,
/// eight to one of 32-byte rows where rows are whole panels of those only
/// (or the copy's own
/// `tile.tma_store_panel`, with as many buffers as fit, up to the memory of
/// two 128-byte ones). Four narrow buffers take the memory of two wide
/// ones, but the wait before a panel's barrier then covers the store issued
/// three panels earlier instead of the one just before. Kernels whose
/// lowering adds scratch tiles (layout conversions, cross-warp reductions)
/// keep the register path: the scratch would compete for the same memory;
/// so do kernels with any reduction, as measured.

/// A copy marked `tile.tma_store = 0` is the caller's choice.
static SmallVector<TmaStoreChoice>
selectTmaStores(KernelOp kernel, const ChipDescription &chip, bool remarks) {
  SmallVector<TmaStoreChoice> stores;
  // Any reduction counts (FlashAttention's, within warps, is measured with
  // the register path); a copy between fragments only where it converts.
  bool scratch = kernel
                     .walk([](Operation *op) {
                       return isa<ReduceOp>(op) || needsScratchTile(op)
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     })
                     .wasInterrupted();
  SmallVector<CopyOp> candidates;
  kernel.walk([&](CopyOp copy) {
    auto attr = copy->getAttrOfType<IntegerAttr>(kTmaStoreAttrName);
    if (getMemoryKind(copy.getSourceType()) != MemoryKind::Fragment ||
        getMemoryKind(copy.getTargetType()) != MemoryKind::Global ||
        (attr && attr.getInt() == 0))
      return;
    std::string why = whyNotTmaStore(copy, getTmaStorePanelBytes(copy));
    // The default narrower panels, where wide ones would not do: 64 bytes,
    // or 32 where rows are several of them only (288 bytes, a 144-column
    // bf16 tile; a row of one 32-byte panel stays on the register path).
    if (!why.empty() && !copy->hasAttr(kTmaStorePanelAttrName))
      why = whyNotTmaStore(copy, 64).empty() || thinPanels(copy) ? "" : why;
    if (why.empty() && scratch)
      why = "the kernel's lowering adds scratch tiles to its shared memory";
    if (why.empty())
      candidates.push_back(copy);
    else if (remarks)
      copy.emitRemark("not a tensor store (TMA): ") << why;
  });
  if (candidates.empty())
    return stores;
  // The lowering's layout: the tiles, the staging buffers (1024-byte
  // aligned for the swizzle), then 16 bytes of barriers per pipe slot.
  int64_t barriers = 0;
  kernel.walk([&](PipeCreateOp create) {
    barriers += 16 * cast<PipeType>(create.getPipe().getType()).getSlots();
  });
  int64_t used = computeSharedMemoryBytes(kernel);
  // Consumer warpgroups taking the tiles in turn (tile-warp-specialize)
  // each store through staging buffers of their own.
  auto alternate =
      kernel->getAttrOfType<BoolAttr>(TileDialect::kAlternateTilesAttrName);
  int64_t copies = alternate && alternate.getValue() ? 2 : 1;
  // The staging bytes of the stores chosen so far and `extra`, as
  // tile-allocate-shared will lay them out (stores that never run together
  // share storage).
  int64_t base = llvm::alignTo(used, 1024);
  DenseMap<Operation *, int64_t> stagingBytes;
  SmallVector<CopyOp> chosen;
  auto stagingEnd = [&](CopyOp extra) {
    SmallVector<CopyOp> all(chosen);
    all.push_back(extra);
    int64_t total = 0;
    for (ArrayRef<CopyOp> group : groupTmaStagings(
             all, [&](CopyOp c) { return stagingBytes.lookup(c); }))
      total += llvm::alignTo(stagingBytes.lookup(group.front()), 1024);
    return base + copies * total;
  };
  for (CopyOp copy : candidates) {
    // (buffers, panel bytes) in order of preference.
    SmallVector<std::pair<int64_t, int64_t>> options;
    if (auto panel = copy->getAttrOfType<IntegerAttr>(kTmaStorePanelAttrName)) {
      for (int64_t n = 2 * kTmaStorePanelBytes / panel.getInt(); n >= 1; n /= 2)
        options.push_back({n, panel.getInt()});
    } else {
      bool narrow = whyNotTmaStore(copy, 64).empty();
      bool wide = whyNotTmaStore(copy, kTmaStorePanelBytes).empty();
      // Where two wide buffers hold a whole tile row, no panel of a tile
      // waits for another's store, and half as many panels take half the
      // barriers and fences.
      int64_t rowBytes = copy.getSourceType().getShape()[1] *
                         copy.getTargetType().getElementTypeBitWidth() / 8;
      if (wide && rowBytes <= 2 * kTmaStorePanelBytes)
        options.push_back({2, kTmaStorePanelBytes});
      if (narrow)
        options.push_back({4, 64});
      if (wide && rowBytes > 2 * kTmaStorePanelBytes)
        options.push_back({2, kTmaStorePanelBytes});
      if (narrow)
        options.push_back({2, 64});
      if (wide)
        options.push_back({1, kTmaStorePanelBytes});
      // Rows that are whole 32-byte panels only: as much staging as two
      // 128-byte buffers, in eight.
      if (!narrow && !wide && thinPanels(copy))
        for (int64_t n = 8; n >= 1; n /= 2)
          options.push_back({n, 32});
    }
    int64_t buffers = 0, panelBytes = 0;
    int64_t bits = copy.getTargetType().getElementTypeBitWidth();
    for (auto [n, bytes] : options) {
      // No more buffers than panels.
      n = std::min<int64_t>(
          n, llvm::PowerOf2Ceil(copy.getSourceType().getShape()[1] * bits /
                                (8 * bytes)));
      stagingBytes[copy] = getTmaStoreStagingBytes(copy, n, bytes);
      int64_t end = stagingEnd(copy);
      if (static_cast<int64_t>(llvm::alignTo(end, 8)) + barriers <=
          chip.maxSharedMemoryPerBlock) {
        buffers = n;
        panelBytes = bytes;
        break;
      }
    }
    if (!buffers) {
      if (remarks)
        copy.emitRemark("not a tensor store (TMA): its staging buffer does "
                        "not fit beside the kernel's shared memory");
      continue;
    }
    chosen.push_back(copy);
    stores.push_back({copy, buffers, panelBytes});
  }
  return stores;
}

/// Whether `value`, computed in `kernel`, depends on the block's rank in
/// its cluster.
static bool dependsOnClusterRank(Value value, KernelOp kernel) {
  Operation *def = value.getDefiningOp();
  if (!def || !kernel->isAncestor(def))
    return false;
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *op) { return kernel->isAncestor(op); };
  SetVector<Operation *> slice;
  if (failed(getBackwardSlice(def, &slice, options)))
    return true;
  return llvm::any_of(slice, [](Operation *op) {
    return isa<gpu::ClusterBlockIdOp, gpu::ClusterIdOp>(op);
  });
}

/// In a kernel whose blocks run in clusters of two (`tile.cluster = 2`,
/// tile-persistent-blocks), marks `tile.multicast` the tensor copies both
/// blocks of a cluster make alike: source and position independent of the
/// block's rank.
static void markMulticast(KernelOp kernel, bool emitRemarks) {
  auto cluster =
      kernel->getAttrOfType<IntegerAttr>(TileDialect::kClusterAttrName);
  if (!cluster || cluster.getInt() < 2)
    return;
  kernel.walk([&](CopyOp copy) {
    if (!copy.getTma() || !getHandOff(copy) ||
        dependsOnClusterRank(copy.getSource(), kernel) ||
        llvm::any_of(copy.getSourceOffsets(), [&](Value offset) {
          return dependsOnClusterRank(offset, kernel);
        }))
      return;
    copy->setAttr(TileDialect::kMulticastAttrName,
                  UnitAttr::get(kernel.getContext()));
    if (emitRemarks)
      copy.emitRemark("multicast: both blocks of a cluster read this tile; "
                      "each loads half of it for both");
  });
}

namespace {
struct SelectTmaPass : public tile::impl::SelectTmaBase<SelectTmaPass> {
  using SelectTmaBase::SelectTmaBase;

  LogicalResult runOnKernel(KernelOp kernel) {
    // Tensor stores are decided here, for the tensor-copy version only
    // (the host's test then covers their tensors too): a count written
    // elsewhere would store through a tensor map nobody checked.
    kernel.walk([](CopyOp copy) {
      if (getTmaStoreBuffers(copy) > 0)
        copy->removeAttr(kTmaStoreAttrName);
    });
    TargetAttr target = getTargetAttr(kernel);
    std::unique_ptr<TargetInfo> info = getTargetInfo(kernel);
    const TensorCopyInfo *tensorCopies = info->tensorCopies();
    if (!tensorCopies)
      return success();
    // The asynchronous copies of each pipe, and whether all can use TMA.
    llvm::MapVector<Operation *, SmallVector<CopyOp>> pipes;
    DenseMap<Operation *, bool> legal;
    llvm::SmallPtrSet<Operation *, 4> handWritten;
    SmallVector<CopyOp> copies;
    kernel.walk([&](CopyOp copy) {
      if (copy.getAsync())
        copies.push_back(copy);
    });
    for (CopyOp copy : copies) {
      PipeProduceAcquireOp handOff = getHandOff(copy);
      if (!handOff)
        continue;
      Operation *pipe = handOff.getPipe().getDefiningOp();
      // Tensor copies written by hand: the caller vouches for the tensors,
      // so there is nothing to version (a hand-written producer warpgroup
      // has no cp.async fall-back: its consumers run on other warps).
      if (copy.getTma()) {
        handWritten.insert(pipe);
        continue;
      }
      legal.try_emplace(pipe, true);
      // A hand-off that barriers cannot count (or a copy padding with a
      // value other than zero) keeps the whole pipe on the copy engine; a copy
      // that cannot be a tensor copy stays a copy-engine copy beside the others
      // (its threads then arrive on the slot's barrier when their copies land).
      std::string why = checkHandOff(copy, handOff);
      // Padding other than zero is written through registers at the
      // tensor's edge, ordered by the group's wait and barrier: the pipe
      // keeps them.
      if (why.empty() && copy.getNonZeroPadding())
        why = "the copy's padding is not zero (tensor copies fill with zero)";
      if (!why.empty())
        legal[pipe] = false;
      else if (why = checkStatically(copy, kernel, *tensorCopies); why.empty())
        pipes[pipe].push_back(copy);
      // What the tensor's type says (strides, offset) is reported always:
      // the caller can change it; the rest with remarks=true.
      if (!why.empty() &&
          (emitRemarks || StringRef(why).starts_with("the tensor's")))
        copy.emitRemark("not a tensor copy (TMA): ") << why;
    }
    SmallVector<CopyOp> selected;
    for (auto &[pipe, pipeCopies] : pipes)
      if (!handWritten.contains(pipe) && legal[pipe])
        selected.append(pipeCopies.begin(), pipeCopies.end());
    if (selected.empty())
      return success();

    SmallVector<TmaStoreChoice> stores =
        selectTmaStores(kernel, *target.getDescription(), emitRemarks);

    // The host's test, over each tensor once.
    OpBuilder b(kernel);
    Location loc = kernel.getLoc();
    llvm::SetVector<Value> tensors;
    for (CopyOp copy : selected)
      tensors.insert(copy.getSource());
    for (TmaStoreChoice store : stores)
      tensors.insert(store.copy.getTarget());
    Value test;
    for (Value tensor : tensors) {
      Value t = buildRuntimeTest(b, loc, tensor, *tensorCopies);
      test = test ? arith::AndIOp::create(b, loc, test, t).getResult() : t;
    }
    auto branch = scf::IfOp::create(b, loc, test, /*withElseRegion=*/true);
    // The original kernel in the else branch, the TMA version in the then.
    b.setInsertionPointToStart(branch.thenBlock());
    auto tmaKernel = cast<KernelOp>(b.clone(*kernel));
    tmaKernel.setSymName((kernel.getSymName() + "_tma").str());
    kernel->moveBefore(branch.elseBlock()->getTerminator());
    // Walks visit both kernels in the same order.
    SmallVector<CopyOp> original, cloned;
    kernel.walk([&](CopyOp copy) { original.push_back(copy); });
    tmaKernel.walk([&](CopyOp copy) { cloned.push_back(copy); });
    llvm::SmallPtrSet<Operation *, 8> isSelected;
    for (CopyOp copy : selected)
      isSelected.insert(copy);
    DenseMap<Operation *, const TmaStoreChoice *> storeChoices;
    for (const TmaStoreChoice &store : stores)
      storeChoices[store.copy] = &store;
    for (auto [from, to] : llvm::zip_equal(original, cloned)) {
      if (const TmaStoreChoice *store = storeChoices.lookup(from)) {
        to->setAttr(kTmaStoreAttrName, b.getI64IntegerAttr(store->buffers));
        to->setAttr(kTmaStorePanelAttrName,
                    b.getI64IntegerAttr(store->panelBytes));
        if (emitRemarks)
          to.emitRemark("tensor store (TMA) through ")
              << store->buffers << " staging buffer"
              << (store->buffers > 1 ? "s" : "") << " of " << store->panelBytes
              << "-byte panel rows when the tensor allows it at run time";
      }
      if (isSelected.contains(from)) {
        to.setTma(true);
        if (emitRemarks)
          to.emitRemark("tensor copy (TMA) when the tensor allows it at run "
                        "time");
      }
    }
    markMulticast(tmaKernel, emitRemarks);
    // A wait for copy-engine groups (the one after a pipelined loop) has
    // nothing to wait for once every asynchronous copy is a tensor copy:
    // the pipes' barriers order them. The synchronization step places the
    // barriers that later shared-memory writers need.
    // Copy-engine copies on a pipe of tensor copies complete on its
    // barriers too.
    llvm::SmallPtrSet<Operation *, 4> tmaPipes;
    tmaKernel.walk([&](CopyOp copy) {
      // (A tensor copy outside any hand-off belongs to no pipe.)
      if (PipeProduceAcquireOp handOff =
              copy.getTma() ? getHandOff(copy) : nullptr)
        tmaPipes.insert(handOff.getPipe().getDefiningOp());
    });
    bool cpAsyncLeft = false;
    tmaKernel.walk([&](Operation *op) {
      if (auto copy = dyn_cast<CopyOp>(op)) {
        PipeProduceAcquireOp handOff = getHandOff(copy);
        cpAsyncLeft |=
            copy.getAsync() && !copy.getTma() &&
            !(handOff && tmaPipes.contains(handOff.getPipe().getDefiningOp()));
      }
      cpAsyncLeft |= isa<AsyncCommitOp>(op);
    });
    if (!cpAsyncLeft)
      tmaKernel.walk([](AsyncWaitOp wait) { wait.erase(); });
    return success();
  }

  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels)
      if (failed(runOnKernel(kernel)))
        return signalPassFailure();
  }
};
} // namespace
