//===- AllocateShared.cpp - Shared tiles in shared memory -------*- C++ -*-===//
//
// `tile-allocate-shared`: the byte offset of every shared tile of a kernel
// in the block's shared memory, written as the tile's `offset`. Tiles lie
// one after the other in program order, each at its alignment.
//
// A fragment -> fragment copy between layouts goes through a scratch tile
// used only between the barriers around the copy. Where a kernel would not
// fit the chip's shared memory with its scratch tiles (FlashAttention on
// AMD's 64 KiB of LDS: Q, K and V take all of it, and P moves from the MFMA
// accumulator layout into the A operand layout), the scratch borrows the
// storage of a shared tile whose contents are dead during the copy: a tile
// that the copy's block fully rewrites before any read, reads only before
// the copy, and that nothing outside the block uses. The barrier the
// conversion starts with orders it after those reads; the barrier
// tile-insert-barriers puts before the next write of the tile orders that
// write after the conversion.
//
// The staging buffers of two tensor stores that never run in one pass of
// their code (the whole tile's epilogue and the partial sums of a split
// tile, in the two branches of one scf.if) share storage, whether or not
// the kernel needs the bytes: shared memory a kernel does not claim is L1
// cache. The same threads issue both stores; the lowering of a store whose
// staging lies over another's waits, before its first panel, until every
// earlier store has read its buffers (TmaStore.cpp).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Resources.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tile {
#define GEN_PASS_DEF_ALLOCATESHARED
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// Whether `op` overwrites all of `tile` before anything else in its block
/// touches it, and completes when it ends.
static bool isFullWrite(Operation *op, AllocOp tile) {
  auto copy = dyn_cast<CopyOp>(op);
  return copy && copy.getTarget() == tile.getResult() &&
         copy.getTargetOffsets().empty() && !copy.getAsync() && !copy.getTma();
}

/// Whether the contents of shared tile `tile` are dead at `op`: every block
/// that uses the tile starts by overwriting it, op's block uses it only
/// before op, and no block using it encloses op or lies inside op's block
/// (so nothing flows into op's block, or out of it, through the tile). Warp
/// specialized regions run concurrently and are left alone.
static bool isDeadAt(AllocOp tile, Operation *op) {
  if (op->getParentOfType<WsOp>())
    return false;
  Block *block = op->getBlock();
  DenseMap<Block *, Operation *> firstUser;
  for (Operation *user : tile->getUsers()) {
    // Asynchronous MMAs may still read their operands after the gemm.
    auto gemm = dyn_cast<GemmOp>(user);
    if (user->getParentOfType<WsOp>() ||
        (gemm && gemm.getMmaGroupsInFlight().value_or(0) > 0))
      return false;
    Block *userBlock = user->getBlock();
    if (userBlock == block) {
      if (!user->isBeforeInBlock(op))
        return false;
    } else if (userBlock->findAncestorOpInBlock(*op) ||
               block->findAncestorOpInBlock(*user)) {
      return false;
    }
    Operation *&first = firstUser[userBlock];
    if (!first || user->isBeforeInBlock(first))
      first = user;
  }
  if (!firstUser.count(block))
    return false;
  return llvm::all_of(
      firstUser, [&](auto entry) { return isFullWrite(entry.second, tile); });
}

/// The tensor stores of `kernel` with their staging buffers.
static SmallVector<std::pair<CopyOp, AllocOp>>
collectStagings(KernelOp kernel) {
  SmallVector<std::pair<CopyOp, AllocOp>> stores;
  kernel.walk([&](CopyOp copy) {
    if (getTmaStoreBuffers(copy) <= 0 || !copy.getScratch())
      return;
    if (auto alloc = copy.getScratch().getDefiningOp<AllocOp>())
      stores.push_back({copy, alloc});
  });
  return stores;
}

