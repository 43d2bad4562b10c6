//===- TargetInfo.h - Instruction selection per target ----------*- C++ -*-===//
//
// The instruction half of the target model (the data half is the chip table
// of `tile/Dialect/ChipDescription.h`, named by `#tile.target`). Passes and
// the target-independent per-op lowering ask a `TargetInfo` for everything
// that differs between GPUs: the MMA instruction of a gemm and its operand
// layouts, barriers over the whole block or a set of warps, shuffles, the
// asynchronous copy engine, register budgets. Each implementation lives in
// `lib/Target/<vendor>/`, one file per instruction family. Hooks take
// builders and values, never the lowering's own state.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_TARGETINFO_H
#define TILE_TARGET_TARGETINFO_H

#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace mlir::tile {

/// The name of the dynamic shared memory of kernels for chips with tensor
/// copies: an external, 1024-byte aligned declaration (convert-tile-to-gpu),
/// since their tensor copies and wgmma descriptors address shared memory
/// absolutely.
inline constexpr llvm::StringLiteral kDynamicSharedSymbol =
    "__tile_dynamic_shared";

/// The threads a barrier synchronizes: the whole block (id 0), or the
/// `numThreads` threads of a warp-aligned group using hardware barrier `id`.
struct BarrierScope {
  int64_t id = 0;
  int64_t numThreads = 0;
  bool isBlock() const { return id == 0; }
};

/// A shared tile as instruction emitters see it: a flat view of shared
/// memory and the element index, in that view, of logical coordinates.
struct SharedOperand {
  Value view;
  Type elementType;
  int64_t elementBits = 0;
  SmallVector<int64_t> shape;
  std::function<Value(OpBuilder &, Location, ArrayRef<Value>)> index;
  /// What instructions that address the tile as a whole (wgmma descriptors,
  /// TMA) need: the swizzle span in bytes (0: none) and the chunk it
  /// permutes, the row padding in bytes, and the element index in `view` of
  /// the operand's first element (a whole matrix of the tile, so the
  /// swizzle pattern starts there).
  int64_t swizzleBytes = 0;
  int64_t swizzleUnit = 16;
  int64_t padBytes = 0;
  Value origin;
  /// The address of `view`'s first element (index), where the lowering
  /// provides one (computed next to the op from the target's dynamic
  /// shared memory address); otherwise emitters extract it from `view`.
  Value address;
};

/// A register tile: each thread's registers and the distributed layout.
struct RegisterOperand {
  Value regs;
  MemRefType type;
  LinearLayout layout;
};

/// Registers [first, first + n) of `tile` as one vector of `type` (n
/// elements): how instruction emitters gather an MMA operand or
/// accumulator atom.
Value loadRegisterRun(OpBuilder &b, Location loc, const RegisterOperand &tile,
                      int64_t first, VectorType type);

/// One gemm operand: in registers, or in shared memory. A shared operand is
/// resolved (its view's address arithmetic emitted) when the emitter calls
/// `resolveShared`, so that the emitter decides where that code goes.
struct GemmOperand {
  const RegisterOperand *regs = nullptr;
  std::function<FailureOr<SharedOperand>()> resolveShared;
  bool isShared() const { return !regs; }
};

