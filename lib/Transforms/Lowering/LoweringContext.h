//===- LoweringContext.h - State shared by the per-op lowerings -*- C++ -*-===//
//
// `tile-lower-ops` rewrites the block-cooperative tile ops of a kernel into
// what one thread executes. The per-op lowerings (one file each in this
// folder) are target-independent: they distribute tiles over threads,
// address shared tiles through their layouts and mask edges, and ask the
// kernel's `TargetInfo` for every instruction that differs between GPUs.
// This context holds what they share: the lowered buffers, the thread id
// and the helpers that build index arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_LOWERING_LOWERINGCONTEXT_H
#define TILE_LIB_TRANSFORMS_LOWERING_LOWERINGCONTEXT_H

#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/IndexBuilder.h"
#include "tile/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <tuple>

namespace mlir::tile::lowering {

/// A shared tile lowered to a flat view of dynamic shared memory.
struct SharedTile {
  Value view;              // memref<N x elt, workgroup>
  MemRefType type;         // the tile's logical type
  SharedLayoutAttr layout; // swizzle or padding
  int64_t elementBits;
};

/// A shared operand resolved through memref.subview: the root tile, and the
/// element offset of the view's origin in the root's row-major order.
struct SharedRef {
  SharedTile *tile;
  Value origin;
  ArrayRef<int64_t> shape; // the view's shape
};

/// A pipe whose hand-offs are counted by transaction barriers (its copies
/// are tensor copies): per slot a "full" barrier (one arrival with the
/// expected bytes per copy of a hand-off) and an "empty" barrier (one
/// arrival per consumer warp).
struct BarrierPipe {
  int64_t slots = 0;
  int64_t fullArrivals = 0;
  int64_t emptyArrivals = 0;
  /// Threads that also fill each hand-off with copy-engine copies (0 for
  /// none); each arrives on the full barrier when its copies land.
  int64_t engineThreads = 0;
  /// The slot's asynchronous MMAs stay in flight past the release: a
  /// release of hand-off s frees the slot of s - 1, whose MMAs are done.
  bool deferredRelease = false;
  /// Every consumer thread releases the slot (emptyArrivals counts threads,
  /// not warps).
  bool threadRelease = false;
  /// Blocks of the cluster fill the slot together (multicast tensor
  /// copies): each release also arrives on the other blocks' barrier, whose
  /// emptyArrivals count the consumers of every block.
  bool clusterRelease = false;
  Value barriers; // memref<2 x slots x i64> in shared memory: full, empty
};

class LoweringContext {
public:
  LoweringContext(KernelOp kernel, const TargetInfo &target)
      : kernel(kernel), target(target), tensorCopies(target.tensorCopies()),
        clusters(target.clusters()), namedBarriers(target.namedBarriers()),
        b(kernel.getContext()) {}

