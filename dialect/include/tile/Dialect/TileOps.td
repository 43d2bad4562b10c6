//===- TileOps.td - Tile dialect operations ----------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEOPS_TD
#define TILE_DIALECT_TILEOPS_TD

include "tile/Dialect/TileBase.td"
include "tile/Dialect/TileAttrs.td"
include "tile/Dialect/TileInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    AutomaticAllocationScope, RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a tile kernel launched over a grid of thread blocks";
  let description = [{
    The body is executed once per thread block of a grid of up to three
    dimensions. The grid extents are static integers or `index` values
    defined above the kernel; the body's block arguments are the block
    indices, one per grid dimension (x first). `threads` is the number of
    threads per block, a multiple of the warp size (32) and at most 1024.
    Operations in the body are block-cooperative. Values defined above the
    kernel (global memrefs, sizes) may be used inside it; the conversion to
    `gpu` outlines the body into a `gpu.func` named after the kernel and
    replaces the op by a launch.

    Example:

    ```mlir
    tile.kernel @gemm blocks(%bx, %by) in [%gx, %gy] threads(128) {
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$sym_name,
                       Variadic<Index>:$dynamic_grid,
                       DenseI64ArrayAttr:$static_grid,
                       I64Attr:$threads);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name,
                   "::llvm::ArrayRef<::mlir::OpFoldResult>":$grid,
                   "int64_t":$threads)>
  ];
  let extraClassDeclaration = [{
    /// Number of grid dimensions (1 to 3).
    unsigned getGridRank() { return getStaticGrid().size(); }
    /// The grid extents, static or dynamic.
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedGrid();
    /// The block index of grid dimension `dim`.
    ::mlir::BlockArgument getBlockIndex(unsigned dim) {
      return getBody().getArgument(dim);
    }
    /// Number of warpgroups of the kernel's target, or 0 if `threads` is
    /// not a multiple of the warpgroup size (or the chip has none).
    int64_t getNumWarpgroups();
  }];
}

//===----------------------------------------------------------------------===//
// tile.ws
//===----------------------------------------------------------------------===//

def Tile_WsOp : Tile_Op<"ws", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a region executed by a subset of the block's warpgroups";
  let description = [{
    Warp specialization: the body runs only on the threads of the listed
    warpgroups (groups of consecutive threads, numbered from 0, as large as
    the target's warpgroup: 128 threads on NVIDIA); the other threads skip
    it. Block-cooperative ops inside the region are cooperative over the
    listed warpgroups only: a `tile.gemm` under `tile.ws [1, 2]` is
    partitioned over the 8 warps of both warpgroups, and barriers inside
    the region synchronize only its threads. The enclosing kernel's thread
    count must be a multiple of the warpgroup size (checked against the
    target before lowering).

    `registers`, when given, is the per-thread register budget the listed
    warpgroups run with (`setmaxnreg` on sm_90a): a multiple of 8 in
    [24, 256].

    `pingpong` makes the listed warpgroups (at least two) take turns at the
    tensor cores: each issues its part of every `tile.gemm` of the region
    only once the previous warpgroup (cyclically) has issued its part of
    the gemm before, so while one warpgroup's matrix multiplies run, the
    next one computes (the softmax of FlashAttention, say) instead of
    competing for the tensor cores. The warpgroups must split every gemm
    of the region between them (each its own rows), and every warpgroup
    runs every gemm (gemms are block-cooperative anyway). It changes only
    the order in which the warpgroups issue work, never the results.

    The hardware barriers a region synchronizes with are
    `tile-insert-barriers`' decision, written on the op (the lowering emits
    what they say; a user may set them): `barrier` is the id of the barrier
    over the region's threads that its barriers, waits, layout conversions
    and cross-warp reductions use (a barrier other than the block's, 0);
    `turn_barrier` is the first of the one-per-warpgroup barriers of a
    `pingpong` region's turns; `region_turn` = [wait barrier, its thread
    count, pass barrier, its thread count] places a region in the ring of
    regions that pass turns to each other (`tile.turn_wait` /
    `tile.turn_pass`); `store_barrier` is the first of one barrier per
    warpgroup with which each warpgroup stores its own rows of the region's
    tensor stores (tile.tma_store), without waiting for the others.

    ```mlir
    tile.ws [0] registers(40) { ... }      // producer
    tile.ws [1, 2] registers(232) { ... }  // consumers
    tile.ws [1, 2] registers(232) pingpong { ... }  // consumers, in turns
    tile.ws [1] attributes {barrier = 1 : i64} { ... }
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$warpgroups,
                       OptionalAttr<I64Attr>:$registers,
                       UnitAttr:$pingpong,
                       OptionalAttr<I64Attr>:$barrier,
                       OptionalAttr<I64Attr>:$turn_barrier,
                       OptionalAttr<DenseI64ArrayAttr>:$region_turn,
                       OptionalAttr<I64Attr>:$store_barrier);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $warpgroups (`registers` `(` $registers^ `)`)? (`pingpong` $pingpong^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::ArrayRef<int64_t>":$warpgroups)>
  ];
  let extraClassDeclaration = [{
    /// Number of threads that execute the body (the target's warpgroup
    /// size times the number of warpgroups).
    int64_t getNumThreads();
    /// The first thread of the region's first warpgroup.
    int64_t getFirstThread();
  }];
}