/// Everything a target needs to emit a gemm.
struct GemmEmission {
  GemmOp op;
  MmaAttr mma;
  GemmOperand a, b;
  /// The 2:4 sparsity metadata of A (`sparse`), a shared operand; unset
  /// (no resolveShared) for a dense gemm.
  GemmOperand meta;
  const RegisterOperand *c = nullptr;
  /// The gemm's `partials` (deferred promotion), or null.
  const RegisterOperand *partials = nullptr;
  /// With `partials`: the previous partial sums are added after this gemm's
  /// MMAs are issued (into other registers), not before. Set where the
  /// gemm's loop is unrolled by two (`tile.unroll`), so that no copy at the
  /// back edge reads registers the MMAs are writing.
  bool addPartialsAfterIssue = false;
  /// Thread id within the threads executing the gemm.
  Value tid;
  /// Emits a barrier over the threads executing the gemm at the builder's
  /// insertion point; empty where the gemm's operand slots are refilled by
  /// other warps (warp specialization), which wait for every reader.
  std::function<void()> barrier;
  /// Per-thread arrays of `type` (zeroed at the kernel's start) that the
  /// gemms into one accumulator in one loop body pass on to each other, in
  /// program order and around the loop: {the previous gemm's, this one's}.
  std::function<std::pair<Value, Value>(MemRefType type)> carriedArrays;
  /// The warpgroup of the thread within those threads, computed so that the
  /// code generator knows it is the same in every lane of a warp, or null
  /// (then tid / warpgroup size).
  Value warpgroup;
  /// Asynchronous MMAs (see TargetInfo::isAsyncMma): how many of the
  /// executing threads' MMA groups may still be in flight when the emitted
  /// code ends, this gemm's included. 0 completes the gemm; 1 leaves it
  /// running (its accumulator must not be touched before an emitMmaWait).
  int64_t mmaGroupsInFlight = 0;
  /// When set (i1), whether the gemm adds to the accumulator's contents: a
  /// gemm whose first run overwrites an accumulator nothing initialized
  /// (the zero fill folded into it, see planDeferredRelease).
  Value accumulate;
  /// Warpgroups taking turns (`tile.ws ... pingpong`): the executing
  /// warpgroup's turn to issue MMAs ends here. Asynchronous emitters (see
  /// TargetInfo::isAsyncMma) call it once the gemm's MMAs are issued,
  /// before waiting for them; for the others the caller passes the turn
  /// after the gemm. Null outside such regions.
  std::function<void(OpBuilder &, Location)> passTurn;
  /// A gemm whose product a tile.parallel consumes in parts
  /// (`consumer_chunk`): emitters that interleave call it once the MMAs of
  /// a part have completed and its registers of C (set in `registers`) are
  /// stored, before computing the next part. A gemm whose product is
  /// consumed one gemm late (`tile.consumer_late` with MMA groups in
  /// flight): asynchronous emitters call it once, with every register set,
  /// while C still holds the previous gemm's product, complete (it runs
  /// the consumer only if there is one). Null otherwise; where the emitter
  /// does not call it, the caller lowers the consumer in its place.
  std::function<LogicalResult(OpBuilder &, Location,
                              const llvm::BitVector &registers)>
      consumeChunk;
};

/// The fragment layouts an MMA choice needs for A, B and the accumulator.
struct MmaLayouts {
  LinearLayout a, b, c;
};

/// A gemm that reads a shared tile as its A (or B) operand.
struct SharedGemmUse {
  GemmOp gemm;
  bool isA = false;
};

/// The layout chosen for a shared tile, and why (for remarks; may be empty).
struct SharedLayoutChoice {
  SharedLayoutAttr layout;
  std::string reason;
};

/// The widest XOR swizzle of 16-byte chunks that rows of `type` fill (rows
/// of 128 bytes or more get the 128-byte one, as column panels), 16 bytes of
/// row padding where none fits: the 8 rows an ldmatrix reads, and the
/// 16-byte chunks of a row that 8 consecutive threads copy, fall in 8
/// different 16-byte bank groups.
SharedLayoutAttr getChunkSwizzledLayout(MemRefType type);

//===----------------------------------------------------------------------===//
// Optional abilities
//===----------------------------------------------------------------------===//
//
// What only some chips have is an interface of its own, returned by the
// matching `TargetInfo` getter (`asyncCopies()`, `tensorCopies()`, ...) or
// null: a target implements what it has, and generic code asks the getter
// ("does this target copy asynchronously"), never the chip's name.

/// Global -> shared copies that bypass registers (NVIDIA's cp.async),
/// grouped and awaited per thread.
class AsyncCopyInfo {
public:
  virtual ~AsyncCopyInfo();
  /// One asynchronous copy of `elements` elements (at most 16 bytes) from
  /// `src[srcIndices]` to `dst[dstIndex]`; only the first `count` (all when
  /// null) are read, the rest zero-filled.
  virtual void emitAsyncCopy(OpBuilder &b, Location loc, Value dst,
                             Value dstIndex, Value src, ValueRange srcIndices,
                             int64_t elements, int64_t elementBits,
                             Value count) const = 0;
  /// Closes a group of the executing thread's asynchronous copies.
  virtual void emitAsyncCommit(OpBuilder &b, Location loc) const = 0;
  /// Waits until at most `pending` groups are in flight.
  virtual void emitAsyncWait(OpBuilder &b, Location loc,
                             int64_t pending) const = 0;
};

