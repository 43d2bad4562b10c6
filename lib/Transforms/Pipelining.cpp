//===- Pipelining.cpp - Software pipelining helpers -------------*- C++ -*-===//

#include "tile/Transforms/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;

AllocOp mlir::tile::getRootAlloc(Value value) {
  while (value) {
    if (auto alloc = value.getDefiningOp<AllocOp>())
      return alloc;
    auto view = value.getDefiningOp<memref::SubViewOp>();
    if (!view)
      return nullptr;
    value = view.getSource();
  }
  return nullptr;
}

int64_t mlir::tile::getPipelineStage(Operation *op) {
  auto stage =
      op->getAttrOfType<IntegerAttr>(TileDialect::kPipelineStageAttrName);
  return stage ? stage.getInt() : -1;
}

Value mlir::tile::createStageStart(OpBuilder &b, Location loc, scf::ForOp loop,
                                   int64_t stage) {
  return arith::AddIOp::create(
      b, loc, loop.getLowerBound(),
      arith::MulIOp::create(
          b, loc, loop.getStep(),
          arith::ConstantOp::create(
              b, loc, b.getIntegerAttr(loop.getStep().getType(), stage))));
}

PipeProduceAcquireOp mlir::tile::getHandOff(CopyOp copy) {
  for (Operation *op = copy; op && !isa<KernelOp>(op); op = op->getParentOp())
    for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode())
      if (auto acquire = dyn_cast<PipeProduceAcquireOp>(prev))
        return acquire;
  return nullptr;
}

FailureOr<PipeProduceAcquireOp>
mlir::tile::getTensorCopyHandOff(CopyOp copy, bool hasTensorCopies,
                                 StringRef chipName) {
  if (!hasTensorCopies)
    return copy.emitOpError("is a tensor copy (tma), which needs a chip with "
                            "tensor copies; ")
           << chipName << " has none";
  PipeProduceAcquireOp handOff = getHandOff(copy);
  if (!handOff)
    return copy.emitOpError("a tensor copy (tma) must fill a pipe slot: "
                            "expected a tile.pipe.produce_acquire before it");
  return handOff;
}

PipeProduceCommitOp mlir::tile::getCommit(CopyOp copy) {
  for (Operation *op = copy; op && !isa<KernelOp>(op); op = op->getParentOp())
    for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
      if (auto commit = dyn_cast<PipeProduceCommitOp>(next))
        return commit;
  return nullptr;
}

bool mlir::tile::isProducerCopy(Operation *op, scf::ForOp loop) {
  auto copy = dyn_cast<CopyOp>(op);
  if (!copy || getMemoryKind(copy.getSourceType()) != MemoryKind::Global ||
      getMemoryKind(copy.getTargetType()) != MemoryKind::Shared ||
      copy.getSourceType().getElementType() !=
          copy.getTargetType().getElementType())
    return false;
  auto alloc = copy.getTarget().getDefiningOp<AllocOp>();
  return alloc && !loop->isAncestor(alloc);
}

bool mlir::tile::readsTile(Operation *op, Operation *alloc) {
  bool reads = false;
  op->walk([&](Operation *inner) {
    for (OpOperand &operand : inner->getOpOperands()) {
      if (getRootAlloc(operand.get()) != alloc)
        continue;
      if (auto copy = dyn_cast<CopyOp>(inner))
        if (operand.get() == copy.getTarget())
          continue;
      if (auto fill = dyn_cast<FillOp>(inner))
        if (operand.get() == fill.getTarget())
          continue;
      reads = true;
    }
  });
  return reads;
}

llvm::MapVector<Operation *, VersionedBuffer>
mlir::tile::getVersionedBuffers(scf::ForOp loop, ArrayRef<int64_t> stages) {
  llvm::MapVector<Operation *, VersionedBuffer> buffers;
  SmallVector<Operation *> ops;
  for (Operation &op : loop.getBody()->without_terminator())
    ops.push_back(&op);
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (!isProducerCopy(op, loop))
      continue;
    Value target = cast<CopyOp>(op).getTarget();
    VersionedBuffer info{stages[i], INT64_MAX, stages[i]};
    for (auto [j, other] : llvm::enumerate(ops))
      if (j > i && readsTile(other, target.getDefiningOp())) {
        info.firstReadStage = std::min(info.firstReadStage, stages[j]);
        info.lastReadStage = std::max(info.lastReadStage, stages[j]);
      }
    if (info.getNumVersions() > 1)
      buffers[target.getDefiningOp()] = info;
  }
  return buffers;
}