//===----------------------------------------------------------------------===//
// tile.yield
//===----------------------------------------------------------------------===//

def Tile_YieldOp : Tile_Op<"yield", [
    Pure, Terminator, ReturnLike,
    ParentOneOf<["KernelOp", "WsOp", "ParallelOp"]>]> {
  let summary = "terminator of tile regions";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// tile.alloc
//===----------------------------------------------------------------------===//

def Tile_AllocOp : Tile_Op<"alloc"> {
  let summary = "allocate a shared, fragment or local tile";
  let description = [{
    Allocates a statically shaped tile in shared memory
    (`#gpu.address_space<workgroup>`), as a register fragment distributed
    over the block (`#tile.mem<fragment>`) or as a per-thread register array
    (`#tile.mem<local>`). The tile lives until the end of the kernel.

    `layout` optionally fixes the tile's layout (a `LayoutAttrInterface`
    attribute: distributed for fragments, a memory layout for shared tiles);
    layout inference fills it in otherwise. `alignment` is the byte alignment
    of a shared tile (a power of two). `offset` is where a shared tile lies
    in the block's shared memory, in bytes: `tile-allocate-shared` decides
    it (tiles share storage only where that pass proved one of them dead),
    and the lowering places the tile there; a user may pin it.

    ```mlir
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    ```
  }];
  let arguments = (ins OptionalAttr<Tile_LayoutAttrInterface>:$layout,
                       OptionalAttr<I64Attr>:$alignment,
                       OptionalAttr<I64Attr>:$offset);
  let results = (outs Res<AnyStaticShapeMemRef, "the allocated tile",
                          [MemAlloc<AutomaticAllocationScopeResource>]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::MemRefType":$type), [{
      build($_builder, $_state, type, /*layout=*/nullptr,
            /*alignment=*/nullptr, /*offset=*/nullptr);
    }]>
  ];
  let extraClassDeclaration = [{
    ::mlir::MemRefType getType() { return getResult().getType(); }
  }];
}

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