  KernelOp kernel;
  const TargetInfo &target;
  /// The target's tensor copies and clusters (null without them): the
  /// lowering uses them only after checking that the kernel's tensor
  /// copies, tensor stores and clusters have them (lowerKernel).
  const TensorCopyInfo *tensorCopies;
  const ClusterInfo *clusters;
  /// The target's named barriers (null without them): turns are lowered
  /// only with the barriers tile-insert-barriers gave them.
  const NamedBarrierInfo *namedBarriers;
  OpBuilder b;
  Location currentLoc = UnknownLoc::get(kernel.getContext());
  Value tidValue;
  /// Values copied at the start of a persistent tile loop's body, per loop
  /// and value (see tileLocal).
  DenseMap<std::pair<Operation *, Value>, Value> tileLocals;
  /// Regions inside a tile loop's K loop that run once a tile (a late
  /// epilogue, LateEpilogue.cpp): tileLocal makes its copies at their
  /// start, so that what they compute is not hoisted out of the K loop.
  llvm::SmallPtrSet<Operation *, 4> localScopes;
  /// Allocas that must end up at the start of the kernel's block.
  SmallVector<Operation *> entryAllocas;
  /// The thread's warp and warpgroup (indices), read from lane 0 of the
  /// warp so that the code generator knows they are the same in every lane;
  /// made at the kernel's start where initUniformWarp decides so, else null.
  Value warpValue, warpgroupValue;
  /// Blocks per cluster (`tile.cluster`), and the block's rank in it (i32,
  /// made at the kernel's start when there are several).
  int64_t clusterSize = 1;
  Value clusterRank;
  DenseMap<Value, SharedTile> shared;
  DenseMap<Value, RegisterOperand> frags;
  /// Scratch shared tiles of ops that exchange data through shared memory.
  DenseMap<Operation *, Value> scratch;
  /// Staging tiles of the copies that leave through tensor stores
  /// (TmaStore.cpp).
  DenseMap<Operation *, Value> storeStaging;
  /// Whether some thread issues tensor stores (waited for at the end).
  bool tensorStores = false;
  /// Ops already lowered inside another op's lowering (the consumer of a
  /// gemm with `consumer_chunk`): erased when their turn comes.
  llvm::SmallPtrSet<Operation *, 4> loweredEarly;
  /// Gemms that continue the turn of the gemm before them (takeTurn): they
  /// issue their MMAs without waiting for it.
  llvm::SmallPtrSet<Operation *, 4> turnHeld;
  /// Pipes fed by tensor copies, keyed by their tile.pipe.create value.
  llvm::MapVector<Value, BarrierPipe> barrierPipes;
  /// The pipe and the tile.pipe.produce_acquire of each tensor copy's
  /// hand-off (found before the pipe ops are lowered).
  DenseMap<Operation *, std::pair<Value, Operation *>> tmaHandOffs;
  /// The sequence number each lowered tile.pipe.produce_acquire had when it
  /// was lowered: its copies read it there, since the op is erased and the
  /// number may have been replaced (a lowered tile.pipe.base).
  DenseMap<Operation *, Value> acquiredSeqs;
  /// The loops after which the lowering waited for the asynchronous MMAs
  /// their gemms leave in flight (`mma_groups_in_flight`).
  llvm::SmallPtrSet<Operation *, 4> mmaWaitLoops;
  /// GemmEmission::carriedArrays' arrays, per gemm: {the previous gemm's,
  /// its own}, set for all the gemms of a loop body at the first one's
  /// lowering (the earlier ones are gone by the time later ones lower).
  DenseMap<Operation *, std::pair<Value, Value>> carriedArrays;
  /// Per-thread counters of the pipes whose hand-offs are numbered from a
  /// base (tile.pipe.base / tile.pipe.advance): memref<1xindex> in
  /// registers, keyed by the tile.pipe.create value.
  DenseMap<Value, Value> pipeCounters;
  /// Tensor maps made on the host, per (tensor, box rows, box columns,
  /// swizzle).
  std::map<std::tuple<void *, int64_t, int64_t, int64_t>, Value> tensorMaps;

  Location loc() { return currentLoc; }
  IndexBuilder ib() { return IndexBuilder{b, currentLoc}; }
  Value idx(int64_t v) { return ib().idx(v); }
  Value add(Value x, Value y) { return ib().add(x, y); }
  Value mul(Value x, Value y) { return ib().mul(x, y); }
  Value addConst(Value x, int64_t c) { return ib().addConst(x, c); }
  Value andConst(Value x, int64_t c) { return ib().andConst(x, c); }
  Value shrConst(Value x, int64_t c) { return ib().shrConst(x, c); }
  Value ult(Value x, Value y) { return ib().ult(x, y); }
  Value andBool(Value x, Value y) { return ib().andBool(x, y); }

  /// `v` converted to the element type `to` (vectors elementwise).
  Value convert(Value v, Type to);
  Value zeroOf(Type type);
  /// memref[indices] converted to `to` where `valid` holds (always when
  /// null), else `padding` (of type `to`; zero when null).
  Value loadOrPad(Value valid, Value memref, ValueRange indices, Type to,
                  TypedAttr padding = {});

  /// Global coordinates of a copy's tile element: the region `offsets` plus
  /// the tile coordinates aligned to the trailing dimensions.
  SmallVector<Value> globalCoords(ValueRange offsets,
                                  ArrayRef<Value> tileCoords);
  /// True when vectors of `vec` elements of the row-major `global` (extents
  /// `dims`) are aligned at `offsets`: the data pointer is a multiple of the
  /// vector's bytes, and the rows and the last offset are multiples of
  /// `vec` (null when vec is 1). Tensors that are views into larger buffers
  /// may start at any element.
  Value alignedRows(Value global, ArrayRef<Value> dims, ValueRange offsets,
                    int64_t vec);
  /// True when the region `shape` at `offsets` lies within `dims` (the shape
  /// covers the trailing dimensions).
  Value regionInBounds(ArrayRef<Value> dims, ValueRange offsets,
                       ArrayRef<int64_t> shape);

  /// The executing thread's base of `pipe` (0 for a pipe never advanced).
  Value pipeBase(Value pipe);

