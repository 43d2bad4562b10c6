//===- TileBase.td - Tile dialect definition ---------------*- tablegen -*-===//
//
// The `tile` dialect models tile-level GPU kernels with block-cooperative
// semantics: every op inside a `tile.kernel` is executed by all threads of the
// thread block together (unless guarded by `tile.ws`).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEBASE_TD
#define TILE_DIALECT_TILEBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Tile-level GPU kernels: copies, gemms and element-wise loops "
                "over shared-memory and register tiles";
  let description = [{
    The `tile` dialect describes GPU kernels at the granularity of tiles, in
    the spirit of TileLang and Triton's GPU dialects. A kernel (`tile.kernel`)
    is launched over a grid of thread blocks; inside it, operations are
    *block-cooperative*: `tile.copy`, `tile.gemm`, `tile.fill`,
    `tile.parallel` and `tile.reduce` are executed by all threads of the block
    together, and the compiler decides which thread does which part of the
    work.

    Buffers are `memref`s whose memory space says where they live:

    * no memory space (or `#gpu.address_space<global>`): global memory;
    * `#gpu.address_space<workgroup>`: shared memory;
    * `#tile.mem<fragment>`: a register tile distributed over the threads of
      the block; which thread holds which element is decided by layout
      inference (or given by the user);
    * `#tile.mem<local>`: a per-thread register array (each thread has its
      own copy of the whole buffer).

    Pipelined loops are ordinary `scf.for` loops carrying the discardable
    attributes `tile.num_stages` (and optionally `tile.stage` and
    `tile.order`), verified by this dialect.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Discardable attribute naming the number of software-pipeline stages of
    /// an `scf.for` loop.
    static constexpr ::llvm::StringLiteral kNumStagesAttrName =
        "tile.num_stages";
    /// Discardable attribute giving the stage of each op of a pipelined loop
    /// body (terminator excluded), in body order.
    static constexpr ::llvm::StringLiteral kStageAttrName = "tile.stage";
    /// Discardable attribute giving the emission order of each op of a
    /// pipelined loop body (terminator excluded), in body order.
    static constexpr ::llvm::StringLiteral kOrderAttrName = "tile.order";
    /// Discardable attribute written by `tile-inject-pipeline`: the stage
    /// whose ops an `scf.if` guard of a pipelined loop runs, and on
    /// `tile.pipe.consume_release` the stage of the last reads of the slot
    /// it releases.
    static constexpr ::llvm::StringLiteral kPipelineStageAttrName =
        "tile.pipeline_stage";
    /// Discardable attribute written by `tile-inject-pipeline` on the loop
    /// it makes: the iterations it runs beyond the original loop's to drain
    /// the pipeline (stages - 1). The loop runs from the original lower
    /// bound to the original upper bound plus this many steps.
    static constexpr ::llvm::StringLiteral kPipelineDrainAttrName =
        "tile.pipeline_drain";
    /// Discardable unit attribute on a loop with `tile.num_stages`: the
    /// count is exact, so a pipeline whose buffers do not fit the target is
    /// an error instead of being lowered with the largest count that fits.
    static constexpr ::llvm::StringLiteral kExactStagesAttrName =
        "tile.exact_stages";
    /// Discardable boolean attribute on a loop with `tile.num_stages`:
    /// whether a pipeline whose shared buffers fit only once is lowered
    /// with one buffer and the next iteration's tiles loaded ahead into
    /// registers (written by tile-pipeline-planning; `false` keeps such a
    /// loop sequential). With `tile.num_stages = 1`, `true` asks for it.
    static constexpr ::llvm::StringLiteral kRegisterPrefetchAttrName =
        "tile.register_prefetch";
    /// Discardable boolean attribute on an `scf.for` loop with two gemms:
    /// whether `tile-rotate-loops` runs the second gemm one iteration
    /// behind the first, so that the ops between them overlap it (written
    /// by the pass: `false` where it declines, `true` on the loop it
    /// makes). `true` asks for the rotation; `false` keeps the loop as
    /// written.
    static constexpr ::llvm::StringLiteral kRotateAttrName = "tile.rotate";
    /// Discardable boolean attribute on a `tile.copy` from global memory
    /// into a shared tile: whether `tile-hand-off-copies` hands it off
    /// through a pipe (loaded asynchronously, waited for before its first
    /// reader; `false` keeps it synchronous).
    static constexpr ::llvm::StringLiteral kHandOffAttrName = "tile.hand_off";

    /// Discardable attribute on a `tile.kernel`: `false` keeps
    /// `tile-warp-specialize` from splitting it into producer and consumer
    /// warpgroups.
    static constexpr ::llvm::StringLiteral kWarpSpecializeAttrName =
        "tile.warp_specialize";
    /// Discardable attribute on a `tile.kernel`: whether `tile-plan-pipes`
    /// leaves the MMAs of its 2:4-sparse gemms in flight past the slot's
    /// release (their loop unrolled by two, each step's metadata registers
    /// kept until the other step's wait); without it the pass decides
    /// (docs/design.md 5.7).
    static constexpr ::llvm::StringLiteral kSparseInFlightAttrName =
        "tile.sparse_in_flight";
    /// Discardable attribute on a `tile.kernel`: whether the consumer
    /// warpgroups `tile-warp-specialize` makes take turns at the MMAs
    /// (`tile.ws ... pingpong`); without it the pass decides.
    static constexpr ::llvm::StringLiteral kPingpongAttrName =
        "tile.pingpong";
    /// Discardable attribute on a `tile.kernel` of one warpgroup: whether
    /// `tile-warp-specialize` gives its persistent tile loop two consumer
    /// warpgroups that take the block's tiles in turn (each runs the body
    /// for every second tile), so that one's epilogue overlaps the other's
    /// main loop. Written by `tile-persistent-blocks`.
    static constexpr ::llvm::StringLiteral kAlternateTilesAttrName =
        "tile.alternate_tiles";
    /// Discardable unit attribute on the `scf.for` that
    /// `tile-persistent-blocks` makes: the loop over a block's tiles.
    static constexpr ::llvm::StringLiteral kTileLoopAttrName =
        "tile.tile_loop";
    /// Discardable attribute on an `scf.for`: how many iterations one pass
    /// of its body runs once `tile-unroll-loops` has unrolled it (1 or 2;
    /// 1 keeps it). `tile-lower-ops` writes 2 on the loop of a gemm whose
    /// promotion it defers, so that the two K blocks of a pass keep their
    /// partial sums in registers of their own (docs/design.md 5.6).
    static constexpr ::llvm::StringLiteral kUnrollAttrName = "tile.unroll";
    /// Discardable boolean attribute on a clearing `tile.gemm` in a loop,
    /// whose product the next `tile.parallel` of its block consumes: whether
    /// that consumer may run one gemm late, inside the next iteration's
    /// gemm after its MMAs are issued, so that the consumer (a block-scaled
    /// FP8 K block added, scaled, to a running sum) overlaps them (written
    /// `true` by `tile-fuse-consumer` where the loop allows it; `false`
    /// keeps the consumer in its place, `true` asks for it;
    /// docs/design.md 5.6).
    static constexpr ::llvm::StringLiteral kConsumerLateAttrName =
        "tile.consumer_late";
    /// Discardable boolean attribute on a `tile.kernel`: `false` keeps
    /// `tile-hoist-epilogue-loads` from reading the epilogue's scalars from
    /// global memory before the main loop.
    static constexpr ::llvm::StringLiteral kEarlyLoadsAttrName =
        "tile.early_loads";
    /// Discardable boolean attribute on a `tile.kernel`: `false` keeps
    /// `tile-insert-barriers` from giving the warpgroups of a `tile.ws`
    /// region barriers of their own for its tensor stores (`store_barrier`):
    /// the region's threads then store every panel together.
    static constexpr ::llvm::StringLiteral kWarpgroupStoresAttrName =
        "tile.warpgroup_stores";
    /// Discardable attribute on a `tile.kernel`: the number of its blocks
    /// that should fit one multiprocessor at once (the compiler then
    /// launches it with the registers of that many blocks: `.minnctapersm`
    /// on NVIDIA); register budgets split what that launch gives a block.
    static constexpr ::llvm::StringLiteral kBlocksPerMultiprocessorAttrName =
        "tile.blocks_per_sm";
    /// Discardable attribute on a `tile.kernel` with a grid of at least two
    /// dimensions: the launch order of its blocks. G > 1 runs them in groups
    /// of G grid rows (consecutive block ids walk down G rows of the x-y
    /// grid, then move one column right; the last group has the rows that
    /// are left), so that the operand panels a wave of blocks reads stay in
    /// L2; 1 is the plain row-major order. Written by
    /// `tile-launch-order` unless the kernel has it already.
    static constexpr ::llvm::StringLiteral kLaunchGroupAttrName =
        "tile.launch_group";
    /// Discardable attribute on a `tile.kernel`: the most splits of its K
    /// loop (split-K). With S > 1 the kernel becomes two: one whose blocks
    /// each compute a tile's partial sums over a part of the K loop into an
    /// f32 workspace, one that adds a tile's parts in split order and runs
    /// the epilogue; the host picks the count (at most S, 1 runs the kernel
    /// as written) from the grid and the loop's trip count. 1 keeps the
    /// kernel whole. Written and applied by `tile-split-k`.
    static constexpr ::llvm::StringLiteral kSplitKAttrName = "tile.split_k";
    /// Discardable attribute on a persistent `tile.kernel`: the most parts
    /// the K loops of the tiles of its last, partial wave are split into
    /// (split-K of the last wave). With S > 1 the host picks the count per
    /// call (at most S and the blocks per tile left; 1 runs the kernel as it
    /// is): a kernel computes the full waves and the parts, the parts' sums
    /// meet in an f32 workspace, and a second kernel adds each tile's parts
    /// in order and runs the epilogue. 1 keeps the last wave whole. Written
    /// and applied by `tile-split-tail`.
    static constexpr ::llvm::StringLiteral kSplitTailAttrName =
        "tile.split_tail";
    /// Discardable attribute on a `tile.kernel` with a grid of at least two
    /// dimensions: P > 0 runs it on at most P blocks that loop over the grid's
    /// tiles (a persistent grid: a block's next tile starts while it
    /// finishes the last one); 0 keeps one block per tile. Written and
    /// applied by `tile-persistent-blocks`.
    static constexpr ::llvm::StringLiteral kPersistentAttrName =
        "tile.persistent";
    /// Discardable string attribute on a persistent `tile.kernel`: the order
    /// in which its blocks take the grid's tiles. "launch": the launch order
    /// (block b takes tiles b, b + P, b + 2P, ...). "x-descending" (or
    /// ascending, or y, z): the tiles whose pipelined loops run longest
    /// first: the grid's planes across that dimension in sections of about
    /// eight rounds of tiles, each section walked along the dimension in that
    /// direction with its planes fastest, and the blocks taking each
    /// round's tiles in alternating directions (b, then P - 1 - b), so that
    /// every block's sum of work comes out about the same. Written by
    /// `tile-persistent-blocks` where the loops' trip counts grow or shrink
    /// along one grid dimension (causal attention), applied by it.
    static constexpr ::llvm::StringLiteral kTileOrderAttrName =
        "tile.tile_order";
    /// Discardable attribute on a `tile.kernel`: the blocks of one cluster
    /// (1 or 2). With 2, consecutive blocks run as a cluster that computes
    /// two tiles of adjacent grid rows (y) in the same column (x), so a copy
    /// that follows the column alone can be shared (`tile.multicast`).
    /// Written by `tile-persistent-blocks` on the kernels it makes
    /// persistent, which pairs their tiles.
    static constexpr ::llvm::StringLiteral kClusterAttrName = "tile.cluster";
    /// Discardable boolean attribute on a `tile.kernel`: whether it is
    /// launched as a programmatic dependent of the kernel before it in the
    /// stream (sm_90+). With true, its blocks may start while that kernel's
    /// last blocks still exit: each waits at entry until the kernel before
    /// has completed and its memory is visible, and says when its own work
    /// is done, so the next kernel's launch overlaps this one's end.
    /// false launches it after the previous kernel ends. Written by
    /// `tile-dependent-launch` unless the kernel has it already; applied by
    /// `convert-tile-to-gpu` and the runtime's launch.
    static constexpr ::llvm::StringLiteral kDependentLaunchAttrName =
        "tile.dependent_launch";
    /// Discardable unit attribute on a tensor copy (`tile.copy async tma`)
    /// of a kernel with `tile.cluster = 2` whose source position is the
    /// same in both blocks of a cluster: each block issues half of it and
    /// the copy engine delivers the whole tile to both. Written by
    /// `tile-select-tma`.
    static constexpr ::llvm::StringLiteral kMulticastAttrName =
        "tile.multicast";

    /// Shared memory bytes a kernel allocates (set by tile-check-resources).
    static constexpr ::llvm::StringLiteral kSharedMemoryBytesAttrName =
        "tile.shared_memory_bytes";
    /// Estimated registers per thread of a kernel's register tiles.
    static constexpr ::llvm::StringLiteral kFragmentRegistersAttrName =
        "tile.fragment_registers";
    /// A kernel whose shared-memory writes are ordered by tile.barrier ops
    /// (set by tile-insert-barriers; tile-lower-ops requires it).
    static constexpr ::llvm::StringLiteral kSynchronizedAttrName =
        "tile.synchronized";
    /// Discardable unit attribute written by `tile-insert-barriers` where
    /// the threads' ordinary writes to shared memory are read through the
    /// asynchronous proxy (wgmma): on a write (`tile.copy`, `tile.fill`, a
    /// `tile.parallel` storing to shared memory, a store) the lowering
    /// emits a proxy fence after it, before the barrier that publishes it;
    /// on a copy-engine wait (`tile.async_wait`, `tile.pipe.consume_wait`)
    /// after the wait, before its barrier.
    static constexpr ::llvm::StringLiteral kProxyFenceAttrName =
        "tile.proxy_fence";
    /// The `#tile.target` of a module or kernel.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "tile.target";

  private:
    void registerAttributes();
    void registerTypes();
  public:
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // TILE_DIALECT_TILEBASE_TD