def Tile_CopyOp : Tile_Op<"copy", [AttrSizedOperandSegments]> {
  let summary = "block-cooperative copy between global, shared and register "
                "tiles";
  let description = [{
    Copies a region between two buffers, converting the element type if the
    two differ. One operand is a *tile* (a whole buffer, possibly a
    `memref.subview`); its static shape is the copy extent. The other operand
    may carry offsets, one per dimension: the region starts there and has the
    extent's sizes, aligned to its trailing dimensions (leading dimensions
    get size 1). Offsets are only allowed on a global operand, whose region
    may exceed the tensor: out-of-bounds elements read as zero and
    out-of-bounds writes are dropped. Without offsets, both operands must
    have the same shape. At least one operand is on chip (shared, fragment
    or local).

    An `async` copy (global to shared memory only) may complete later: its
    data is visible only after a `tile.async_commit` grouping it and a
    `tile.async_wait` for that group. Software pipelining produces them.

    ```mlir
    tile.copy %A[%m, %k], %As : memref<?x?xf16> to memref<128x32xf16, #smem>
    tile.copy %Cf, %C[%m, %n] : memref<128x128xf32, #frag> to memref<?x?xf16>
    ```

    `tma` (set by `tile-select-tma`, on chips with a tensor copy engine)
    makes an `async` copy one tensor copy per swizzle panel, issued by one
    thread and completed on the barrier of its pipe's slot; the kernel is
    only launched when the tensor's alignment allows it.

    `in_bounds` asserts that the global region lies within the tensor and
    that the tensor's rows and the region's last offset are multiples of the
    copy's vector width (16 bytes of the wider element type, halved until it
    divides the extent's last dimension): the lowering then emits no masks
    and no alignment tests. `tile-specialize-bounds` sets it on the copies of
    a loop version that a uniform test selects; a copy that breaks the
    assertion has undefined behavior, like an out-of-bounds
    `vector.transfer_read` marked `in_bounds`.

    `padding` gives the value that out-of-bounds elements of a copy from
    global memory read as, instead of zero: a float or integer attribute of
    the destination's element type (`-inf` for a softmax is
    `padding(0xFF800000 : f32)`). Copies with a padding other than zero are
    never tensor copies (the tensor copy engine fills with zero); an
    asynchronous one moves the chunks that cross the tensor's edge through
    registers.

    `scratch` is a shared tile the copy exchanges data through: the
    row-major tile of a copy between register tiles of different layouts,
    the staging buffers of a tensor store (`tile.tma_store`).
    `tile-allocate-scratch` allocates it; the lowering requires it where
    it needs one.

    ```mlir
    tile.copy %X[%row, %c0], %Xf padding(0xFF800000 : f32)
        : memref<?x?xf32> to memref<4x1024xf32, #frag>
    ```
  }];
  let arguments = (ins
    Arg<AnyMemRef, "source", [MemRead]>:$source,
    Variadic<Index>:$source_offsets,
    Arg<AnyMemRef, "destination", [MemWrite]>:$target,
    Variadic<Index>:$target_offsets,
    Arg<Optional<AnyStaticShapeMemRef>, "scratch", [MemRead, MemWrite]>:$scratch,
    UnitAttr:$async,
    UnitAttr:$tma,
    UnitAttr:$in_bounds,
    OptionalAttr<TypedAttrInterface>:$padding);
  let assemblyFormat = [{
    (`async` $async^)? (`tma` $tma^)? (`in_bounds` $in_bounds^)? $source
    (`[` $source_offsets^ `]`)? `,` $target
    (`[` $target_offsets^ `]`)? (`padding` `(` $padding^ `)`)?
    (`scratch` `(` $scratch^ `:` type($scratch) `)`)? attr-dict
    `:` type($source) `to` type($target)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$source,
                   "::mlir::ValueRange":$sourceOffsets,
                   "::mlir::Value":$target,
                   "::mlir::ValueRange":$targetOffsets), [{
      build($_builder, $_state, source, sourceOffsets, target, targetOffsets,
            /*scratch=*/::mlir::Value(), /*async=*/false, /*tma=*/false,
            /*in_bounds=*/false, /*padding=*/::mlir::TypedAttr());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MemRefType getSourceType() {
      return ::llvm::cast<::mlir::MemRefType>(getSource().getType());
    }
    ::mlir::MemRefType getTargetType() {
      return ::llvm::cast<::mlir::MemRefType>(getTarget().getType());
    }
    /// The copy extent: the shape of the operand without offsets.
    ::llvm::ArrayRef<int64_t> getExtent() {
      return getSourceOffsets().empty() ? getSourceType().getShape()
                                        : getTargetType().getShape();
    }
    /// The padding when it is not zero (null otherwise): the value that
    /// out-of-bounds elements read as.
    ::mlir::TypedAttr getNonZeroPadding();
  }];
}

//===----------------------------------------------------------------------===//
// tile.async_commit / tile.async_wait
//===----------------------------------------------------------------------===//

