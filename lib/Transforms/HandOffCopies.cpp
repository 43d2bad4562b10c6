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
#include "mlir/IR/Builders.h"

namespace mlir::tile {
#define GEN_PASS_DEF_HANDOFFCOPIES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A copy to hand off, and the op of the kernel's body that reads its tile
/// first.
struct Candidate {
  CopyOp copy;
  Operation *firstReader;
};

/// Whether `user` (a use of a shared tile other than the copy that fills
/// it) only reads the tile.
bool onlyReads(Operation *user, Value tile) {
  if (auto gemm = dyn_cast<GemmOp>(user))
    return gemm.getC() != tile;
  if (auto copy = dyn_cast<CopyOp>(user))
    return copy.getTarget() != tile;
  return false;
}

/// The copy as a candidate, or none (with `why` set where a remark helps).
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
  Operation *first = nullptr;
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
  }
  if (!first)
    return std::nullopt;
  return Candidate{copy, first};
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
    auto b = OpBuilder::atBlockBegin(&body);
    Value zero;
    for (MutableArrayRef<Candidate> group : groups) {
      Location loc = group.front().copy.getLoc();
      b.setInsertionPointToStart(&body);
      if (!zero)
        zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value pipe = PipeCreateOp::create(b, loc, PipeType::get(&getContext(), 1),
                                        /*plan=*/PipePlanAttr());
      b.setInsertionPoint(group.front().copy);
      PipeProduceAcquireOp::create(b, loc, pipe, zero);
      for (Candidate &c : group) {
        c.copy.setAsync(true);
        if (emitRemarks)
          c.copy.emitRemark("loaded asynchronously, waited for before its "
                            "tile's first reader");
      }
      b.setInsertionPointAfter(group.back().copy);
      PipeProduceCommitOp::create(b, loc, pipe, zero);
      b.setInsertionPoint(group.front().firstReader);
      PipeConsumeWaitOp::create(b, loc, pipe, zero, /*inFlight=*/0);
    }
  }
};

} // namespace