/// Barriers in shared memory that count arrivals and transaction bytes
/// (mbarriers), and the tensor copy engine whose copies and stores they
/// complete (TMA).
class TensorCopyInfo {
public:
  virtual ~TensorCopyInfo();
  /// Largest extent of a tensor copy's box along any dimension.
  virtual int64_t getMaxBoxExtent() const = 0;
  /// Largest stride, in bytes, of a tensor a copy's map describes.
  virtual int64_t getMaxStrideBytes() const = 0;
  /// Largest extent of such a tensor along any dimension.
  virtual int64_t getMaxTensorExtent() const = 0;
  /// Initializes the barrier at shared pointer `addr` for `arrivals`
  /// arrivals per phase.
  virtual void emitMbarrierInit(OpBuilder &b, Location loc, Value addr,
                                int64_t arrivals) const = 0;
  /// Makes initialized barriers visible to the copy engine; a block barrier
  /// must follow before any thread uses them.
  virtual void emitMbarrierInitFence(OpBuilder &b, Location loc) const = 0;
  /// One arrival on the barrier at `addr`.
  virtual void emitMbarrierArrive(OpBuilder &b, Location loc,
                                  Value addr) const = 0;
  /// One arrival on the barrier at `addr` once the executing thread's
  /// earlier asynchronous (copy-engine) copies have landed; the barrier's
  /// count includes it (no pending arrival is added).
  virtual void emitAsyncCopyArrive(OpBuilder &b, Location loc,
                                   Value addr) const = 0;
  /// One arrival that also expects `bytes` more bytes of tensor copies.
  virtual void emitMbarrierArriveExpectTx(OpBuilder &b, Location loc,
                                          Value addr, int64_t bytes) const = 0;
  /// Waits until the phase of parity `parity` (i32 0 or 1) has completed.
  virtual void emitMbarrierWait(OpBuilder &b, Location loc, Value addr,
                                Value parity) const = 0;
  /// Host code, before the launch: the tensor map (an `!llvm.ptr` to a
  /// device copy) of the global memref `tensor` (rank 2 to 5) for boxes of
  /// `box` elements (one per dimension: 1 along the leading ones, then rows
  /// and columns) written to shared memory with a swizzle span
  /// of `swizzleBytes` (0: none); elements outside the tensor read as zero.
  virtual Value emitTensorMap(OpBuilder &b, Location loc, Value tensor,
                              ArrayRef<int64_t> box,
                              int64_t swizzleBytes) const = 0;
  /// One tensor copy of the box at `coords` (i32, innermost dimension
  /// first) of the tensor map at global pointer `map` into shared pointer
  /// `dst`, completing `bytes` on the barrier at `mbar`. With a
  /// `multicastMask` (i16), the box lands at `dst` and completes on `mbar`
  /// in every block of the cluster whose rank's bit is set.
  virtual void emitTensorCopy(OpBuilder &b, Location loc, Value dst, Value map,
                              ValueRange coords, Value mbar,
                              Value multicastMask = Value()) const = 0;
  /// One tensor store of the box at `coords` (i32, innermost dimension
  /// first) of the tensor map at global pointer `map` from shared pointer
  /// `src`, in the executing thread's current bulk group; parts of the box
  /// outside the tensor are not written.
  virtual void emitTensorStore(OpBuilder &b, Location loc, Value src, Value map,
                               ValueRange coords) const = 0;
  /// Closes the executing thread's bulk group (its tensor stores so far).
  virtual void emitTensorStoreCommit(OpBuilder &b, Location loc) const = 0;
  /// Waits until at most `pending` of the executing thread's bulk groups
  /// are outstanding: until they have read their shared memory
  /// (`readOnly`), or until their writes are done.
  virtual void emitTensorStoreWait(OpBuilder &b, Location loc, int64_t pending,
                                   bool readOnly) const = 0;
};

/// Clusters of blocks that arrive on each other's barriers.
class ClusterInfo {
public:
  virtual ~ClusterInfo();
  /// The executing block's rank in its cluster (i32).
  virtual Value emitClusterRank(OpBuilder &b, Location loc) const = 0;
  /// A barrier for every thread of the executing block's cluster, which
  /// also orders their shared memory accesses (release, then acquire).
  virtual void emitClusterBarrier(OpBuilder &b, Location loc) const = 0;
  /// One arrival on the barrier at shared pointer `addr` of the block of
  /// rank `rank` (i32) in the executing block's cluster, with release
  /// semantics at cluster scope.
  virtual void emitRemoteMbarrierArrive(OpBuilder &b, Location loc, Value addr,
                                        Value rank) const = 0;
};

