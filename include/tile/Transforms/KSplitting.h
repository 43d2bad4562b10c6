//===- KSplitting.h - Helpers of the K-splitting rewrites -------*- C++ -*-===//
//
// What `tile-split-k` and `tile-stream-k` share: the rules a kernel body's K
// loop must follow to be computed in parts, the f32 workspace the parts go
// through, and the loop that adds a tile's parts in a fixed order.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_KSPLITTING_H
#define TILE_TRANSFORMS_KSPLITTING_H

#include "tile/Dialect/ChipDescription.h"
#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>
#include <string>

namespace mlir::tile {

/// The K loop of a kernel body and the register tile its gemms accumulate
/// into.
struct KLoopCandidate {
  scf::ForOp loop;
  AllocOp accumulator;
};

/// Why the K loop of `body` (the kernel's top block, or the block of a
/// persistent kernel's tile loop that computes one tile) cannot be computed
/// in parts, or "" with `candidate` set: one loop at the top of `body` with
/// bounds defined outside the kernel, without results, whose gemms all
/// accumulate into one f32 register tile allocated at the top of the
/// kernel, zero-filled before the loop and used in it only by those gemms;
/// no global writes before the epilogue; no tile the loop writes (other
/// than the accumulator) read after it.
std::string whyNoKSplit(Block &body, KernelOp kernel,
                        const ChipDescription *chip, KLoopCandidate &candidate);

/// The most parts `kernel`'s K loop is to be computed in: the kernel's
/// integer attribute `attrName` where it has one (an error naming the rule
/// when it asks for more than 1 and `why` is not empty, or its target is not
/// an NVIDIA chip, whose runtime allocates the workspace), else `decided`
/// where `decide` is set, the target is NVIDIA and `why` is empty (written
/// as the attribute, where a test can see it and a user override it), else
/// 1. `why` becomes the reason for 1 (empty when the attribute says 1);
/// `task` names what the parts do ("split the kernel's loop").
FailureOr<int64_t> decideParts(KernelOp kernel, StringRef attrName,
                               StringRef task, bool decide, int64_t decided,
                               std::string &why);

/// Whether `value` is available on the host side of `kernel`: defined above
/// it, or a constant the host can rematerialize.
bool isHostValue(Value value, KernelOp kernel);

/// `value` on the host, before `kernel` (constants defined in the kernel are
/// cloned there).
Value hostValue(OpBuilder &b, Value value, KernelOp kernel);

/// The trip count of `loop` (bounds on the host side of `kernel`), on the
/// host: ceil(max(upper - lower, 0) / step).
Value emitHostTripCount(OpBuilder &b, Location loc, scf::ForOp loop,
                        KernelOp kernel);

/// Erases the ops of `block` that nothing uses and that only compute or
/// allocate, until none is left.
void eraseDeadOps(Block &block);

/// Allocates an f32 workspace of `rows` x `cols` on the host, stream-ordered,
/// freed after what the caller builds at `inside`: the builder is left
/// inside a test that the allocation succeeded (a failed one, reported by
/// the runtime, launches nothing).
Value allocateWorkspace(OpBuilder &b, Location loc, Value rows, Value cols);

/// Adds `count` parts of the tile `acc` from `workspace` into it, in order
/// (part j at `origin(j)`), each through a shared tile: a second register
/// tile of the accumulator's size would double its registers.
void emitPartSum(
    OpBuilder &b, Location loc, Value acc, Value workspace, Value count,
    function_ref<std::pair<Value, Value>(OpBuilder &, Value)> origin);

/// The rows of a tile that one block of a reduction kernel takes where the
/// kernel can be sliced (sliceRows): a tile's parts are then read and its
/// epilogue run by several blocks at once instead of one.
constexpr int64_t kReduceSliceRows = 16;

/// How many blocks the reduction of `acc` (a register tile of BM rows) is
/// spread over: BM / kReduceSliceRows where that is at least 2, else 1.
int64_t countRowSlices(Value acc);

/// Rewrites the reduction kernel body `body` to compute rows [q r, (q + 1) r)
/// of its tile, r = BM / `slices`, q = `slice` (a block index): every tile of
/// `acc`'s shape (the accumulator, the shared part tile) becomes r x BN, its
/// copies from and to global memory move r q rows down, and the
/// `tile.parallel` loops over it run over r x BN with their row index moved
/// by r q wherever it is not the index of such a tile (global addresses,
/// masks). Fails and leaves `body` unchanged where another op touches such a
/// tile (a `tile.reduce`, a gemm) or a loop indexes another register tile by
/// the row (a row vector), whose slicing it does not know.
LogicalResult sliceRows(Block &body, Value acc, Value slice, int64_t slices);

/// Builds a reduction kernel with `build(count)` (its kernel and
/// accumulator; `count` > 1 adds the grid dimension of the row slices,
/// block argument `sliceArg`) over countRowSlices(`acc`) slices, and slices
/// its rows; where sliceRows refuses, rebuilds it with one block per tile.
void buildReduction(
    Value acc, unsigned sliceArg,
    function_ref<std::pair<KernelOp, Value>(int64_t count)> build);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_KSPLITTING_H