  /// The thread id within the threads executing `op`.
  Value threadId(Operation *op);
  /// `value` (an index below 2^32 defined before the kernel's persistent
  /// tile loop around `op`) as `op` should use it: where `op` is in such a
  /// loop, an opaque copy made at the start of each tile
  /// (TargetInfo::emitOpaqueCopy), so that what `op` computes from it per
  /// register (coordinates, addresses, wgmma descriptors) is not hoisted
  /// out of the tile loop and kept live across every tile beside the
  /// accumulators; else `value`.
  Value tileLocal(Operation *op, Value value);
  /// The address (index) of the first element of `view`, a tile of the
  /// kernel's shared memory, computed here from the target's dynamic shared
  /// memory address (TargetInfo::emitDynamicSharedAddress), or null where
  /// the target has none (instruction emitters then extract it from
  /// `view`): what an op derives from it per use (wgmma descriptors) stays
  /// in the loop around the op.
  Value sharedAddress(Value view);
  /// The warp and the warpgroup within the threads executing `op`, uniform
  /// in each warp (from warpValue), or null where the kernel has none.
  Value uniformWarpId(Operation *op);
  Value uniformWarpgroupId(Operation *op);
  /// Makes warpValue in warp-specialized kernels whose consumer regions do
  /// not take turns.
  void initUniformWarp();
  /// Number of threads executing `op`.
  int64_t numThreads(Operation *op);
  /// The barrier over the threads executing `op`.
  BarrierScope barrierScope(Operation *op);
  void barrier(Operation *op) {
    target.emitBarrier(b, loc(), barrierScope(op));
  }

  /// Per-dimension coordinates contributed by the thread bits of `layout`,
  /// and the mask of bits they can set in each dimension.
  SmallVector<Value> threadCoords(const LinearLayout &layout, Value tid,
                                  SmallVectorImpl<uint64_t> &masks);
  /// Coordinates of register `reg` for a thread whose thread part is
  /// `tcoords`.
  SmallVector<Value> elementCoords(const LinearLayout &layout, int64_t reg,
                                   ArrayRef<Value> tcoords,
                                   ArrayRef<uint64_t> masks);
  /// Condition true for the one thread of each group of replicas (null if
  /// the layout has no replication).
  Value canonicalHolder(const LinearLayout &layout, Value tid);