/// Kernels launched as programmatic dependents of the kernel before them in
/// the stream (`tile.dependent_launch`).
class DependentLaunchInfo {
public:
  virtual ~DependentLaunchInfo();
  /// At the kernel's entry: waits until the kernel before in the stream has
  /// completed and its memory operations are visible. No access to global
  /// memory may come before it.
  virtual void emitDependentLaunchWait(OpBuilder &b, Location loc) const = 0;
  /// Where the executing block's work is done (before it exits): lets the
  /// next kernel in the stream launch once every block has said so or
  /// exited.
  virtual void emitDependentLaunchSignal(OpBuilder &b, Location loc) const = 0;
};

/// MMAs that run asynchronously from the threads issuing them, completed
/// by a wait on the threads' groups of MMAs.
class AsyncMmaInfo {
public:
  virtual ~AsyncMmaInfo();
  /// Whether gemms with the choice `mma` run asynchronously.
  virtual bool isAsync(MmaAttr mma) const = 0;
  /// Registers per thread one asynchronous MMA instruction of `gemm` (the
  /// asynchronous choice `mma`) holds at once: its accumulator, which
  /// cannot spill while the MMA runs, register operands and addressing.
  virtual int64_t getInstructionRegisters(GemmOp gemm, MmaAttr mma) const = 0;
  /// The most of K whose products the MMA unit may sum in its accumulator
  /// before the partial sums must be added in f32 registers (see
  /// `promote_k`), for `gemm` computed with `mma`; 0: any.
  virtual int64_t getPromotionSpan(GemmOp gemm, MmaAttr mma) const = 0;
  /// The choice for `gemm`, which promotes its partial sums, where `mma`'s
  /// instruction would hold too many of them at once: the same instruction
  /// narrower along N, several per row of the tile (null: keep `mma`).
  virtual MmaAttr narrowForPromotion(GemmOp gemm, MmaAttr mma) const = 0;
  /// Waits until at most `pending` of the executing threads' asynchronous
  /// MMA groups are in flight.
  virtual void emitMmaWait(OpBuilder &b, Location loc,
                           int64_t pending) const = 0;
};

/// Hardware barriers over warp-aligned subsets of the block (besides the
/// block-wide one).
class NamedBarrierInfo {
public:
  virtual ~NamedBarrierInfo();
  /// How many there are.
  virtual int64_t getNumNamedBarriers() const = 0;
  /// Turns between warpgroups (`tile.ws ... pingpong`) on hardware barrier
  /// `id` (an i32 known at run time: the warpgroup picks its own) over
  /// `numThreads` threads: waiting for the turn, and passing it on without
  /// waiting.
  virtual void emitTurnWait(OpBuilder &b, Location loc, Value id,
                            int64_t numThreads) const = 0;
  virtual void emitTurnPass(OpBuilder &b, Location loc, Value id,
                            int64_t numThreads) const = 0;
};

/// Register budgets per warpgroup (`tile.ws ... registers(n)`).
class RegisterBudgetInfo {
public:
  virtual ~RegisterBudgetInfo();
  /// The largest budget the compiler gives a warpgroup of consumers (the
  /// instruction allows more, the register file's split does not pay).
  virtual int64_t getMaxConsumerBudget() const = 0;
  /// The fewest registers per consumer thread the compiler sizes a launch
  /// of several blocks per multiprocessor for (what an MMA accumulator slab
  /// of one warpgroup needs, with its addresses).
  virtual int64_t getMinConsumerBudget() const = 0;
  /// Sets the executing warpgroup's register budget to `registers`, every
  /// warp having started with `entryRegisters`
  /// (TargetInfo::getEntryRegisters).
  virtual void emitRegisterBudget(OpBuilder &b, Location loc, int64_t registers,
                                  int64_t entryRegisters) const = 0;
};

class TargetInfo {
public:
  explicit TargetInfo(TargetAttr target);
  virtual ~TargetInfo();