def Tile_AsyncCommitOp : Tile_Op<"async_commit"> {
  let summary = "group the block's pending asynchronous copies";
  let description = [{
    Closes a group holding every `async` `tile.copy` the block issued since
    the previous commit (possibly none). Groups complete in order.
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait"> {
  let summary = "wait for all but the most recent groups of async copies";
  let description = [{
    Waits until at most `pending` committed groups of asynchronous copies
    are still in flight, then makes the data of the completed groups
    visible to every thread of the block (or of the enclosing `tile.ws`).
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "$pending attr-dict";
}

def Tile_MmaWaitOp : Tile_Op<"mma_wait"> {
  let summary = "wait for all but the most recent groups of asynchronous MMAs";
  let description = [{
    Waits until at most `pending` of the MMA groups the executing warps
    issued are still running. A `tile.gemm` with `mma_groups_in_flight = n`
    returns with its n latest groups running; until a wait completes them,
    nothing but another gemm may read or write their accumulators, and
    their register operands must not change. Groups complete in order, so
    a gemm left in flight can be followed by another one, by code that
    uses neither's tiles, and then by `tile.mma_wait 0` before its
    accumulator is used:

    ```mlir
    tile.gemm %Qs, %Ks, %S transpose_b clear_accum {mma_groups_in_flight = 1 : i64} ...
    tile.gemm %P, %Vs, %O {mma_groups_in_flight = 1 : i64} ...  // waits for S
    ... the softmax of S, while P V runs ...
    tile.mma_wait 0                                              // P V done
    ```

    On targets whose MMAs are synchronous (mma.sync, MFMA) the gemms
    complete when they return and the wait does nothing.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "$pending attr-dict";
}

//===----------------------------------------------------------------------===//
// tile.barrier
//===----------------------------------------------------------------------===//

def Tile_BarrierOp : Tile_Op<"barrier"> {
  let summary = "synchronize the threads executing the enclosing region";
  let description = [{
    Every thread that executes the enclosing region (the whole block, or the
    warpgroups of the enclosing `tile.ws`) waits until all of them have
    reached the barrier; their memory writes before it are visible to all
    of them after it. The scope is implied by where the barrier is, never
    by the thread that executes it, so a barrier inside a `tile.ws` region
    synchronizes only that region's threads (a named hardware barrier over
    the region's warps on NVIDIA).

    `tile-lower-ops` inserts these barriers around writes to shared memory;
    users may write them too.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Turns between tile.ws regions: tile.turn_wait, tile.turn_pass
//===----------------------------------------------------------------------===//

def Tile_TurnWaitOp : Tile_Op<"turn_wait"> {
  let summary = "wait until the previous tile.ws region passes the turn";
  let description = [{
    The `tile.ws` regions of a kernel that hold turn ops form a ring, in
    the order of their first warpgroups. `tile.turn_wait` makes the threads
    of its region wait until the previous region of the ring has executed
    a `tile.turn_pass`; `tile.turn_pass` hands the turn to the next region
    without waiting. Each pass must be matched by exactly one wait of the
    next region (a pass nobody waits for, or a wait nobody passes to,
    leaves the hardware barrier out of step: the program is wrong).

    `tile-warp-specialize` writes them where two consumer regions take the
    tiles of a persistent loop in turn (`tile.alternate_tiles`): a region
    starts the main loop of its tile once the other has issued all of its
    own tile's loads, so that neither waits for a pipe slot more than one
    round ahead of the producer. On NVIDIA each region's turn is a named
    barrier counting the threads of two regions (`bar.sync` to wait,
    `bar.arrive` to pass).
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Tile_TurnPassOp : Tile_Op<"turn_pass"> {
  let summary = "hand the turn to the next tile.ws region";
  let description = [{
    Hands the turn of the ring of `tile.ws` regions (see `tile.turn_wait`)
    to the next region, without waiting.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Stage hand-off: tile.pipe.*
//===----------------------------------------------------------------------===//

def Tile_PipeType : Tile_Type<"Pipe", "pipe"> {
  let summary = "a multi-buffered producer/consumer hand-off";
  let description = [{
    A pipe of `slots` stages: producers fill stage slots (with asynchronous
    copies), consumers read them, and each slot is handed back and forth.
    Hand-offs are numbered 0, 1, 2, ... in order over the whole run of the
    kernel (the sequence number operand of the pipe ops): hand-off `s` uses
    slot `s mod slots`, and the phase of its barriers is
    `(s / slots) mod 2`, so the compiler, not the program, keeps the
    phases. A hand-off numbered below the executing threads' base (see
    `tile.pipe.base`; 0 until they advance it) is one they have already
    passed, or one that never happens (below 0): the pipe ops naming it do
    nothing.

    A pipe has 1 to 64 slots (`kMaxSlots`), the most stages
    `tile-pipeline-planning` makes: each slot is a version of the stage's
    shared tiles and, on targets with transaction barriers, two 8-byte
    mbarriers set up one by one. Deeper pipes only cost: 64 stages of
    one 16-byte copy per thread of 128 threads already take 128 KiB of
    the 227 KiB of the largest shared memory (sm_90), where a few stages
    hide the memory latency.
  }];
  let parameters = (ins "int64_t":$slots);
  let extraClassDeclaration = [{
    /// The most slots a pipe may have.
    static constexpr int64_t kMaxSlots = 64;
  }];
  let assemblyFormat = "`<` $slots `>`";
  let genVerifyDecl = 1;
}

class Tile_PipeOp<string mnemonic> : Tile_Op<"pipe." # mnemonic> {
  let arguments = (ins Tile_PipeType:$pipe, Index:$seq);
  let assemblyFormat = "$pipe `[` $seq `]` attr-dict `:` type($pipe)";
  let hasVerifier = 1;
}

def Tile_PipeCreateOp : Tile_Op<"pipe.create"> {
  let summary = "create a stage hand-off between producers and consumers";
  let description = [{
    Creates a pipe of `slots` stages at the top level of a `tile.kernel`
    (on targets with transaction barriers, its full and empty barriers).
    `tile-inject-pipeline` creates one per pipelined loop.

    `plan`, on a pipe whose slots are filled by tensor copies, says how its
    barriers count arrivals (`tile-plan-pipes`' decision; see
    `#tile.pipe_plan`).

    ```mlir
    %p = tile.pipe.create : !tile.pipe<3>
    %q = tile.pipe.create plan <full = 2, empty = 8, deferred> : !tile.pipe<3>
    ```
  }];
  let arguments = (ins OptionalAttr<Tile_PipePlanAttr>:$plan);
  let results = (outs Tile_PipeType:$pipe);
  let assemblyFormat = "(`plan` $plan^)? attr-dict `:` type($pipe)";
  let hasVerifier = 1;
}

def Tile_PipeBaseOp : Tile_Op<"pipe.base", [MemoryEffects<[MemRead]>]> {
  let summary = "the first hand-off number of a pass over a pipe";
  let description = [{
    The number of hand-offs of the pipe that the executing threads have
    passed so far: the sum of the counts of the `tile.pipe.advance` ops they
    executed. A pipelined loop that runs more than once (inside an outer or
    persistent loop), or several loops sharing one pipe, number their
    hand-offs from it, so that slots and barrier phases continue where the
    previous pass left them: the count is the threads' own (each role of a
    warp-specialized kernel keeps its own, advancing it at the same points
    of its program).

    ```mlir
    %base = tile.pipe.base %p : !tile.pipe<3>
    scf.for ... { ... hand-offs %base + i ... }
    tile.pipe.advance %p by %trips : !tile.pipe<3>
    ```
  }];
  let arguments = (ins Tile_PipeType:$pipe);
  let results = (outs Index:$base);
  let assemblyFormat = "$pipe attr-dict `:` type($pipe)";
  let hasVerifier = 1;
}

def Tile_PipeAdvanceOp : Tile_Op<"pipe.advance", [MemoryEffects<[MemWrite]>]> {
  let summary = "move a pipe's base past the hand-offs of a pass";
  let description = [{
    Adds `count` (the hand-offs the pass just made, at least 0) to the
    executing threads' base of the pipe (see `tile.pipe.base`).
  }];
  let arguments = (ins Tile_PipeType:$pipe, Index:$count);
  let assemblyFormat = "$pipe `by` $count attr-dict `:` type($pipe)";
  let hasVerifier = 1;
}

def Tile_RingPositionOp : Tile_Op<"ring_position", [Pure]> {
  let summary = "the slot of a hand-off in a ring of slots, and its wraps";
  let description = [{
    The place of a hand-off (or of a multi-buffered tile's version) in a
    ring of `slots` slots: with `p = base + max(offset, 0)` (`base` 0 when
    absent), `slot = p mod slots` and `wraps = p / slots` modulo 2^32 (its
    low bit is a barrier's phase parity). `offset` counts from `base` and
    fits in 32 bits; a negative `offset` (a hand-off before the base, which
    does not happen) gives `base`'s place.

    `tile-inject-pipeline` and `tile-lower-ops` make these for rings whose
    size is not a power of two (the others take the low bits of the
    number); `tile-carry-ring-positions` replaces each by a slot and a wrap
    count carried through its loop where `offset` counts the loop's
    iterations, and by a division elsewhere.

    ```mlir
    %slot, %wraps = tile.ring_position %i from %base mod 3
    ```
  }];
  let arguments = (ins Optional<Index>:$base, Index:$offset,
                       I64Attr:$slots);
  let results = (outs Index:$slot, I32:$wraps);
  let assemblyFormat = "$offset (`from` $base^)? `mod` $slots attr-dict";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$base, "::mlir::Value":$offset,
                   "int64_t":$slots), [{
      build($_builder, $_state, $_builder.getIndexType(),
            $_builder.getI32Type(), base, offset,
            static_cast<uint64_t>(slots));
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_PipeProduceAcquireOp : Tile_PipeOp<"produce_acquire"> {
  let summary = "wait until a stage slot may be overwritten";
  let description = [{
    The producers of hand-off `seq` wait until its slot is free: every
    consumer has released hand-off `seq - slots`.
  }];
}

def Tile_PipeProduceCommitOp : Tile_PipeOp<"produce_commit"> {
  let summary = "hand a filled slot to the consumers";
  let description = [{
    The asynchronous copies the executing threads issued since the
    matching `produce_acquire` fill the slot of hand-off `seq`; consumers
    waiting for it proceed once they have completed.
  }];
}

def Tile_PipeConsumeWaitOp : Tile_Op<"pipe.consume_wait"> {
  let summary = "wait until a stage slot holds its data";
  let description = [{
    The consumers of hand-off `seq` wait until its copies have completed and
    their data is visible to every executing thread. `in_flight` states how
    many later hand-offs the producer may have committed when this wait
    executes (a fact of the pipelined schedule, which `tile-check-handoffs`
    checks): targets that count completion in order (cp.async groups) wait
    for all but that many, at most the later hand-offs provably committed
    by the waiting threads (0 when none is proved); those with one barrier
    per slot use the slot and phase of `seq` instead.
  }];
  let arguments = (ins Tile_PipeType:$pipe, Index:$seq,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$in_flight);
  let assemblyFormat =
      "$pipe `[` $seq `]` `in_flight` `(` $in_flight `)` attr-dict `:` "
      "type($pipe)";
  let hasVerifier = 1;
}

def Tile_PipeConsumeReleaseOp : Tile_PipeOp<"consume_release"> {
  let summary = "hand a read slot back to the producers";
  let description = [{
    The consumers are done reading the slot of hand-off `seq`: producers
    may overwrite it.
  }];
}

//===----------------------------------------------------------------------===//
// tile.gemm
//===----------------------------------------------------------------------===//

def Tile_GemmOp : Tile_Op<"gemm", [AttrSizedOperandSegments]> {
  let summary = "block-cooperative matrix multiply-accumulate";
  let description = [{
    Computes `C += op(A) * op(B)` (or `C = op(A) * op(B)` with
    `clear_accum`), where `op(X)` is `X` or its transpose. `A` is M x K
    (K x M with `transpose_a`), `B` is K x N (N x K with `transpose_b`) and
    `C` is M x N. `A` and `B` live in shared memory or in fragments; `C` is
    a fragment. Operands are rank-2 tiles (slice multi-versioned buffers
    with `memref.subview`).

    Element types: `A` and `B` are both f16, bf16, f32 (computed as tf32),
    or i8, or both 8-bit floats (f8E4M3FN / f8E5M2, mixed allowed). `C` is
    f32 (also f16 for f16 inputs), or i32 for i8 inputs.

    `policy` says how the warps executing the gemm split the M x N
    accumulator between them. `mma` records the instruction chosen for the
    target and the warp partition (`tile-select-mma` sets it; a user may
    pin it, and it is then checked against the target).

    With an asynchronous MMA (wgmma), `mma_groups_in_flight` = n lets the
    gemm return with its n latest MMA groups still running (0 when absent:
    it waits for its own), and `accumulate(%p)` computes
    `C = op(A) * op(B) + (%p ? C : 0)`. `tile-plan-pipes` sets both on the
    gemms of a pipe whose release it defers: the first gemm of the loop
    overwrites the accumulator instead of reading a zero fill, and the
    lowering waits for all groups after the loop.

    `promote_k = p` (p > 0, dividing K) sums K in spans of `p`: each span's
    products are accumulated by the MMA unit into a fresh accumulator, which
    is then added to `C` in f32 registers. Hopper's tensor cores keep fewer
    bits than f32 when they sum 8-bit float products; promoting every 128 of
    K keeps the error of long K sums at f32's (DeepSeek-V3, DeepGEMM).
    `tile-select-mma` sets it where the chosen instruction needs it
    (`promote_k = 0`: the user asks for none, the faster accumulation). A
    gemm that promotes completes its MMAs before it returns (no groups in
    flight), unless it keeps them in `partials`.

    `partials(%P)` (a fragment of C's type; layout inference gives it C's
    layout) defers promotion by one gemm: the gemm first waits for its MMA
    groups in flight and adds `P` to `C`, then issues `P = op(A) * op(B)`
    and returns with it in flight (`mma_groups_in_flight = 1`,
    `promote_k = K`: one span). The sum is complete once the MMAs in flight
    are and `P` is added once more, which the lowering does after the
    gemm's loop (after the gemm outside a loop), if the gemm ran. With
    `accumulate(%p)`, `%p` says whether `P` holds partial sums to add: false
    for the first gemm of a loop, whose `P` nothing defined (an instruction
    other than an MMA writing it would make ptxas serialize the MMAs).
    Without it `P` is always added and must hold zeros before the first
    gemm. `tile-plan-pipes` sets it on the promoting gemms of a pipe whose
    release it defers: the addition of one K block and the wait for the
    next hand-off then overlap the MMAs of the block in flight.

    `consumer_chunk = w` (w > 0, dividing N) says that the `tile.parallel`
    following the gemm in its block reads `C` element by element and is
    its only other user: the lowering computes `C` in N / w parts (wgmma:
    the MMAs of each `w` columns; mma.sync: each warp's n tiles in N / w
    groups), completes each part and runs the `tile.parallel` on its
    elements before computing the next, so that one part of `C` is held at
    a time (the resource check counts `C` as one part). The gemm clears
    its accumulator and completes its MMAs. `tile-fuse-consumer` sets it
    where the product takes more than 64 registers a thread (a K block's
    product scaled into a running sum: block-scaled FP8 GEMMs at 128 x
    256), and moves the ops between the gemm and the `tile.parallel`
    before the gemm.

    `sparse(%E)` makes A 2:4-sparse along K: of every group of four
    consecutive K elements of a row at most two are non-zero, and A holds
    the kept values only, M x K/2 (each group's two in order), while `E`,
    an M x K/16 tile of i16 in shared memory, holds the groups' metadata:
    word j of a row describes groups 4j .. 4j + 3 in its nibbles 0-3, each
    `idx0 | idx1 << 2` with `idx0 < idx1` the positions in the group of its
    two kept values (a group with fewer non-zeros keeps a zero). K is
    then twice A's columns and a multiple of 32; A and B are f16 or bf16, A
    is in shared memory and not transposed. NVIDIA chips from sm_80 compute
    it with `mma.sp` (m16n8k32), whose metadata registers are two words of
    `E` (rows g and g + 8 of a 16-row tile).

    ```mlir
    tile.gemm %As, %Bs, %Cf transpose_b policy <square>
        : memref<128x32xf16, #smem>, memref<128x32xf16, #smem>,
          memref<128x128xf32, #tile.mem<fragment>>
    tile.gemm %Ac, %Bs, %Cf sparse(%Es : memref<128x4xi16, #smem>)
        : memref<128x32xf16, #smem>, memref<64x128xf16, #smem>,
          memref<128x128xf32, #tile.mem<fragment>>
    ```
  }];
  let arguments = (ins
    Arg<AnyStaticShapeMemRef, "A operand", [MemRead]>:$a,
    Arg<AnyStaticShapeMemRef, "B operand", [MemRead]>:$b,
    Arg<AnyStaticShapeMemRef, "accumulator", [MemRead, MemWrite]>:$c,
    Optional<I1>:$accumulate,
    Arg<Optional<AnyStaticShapeMemRef>, "partial sums in flight",
        [MemRead, MemWrite]>:$partials,
    Arg<Optional<AnyStaticShapeMemRef>, "2:4 sparsity metadata of A",
        [MemRead]>:$sparse_meta,
    UnitAttr:$transpose_a,
    UnitAttr:$transpose_b,
    UnitAttr:$clear_accum,
    DefaultValuedAttr<Tile_WarpPolicyAttr,
                      "::mlir::tile::WarpPolicy::Square">:$policy,
    OptionalAttr<Tile_MmaAttr>:$mma,
    OptionalAttr<I64Attr>:$mma_groups_in_flight,
    OptionalAttr<I64Attr>:$promote_k,
    OptionalAttr<I64Attr>:$consumer_chunk);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`accumulate` `(` $accumulate^ `)`)?
    (`partials` `(` $partials^ `:` type($partials) `)`)?
    (`sparse` `(` $sparse_meta^ `:` type($sparse_meta) `)`)?
    (`transpose_a` $transpose_a^)? (`transpose_b` $transpose_b^)?
    (`clear_accum` $clear_accum^)? (`policy` $policy^)? attr-dict
    `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getM() {
      return ::llvm::cast<::mlir::MemRefType>(getC().getType()).getDimSize(0);
    }
    int64_t getN() {
      return ::llvm::cast<::mlir::MemRefType>(getC().getType()).getDimSize(1);
    }
    /// K of the product: A's, twice that of a 2:4-sparse A.
    int64_t getK() {
      return ::llvm::cast<::mlir::MemRefType>(getA().getType())
                 .getDimSize(getTransposeA() ? 0 : 1) *
             (getSparseMeta() ? 2 : 1);
    }
    /// Whether A is 2:4-sparse (`sparse`).
    bool isSparse() { return static_cast<bool>(getSparseMeta()); }
    /// The K span summed before promotion (see `promote_k`); 0: none.
    int64_t getPromotionSpan() { return getPromoteK().value_or(0); }
  }];
}

//===----------------------------------------------------------------------===//
// tile.fill
//===----------------------------------------------------------------------===//

def Tile_FillOp : Tile_Op<"fill", [
    TypesMatchWith<"value type matches the element type of the tile",
                   "target", "value",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "fill a tile with a scalar";
  let description = [{
    Writes `value` to every element of a shared, fragment or local tile
    (or a subview of one).

    ```mlir
    tile.fill %acc, %zero : memref<128x128xf32, #tile.mem<fragment>>
    ```
  }];
  let arguments = (ins
    Arg<AnyStaticShapeMemRef, "tile", [MemWrite]>:$target,
    AnyType:$value);
  let assemblyFormat = "$target `,` $value attr-dict `:` type($target)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// tile.parallel
//===----------------------------------------------------------------------===//

def Tile_ParallelOp : Tile_Op<"parallel", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "element-wise loop nest over a tile";
  let description = [{
    A loop nest over a static iteration space, executed cooperatively by the
    threads of the block: every point of the space is executed exactly once,
    in no particular order, by some thread. The body's block arguments are
    the induction variables (`index`), one per dimension. The body accesses
    tiles with `memref.load` / `memref.store`; iterations must be
    independent. Like TileLang's `T.Parallel`.

    `layout`, filled in by layout inference or given by the user, is the
    distributed layout of the iteration space: which thread runs which
    iteration.

    ```mlir
    tile.parallel (%i, %j) in [128, 64] {
      %s = memref.load %S[%i, %j] : memref<128x64xf32, #frag>
      ...
    }
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$extents,
                       OptionalAttr<Tile_LayoutAttrInterface>:$layout);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::ArrayRef<int64_t>":$extents)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block::BlockArgListType getInductionVars() {
      return getBody().getArguments();
    }
  }];
}

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce"> {
  let summary = "reduce a register tile along one dimension";
  let description = [{
    Reduces `source` along dimension `dim` into `target`, whose shape is the
    source shape without `dim` (or with `dim` of size 1). With `clear` the
    target is overwritten; without it the reduction is combined with the
    values already in `target` (useful for running maxima). Both operands
    are fragments (or local arrays) of the same element type. `abs_sum` and
    `abs_max` reduce absolute values.

    `scratch`, for a reduction whose layout spreads `dim` over several
    warps, is the shared tile the warps combine their partial results
    through (one per thread and target register; `tile-allocate-scratch`
    allocates it).

    ```mlir
    tile.reduce <max> %S, %m dim 1 clear
        : memref<128x64xf32, #frag> to memref<128xf32, #frag>
    ```
  }];
  let arguments = (ins
    Tile_ReduceKindAttr:$kind,
    Arg<AnyStaticShapeMemRef, "source", [MemRead]>:$source,
    Arg<AnyStaticShapeMemRef, "target", [MemRead, MemWrite]>:$target,
    Arg<Optional<AnyStaticShapeMemRef>, "scratch", [MemRead, MemWrite]>:$scratch,
    I64Attr:$dim,
    UnitAttr:$clear);
  let assemblyFormat = [{
    $kind $source `,` $target `dim` $dim (`clear` $clear^)?
    (`scratch` `(` $scratch^ `:` type($scratch) `)`)? attr-dict
    `:` type($source) `to` type($target)
  }];
  let hasVerifier = 1;
}

#endif // TILE_DIALECT_TILEOPS_TD