/// Staging buffers that lie over a larger one (their host), as
/// groupTmaStagings groups them.
static DenseMap<Value, Value> findStagingHosts(KernelOp kernel) {
  DenseMap<Operation *, AllocOp> stagingOf;
  SmallVector<CopyOp> stores;
  for (auto [copy, staging] : collectStagings(kernel)) {
    stagingOf[copy] = staging;
    stores.push_back(copy);
  }
  DenseMap<Value, Value> hosts;
  for (ArrayRef<CopyOp> group : groupTmaStagings(stores, [&](CopyOp copy) {
         return getSharedTileSizeInBytes(stagingOf.lookup(copy));
       })) {
    Value host = stagingOf.lookup(group.front()).getResult();
    for (CopyOp member : group.drop_front())
      if (Value guest = stagingOf.lookup(member).getResult(); guest != host)
        hosts[guest] = host;
  }
  return hosts;
}

namespace {
/// The scratch tiles of a kernel's ops, and which of them are those of
/// layout conversions (the only ones that may borrow a dead tile's storage).
struct ScratchTiles {
  llvm::SmallPtrSet<Value, 8> all;
  SmallVector<std::pair<CopyOp, AllocOp>> conversions;
};
} // namespace

static ScratchTiles collectScratchTiles(KernelOp kernel) {
  ScratchTiles result;
  auto &scratchTiles = result.all;
  auto &conversions = result.conversions;
  kernel.walk([&](Operation *op) {
    Value scratch;
    if (auto copy = dyn_cast<CopyOp>(op)) {
      scratch = copy.getScratch();
      if (scratch && getTmaStoreBuffers(copy) == 0)
        if (auto alloc = scratch.getDefiningOp<AllocOp>())
          conversions.push_back({copy, alloc});
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      scratch = reduce.getScratch();
    }
    if (scratch)
      scratchTiles.insert(scratch);
  });
  return result;
}

/// For the scratch tiles of layout conversions, a shared tile of the
/// kernel's own (not another op's scratch) whose contents are dead where the
/// conversion runs and that can hold it.
static DenseMap<Value, Value> findScratchHosts(KernelOp kernel) {
  ScratchTiles scratchTiles = collectScratchTiles(kernel);
  SmallVector<AllocOp> tiles;
  for (AllocOp alloc : kernel.getBody().front().getOps<AllocOp>())
    if (getMemoryKind(alloc.getType()) == MemoryKind::Shared &&
        !scratchTiles.all.contains(alloc.getResult()))
      tiles.push_back(alloc);
  DenseMap<Value, Value> hosts;
  for (auto [copy, scratch] : scratchTiles.conversions) {
    if (hosts.count(scratch.getResult()))
      continue;
    int64_t bytes = getSharedTileSizeInBytes(scratch);
    for (AllocOp tile : tiles) {
      if (getSharedAlignment(tile) < 16 ||
          getSharedTileSizeInBytes(tile) < bytes || !isDeadAt(tile, copy))
        continue;
      hosts[scratch.getResult()] = tile.getResult();
      break;
    }
  }
  return hosts;
}

/// Places the shared tiles of `kernel` one after the other, except the
/// guests of `hosts`, which take their host's offset. Returns the end.
static int64_t place(KernelOp kernel, const DenseMap<Value, Value> &hosts,
                     DenseMap<Value, int64_t> &offsets) {
  int64_t end = 0;
  kernel.walk([&](AllocOp alloc) {
    if (getMemoryKind(alloc.getType()) != MemoryKind::Shared ||
        hosts.count(alloc.getResult()))
      return;
    end = alignSize(end, getSharedAlignment(alloc));
    offsets[alloc.getResult()] = end;
    end = addSizes(end, getSharedTileSizeInBytes(alloc));
  });
  for (auto [guest, host] : hosts)
    offsets[guest] = offsets.lookup(host);
  return end;
}

