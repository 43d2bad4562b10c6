//===- Utils.h - Helpers shared by tile passes ------------------*- C++ -*-===//

#ifndef TILE_TRANSFORMS_UTILS_H
#define TILE_TRANSFORMS_UTILS_H

#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"

namespace mlir::tile {

/// Number of threads that execute `op`: those of the enclosing tile.ws, or
/// the whole block of `kernel`.
int64_t getNumThreads(Operation *op, KernelOp kernel);

/// First thread of the group executing `op` (the first thread of the
/// enclosing tile.ws's first warpgroup, 0 outside one).
int64_t getFirstThread(Operation *op);

/// Whether `value` is a register tile (a memref in fragment memory).
bool isFragment(Value value);

/// Each dimension rounded up to a power of two.
SmallVector<int64_t> getPaddedShape(ArrayRef<int64_t> shape);

/// A plain partition of `shape` over `threads` threads in warps of
/// `target`: vectors of `elementBits`-bit elements as wide as one copy
/// access (TargetInfo::getCopyVectorElements, of elements of at least 8
/// bits), never so wide that threads go idle.
LinearLayout getPartitionLayout(ArrayRef<int64_t> shape, int64_t threads,
                                int64_t elementBits, const TargetInfo &target);

/// The alignment, in elements, that unmasked vector accesses of a copy
/// between global and on-chip memory need: one access of the target
/// (TargetInfo::getCopyVectorElements) of the global element type, halved
/// until it divides the last dimension of the copy extent. It is a multiple
/// of every vector width the lowering uses for the copy; rows of the global
/// operand and its last offset must be multiples of it.
int64_t getCopyVectorWidth(CopyOp copy, const TargetInfo &target);

/// Whether `gemm` promotes its partial sums in one span (promote_k = K), so
/// that its promotion can be deferred by one gemm (`partials`,
/// tile-plan-pipes). Not where its instruction is narrower than its tile:
/// that instruction was narrowed because partial sums of the whole tile
/// would not fit in registers, and deferring holds those of the whole tile.
bool promotesOncePerCall(GemmOp gemm);

/// The fewest slots of the pipe feeding a gemm that promotes one K block
/// late for which its previous block's partial sums are added after its own
/// MMAs are issued (docs/design.md 5.6): with fewer, the consumers holding
/// their slots longer starved the producer (docs/perf.md run 156).
inline constexpr int64_t kMinSlotsForLateAdds = 5;

/// Whether `gemm`'s A is a pipelined shared tile with at least
/// kMinSlotsForLateAdds versions (its root alloc's leading dimension).
bool hasSlotsForLateAdds(GemmOp gemm);

/// Whether `gemm` hands its product to its consumer one gemm late
/// (`tile.consumer_late = true`, tile-fuse-consumer).
bool consumesLate(GemmOp gemm);

/// The `tile.parallel` after `gemm` in its block that reads its
/// accumulator (the consumer of its product), or null.
ParallelOp findProductConsumer(GemmOp gemm);

/// Whether, in the loop around `gemm` (a gemm whose product `consumer`
/// consumes), nothing outside the ops from the gemm to the consumer in
/// their block touches the tiles the consumer reads or writes: then the
/// consumer of one iteration may run at the next iteration's gemm (or, for
/// the last, after the loop) instead of in its place. Says why not in
/// `why`. The consumer may use only values defined outside the loop (or in
/// it), unless `loopValues` is given: then the values of the loop it uses
/// are collected there instead (tile-fuse-consumer passes them through
/// fragments).
bool canConsumeLate(GemmOp gemm, ParallelOp consumer, std::string &why,
                    SmallVectorImpl<Value> *loopValues = nullptr);

/// The instruction `gemm` is computed with: its `mma` attribute, checked
/// against `target` (a user may pin it), or, when it has none, the target's
/// choice, recorded on the gemm. Diagnoses gemms the target cannot compute.
FailureOr<MmaAttr> getOrSelectMma(GemmOp gemm, const TargetInfo &target,
                                  int64_t numThreads);

/// The instruction `gemm` will be computed with, as passes before
/// tile-layout-inference see it: its `mma` attribute, else the target's
/// choice for `numThreads` threads, unrecorded; null where the target has
/// none, without diagnostics (layout inference reports those gemms).
MmaAttr peekMma(GemmOp gemm, const TargetInfo &target, int64_t numThreads);

/// Whether `copy` converts between register tiles of different layouts
/// (through a shared scratch tile).
bool convertsRegisterLayout(CopyOp copy);

/// Whether a reduce of a tile in layout `src` combines partial results
/// across warps (through shared memory, with a barrier).
bool reducesAcrossWarps(ReduceOp op, const LinearLayout &src);

/// Whether tile-allocate-scratch gives `op` a shared scratch tile: a copy
/// converting between register layouts, a reduce across warps (once layout
/// inference has run).
bool needsScratchTile(Operation *op);

/// Whether lowering `op` synchronizes the threads executing it (a barrier,
/// a wait for copies or a hand-off, a conversion between register layouts
/// or a reduce across warps, which exchange data through shared memory).
/// Layouts must have been inferred.
bool synchronizesThreads(Operation *op);

/// Whether `op`, or an op nested in it, may access memory of a kind
/// `selected` accepts (with `writesOnly`, write it): an effect on a memref
/// of such a kind, or on no memref (a resource as a whole, a non-memref
/// value; taken as MemoryKind::Unknown), or an op whose effects are unknown.
/// Ops with recursive effects are judged by their nested ops.
bool mayAccessMemory(Operation *op, function_ref<bool(MemoryKind)> selected,
                     bool writesOnly);

/// Diagnoses a wait of a copy-engine pipe (per-thread copy groups) whose
/// copies other warps commit: the waiting threads cannot wait for them.
LogicalResult verifyCopyEngineWaitThreads(PipeConsumeWaitOp wait);

/// Whether `elements` elements of `bytes` bytes each span a whole number of
/// `align`-byte units. Exact for every int64_t element count (a stride of a
/// huge static tensor must not overflow the product).
bool spansWholeUnits(int64_t elements, int64_t bytes, int64_t align);

/// `elements * bytes` in decimal, exact for every int64_t element count.
std::string byteCountString(int64_t elements, int64_t bytes);

/// The first `tile.ws` region or pipe of `kernel`, which the user wrote
/// (the passes that make them run after the decision passes), or null.
Operation *findHandWrittenSync(KernelOp kernel);

/// Unrolls `loop` by two (upstream's loopUnrollByFactor): the loop runs two
/// iterations of the body each, a loop after it the odd one left.
LogicalResult unrollByTwo(scf::ForOp loop);

/// The blocks of a persistent kernel's loop over tiles (`tile.tile_loop`)
/// at the top level of `body`: the loop's body, then the then-blocks of
/// the tests in it without an else (the test that the tile is in the
/// grid); empty without such a loop.
SmallVector<Block *> getTileLoopBlocks(Block &body);

/// The position of entry `base + offset` of a ring of `slots` buffers
/// (`slots` > 1): a `tile.ring_position` with its slot, `(base + offset) mod
/// slots` (index), and the times the ring wrapped before it, `(base +
/// offset) / slots`, in its low 32 bits (i32). `base` (index, null for 0) is
/// a loop-invariant count, such as a pipe's base; `offset` (index) lies in
/// [0, 2^31), as a pipelined loop's iteration does, negative offsets taken
/// as 0. `tile-carry-ring-positions` carries it through the loop whose
/// iterations `offset` counts, or divides.
std::pair<Value, Value> emitRingPosition(OpBuilder &b, Location loc, Value base,
                                         Value offset, int64_t slots);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_UTILS_H
