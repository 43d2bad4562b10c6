//===- WarpSpecializeOrder.cpp - The producer's one-time hand-offs -------===//
//
// tile-hand-off-copies places a kernel's one-time hand-offs where their
// copies were, early, for the kernels that are not specialized; in a
// specialized kernel the producer issues them in the order the consumers
// wait for them instead.
//
//===----------------------------------------------------------------------===//

#include "WarpSpecializeOrder.h"

#include "tile/Dialect/TileAttrs.h"
#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

/// Moves the one-time hand-offs at the top level of the producer's block
/// (a one-slot pipe's acquire, copies and commit) after the last op of the
/// block holding hand-offs of pipes that the consumers, in their
/// corresponding block, wait for first.
static void orderInBlock(Block &producerBody, Block &consumerBody) {
  DenseMap<Value, Operation *> firstWait;
  consumerBody.walk([&](PipeConsumeWaitOp wait) {
    Operation *top = consumerBody.findAncestorOpInBlock(*wait);
    auto [it, added] = firstWait.try_emplace(wait.getPipe(), top);
    if (!added && top->isBeforeInBlock(it->second))
      it->second = top;
  });
  SmallVector<PipeProduceAcquireOp> acquires;
  for (Operation &op : producerBody)
    if (auto acquire = dyn_cast<PipeProduceAcquireOp>(op))
      if (cast<PipeType>(acquire.getPipe().getType()).getSlots() == 1)
        acquires.push_back(acquire);
  for (PipeProduceAcquireOp acquire : acquires) {
    Value pipe = acquire.getPipe();
    Operation *wait = firstWait.lookup(pipe);
    if (!wait)
      continue;
    SmallVector<Operation *> handOff = {acquire};
    Operation *op = acquire->getNextNode();
    for (; op && !isa<PipeProduceCommitOp>(op); op = op->getNextNode())
      if (isa<CopyOp>(op))
        handOff.push_back(op);
    if (!op || cast<PipeProduceCommitOp>(op).getPipe() != pipe)
      continue;
    handOff.push_back(op);
    // The last op after the hand-off that holds another pipe's hand-offs
    // which the consumers wait for before this one.
    Operation *last = nullptr;
    for (Operation *next = op->getNextNode(); next;
         next = next->getNextNode()) {
      bool earlier = false;
      next->walk([&](Operation *inner) {
        auto produce = dyn_cast<PipeProduceCommitOp>(inner);
        if (!produce || produce.getPipe() == pipe)
          return;
        Operation *otherWait = firstWait.lookup(produce.getPipe());
        earlier |= otherWait && otherWait->isBeforeInBlock(wait);
      });
      if (earlier)
        last = next;
    }
    if (!last)
      continue;
    for (Operation *moved : llvm::reverse(handOff))
      moved->moveAfter(last);
  }
}

void mlir::tile::orderOneTimeHandOffs(WsOp producer, WsOp consumer) {
  Block &producerBody = producer.getBody().front();
  Block &consumerBody = consumer.getBody().front();
  orderInBlock(producerBody, consumerBody);
  // Both regions keep the kernel's loop over tiles and its tests.
  SmallVector<Block *> producerBlocks = getTileLoopBlocks(producerBody);
  SmallVector<Block *> consumerBlocks = getTileLoopBlocks(consumerBody);
  if (producerBlocks.size() == consumerBlocks.size())
    for (auto [p, c] : llvm::zip(producerBlocks, consumerBlocks))
      orderInBlock(*p, *c);
}