  /// The shared tile (or whole-matrix view of one) `value` denotes.
  FailureOr<SharedRef> resolveShared(Value value, Operation *user);
  /// Element index in a shared tile's flat view of logical `coords` of the
  /// view `ref` (coords over ref.shape).
  Value sharedIndex(const SharedRef &ref, ArrayRef<Value> coords);
  /// sharedIndex of coordinates known at compile time, in a view whose
  /// origin is 0.
  static int64_t sharedIndexAt(const SharedRef &ref, ArrayRef<int64_t> coords);
  /// Vectors of `vecElems` elements along a row of a shared tile, whose
  /// first element is at `index` (a multiple of `vecElems` in row-major
  /// order): a swizzle of 8-byte units keeps a 16-byte vector in one
  /// aligned 16-byte slot, its two halves exchanged where the XOR flips the
  /// unit bit; the vector then moves whole, its halves swapped in registers.
  /// Whether vectors of `vecElems` elements are split so.
  bool splitsVectors(const SharedRef &ref, int64_t vecElems);
  /// The element index of element `e` of the vector at `index`.
  Value sharedVectorElement(const SharedRef &ref, Value index, int64_t e,
                            int64_t vecElems);
  /// Whether the halves of vector `chunk` (vectors numbered in row-major
  /// order over ref.shape, chunk = tid + i * threads) are exchanged, where
  /// vectors are split (null otherwise): for power-of-two tiles the swizzle
  /// is linear in the chunk's bits and one bit says so, a bit of `tid` when
  /// `threads` keeps it (one condition for all the thread's vectors); from
  /// the vector's `index` otherwise.
  Value swappedHalves(const SharedRef &ref, int64_t vecElems, Value chunk,
                      Value tid, int64_t threads, Value index);
  /// Loads (when `value` is null) or stores the vector at `index` (halves
  /// exchanged where `swapped`, computed from `index` when null).
  Value accessSharedVector(const SharedRef &ref, Value index, VectorType type,
                           Value value = Value(), Value swapped = Value());
  /// `ref` as instruction emitters see it.
  SharedOperand toOperand(const SharedRef &ref);
  /// A `!llvm.ptr<3>` to element `index` of the flat shared view `view`.
  Value sharedPointer(Value view, Value index);
  /// The register tile `value` denotes, or an error on `user`.
  RegisterOperand *getRegTile(Value value, Operation *user);
};

/// Given each entry's shared index in every thread (`table[i][t]`), each
/// entry's representative (an earlier entry or itself) and its offset from
/// it: entries whose indices differ by one constant in every thread share a
/// representative, so only representatives need per-thread arithmetic.
SmallVector<std::pair<unsigned, int64_t>>
groupByConstantOffset(ArrayRef<SmallVector<int64_t>> table);

// Per-op lowerings, one file each. They emit at the builder's insertion
// point (before the op), which the driver erases afterwards.
/// Moves the epilogue of each tile loop whose gemms are marked
/// `tile.epilogue_late` to the next tile's first K block (LateEpilogue.cpp),
/// before the ops are lowered; its copies inside K loops are localScopes.
LogicalResult scheduleLateEpilogues(LoweringContext &ctx);

LogicalResult lowerCopy(LoweringContext &ctx, CopyOp op);
/// Copies between register tiles and memory, or between register layouts
/// (FragmentCopy.cpp).
LogicalResult lowerFragmentCopy(LoweringContext &ctx, CopyOp op);
LogicalResult lowerFill(LoweringContext &ctx, FillOp op);
LogicalResult lowerGemm(LoweringContext &ctx, GemmOp op);
/// Registers of `tile`, the fragment whose elements a tile.parallel
/// lowered in parts reads (see GemmEmission::consumeChunk).
struct ParallelChunk {
  const RegisterOperand *tile;
  const llvm::BitVector &registers;
};
/// Lowers `op`, only the iterations that read `chunk`'s registers when
/// given.
LogicalResult lowerParallel(LoweringContext &ctx, ParallelOp op,
                            const ParallelChunk *chunk = nullptr);

// Exact divisions by divisors that registers share (Division.cpp).
/// The f32 divisions of a tile.parallel's body whose divisor does not
/// depend on every loop dimension, and the body ops (in order) that their
/// operands need, all of which can run ahead of the body.
struct SharedDivisions {
  struct Division {
    arith::DivFOp op;
    SmallVector<unsigned> divisorDims; // the dimensions the divisor reads
  };
  SmallVector<Division> divisions;
  SmallVector<Operation *> slice;
};
std::optional<SharedDivisions> findSharedDivisions(ParallelOp op,
                                                   int64_t registersPerThread);
/// Correctly rounded quotients through one reciprocal per divisor, and
/// the test that every operand lies where that is exact.
class ExactDivision {
public:
  /// Adds a divisor and a numerator to the test.
  void checkDivisor(OpBuilder &b, Location loc, Value d);
  void checkNumerator(OpBuilder &b, Location loc, Value x);
  /// True (i1) where every operand added is in range.
  Value inRange(OpBuilder &b, Location loc) const;
  /// The correctly rounded 1 / d.
  static Value reciprocal(OpBuilder &b, Location loc, Value d);
  /// x / d from r = reciprocal(d), exact where the test holds.
  static Value quotient(OpBuilder &b, Location loc, Value x, Value d, Value r);

private:
  /// Balanced min / max trees over the operands' magnitude bits, as
  /// partial results per level.
  SmallVector<std::pair<Value, unsigned>> high, lowNumerators, lowDivisors;
};

LogicalResult lowerReduce(LoweringContext &ctx, ReduceOp op);
LogicalResult lowerWs(LoweringContext &ctx, WsOp op);
LogicalResult lowerBarrier(LoweringContext &ctx, BarrierOp op);
LogicalResult lowerMmaWait(LoweringContext &ctx, MmaWaitOp op);
/// tile.turn_wait and tile.turn_pass (Turns.cpp).
LogicalResult lowerRegionTurn(LoweringContext &ctx, Operation *op);
LogicalResult lowerAsyncCommit(LoweringContext &ctx, AsyncCommitOp op);
LogicalResult lowerAsyncWait(LoweringContext &ctx, AsyncWaitOp op);
/// tile.pipe.produce_acquire / produce_commit / consume_wait /
/// consume_release.
LogicalResult lowerPipeOp(LoweringContext &ctx, Operation *op);
/// Diagnoses copy-engine waits the pipe lowerings cannot implement: for
/// copies of other warps, or leaving more groups in flight than later
/// hand-offs are proved committed (tile-plan-pipes decides the counts;
/// SyncOps.cpp). Runs after collectBarrierPipes.
LogicalResult checkPipes(LoweringContext &ctx);

// Tensor copies and the pipes they feed (planned by tile-plan-pipes,
// lowered in TmaCopy.cpp).
/// Finds the pipes fed by `tma` copies and reads their plans.
LogicalResult collectBarrierPipes(LoweringContext &ctx);
/// Initializes the barriers of the planned pipes (their storage allocated),
/// at the builder's insertion point at the start of the kernel.
void initBarrierPipes(LoweringContext &ctx);
/// A `tma` copy: one tensor copy per swizzle panel, issued by one thread.
LogicalResult lowerTmaCopy(LoweringContext &ctx, CopyOp op);
/// The tensor map of the global memref `tensor` for boxes of `rows` x
/// `cols` elements (one along leading dimensions) and a swizzle span of
/// `swizzle` bytes: made once per kernel, on the host before the launch.
Value getTensorMap(LoweringContext &ctx, Value tensor, int64_t rows,
                   int64_t cols, int64_t swizzle);
/// A fragment -> global copy marked `tile.tma_store` (TmaStore.cpp).
LogicalResult lowerTmaStore(LoweringContext &ctx, CopyOp op);
/// The pipe ops of a barrier pipe.
LogicalResult lowerBarrierPipeOp(LoweringContext &ctx, Operation *op,
                                 BarrierPipe &pipe);

/// The length of the runs of registers of `layout` holding consecutive,
/// aligned elements of the last dimension: the leading registers step
/// through the last coordinate (1, 2, 4, ...), and no other register, lane
/// or warp bit moves the last coordinate by less than the run. Every run
/// then starts at a multiple of its length.
int64_t contiguousRegisters(const LinearLayout &layout);

/// Moves the runs of consecutive row elements of `tile`'s registers to
/// (`fromFragment`) or from the shared operand `ref` as vectors of up to 16
/// bytes (SharedVectors.cpp); fails, emitting nothing, where the layout or
/// the swizzle has no such runs. `tcoords` and `masks` are the thread's
/// coordinates in the layout; `writer` (null: every thread) selects one
/// holder of replicated elements.
LogicalResult copySharedVectors(LoweringContext &ctx, RegisterOperand &tile,
                                const SharedRef &ref, bool fromFragment,
                                ArrayRef<Value> tcoords,
                                ArrayRef<uint64_t> masks, Value writer);

// Register exchanges between the lanes of a warp (LaneExchange.cpp).
/// Swaps of register and lane bits after which runs of consecutive
/// registers hold more consecutive elements of the last dimension.
struct LaneExchange {
  /// The layout after the exchange, its registers renumbered so that the
  /// runs are consecutive.
  LinearLayout layout;
  /// (register bit, lane bit) pairs swapped in turn, registers numbered as
  /// in the layout before.
  SmallVector<std::pair<unsigned, unsigned>> swaps;
  /// Bit k of a register of `layout` is bit order[k] of the register after
  /// the swaps.
  SmallVector<unsigned> order;
  /// Registers moved together (the run before the exchange).
  int64_t word = 1;
  /// The run after the exchange.
  int64_t vector = 1;
};
/// Plans an exchange lengthening the runs of `layout` towards `want`
/// elements; none if no swap lengthens them.
std::optional<LaneExchange> planLaneExchange(const LinearLayout &layout,
                                             int64_t want);
/// Emits the exchange of `regs` (one value per register of the layout
/// before, all of one type) for thread `tid`; returns the registers of
/// `plan.layout`.
SmallVector<Value> exchangeLanes(LoweringContext &ctx, const LaneExchange &plan,
                                 ArrayRef<Value> regs, Value tid);

/// Solves `target` = XOR of a subset of `bases` over GF(2); returns the
/// subset as a bit mask over `bases`, or none.
std::optional<uint64_t> solveGF2(ArrayRef<uint64_t> bases, uint64_t target);

// Warpgroups taking turns at the MMAs (`tile.ws ... pingpong`, Turns.cpp).
/// Waits for the executing warpgroup's turn to issue `gemm`'s MMAs and
/// returns the callback that passes the turn on (see GemmEmission::passTurn);
/// null when `gemm` is not in a pingpong region.
std::function<void(OpBuilder &, Location)> takeTurn(LoweringContext &ctx,
                                                    GemmOp gemm);
/// At the start of a pingpong region's body: the last warpgroup hands the
/// first turn to the first one. At its end: the first warpgroup takes the
/// turn the last one passed after its last gemm, so that no arrival is left
/// pending on a barrier when the region ends.
void beginTurns(LoweringContext &ctx, WsOp ws, Value tid);
void endTurns(LoweringContext &ctx, WsOp ws, Value tid);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_TRANSFORMS_LOWERING_LOWERINGCONTEXT_H
