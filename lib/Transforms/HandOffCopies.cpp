//===- HandOffCopies.cpp - Asynchronous one-time copies ---------*- C++ -*-===//
//
// `tile-hand-off-copies`: the synchronous copies that load a pipelined
// kernel's other shared tiles (FlashAttention's queries, the rotated key
// loop's first keys and last values) are handed off through one-slot pipes,
// so that tile-select-tma can make them tensor copies and
// tile-warp-specialize can give them to the producer warpgroup; each is
// waited for right before the first op that reads its tile.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Utils.h"

#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::tile {
#define GEN_PASS_DEF_HANDOFFCOPIES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A copy to hand off, the op of its block that reads its tile first, and
/// the one by which every read (MMAs included) is done.
struct Candidate {
  CopyOp copy;
  Operation *firstReader;
  Operation *lastReader;
};

/// The op by which the MMAs of `gemm` that read the tile are complete: the
/// gemm itself, or for one that leaves them in flight the
/// `tile.mma_wait 0` after it in its block; null if there is none.
Operation *mmasDoneAt(GemmOp gemm) {
  if (gemm.getMmaGroupsInFlight().value_or(0) == 0)
    return gemm;
  for (Operation *op = gemm->getNextNode(); op; op = op->getNextNode())
    if (auto wait = dyn_cast<MmaWaitOp>(op); wait && wait.getPending() == 0)
      return wait;
  return nullptr;
}

/// Whether `user` (a use of a shared tile other than the copy that fills
/// it) only reads the tile.
bool onlyReads(Operation *user, Value tile) {
  if (auto gemm = dyn_cast<GemmOp>(user))
    return gemm.getC() != tile;
  if (auto copy = dyn_cast<CopyOp>(user))
    return copy.getTarget() != tile;
  return false;
}

/// The copy as a candidate, or none.
std::optional<Candidate> asCandidate(CopyOp copy, Block &body) {
  if (copy.getAsync() || copy.getTma())
    return std::nullopt;
  if (auto keep = copy->getAttrOfType<BoolAttr>(TileDialect::kHandOffAttrName);
      keep && !keep.getValue())
    return std::nullopt;
  if (getMemoryKind(copy.getSourceType()) != MemoryKind::Global ||
      getMemoryKind(copy.getTargetType()) != MemoryKind::Shared)
    return std::nullopt;
  Value tile = copy.getTarget();
  if (!tile.getDefiningOp<AllocOp>())
    return std::nullopt;
  Operation *first = nullptr, *last = nullptr;
  for (Operation *user : tile.getUsers()) {
    if (user == copy)
      continue;
    if (!onlyReads(user, tile))
      return std::nullopt;
    Operation *top = body.findAncestorOpInBlock(*user);
    if (!top || !copy->isBeforeInBlock(top))
      return std::nullopt;
    if (!first || top->isBeforeInBlock(first))
      first = top;
    // In a loop over tiles the slot is released once the tile's readers
    // are done, their MMAs included.
    Operation *done = user;
    if (auto gemm = dyn_cast<GemmOp>(user))
      done = mmasDoneAt(gemm);
    Operation *doneTop = done ? body.findAncestorOpInBlock(*done) : nullptr;
    if (!doneTop)
      return std::nullopt;
    if (!last || last->isBeforeInBlock(doneTop))
      last = doneTop;
  }
  if (!first)
    return std::nullopt;
  return Candidate{copy, first, last};
}

struct HandOffCopiesPass : tile::impl::HandOffCopiesBase<HandOffCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) { handOff(kernel); });
  }

  void handOff(KernelOp kernel) {
    if (!getTargetInfo(kernel)->tensorCopies())
      return;
    Block &body = kernel.getBody().front();
    // Only kernels that pipeline a loop (they have a pipe) and whose roles
    // are the compiler's to make.
    bool pipelined = false, handWritten = false;
    kernel.walk([&](Operation *op) {
      pipelined |= isa<PipeCreateOp>(op);
      handWritten |= isa<WsOp>(op);
    });
    if (!pipelined || handWritten)
      return;
    handOffIn(kernel, body, /*tileLoop=*/false);
    // A persistent kernel's loop over tiles loads them once per tile: the
    // slot is reused, numbered from the pipe's base and released after
    // the tile's last reader.
    // (Its body is usually one test that the tile is in the grid.)
    for (Block *block : getTileLoopBlocks(body))
      handOffIn(kernel, *block, /*tileLoop=*/true);
  }

  void handOffIn(KernelOp kernel, Block &body, bool tileLoop) {
    SmallVector<Candidate> candidates;
    for (Operation &op : body)
      if (auto copy = dyn_cast<CopyOp>(op))
        if (std::optional<Candidate> c = asCandidate(copy, body))
          candidates.push_back(*c);
    // Copies in a row with the same first reader share a hand-off.
    SmallVector<SmallVector<Candidate>> groups;
    for (const Candidate &c : candidates) {
      if (groups.empty() ||
          groups.back().front().firstReader != c.firstReader ||
          llvm::any_of(candidates, [&](const Candidate &other) {
            // Another candidate's copy between the group and this one.
            return other.firstReader != c.firstReader &&
                   groups.back().back().copy->isBeforeInBlock(other.copy) &&
                   other.copy->isBeforeInBlock(c.copy);
          }))
        groups.emplace_back();
      groups.back().push_back(c);
    }
    Block &kernelBody = kernel.getBody().front();
    auto b = OpBuilder::atBlockBegin(&kernelBody);
    Value zero;
    for (MutableArrayRef<Candidate> group : groups) {
      Location loc = group.front().copy.getLoc();
      b.setInsertionPointToStart(&kernelBody);
      Value pipe = PipeCreateOp::create(b, loc, PipeType::get(&getContext(), 1),
                                        /*plan=*/PipePlanAttr());
      // The hand-off's number: 0, or the pipe's base in a loop over tiles.
      Value seq;
      if (tileLoop) {
        b.setInsertionPointToStart(&body);
        seq = PipeBaseOp::create(b, loc, b.getIndexType(), pipe);
      } else {
        if (!zero)
          zero = arith::ConstantIndexOp::create(b, loc, 0);
        seq = zero;
      }
      b.setInsertionPoint(group.front().copy);
      PipeProduceAcquireOp::create(b, loc, pipe, seq);
      for (Candidate &c : group) {
        c.copy.setAsync(true);
        if (emitRemarks)
          c.copy.emitRemark("loaded asynchronously, waited for before its "
                            "tile's first reader");
      }
      b.setInsertionPointAfter(group.back().copy);
      PipeProduceCommitOp::create(b, loc, pipe, seq);
      b.setInsertionPoint(group.front().firstReader);
      PipeConsumeWaitOp::create(b, loc, pipe, seq, /*inFlight=*/0);
      if (!tileLoop)
        continue;
      Operation *last = group.front().lastReader;
      for (Candidate &c : group)
        if (last->isBeforeInBlock(c.lastReader))
          last = c.lastReader;
      b.setInsertionPointAfter(last);
      PipeConsumeReleaseOp::create(b, loc, pipe, seq);
      b.setInsertionPoint(body.getTerminator());
      PipeAdvanceOp::create(b, loc, pipe,
                            arith::ConstantIndexOp::create(b, loc, 1));
    }
  }
};

} // namespace
