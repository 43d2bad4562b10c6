//===- ScratchReuse.cpp - Scratch tiles in dead shared tiles ----*- C++ -*-===//
//
// A fragment -> fragment copy between layouts goes through a scratch tile in
// shared memory, used only between the barriers around the copy. Where a
// kernel would not fit the chip's shared memory with its scratch tiles
// (FlashAttention on AMD's 64 KiB of LDS: Q, K and V take all of it, and P
// moves from the MFMA accumulator layout into the A operand layout), the
// scratch can borrow the storage of a shared tile whose contents are dead
// during the copy: a tile that the copy's block fully rewrites before any
// read, reads only before the copy, and that nothing outside the block
// uses. The barrier the conversion starts with orders it after those reads;
// the barrier the synchronization step puts before the next write of the
// tile orders that write after the conversion.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Resources.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

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
static bool isDeadAt(LoweringContext &ctx, AllocOp tile, Operation *op) {
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

DenseMap<Value, Value>
mlir::tile::lowering::findScratchHosts(LoweringContext &ctx) {
  DenseMap<Value, Value> hosts;
  SmallVector<AllocOp> tiles;
  // Hosts are the kernel's own tiles, not other ops' scratch.
  llvm::SmallPtrSet<Value, 8> scratchTiles;
  for (auto [op, scratch] : ctx.scratch)
    scratchTiles.insert(scratch);
  for (auto [op, staging] : ctx.storeStaging)
    scratchTiles.insert(staging);
  for (AllocOp alloc : ctx.kernel.getBody().front().getOps<AllocOp>())
    if (getMemoryKind(alloc.getType()) == MemoryKind::Shared &&
        !scratchTiles.contains(alloc.getResult()))
      tiles.push_back(alloc);
  for (auto [op, scratch] : ctx.scratch) {
    if (!isa<CopyOp>(op))
      continue;
    auto scratchAlloc = scratch.getDefiningOp<AllocOp>();
    int64_t bytes = getSharedTileSizeInBytes(scratchAlloc);
    for (AllocOp tile : tiles) {
      if (tile == scratchAlloc || getSharedAlignment(tile) < 16 ||
          getSharedTileSizeInBytes(tile) < bytes || !isDeadAt(ctx, tile, op))
        continue;
      hosts[scratch] = tile.getResult();
      break;
    }
  }
  return hosts;
}