  TargetAttr getTarget() const { return target; }
  const ChipDescription &getChip() const { return *chip; }
  StringRef getChipName() const { return chip->name; }
  int64_t getWarpSize() const { return chip->warpSize; }
  /// Threads of a warpgroup (0 where the chip has none).
  int64_t getWarpgroupSize() const { return chip->warpgroupSize; }

  //===--------------------------------------------------------------------===//
  // Legality (before lowering)
  //===--------------------------------------------------------------------===//

  /// Checks the thread geometry of `kernel` and its `tile.ws` regions
  /// against the chip, and that their register budgets fit the registers
  /// the block is launched with.
  LogicalResult verifyKernel(KernelOp kernel) const;

  /// Registers per thread that every warp of a block of `threads` threads
  /// starts with when the kernel sets register budgets: the register file
  /// split evenly over `blocksPerSM` blocks in steps of 8, at most the
  /// per-thread maximum (what ptxas allocates for `.maxntid threads` and
  /// `.minnctapersm blocksPerSM`: 168 for 384 threads and one block on
  /// sm_90a).
  int64_t getEntryRegisters(int64_t threads, int64_t blocksPerSM = 1) const;
  /// The same for `kernel` (its threads and `tile.blocks_per_sm`).
  int64_t getEntryRegisters(KernelOp kernel) const;

  /// Records on the GPU function `func` outlined from `kernel` what the
  /// target's compiler needs to know of its launch (blocks per
  /// multiprocessor).
  virtual void annotateKernelFunc(Operation *func, KernelOp kernel) const {}

  /// Picks the MMA instruction and warp partition of `op`, executed by
  /// `numThreads` threads; diagnoses gemms the target cannot compute.
  virtual FailureOr<MmaAttr> selectMma(GemmOp op, int64_t numThreads) const = 0;
  /// Checks a given (e.g. user-pinned) choice.
  virtual LogicalResult verifyMma(GemmOp op, MmaAttr mma,
                                  int64_t numThreads) const = 0;
  /// The operand and accumulator layouts of a (verified) choice.
  virtual MmaLayouts getMmaLayouts(GemmOp op, MmaAttr mma) const = 0;
  /// The layout of a shared tile of `type` (of elements of 8 bits or more)
  /// that the gemms of `uses` (whose MMA is chosen) read as an operand and
  /// that copies fill, where the kernel does not fix one. By default
  /// `getChunkSwizzledLayout`.
  virtual SharedLayoutChoice
  chooseGemmOperandLayout(MemRefType type, ArrayRef<SharedGemmUse> uses) const;

  //===--------------------------------------------------------------------===//
  // Instruction selection
  //===--------------------------------------------------------------------===//

  /// A barrier over `scope` (block-wide by default; other scopes only on
  /// targets with named barriers).
  virtual void emitBarrier(OpBuilder &b, Location loc,
                           BarrierScope scope) const;
  /// Waits until every lane of the warp has arrived here (nothing where
  /// warps run in lockstep).
  virtual void emitWarpSync(OpBuilder &b, Location loc) const {}
  /// A copy of the i32 `v` that the code generator can neither look
  /// through nor move nor merge with another: what is computed from it
  /// stays where it is computed instead of being hoisted out of the loop
  /// around it (and kept live across all of that loop). `v` itself where
  /// the target has no such copy.
  virtual Value emitOpaqueCopy(OpBuilder &b, Location loc, Value v) const {
    return v;
  }
  /// The shared-window address (i32) of the kernel's dynamic shared memory,
  /// `address`, made anew from its name (kDynamicSharedSymbol) where it is
  /// emitted and never moved: what instructions derive from it as data
  /// (wgmma descriptors) is then computed next to its use, where the
  /// assembler keeps it in uniform registers, instead of being hoisted out
  /// of the loop and moved from an ordinary register at every use. Null
  /// where the target addresses its dynamic shared memory otherwise.
  virtual Value emitDynamicSharedAddress(OpBuilder &b, Location loc,
                                         Value address) const {
    return {};
  }
  /// The value `v` of the lane whose id is this lane's XOR `mask`, within
  /// groups of `width` lanes.
  virtual Value emitShuffleXor(OpBuilder &b, Location loc, Value v,
                               int64_t mask, int64_t width) const;

  /// Elements of `elementBits` bits in the widest vector one thread moves
  /// between global and shared memory in one access (16 bytes on NVIDIA and
  /// AMD), at least 1.
  virtual int64_t getCopyVectorElements(int64_t elementBits) const;