LogicalResult mlir::tile::verifySharedPlacement(KernelOp kernel) {
  ScratchTiles scratchTiles = collectScratchTiles(kernel);
  DenseMap<Value, CopyOp> conversionOf;
  for (auto [copy, scratch] : scratchTiles.conversions)
    conversionOf[scratch.getResult()] = copy;
  DenseMap<Value, SmallVector<CopyOp>> storesOf;
  for (auto [copy, staging] : collectStagings(kernel))
    storesOf[staging.getResult()].push_back(copy);
  SmallVector<AllocOp> shared;
  kernel.walk([&](AllocOp alloc) {
    if (getMemoryKind(alloc.getType()) == MemoryKind::Shared &&
        alloc.getOffset())
      shared.push_back(alloc);
  });
  // Two tensor stores' staging buffers, where every store of one may share
  // with every store of the other.
  auto stagingsShare = [&](AllocOp a, AllocOp b) {
    auto x = storesOf.find(a.getResult()), y = storesOf.find(b.getResult());
    if (x == storesOf.end() || y == storesOf.end())
      return false;
    return llvm::all_of(x->second, [&](CopyOp p) {
      return llvm::all_of(y->second,
                          [&](CopyOp q) { return tmaStagingsMayShare(p, q); });
    });
  };
  // A conversion's scratch may lie over a tile of the kernel's own that is
  // dead where the conversion runs, or over another conversion's scratch
  // (each is used only between the barriers around its conversion, when
  // neither runs in a tile.ws region beside the other); a tensor store's
  // staging over another's that may share; no other tiles may overlap.
  auto mayShare = [&](AllocOp guest, AllocOp host) {
    if (stagingsShare(guest, host))
      return true;
    auto copy = conversionOf.find(guest.getResult());
    if (copy == conversionOf.end())
      return false;
    auto other = conversionOf.find(host.getResult());
    if (other != conversionOf.end())
      return !copy->second->getParentOfType<WsOp>() &&
             !other->second->getParentOfType<WsOp>();
    return !scratchTiles.all.contains(host.getResult()) &&
           isDeadAt(host, copy->second);
  };
  for (auto [i, a] : llvm::enumerate(shared)) {
    int64_t aBegin = static_cast<int64_t>(*a.getOffset());
    int64_t aEnd = addSizes(aBegin, getSharedTileSizeInBytes(a));
    for (AllocOp b : ArrayRef<AllocOp>(shared).drop_front(i + 1)) {
      int64_t bBegin = static_cast<int64_t>(*b.getOffset());
      int64_t bEnd = addSizes(bBegin, getSharedTileSizeInBytes(b));
      if (aEnd <= bBegin || bEnd <= aBegin || mayShare(a, b) || mayShare(b, a))
        continue;
      InFlightDiagnostic diag =
          b.emitOpError("overlaps bytes [")
          << std::max(aBegin, bBegin) << ", " << std::min(aEnd, bEnd)
          << ") of shared memory with a tile whose contents may be live "
             "there";
      diag.attachNote(a.getLoc()) << "the other tile";
      return diag;
    }
  }
  return success();
}

static LogicalResult allocateShared(KernelOp kernel, const TargetInfo &target) {
  SmallVector<AllocOp> shared, pinned;
  kernel.walk([&](AllocOp alloc) {
    if (getMemoryKind(alloc.getType()) != MemoryKind::Shared)
      return;
    shared.push_back(alloc);
    if (alloc.getOffset())
      pinned.push_back(alloc);
  });
  if (pinned.size() == shared.size())
    return verifySharedPlacement(kernel);
  if (!pinned.empty()) {
    AllocOp free = *llvm::find_if(
        shared, [](AllocOp alloc) { return !alloc.getOffset(); });
    return free.emitOpError("has no offset, but other shared tiles of the "
                            "kernel have one: pin every shared tile's offset "
                            "or none")
               .attachNote(pinned.front().getLoc())
           << "a pinned tile";
  }
  DenseMap<Value, Value> hosts = findStagingHosts(kernel);
  DenseMap<Value, int64_t> offsets;
  int64_t end = place(kernel, hosts, offsets);
  if (end > target.getChip().maxSharedMemoryPerBlock) {
    for (auto entry : findScratchHosts(kernel))
      hosts.insert(entry);
    offsets.clear();
    end = place(kernel, hosts, offsets);
  }
  if (end == kSaturatedSize)
    return kernel.emitOpError("has shared tiles of more than 2^63 bytes");
  Builder b(kernel.getContext());
  for (AllocOp alloc : shared)
    alloc.setOffsetAttr(b.getI64IntegerAttr(offsets.lookup(alloc.getResult())));
  return success();
}

namespace {
struct AllocateSharedPass
    : public tile::impl::AllocateSharedBase<AllocateSharedPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
      return failed(allocateShared(kernel, *target)) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
