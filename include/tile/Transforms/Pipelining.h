//===- Pipelining.h - Software pipelining helpers ---------------*- C++ -*-===//
//
// Analysis shared by tile-pipeline-planning (which writes a schedule) and
// tile-inject-pipeline (which applies it).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_PIPELINING_H
#define TILE_TRANSFORMS_PIPELINING_H

#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tile {

/// The tile.alloc a memref value is (a view of), if any.
AllocOp getRootAlloc(Value value);

/// Whether `op` or an op nested in it reads the tile `alloc` (the target of
/// a copy or a fill is written, not read).
bool readsTile(Operation *op, Operation *alloc);

/// Whether `op` is a copy from global memory into a whole shared tile
/// allocated outside `loop`: the ops software pipelining overlaps.
bool isProducerCopy(Operation *op, scf::ForOp loop);

/// The stage an scf.if guard of a pipelined loop (or a release) belongs
/// to (`tile.pipeline_stage`), or -1.
int64_t getPipelineStage(Operation *op);

/// The first iteration of `loop` in which its ops of pipeline stage `stage`
/// run: lb + stage * step.
Value createStageStart(OpBuilder &b, Location loc, scf::ForOp loop,
                       int64_t stage);

/// The `tile.pipe.produce_acquire` of the hand-off an asynchronous copy
/// fills: the closest one before it in its block or an enclosing block of
/// its kernel (tile-inject-pipeline puts each iteration's copies between an
/// acquire and a commit), or null.
PipeProduceAcquireOp getHandOff(CopyOp copy);
/// The hand-off a tensor copy (`tma`) fills, or failure after an error at
/// the copy: the target has no tensor copies (`chipName`, `hasTensorCopies`)
/// or no `tile.pipe.produce_acquire` precedes it.
FailureOr<PipeProduceAcquireOp>
getTensorCopyHandOff(CopyOp copy, bool hasTensorCopies, StringRef chipName);
/// The tile.pipe.produce_commit that ends the hand-off `copy` fills: the
/// closest one after it in its block or an enclosing block, or null.
PipeProduceCommitOp getCommit(CopyOp copy);

/// A shared tile a pipelined loop writes in one stage and reads in later
/// ones.
struct VersionedBuffer {
  int64_t writeStage = 0;
  int64_t firstReadStage = 0;
  int64_t lastReadStage = 0;
  int64_t getNumVersions() const { return lastReadStage - writeStage + 1; }
};

/// The shared tiles of `loop` that need several versions under the schedule
/// `stages` (one entry per body op, terminator excluded), keyed by their
/// allocation, in program order of their producer.
llvm::MapVector<Operation *, VersionedBuffer>
getVersionedBuffers(scf::ForOp loop, ArrayRef<int64_t> stages);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_PIPELINING_H