  /// Makes the executing thread's earlier shared memory writes visible to
  /// the units that read shared memory asynchronously (NVIDIA's async
  /// proxy: tensor stores, wgmma); nothing on targets without such units.
  virtual void emitAsyncProxyFence(OpBuilder &b, Location loc) const {}

  /// Loads `dst`'s elements from `src` with a dedicated shared -> register
  /// instruction when the layout allows one (e.g. ldmatrix); fails without
  /// emitting anything otherwise.
  virtual LogicalResult emitSharedToRegisters(OpBuilder &b, Location loc,
                                              const SharedOperand &src,
                                              const RegisterOperand &dst,
                                              Value tid) const;

  /// Stores the 16-bit values of a fragment of `layout` to shared memory with
  /// a dedicated register -> shared instruction when the layout allows one
  /// (e.g. stmatrix): for each register r of `firsts` (multiples of 8), the
  /// values of registers r .. r + 7, `value(i)` giving register i's, at
  /// `pointer(row, col)` for the elements' coordinates, where 8 elements of
  /// a row from a column that is a multiple of 8 must be contiguous. Fails
  /// without emitting anything otherwise.
  virtual LogicalResult emitRegistersToShared(
      OpBuilder &b, Location loc, const LinearLayout &layout,
      ArrayRef<int64_t> firsts, function_ref<Value(int64_t)> value,
      function_ref<Value(Value, Value)> pointer, Value tid) const;

  /// `x` (f32) rounded to the 8-bit float `type`, nearest even, values
  /// beyond the type's range saturating to its largest finite one (what
  /// `arith.truncf` to an 8-bit float becomes: LLVM has no such types); a
  /// located error where the chip has no such conversion.
  virtual FailureOr<Value> emitFloat8Truncate(OpBuilder &b, Location loc,
                                              Value x, FloatType type) const;

  /// Emits the gemm with the instruction `g.mma` chose.
  virtual LogicalResult emitGemm(OpBuilder &b, Location loc,
                                 const GemmEmission &g) const = 0;

  //===--------------------------------------------------------------------===//
  // Optional abilities: null where the chip does not have them
  //===--------------------------------------------------------------------===//

  /// Global -> shared copies that bypass registers.
  virtual const AsyncCopyInfo *asyncCopies() const { return nullptr; }
  /// Tensor copies and stores completed on transaction barriers.
  virtual const TensorCopyInfo *tensorCopies() const { return nullptr; }
  /// Clusters of blocks sharing barriers and tensor copies.
  virtual const ClusterInfo *clusters() const { return nullptr; }
  virtual const DependentLaunchInfo *dependentLaunch() const { return nullptr; }
  /// MMAs running asynchronously from the threads that issue them.
  virtual const AsyncMmaInfo *asyncMma() const { return nullptr; }
  /// Hardware barriers over warp-aligned subsets of the block.
  virtual const NamedBarrierInfo *namedBarriers() const { return nullptr; }
  /// Per-warpgroup register budgets.
  virtual const RegisterBudgetInfo *registerBudgets() const { return nullptr; }

  /// Whether gemms with the choice `mma` run asynchronously (their groups
  /// can stay in flight, see GemmEmission).
  bool isAsyncMma(MmaAttr mma) const;
  /// Hardware barriers available for subsets of the block (0 without
  /// named barriers).
  int64_t getNumNamedBarriers() const;

protected:
  TargetAttr target;
  const ChipDescription *chip;
};

/// The split of an M x N accumulator over `numWarps` warps (or waves)
/// following `policy`, into per-warp blocks that are multiples of the
/// instruction's `unitM` x `unitN`: [warpsM, warpsN], or none when no split
/// fits. `square` picks the most square blocks (ties: more warps along M).
std::optional<std::pair<int64_t, int64_t>>
partitionWarps(WarpPolicy policy, int64_t m, int64_t n, int64_t numWarps,
               int64_t unitM, int64_t unitN);

/// The instruction-selection interface of `target`.
std::unique_ptr<TargetInfo> createTargetInfo(TargetAttr target);

/// Shorthand: `createTargetInfo(getTargetAttr(op))`.
std::unique_ptr<TargetInfo> getTargetInfo(Operation *op);

} // namespace mlir::tile

#endif // TILE_TARGET_TARGETINFO_H
