//===- Passes.td - Tile transformation passes --------------*- tablegen -*-===//

#ifndef TILE_TRANSFORMS_PASSES_TD
#define TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttachTarget : Pass<"tile-attach-target", "ModuleOp"> {
  let summary = "Attach the #tile.target every later pass reads";
  let description = [{
    Sets the module's `tile.target` to `#tile.target<chip, features>`. An
    unknown or unsupported chip, or a malformed feature, is an error naming
    the supported chips (it never reaches LLVM). Without `chip`, a module
    that already names a target keeps it and one that names none gets the
    default (`sm_90a`); with `chip`, a module that already names another
    chip is an error. Kernels carrying their own `tile.target` are checked
    the same way. Ops verify against the module's chip (the threads of
    `tile.ws` regions, per-thread unrolling), so the module is verified
    again under the chip given: what does not fit it is an error at the op.

    Every later pass reads the target through `getTargetAttr`: layout
    inference the warp size and MMA instructions, pipeline planning and
    `tile-check-resources` the shared memory and registers, the lowering
    the instruction set.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip (sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, gfx90a, "
           "gfx942); empty keeps the module's, else sm_90a">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Target features (+ptxNN); empty for the chip's default">,
    Option<"defaultChip", "default-chip", "std::string", /*default=*/"\"\"",
           "The chip of a module that names none and is given no chip; "
           "empty: sm_90a (tile-to-rocdl uses gfx942)">
  ];
}

def FpContract : Pass<"tile-fp-contract", "ModuleOp"> {
  let summary = "Let the floating-point arithmetic of kernels contract "
                "into fused multiply-adds";
  let description = [{
    Adds `contract` to the fast-math flags of every floating-point `arith`
    op inside `tile.kernel`s (the element-wise bodies of `tile.parallel`,
    index and scale arithmetic), keeping the flags they already have. The
    backends may then fuse a multiply and an add into one `fma` with a
    single rounding, as nvcc (`--fmad=true`), hipcc and Triton do by
    default; without it LLVM's NVPTX backend prints `mul.rn` and `add.rn`,
    which ptxas may not fuse either. Host code is left alone.

    FlashAttention's softmax `exp2(s * scale - m * scale)` becomes one
    `fma` and an `ex2` per score instead of a multiply, a subtract and an
    `ex2`. `tile-to-nvvm` and `tile-to-rocdl` run it unless
    `fp-contract=false`.
  }];
}

def SelectTma : Pass<"tile-select-tma", "ModuleOp"> {
  let summary = "Use tensor copies (TMA) for pipelined copies into shared "
                "memory, with a run-time fall-back";
  let description = [{
    On chips with a tensor copy engine (sm_90), the asynchronous copies a
    pipelined loop hands off through a `tile.pipe` become `tile.copy async
    tma`: one thread copies each swizzle panel of the tile with one tensor
    copy, completed on the barrier of the pipe's slot, and the hardware
    fills elements outside the tensor with zeros. A pipe uses TMA for all
    of its copies or for none.

    A tensor copy needs, besides what the types show (2-D tiles, no element
    conversion, a swizzled or row-major shared tile, boxes of at most 256
    rows), what only the call knows: the tensor's first element 16-byte
    aligned, rows a multiple of 16 bytes apart, unit innermost stride. The
    pass therefore versions each kernel with TMA copies: the host tests
    these facts for every tensor the copies read and launches the TMA
    version (`<kernel>_tma`) when they hold, the original kernel otherwise.
    A copy whose tensor's static type already rules TMA out (say a row
    stride of 66 bytes) keeps its copy engine, with a remark saying why;
    with `remarks=true` also copies ruled out for other reasons (3-D
    tensors, element conversions, padded tiles) and those that use TMA.

    In the TMA version, a copy of an accumulator (a fragment) into a global
    tensor becomes a tensor store through staging buffers in shared memory
    where they fit beside the kernel's tiles: `tile.tma_store = N` buffers
    of the tile's rows x `tile.tma_store_panel = B` bytes on the copy (the
    first that fits of 4 x 64, 2 x 128, 2 x 64 and 1 x 128, at most one
    buffer per panel), and the tensor joins the host's test. The tile must
    be whole column panels of at most 256 rows, its elements held once,
    each thread's columns inside one panel; kernels whose lowering adds
    scratch tiles keep the register path. `tile.tma_store = 0` on a copy
    keeps the register path, a `tile.tma_store_panel` of the source fixes
    the panel width (as many buffers as the memory of two 128-byte ones
    holds); a buffer count written elsewhere is the pass's to decide.

    Runs after layout inference, which chooses the swizzles.
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Also report the copies that use TMA and every other reason "
           "a copy does not">
  ];
  let dependentDialects = [
    "::mlir::tile::TileDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def WarpSpecialize : Pass<"tile-warp-specialize", "ModuleOp"> {
  let summary = "Give the tensor copies of pipelined loops their own "
                "producer warpgroup";
  let description = [{
    On chips with tensor copies, a kernel whose pipelined loops hand their
    stages over through tensor copies only (the `<kernel>_tma` version of
    `tile-select-tma`) gets one more warpgroup: `tile.ws [G]`, the
    producer, runs the loops' `produce_acquire`, tensor copies and
    `produce_commit`; `tile.ws [0, ..., G - 1]`, the consumers, run
    everything else, with the kernel's original threads, so the layouts
    chosen for them stay valid. The pipe's full and empty barriers already
    order the two sides. The producer region keeps the loops and branches
    around its ops and the side-effect-free ops (and memory reads) they use.
    On chips with `setmaxnreg` the producer runs with 40 registers per
    thread and the consumers with what is left (at most 240).

    Which kernels: with `all=true` (the default of the pass and of
    `tile-to-nvvm`) every candidate, with `all=false` only kernels marked
    `tile.warp_specialize = true`; `tile.warp_specialize = false` always
    opts a kernel out. Unless the kernel asks for it with
    `tile.warp_specialize = true`, the pass also compares occupancy: the
    producer warpgroup costs threads and registers, and where it would
    leave fewer consumer warpgroups resident on a multiprocessor than the
    unspecialized kernel has (two warpgroups of 64 x 128 f32 accumulator
    slabs run two blocks to a multiprocessor, but only one with a
    producer), the producer must make up for it by loading ahead: where
    the stages it keeps ahead of each consumer warpgroup hold fewer than
    2^20 multiply-adds (the pipelined loop's gemms per iteration times the
    stages but one, over the consumer warpgroups; 8-bit and 2:4-sparse
    operands count half), the kernel is left alone. That decision is
    written on the kernel as `tile.warp_specialize = false`, with a remark
    giving both counts and the work ahead.

    A persistent kernel of one warpgroup with `tile.alternate_tiles = true`
    (tile-persistent-blocks keeps it only where it qualifies) gets two
    consumer regions, `[0]` and `[1]`, that take the tiles of the block's
    tile loop in turn: each runs the body for every second tile and, for
    the other's, only counts the tile's hand-offs (`tile.pipe.advance`);
    each has its own register tiles; `tile.turn_wait` / `tile.turn_pass`
    around each tile's main loop keep the two regions' waits on the pipe
    in the producer's order. Not a default (docs/perf.md, run 41).

    Several consumer warpgroups take turns at the MMAs (`tile.ws ...
    pingpong`) where the kernel says so (`tile.pingpong`) or, without it,
    where one of their gemms in a loop promotes its partial sums once per
    call (one K block of 8-bit floats, one instruction across the tile)
    from a pipe of 5 slots or more: the lowering then issues each block's
    MMAs before it adds the previous block's partial sums, so a turn ends
    before the additions and one warpgroup adds while the other's MMAs run
    (docs/design.md 5.6; measured in docs/perf.md runs 155, 161 and
    162).

    A candidate kernel that cannot be specialized keeps its shape, with a
    remark saying why: copies handed off without tensor copies, tensor
    copies nested in other regions than loops and branches, copies whose
    operands depend on side effects, existing `tile.ws` regions, no room
    for another warpgroup, or `tile.warp_specialize = false` on the kernel.
    With `remarks=true` specialized kernels are reported too.

    Runs after `tile-select-tma` (only tensor copies complete on the pipe's
    barrier; a `cp.async` copy completes per thread) and before
    `tile-lower-ops`.
  }];
  let options = [
    Option<"all", "all", "bool", /*default=*/"true",
           "Specialize every candidate kernel, not only those marked "
           "tile.warp_specialize = true">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Also report the kernels that are specialized">
  ];
  let dependentDialects = [
    "::mlir::tile::TileDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def LaunchOrder : Pass<"tile-launch-order", "ModuleOp"> {
  let summary = "Choose the launch order of the blocks of 2-D grids";
  let description = [{
    Blocks of a grid are independent, so any order of running them computes
    the same result; the order decides how much of what the blocks read is
    still in L2. A kernel whose blocks share operand panels (a copy from
    global memory whose position depends on the block's y index but not
    its x index, and another that depends on x but not y: the A and B
    panels of a GEMM) gets `tile.launch_group = G`: consecutive blocks walk
    down G rows of the grid before moving one column right, so a wave of
    blocks reads G panels of A and a few panels of B instead of one panel
    of A and every panel of B. `convert-tile-to-gpu` emits the mapping
    from the hardware's block ids to the kernel's block indices.

    A kernel that already has `tile.launch_group` keeps it (1 is the plain
    row-major order: the way to turn grouping off). With `remarks=true`
    the pass says which kernels it grouped and why others were not.
  }];
  let options = [
    Option<"group", "group", "int64_t", /*default=*/"8",
           "Grid rows per group">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report the decision on each kernel">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def SplitK : Pass<"tile-split-k", "ModuleOp"> {
  let summary = "Split the K loop of GEMM kernels whose grid is too small to "
                "fill the GPU";
  let description = [{
    A kernel with `tile.split_k = S` (S > 1) is replaced, in the host
    function, by a choice made at run time from its grid and its K loop's
    trip count T: the number of splits is

      s = min(S, floor(P / blocks), floor(T / 32))

    with P the chip's multiprocessors and blocks the grid's size. Where
    s < 2 the kernel runs as written. Otherwise the host allocates an f32
    workspace (stream-ordered, freed after the launches) and launches two
    kernels in its place:

    - `<name>_split`, the kernel with one more grid dimension, the split
      index z: its K loop runs over the z-th of s consecutive parts of the
      iterations (ceil(T / s) each) and, in place of the epilogue, the
      block stores its accumulator to its own tile of the workspace (split
      z of grid block (x, y): rows ((z gy + y) BM), columns (x BN));
    - `<name>_reduce`, the kernel with its K loop replaced by a loop over
      the s parts of its tile that adds them into the accumulator in split
      order, then the epilogue as written. Where every op of the epilogue
      that touches the accumulator is a copy to or from global memory, a
      fill or a `tile.parallel` over its shape that indexes no other
      register tile by the row, the tile's rows are spread over BM / 16
      blocks (one more grid dimension), each summing and storing 16 rows:
      the parts are then read by that many multiprocessors instead of one.

    The sum of a tile's parts is formed in the same order on every run:
    the result is the same bits run to run (it differs from the unsplit
    kernel's by the rounding of the regrouped sums).

    Which kernels qualify: a grid of one or two dimensions; one loop at the
    top of the body whose bounds are defined outside the kernel, without
    results, containing `tile.gemm`s that all accumulate into one f32
    register tile, filled with zero before the loop and used in the loop
    only by those gemms; no global writes before the epilogue; no tile the
    loop writes (other than the accumulator) read after it; no
    hand-written `tile.ws` or pipes.

    Where the kernel says nothing, the pass decides and writes its
    decision: qualifying kernels for NVIDIA chips get `tile.split_k = 16`
    (`splits=N` picks another most); `tile.split_k = 1` opts out. A kernel
    that asks for S > 1 and does not qualify is an error naming the rule.
    With `remarks=true` the pass says what it decided and why.

    Runs after `tile-attach-target` and before `tile-launch-order` and
    `tile-persistent-blocks`, which then see the two kernels.
  }];
  let options = [
    Option<"splits", "splits", "int64_t", /*default=*/"16",
           "The most splits the pass writes on the kernels it picks">,
    Option<"decide", "decide", "bool", /*default=*/"true",
           "Decide for kernels without tile.split_k (false: only apply the "
           "attribute)">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report the decision on each kernel">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def PersistentBlocks : Pass<"tile-persistent-blocks", "ModuleOp"> {
  let summary = "Run kernels on a persistent grid looping over their tiles";
  let description = [{
    A kernel with `tile.persistent = P` (P > 0; a grid of two or three
    dimensions) becomes a kernel of min(P, tiles) blocks (at least one),
    each looping over the tiles b, b + P, b + 2P, ... of the original grid:
    the allocations move before the loop, the rest of the body into it,
    under a test that the tile exists, and the body's block indices become
    the tile's grid position in the kernel's launch order (z slowest, then
    the grouped order of `tile.launch_group`, which the rewrite consumes).
    Any P is correct; the blocks are independent as before.

    Which kernels: where the kernel says nothing, the pass decides and
    writes its decision. Kernels for chips with tensor copies (sm_90:
    warp specialization then loads the next tile's stages while the
    consumers store the last tile's results) whose blocks share operand
    panels along both grid dimensions (GEMMs) or along one (attention:
    the key and value panels of a head, read by each of its query
    blocks; with a register estimate of at most 208 a thread, since the
    tile loop's state is live beside them), that pipeline a loop and that
    run one block per multiprocessor anyway (registers, or shared tiles
    times stages: where several blocks share a multiprocessor, one's
    epilogue already overlaps the others' main loops, and the tile loop's
    registers would come out of tight budgets) get P = the chip's
    multiprocessors (`blocks=N` picks another P); `tile.persistent = 0`
    keeps one block per tile.

    Tile order: blocks take tiles statically, so where the tiles' work
    differs some blocks may get much more of it than others. Where the
    trip counts of a persistent kernel's pipelined loops grow (or shrink)
    along one grid dimension and no other (causal attention: query block
    x runs x + 1 key blocks), the pass writes `tile.tile_order =
    "x-descending"` (or ascending, or y, z): the longest tiles first, in
    sections of about eight rounds of tiles (planes across that dimension,
    walked along it with the planes fastest), the rounds' tiles taken in
    alternating directions (block b, then P - 1 - b), so that every
    block's sum of work comes out about the same. `tile.tile_order =
    "launch"` keeps the launch order; clustered kernels and kernels whose
    consumers take tiles in turn keep it too.

    Clusters: a persistent kernel with `tile.cluster = 2` (or, with
    `clusters=true`, one for a chip with clusters (sm_90) whose blocks share
    operand panels: the pass then writes the decision) runs in clusters of
    two blocks. They are not the default: on the H100 they measured no
    faster than single blocks (docs/perf.md, run 39).
    Its blocks then run in clusters of two that take pairs of tiles in
    adjacent grid rows of one column: the pair grid (gx x ceil(gy / 2))
    walks in the launch order with half the group, and the block's rank in
    its cluster (`gpu.cluster_block_id x`) picks the row. Both blocks of a
    cluster then read the same panel of the operand that follows the column
    alone, which `tile-select-tma` marks `tile.multicast`. It needs every
    pipelined loop to run alike in both blocks: loops whose bounds, or
    whose enclosing conditions, depend on the grid row keep single blocks
    (an error where the kernel asks for clusters). With an odd row count the
    last pairs have a row past the grid, computed on zero reads with its
    writes dropped.

    Alternating tiles: a kernel with `tile.alternate_tiles = true` is made
    persistent even where several of its blocks would fit a multiprocessor
    (tile-warp-specialize then gives it two consumer warpgroups that take
    its tiles in turn); the attribute is dropped with a warning where the
    kernel has more than one warpgroup, the target cannot move registers
    between warpgroups (setmaxnreg), its register tiles do not fit beside
    a second consumer, or it keeps one block per tile or pairs its tiles
    in clusters. The pass never decides it itself. The loop over a block's
    tiles is marked `tile.tile_loop`.

    With `remarks=true` the pass says what it decided for each kernel and
    why.

    Runs after `tile-launch-order` and before `tile-specialize-bounds` and
    pipelining, which then see the tile loop around the kernel's loops.
  }];
  let options = [
    Option<"blocks", "blocks", "int64_t", /*default=*/"0",
           "Blocks of a persistent grid (0: the chip's multiprocessors)">,
    Option<"decide", "decide", "bool", /*default=*/"true",
           "Decide for kernels without tile.persistent (false: only apply "
           "the attribute)">,
    Option<"clusters", "clusters", "bool", /*default=*/"false",
           "Decide clusters of two blocks for persistent kernels without "
           "tile.cluster (false, the default: only kernels with "
           "tile.cluster = 2)">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report the decision on each kernel">
  ];
  let dependentDialects = [
    "::mlir::tile::TileDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::gpu::GPUDialect"
  ];
}

def SplitTail : Pass<"tile-split-tail", "ModuleOp"> {
  let summary = "Split the K loops of the last, partial wave of a persistent "
                "GEMM's tiles";
  let description = [{
    A persistent kernel of P blocks over T tiles whose K loops run I
    iterations each leaves P - R blocks idle while its last wave of
    R = T mod P tiles runs. A persistent kernel with `tile.split_tail = S`
    (S > 1) is replaced, in the host function, by a choice made at run
    time: with W = floor(T / P) full waves, the K loops of the R tiles left
    are split into

      s = min(S, floor(P / R))

    parts of c = ceil(I / s) iterations, and where W > 0, R > 0, s >= 2 and
    the parts save at least `min-iterations` iterations (I - c), and at
    least 1/`min-share` of the iterations a block runs in all
    ((I - c) min-share >= (W + 1) I: the tail kernel runs the full waves'
    tiles a little slower than the kernel itself, a cost over the whole
    run that the saving must outweigh), the host
    allocates an f32 workspace (stream-ordered, freed after the launches)
    and launches two kernels in place of the persistent one:

    - `<name>_tail`: block b computes its W tiles of the full waves as
      before, then, where b < s R, part b mod s of tile W P + floor(b / s):
      its K loop over that part's iterations and, in place of the
      epilogue, a store of its partial sums to the part's workspace tile
      (rows ((r s + j) BM) for part j of tile left r);
    - `<name>_tail_reduce`: the kernel's body for a tile left with its K
      loop replaced by a loop that adds the tile's parts in order (those
      with iterations: ceil(I / c)), then the epilogue as written. Where the
      epilogue allows it (as for `tile-split-k`), each tile's rows are spread
      over BM / 16 blocks (a second grid dimension) that sum and store 16
      rows each; otherwise one block takes the whole tile.

    The parts of a tile are added in the same order on every run: the
    result is the same bits run to run (it differs from the kernel's own by
    the rounding of the regrouped sums). Otherwise the persistent kernel
    runs as it is. The parts are aligned in K, so blocks whose tiles share
    an operand panel read the same slice of it together, as in the full
    waves.

    Which kernels qualify: persistent kernels (`tile-persistent-blocks`'s
    tile loop) of single blocks, not taking tiles in turn, whose tile body
    has a K loop that `tile-split-k` could split (the same rules). Where
    the kernel says nothing, the pass decides: qualifying kernels for
    NVIDIA chips get `tile.split_tail = 8` (`splits=N` picks another most:
    a tile's parts are added one after another, so more parts cost the
    second kernel more than they save); `tile.split_tail = 1` opts out. A
    kernel that asks for S > 1 and does not qualify is an error naming the
    rule. With `remarks=true` the pass says what it decided and why.

    Runs after `tile-persistent-blocks` and before pipelining.
  }];
  let options = [
    Option<"splits", "splits", "int64_t", /*default=*/"8",
           "The most parts the pass writes on the kernels it picks">,
    Option<"minIterations", "min-iterations", "int64_t", /*default=*/"32",
           "The least K iterations the split must save a block of the last "
           "wave to be picked at run time">,
    Option<"minShare", "min-share", "int64_t", /*default=*/"16",
           "The split must save at least 1/N of the K iterations a block "
           "runs over the whole launch to be picked (0: no such bound)">,
    Option<"decide", "decide", "bool", /*default=*/"true",
           "Decide for kernels without tile.split_tail (false: only apply "
           "the attribute)">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report the decision on each kernel">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def DependentLaunch : Pass<"tile-dependent-launch", "ModuleOp"> {
  let summary = "Launch kernels as programmatic dependents of the kernel "
                "before them";
  let description = [{
    A kernel in a stream normally launches once the kernel before it has
    ended: the last blocks of one kernel and the first of the next do not
    overlap, and the next kernel's launch and block start are on the
    critical path of every call (about a microsecond, a few percent of a
    GEMM of 20-30 us). On chips with grid dependency control (sm_90+), a
    kernel marked `tile.dependent_launch = true` is launched so that it may
    start before the kernel before it has ended: its blocks wait at their
    entry until the kernel before has completed and its memory is visible
    (`griddepcontrol.wait`), before they touch global memory, and each block
    of a kernel says when its work is done, after which the next kernel may
    launch. So a sequence of such kernels, one GEMM after another, launches
    each while the one before exits; after any other kernel (a library's, a
    framework's) it starts when that one ends, as before.

    Where the kernel says nothing, the pass decides: every kernel for a
    chip that has it gets `tile.dependent_launch = true`;
    `tile.dependent_launch = false` opts out, and `decide=false` leaves the
    kernels without the attribute alone. A kernel that asks for it on a
    chip without it is an error. `convert-tile-to-gpu` emits the entry and
    marks the kernel's module, and the runtime launches the kernels of
    marked modules with the launch attribute. With `remarks=true` the pass
    says what it decided.

    Runs after the passes that add kernels (`tile-split-k`,
    `tile-split-tail`), so that every kernel of a host function is decided.
  }];
  let options = [
    Option<"decide", "decide", "bool", /*default=*/"true",
           "Decide for kernels without tile.dependent_launch (false: only "
           "apply the attribute)">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report the decision on each kernel">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def CheckHandoffs : Pass<"tile-check-handoffs", "ModuleOp"> {
  let summary = "Check the hand-off protocol of the pipes of each kernel";
  let description = [{
    Follows the `tile.pipe` ops of each kernel per role (each `tile.ws`
    region holding pipe ops, or the whole block), over straight-line code,
    `scf.if` and `scf.for`: every `consume_wait` must come after the commit
    of its hand-off (by the same threads, or, in a role that does not
    commit, after these threads released the slot's previous use), with
    `in_flight(k)` only where k later hand-offs are committed; every
    `produce_acquire` after the release of its slot's previous use. What is
    provably wrong (a deadlock, a read before the data lands, a slot never
    released) is an error; what cannot be proved is a warning.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def CheckResources : Pass<"tile-check-resources", "ModuleOp"> {
  let summary = "Compute and check the on-chip resources of each tile kernel";
  let description = [{
    Computes the shared memory each `tile.kernel` statically allocates (every
    shared `tile.alloc`, each placed at its alignment: the tile's own
    `alignment`, else 16 bytes, the width of a vectorized access) and records
    it on the kernel as `tile.shared_memory_bytes`. Kernels that need more
    than `max-shared-memory` bytes are reported with the bytes needed and the
    limit. Also estimates the registers per thread that fragment and local
    tiles occupy (`tile.fragment_registers`) and reports kernels whose
    estimate exceeds `max-registers` (a register tile of that size cannot
    stay in registers). On NVIDIA chips also reports kernels whose register
    tiles, or one of whose wgmma instructions (its whole accumulator), need
    more than the launch gives a thread: the register file over threads x
    `tile.blocks_per_sm` in steps of 8, or the `tile.ws` budget (ptxas
    would fail with "Insufficient registers").
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let options = [
    Option<"maxSharedMemory", "max-shared-memory", "int64_t",
           /*default=*/"232448",
           "Shared memory available to one thread block, in bytes "
           "(232448 = 227 KiB on sm_90, 166912 on sm_80)">,
    Option<"maxRegisters", "max-registers", "int64_t", /*default=*/"255",
           "Registers available to one thread">
  ];
}

def HoistEpilogueLoads : Pass<"tile-hoist-epilogue-loads", "ModuleOp"> {
  let summary = "Read the epilogue's scalars from global memory before the "
                "main loop";
  let description = [{
    A kernel's epilogue often starts with scalars read from global memory:
    the per-tensor scales of an FP8 GEMM (`memref.load %sa[%c0]`), a bias
    or a step size. Read after the main loop, each such load waits for
    global memory between the last MMAs and the output, once per tile, while
    the tensor cores idle. This pass moves a `memref.load` of global memory
    that follows a main loop (an `scf.for` holding a `tile.gemm`) in the
    same block to just before that loop, where its latency hides behind the
    loop, when:

    * its indices are defined before the loop (values of the enclosing
      blocks, constants);
    * the loop writes no global memory (its copies fill shared tiles, its
      gemms fragments), and neither does any op between the loop and the
      load: the load reads what it read before.

    Loads move in their order; a copy of a whole tile into a fragment
    (row-wise scales) is left in place, as its registers would be held
    through the loop. The moved load is the decision, visible in the IR;
    `tile.early_loads = false` on a `tile.kernel` keeps its loads in place.
    `tile-to-nvvm` and `tile-to-rocdl` run it before `tile-persistent-blocks`,
    so that in a persistent kernel each tile's loads are issued before its
    main loop. With `remarks=true` it reports each load it moved.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report each load moved before its main loop">
  ];
}

def FuseConsumer : Pass<"tile-fuse-consumer", "ModuleOp"> {
  let summary = "Let a tile.parallel consume a gemm's product chunk by "
                "chunk, or one gemm late";
  let description = [{
    A `tile.gemm ... clear_accum` whose accumulator only a following
    `tile.parallel` of the same block reads, element by element (the
    "accumulate a K block, then `acc += tmp * sa * sb`" style of
    block-scaled FP8 GEMMs), holds the whole product in registers between
    the two unless the lowering interleaves them. Where the product takes
    more than 64 registers a thread (one wgmma m64n128's accumulator, what
    a promoting gemm holds of partial sums), the pass records
    `consumer_chunk = w` on the gemm (the columns of 64 registers' worth)
    and moves the ops between the gemm and the `tile.parallel` (loads of
    scales, copies into other fragments) before the gemm; the lowering
    then computes, completes and consumes one part at a time (wgmma: w
    columns per instruction; mma.sync: each warp's n tiles in N / w
    parts). Gemms of asynchronous MMAs that promote their partial sums are
    left alone; gemms that already have `consumer_chunk` keep it.

    A product of 64 registers a thread or fewer, computed by asynchronous
    MMAs (wgmma) in a loop asking for 5 pipeline stages or more, gets
    `tile.consumer_late = true` where the loop allows its consumer to run
    one gemm late: the consumer uses only fragments and values of the
    loop's floats, and no op of the loop outside the ops from the gemm to
    the consumer touches the product or the consumer's tiles. The floats of
    the loop the consumer uses (a K block's scale loaded as a scalar) are
    passed to it through fragments of its rows, filled right before it.
    Its inputs read from global memory between the gemm and it (the
    scales' loads and copies into fragments) move before the gemm, where
    nothing between writes memory other than fragments: a copy into a
    fragment then fills a fragment of its own, copied into the consumer's
    where the copy was, since the previous K block's consumer still reads
    that one inside the gemm. Once `tile-plan-pipes` leaves the gemm's MMAs in flight, the lowering
    runs the consumer of K block j inside the gemm of block j + 1, after its
    MMAs are issued, and the last one after the loop.
    `tile.consumer_late = false` keeps the consumer in place; `true` asks
    for it, an error where the loop does not allow it. With `remarks=true`
    it says which gemms it fused or consumes late and why others were not.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report the decision on each clearing gemm">
  ];
}

def SelectMma : Pass<"tile-select-mma", "ModuleOp"> {
  let summary = "Choose the matrix-multiply instruction of every gemm";
  let description = [{
    Records on every `tile.gemm` the instruction its kernel's target computes
    it with, its shape and how the warps executing the gemm split the
    accumulator, as `mma = #tile.mma<kind, shape = [M, N, K], warps = [WM,
    WN]>`: on sm_90a `wgmma` (m64nNk16, m64nNk32 for 8-bit floats, one
    warpgroup per 64-row slab) where the operands and thread count allow it,
    `mma_sync` m16n8k16 (m16n8k32 for 8-bit floats, sm_89 on) otherwise and
    on sm_80; `mfma` on CDNA. The warp partition follows the gemm's
    `policy`. Where the target's asynchronous MMA sums too few bits for long
    K (wgmma on 8-bit floats), the pass also writes `promote_k`: partial
    sums are added in f32 registers every span of K (at most 128, dividing
    K), unless the gemm clears its accumulator and sums no more than that
    span or the kernel already says (`promote_k = 0`: none). A gemm that already has an `mma` attribute
    (pinned by the user) is checked against the target instead: an
    instruction the chip does not have, a shape or element type the
    instruction does not take, or a partition over another number of warps
    is an error naming the target. Layout inference reads the choice (and
    makes it itself for gemms that have none), and so does the lowering.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def HandOffCopies : Pass<"tile-hand-off-copies", "ModuleOp"> {
  let summary = "Load a kernel's copies into shared tiles asynchronously, "
                "waited for before their first reader";
  let description = [{
    A kernel that pipelines a loop often also loads tiles once, before or
    after the loop: FlashAttention's queries, and in the rotated key loop
    the first block's keys and the last block's values. Written as
    synchronous `tile.copy` ops they are loaded by the consumer threads
    through their registers, and the kernel waits for all of them before
    it goes on. On targets with tensor copies, this pass hands each such
    copy off through a one-slot pipe: `produce_acquire`, the copy made
    `async`, `produce_commit` where it was, and `consume_wait` right before
    the first op that reads the tile. Copies in a row with the same first
    reader share one hand-off. `tile-select-tma` then makes them tensor
    copies (in the kernel version whose tensors allow them) and
    `tile-warp-specialize` gives them to the producer warpgroup, which
    issues them at the kernel's start beside the loop's first stages; the
    last block's values are waited for only after the loop.

    A candidate is a synchronous copy from global memory into a whole
    shared tile (a `tile.alloc`) at the top level of a kernel that
    pipelines a loop, with no hand-written `tile.ws` regions, where every
    other use of the tile reads it (gemm operands, copies out of it) and
    comes after the copy, and where a gemm reading it leaves its MMAs in
    flight, a `tile.mma_wait 0` follows in its block. The slot is used
    once: the pipe has no release. In a persistent kernel's loop over
    tiles (`tile.tile_loop`, or the test in its body that the tile is in
    the grid) the copies run once per tile: the hand-off is numbered from
    the pipe's base (`tile.pipe.base`), released once the tile's readers
    and their MMAs are done, and the base advanced by one at the end of
    the tile. `tile.hand_off = false` on a copy keeps it synchronous. The pass runs
    after `tile-inject-pipeline` (the kernel's loops have their pipes) and
    before `tile-select-tma`.

    ```mlir
    tile.copy %Q[%bh, %q0, %c0], %Qs : memref<?x?x128xf16> to !sQ
    ...
    tile.gemm %Qs, %Ks, %S transpose_b clear_accum : ...
    // becomes
    %p = tile.pipe.create : <1>
    tile.pipe.produce_acquire %p[%c0] : <1>
    tile.copy async %Q[%bh, %q0, %c0], %Qs : memref<?x?x128xf16> to !sQ
    tile.pipe.produce_commit %p[%c0] : <1>
    ...
    tile.pipe.consume_wait %p[%c0] in_flight(0) : <1>
    tile.gemm %Qs, %Ks, %S transpose_b clear_accum : ...
    ```
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for each copy handed off">,
  ];
  let dependentDialects = [
    "::mlir::tile::TileDialect",
    "::mlir::arith::ArithDialect"
  ];
}

def RegisterPrefetch : Pass<"tile-register-prefetch", "ModuleOp"> {
  let summary = "Load the next iteration's tiles into registers during the "
                "current one (one shared buffer)";
  let description = [{
    Runs after `tile-pipeline-planning` on every `scf.for` with
    `tile.register_prefetch = true` and one stage: loops whose multi-buffered
    tiles do not fit the target (64 KiB of LDS on CDNA) or that ask for it
    (`tile.num_stages = 1`). Each producer copy `tile.copy %G[...], %S` from
    global into a whole shared tile gets a fragment `%R` of the tile's shape
    (a blocked layout: each thread's 16-byte vectors, as the copy moves
    them), and the loop becomes

    ```mlir
    scf.if (lb < ub) { tile.copy %G[offsets(lb)], %R }
    scf.for %i = lb to ub step s {
      tile.copy %R, %S
      scf.if (%i + s < ub) { tile.copy %G[offsets(%i + s)], %R }
      ... (the rest of the body, reading %S)
    }
    ```

    so the global loads of iteration i + 1 are in flight during iteration
    i's compute, the stream pipelining of Triton's AMD backend. The
    synchronization step orders the shared writes after the previous
    iteration's reads as for any loop. A loop the pass cannot transform (no
    producer copy, loop-carried values, copy operands computed by ops with
    side effects) is left sequential with a remark.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def LayoutInference : Pass<"tile-layout-inference", "ModuleOp"> {
  let summary = "Assign a layout to every register and shared tile";
  let description = [{
    Annotates every fragment `tile.alloc` and every `tile.parallel` with a
    distributed `#tile.linear` layout, and every shared `tile.alloc` with a
    `#tile.shared` layout (and the alignment it needs).

    Layouts are decided in three levels:

    1. *strict*: layouts given by the user and the operand layouts of the
       gemm instruction recorded in the gemm's `mma` attribute (chosen for
       the target, as `tile-select-mma` does, when it has none);
    2. *common*: propagation in program order through `tile.parallel`
       accesses (identity accesses share the loop's layout; accesses that
       drop loop dimensions get the projected layout), `tile.reduce` (the
       target gets the source layout without the reduced dimension) and
       fragment-to-fragment `tile.copy`;
    3. *free*: a `tile.parallel` whose layout is still open takes, among the
       layouts of the fragments it accesses and a plain vectorized partition
       of its iteration space, the one needing the fewest conversions, then
       the least replication, then the widest vector access. Fragments only
       copied to and from memory get a partition with 16-byte vectors.

    A conflict on a fragment that is only read (a gemm operand, a loop that
    reads it) or written whole by a loop is resolved by an explicit
    conversion: a new fragment with the needed layout and a `tile.copy`.
    Conflicting requirements on a gemm accumulator or a user-given layout are
    errors that name both uses.

    Shared tiles used as gemm operands get the layout the target chooses for
    its shared -> register reads and the copies filling them
    (`TargetInfo::chooseGemmOperandLayout`): by default the widest XOR
    swizzle of 16-byte chunks their rows allow (128, 64 or 32 bytes, for
    rows of at most 128 bytes; 16 bytes of row padding otherwise) so that
    `ldmatrix` reads are free of bank conflicts; on AMD CDNA the cheapest on
    its LDS bank model (swizzles of 8-byte units for MFMA operands read
    along k), with the cycles as remarks. Other shared tiles are row-major. Ops inside `tile.ws` are distributed over the threads of the
    listed warpgroups only.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per tile.parallel with its layout's replication">
  ];
}

def InsertBarriers : Pass<"tile-insert-barriers", "ModuleOp"> {
  let summary = "Order the block's shared-memory writes with explicit "
                "barriers";
  let description = [{
    Tile ops are executed by the whole block together: a tile op that
    writes shared memory must not overwrite data other threads still read,
    and its results must be visible to the next op. This pass writes that
    ordering into the IR, kernel by kernel, before `tile-lower-ops`:

    * on targets with an asynchronous copy engine, synchronous global ->
      shared copies are made `async`, each run of them followed by one
      `tile.async_commit` and a `tile.async_wait 0` (their semantics stay
      synchronous, without the round trip through registers); kernels that
      already count groups (pipelined loops) are left alone;
    * a `tile.barrier` before every write to shared memory that no barrier
      (or wait) directly precedes, and one after every synchronous write
      whose next op is not another write; consecutive writers share them,
      also when only ops that touch registers alone and do not synchronize
      (fragment fills, index arithmetic) separate them.
      Tensor copies (`tma`) get none: their pipe's barriers order them.

    Inside `tile.ws`, barriers synchronize the region's threads only: each
    region whose ops synchronize (barriers, waits, layout conversions and
    reductions across warps) gets a hardware barrier of its own, written
    as its `barrier` attribute; a `pingpong` region one per warpgroup for
    its turns (`turn_barrier`, the first); the ring of regions passing
    turns to each other one per region (`region_turn`). Ids are handed out
    from 1 in program order; running out of the target's barriers is an
    error at the region.

    Asynchronous MMAs (wgmma) read shared memory through the async proxy:
    the threads' ordinary writes to the tiles they read (copies through
    registers, fills, stores), and the copy-engine waits when copy-engine
    copies fill such tiles, are marked `tile.proxy_fence` (the lowering
    emits a proxy fence after each, before the barrier that publishes the
    data).

    The kernel is marked `tile.synchronized`; `tile-lower-ops` refuses a
    kernel without the mark (its writes would race), and a region that
    synchronizes without a barrier. A loop still carrying a pipeline
    schedule (`tile.stage` / `tile.order`) is an error: the schedule
    counts the body's ops.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def PlanPipes : Pass<"tile-plan-pipes", "ModuleOp"> {
  let summary = "Decide how the barriers of tensor-copy pipes count";
  let description = [{
    Runs after `tile-insert-barriers`, before `tile-lower-ops`. A pipe whose
    slots are filled by tensor copies hands off through two transaction
    barriers per slot; this pass decides what they count and writes it as
    the `plan` of its `tile.pipe.create` (`#tile.pipe_plan`):

    * `full`: one arrival per tensor copy of a hand-off, plus one per
      thread that also fills it with copy-engine copies (`engine_threads`;
      they must commit the hand-off). Every hand-off of a pipe must make as
      many: hand-offs that differ are an error with a note at the other.
    * `empty`: one arrival per warp of the union of the `tile.ws` regions
      that release the slot (one region's when regions take tiles in turn),
      or per thread of the block when a release runs outside `tile.ws`;
      `per_thread` when threads read the slot themselves (each releases
      after its own reads; only wgmma reads keep one arrival per warp);
      times the blocks of the cluster (`cluster`) when a multicast copy
      fills the slot.
    * `deferred`: in pipelined loops whose asynchronous-MMA gemms read the
      pipe's tiles, the release of hand-off s frees the slot of s - 1, so
      the MMAs of s stay in flight while the consumers wait for s + 1. The
      pass then writes `mma_groups_in_flight = 1` on those gemms, gives
      the first gemm into each accumulator `accumulate(iteration is not
      the gemm's first)` instead of the zero fill before the loop (moved
      behind a test that the original loop ran no iteration, read from the
      loop's `tile.pipeline_drain`), and releases a pass's last hand-off
      before each `tile.pipe.advance` after the loop. The conditions are
      listed in lib/Transforms/PlanPipes.cpp. 2:4-sparse gemms take part
      where the producers are other warps and the pipe has three slots or
      more, or as the kernel's `tile.sparse_in_flight` says (wgmma.sp
      reads its metadata registers as it runs): their loop is then
      unrolled by two, so that each K step's metadata has registers of its
      own.
    * `tile.epilogue_late`, where the kernel asks for it
      (`tile.epilogue_late = true`; not a default: measured slower), on a
      gemm whose promotion is deferred (`partials`) in a `tile.ws` region's
      persistent tile loop: its first K block's MMAs go into the partial
      sums, so the previous tile's epilogue (the ops after the K loops:
      scales, the tensor store) can run while they do, and `tile-lower-ops`
      moves it there. The tile loop's body must fill the accumulator, then
      hold the K loops, then the epilogue: tile copies, fills and parallels
      and ops that write no memory, using the body's scalars, tiles of
      their own and the accumulator, storing elements of at most 16 bits
      (32-bit ones would be held beside the partial sums in flight); a
      warning says why where a gemm's tile loop does not allow it.

    Pipes that already have a plan are left alone. Tensor copies on a
    target without them, outside a hand-off, or beside copy-engine copies
    of other threads than the hand-off's commit are errors.

    Pipes filled by copy-engine copies alone (cp.async) have no barriers
    and no plan: their hand-offs are per-thread copy groups. For these the
    pass decides each `tile.pipe.consume_wait`'s `in_flight(k)`: k becomes
    the number of later hand-offs the same threads provably commit before
    the wait (`tile-check-handoffs`' analysis; 0 where nothing is proved),
    so the waited group is never left in flight. A wait for copies that
    other warps commit is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tile::TileDialect"];
}

def TrimRoleLoops : Pass<"tile-trim-role-loops", "ModuleOp"> {
  let summary = "Run each warp-specialized role's pipelined loop over its "
                "own stage's iterations only";
  let description = [{
    Runs after `tile-plan-pipes`. A pipelined loop runs stage s of
    original iteration i in iteration i + s, over `tile.pipeline_drain`
    more iterations than the original loop, each stage's ops behind a test
    that its iteration is in range. After `tile-warp-specialize` each role
    (`tile.ws` region) holds a copy of the loop with its own ops only; when
    they all belong to one stage (the producer's copies at stage 0, the
    consumers' MMAs at the last stage), this pass makes the loop run the
    original iterations: the stage's ops lose their range test, the
    induction variable they read is shifted by s steps, and the hand-off
    numbers are counted from the new iterations.

    The iterations left out must do nothing: their stage ops are out of
    range, their hand-offs are below the pipe's base (which do not happen)
    or, for the iterations after the original range, are acquisitions or
    commits of the producer without copies, which the next pass over the
    pipe makes again. Loops with other ops, several stages, or hand-off
    numbers the pass cannot read keep their shape. In the consumers this
    leaves the loop with one wait, the MMAs and one release per iteration,
    with no branch around them.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def AllocateScratch : Pass<"tile-allocate-scratch", "ModuleOp"> {
  let summary = "Allocate the shared tiles ops exchange data through";
  let description = [{
    Runs after `tile-layout-inference` and `tile-warp-specialize`, before
    `tile-lower-ops`. Some tile ops need shared memory beyond their
    operands; this pass allocates it as explicit `tile.alloc`s at the top
    of the kernel and passes each to its op as the `scratch` operand:

    * a `tile.copy` between register tiles of different layouts: a
      row-major tile of the source's shape;
    * a `tile.reduce` whose layout spreads the reduced dimension over
      several warps: one element per thread and target register;
    * a tensor store (`tile.tma_store = n`): n staging buffers of column
      panels (128 bytes or less, swizzled as the tensor map reads them).

    Ops that have a scratch tile already keep it. `tile-lower-ops` requires
    the scratch where it needs one; `tile-allocate-shared` places it.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def AllocateShared : Pass<"tile-allocate-shared", "ModuleOp"> {
  let summary = "Place every shared tile in the block's shared memory";
  let description = [{
    Runs after `tile-allocate-scratch`, before `tile-lower-ops`. Writes the
    byte `offset` of every shared `tile.alloc` of a kernel: the tiles lie
    one after the other in program order, each at its alignment. When the
    kernel would not fit the chip's shared memory that way, the scratch
    tile of a layout conversion (a `tile.copy` between register layouts)
    takes the offset of a shared tile whose contents are dead where the
    conversion runs: a tile, 16-byte aligned and large enough, that the
    conversion's block fully rewrites (a synchronous copy) before any read,
    reads only before the conversion, and that nothing outside that block,
    no `tile.ws` region and no asynchronous MMA in flight uses.

    The staging buffers of two tensor stores (`tile.tma_store`) that never
    run in one pass of their code (in the two regions of the `scf.if`
    closest around both, as a split tail kernel's whole-tile epilogue and
    its partial sums, issued by the same threads, not warpgroups taking
    tiles in turn) always share storage, the smaller at the larger's
    offset: shared memory a kernel does not claim is L1 cache.
    `tile-lower-ops` then makes each of those stores wait, before its first
    panel, until every earlier store has read its buffers.

    A kernel whose shared tiles all have an offset is left alone (a user's
    placement, checked: overlapping tiles must be such a pair or a
    conversion's scratch over a dead tile); one where only some have one is
    an error.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def LowerOps : Pass<"tile-lower-ops", "ModuleOp"> {
  let summary = "Lower block-cooperative tile ops to per-thread code";
  let description = [{
    Runs after `tile-layout-inference`. Inside every `tile.kernel`, rewrites
    the tile ops into the code one thread executes, using the layouts:

    * shared tiles become views into the kernel's dynamic shared memory
      (`gpu.dynamic_shared_memory`) at the `offset` `tile-allocate-shared`
      gave them, addressed through their swizzle or padding; fragments
      become per-thread register arrays;
    * `tile.copy` between global and shared memory moves 16-byte vectors
      spread over the threads. One uniform test per copy sends tiles that
      lie wholly inside the tensor, with aligned rows, to an unmasked path;
      edge tiles read zeros (or the copy's `padding`) and drop writes
      outside the tensor (the copy engine zero-fills through its source
      size; rows that are not 16-byte aligned go element by element). On
      targets with an asynchronous copy engine (NVIDIA's `cp.async`),
      copies from global into shared memory use it: `async` copies are
      waited for by `tile.async_wait` or their pipe's barriers, synchronous
      runs of copies get a commit and a wait right after them. `tma` copies
      become tensor copies completed on their pipe's mbarriers, and copies
      marked `tile.tma_store` tensor stores staged through shared memory.
      Copies to and from fragments move each thread's own elements;
      fragment-to-fragment copies between different layouts go through
      shared memory;
    * `tile.gemm` becomes the MMA its `#tile.mma` names, through the target:
      `mma.sync` with `ldmatrix` operand loads, asynchronous `wgmma` from
      shared-memory descriptors (its wait placed by the pipe's release), or
      AMD's MFMA, over each warp's (warpgroup's) part of the accumulator;
    * `tile.fill` and `tile.parallel` run over each thread's own elements;
      `tile.reduce` combines in-thread, then across lanes with shuffles, then
      across warps through shared memory;
    * `tile.ws` becomes a branch on the thread's warpgroup (with its
      register budget where it names one); pipes become mbarrier pairs per
      slot, turns named barriers.

    Barriers are placed around writes to shared memory (a barrier or async
    wait already executed just before a write is reused); inside `tile.ws`
    they are named barriers over the region's threads. The kernel records
    its shared memory size in `tile.shared_memory_bytes`. An op in a kernel
    that the lowering does not know (a tile op without a lowering, an op of
    an unregistered dialect) is an error.
  }];
  let dependentDialects = [
    "::mlir::tile::TileDialect",
    "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def CarryRingPositions : Pass<"tile-carry-ring-positions", "ModuleOp"> {
  let summary = "Step the slots of multi-buffered tiles and pipe hand-offs "
                "through their loops instead of dividing";
  let description = [{
    Replaces every `tile.ring_position` (the slot and wrap count of a ring
    whose size is not a power of two; `tile-inject-pipeline` and
    `tile-lower-ops` make them). Where its offset counts the iterations of
    its innermost `scf.for` plus a constant `c` and its base stays the same
    in the loop (defined outside it, or a load of a pipe's counter that
    the loop does not store), it reads a cursor the loop carries as two
    `i32` `iter_args`: the slot and the wrap count of the iteration's own
    entry, started from the base's position before the loop and stepped
    by one slot per iteration (a compare and a select, CUTLASS's pipeline
    state); `c` moves the cursor by a constant (one more compare and
    select), and a negative offset gives the base's position as the op
    says. Positions of one ring counted from one base share a cursor.
    Other positions are divided: the base once in 64 bits, the offset in
    32.

    Why: a 32-bit division by a constant is a multiply-high, which the
    uniform datapath of sm_90 lacks, so `ptxas` computed the slot, and the
    wgmma descriptors and barrier addresses made from it, in ordinary
    registers and moved them into uniform ones before every wgmma (16
    `R2UR` per K step of the 5-stage FP8 GEMM against 3 at 4 stages,
    docs/perf.md run 128). A carried cursor is compare-and-select
    arithmetic ptxas keeps uniform.

    ```mlir
    scf.for %i = %c0 to %n step %c1 {
      %s, %w = tile.ring_position %i from %base mod 3
    }
    // becomes
    %r = arith.remui %base, %c3 ... %q = arith.divui %base, %c3 ...
    scf.for %i = %c0 to %n step %c1 iter_args(%slot = %r0, %wraps = %q0) {
      ... %slot, %wraps ...
      %next = arith.addi %slot, %c1_i32
      %end = arith.cmpi eq, %next, %c3_i32
      scf.yield (select %end, 0, %next), (%wraps + zext %end)
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def UnrollLoops : Pass<"tile-unroll-loops", "ModuleOp"> {
  let summary = "Unroll by two the loops marked `tile.unroll = 2`";
  let description = [{
    Replaces each `scf.for` marked `tile.unroll = 2` (a positive constant
    step) by an `scf.if` that runs its first iteration alone where the trip
    count is odd, then a loop whose body runs two iterations, the second
    reading the first's `iter_args` results. The ops placed right after the
    loop that take no operands and give no results (the wait for the
    asynchronous MMAs the loop leaves running) also end the lone iteration,
    so that no value merged with the loop's initial ones is still being
    written. `tile.unroll = 1` is removed and the loop kept; a loop whose
    step is not a positive constant is kept with a remark.

    Why: `tile-lower-ops` marks the loop of a gemm that promotes one K
    block late (`partials`, docs/design.md 5.6) and issues each block's
    MMAs before it adds the previous block's partial sums. A copy between
    the two at the loop's back edge would read registers the MMAs are still
    writing, which makes `ptxas` serialize every wgmma of the kernel
    (warning C7514); unrolled, the two iterations of a pass keep their
    partial sums in registers of their own and no copy is needed. (An odd
    iteration left at the end instead met the loop's results in flight, and
    LLVM merged the waits of both sides of that branch into one after it.)

    ```mlir
    scf.for %k = %lb to %ub step %c1 iter_args(%a = %x) -> (i32) {
      ...
    } {tile.unroll = 2 : i64}
    nvvm.wgmma.wait.group.sync.aligned 0
    // becomes
    %odd = (ceildiv(max(%ub - %lb, 0), 1) & 1) != 0
    %f = scf.if %odd -> (i32) {
      ... (%lb, %x) ...
      nvvm.wgmma.wait.group.sync.aligned 0
      scf.yield ...
    } else {
      scf.yield %x
    }
    %start = select %odd, %lb + 1, %lb
    %r = scf.for %k = %start to %ub step %c2 iter_args(%a = %f) -> (i32) {
      ... (%k) ... (%k + 1) ...
    }
    nvvm.wgmma.wait.group.sync.aligned 0
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def RotateLoops : Pass<"tile-rotate-loops", "ModuleOp"> {
  let summary = "Run a loop's second gemm one iteration behind its first";
  let description = [{
    A loop of a tile kernel whose body has two gemms, the second
    accumulating the product of a register tile the ops between them compute
    from the first's (FlashAttention's key loop: S = Q K^T, the softmax of S
    into P, O += P V), is rotated by one gemm: iteration kb issues the first
    gemm of kb and the second gemm of kb - step, both with
    `mma_groups_in_flight = 1`, runs the ops that use neither the second
    gemm's register operand nor its accumulator while that gemm computes,
    then `tile.mma_wait 0` and the ops that do. Stage A of the first
    iteration comes before the loop and the second gemm of the last after
    it, each under a test that the loop runs, with tiles of their own for
    their copies into shared memory. Those copies come first, outside the
    tests, so that their loads overlap (the last iteration is the first
    where the loop does not run; copies read zeros outside their tensors);
    where the shared memory has no room for separate epilogue tiles, the
    epilogue reuses the prologue's and copies after the loop.
    FlashAttention-3's intra-warpgroup overlap of the softmax with the
    tensor cores.

    Stage B is the second gemm with the copies into its B tile (from
    memory the loop does not write; their indices are recomputed for
    iteration kb - step); stage A is every other op. An op of stage A
    after the first gemm runs after the wait if it reads or writes the
    second gemm's register operand or accumulator, or depends on an op
    that does; a `tile.parallel` that writes both those and other tiles at
    its indices is split, the second part reading back what the first
    stored. Loops that write global memory, hold ops whose effects are
    unknown, or whose stage A uses the second gemm's B tile are not
    rotated.

    The decision: loops are rotated where the target's MMAs for both gemms
    are asynchronous (wgmma; docs/design.md 5.4). Where the pass declines a loop it could
    rotate it writes `tile.rotate = false`; a loop with `tile.rotate =
    true` is rotated on any target, or the pass reports why it cannot;
    `tile.rotate = false` keeps a loop as written. The loop it makes has
    `tile.rotate = true`; loops whose gemms already leave MMA groups in
    flight are left alone. With `remarks=true` the pass says what it did
    with each loop.

    Runs before `tile-specialize-masks` and software pipelining.
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report the decision on each loop with two gemms">
  ];
  let dependentDialects = [
    "::mlir::tile::TileDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def SpecializeMasks : Pass<"tile-specialize-masks", "ModuleOp"> {
  let summary = "Apply element-wise masks only where tiles may fail them";
  let description = [{
    A `tile.parallel` directly in the body of an `scf.for` in a tile kernel
    whose body selects with a comparison of indices,
    `arith.select (arith.cmpi P, a, b), x, y`, where `a - b` is linear in
    the loop's induction variable and the parallel loop's indices (built
    from them, constants and values defined outside the loop by
    `arith.addi`, `arith.subi` and `arith.muli` by constants) with a
    positive coefficient for the induction variable in `a - b <= 0` (after
    normalizing the predicate; FlashAttention's causal mask `key <= query`
    with key = kb * BN + j): on a prefix of the loop's iterations the
    comparison holds for every element of the tile (its worst element, each
    parallel index at the end of its range where its coefficient is
    positive, decides). The pass computes the end of that prefix before
    the loop (clamped to the loop's range) and puts the `tile.parallel` in
    an `scf.if` on the induction variable being below it: the then-branch
    runs a copy with the select replaced by its true value, or nothing
    where that copy only stores back what it loads (a mask), and the
    else-branch the original. Unsigned predicates need operands that are
    provably not negative (block indices, parallel indices, the induction
    variable of a loop from a non-negative bound, and their sums and
    products).

    So a causal kernel written with the mask on every key block runs the
    blocks below the diagonal unmasked, as a hand-written `scf.if` on the
    diagonal does. A `tile.parallel` already under a test (inside an
    `scf.if`) is left alone. With `remarks=true` the pass says, for each
    `tile.parallel` that selects, what it did or why not.

    Runs before `tile-specialize-bounds` and software pipelining.
  }];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Report the decision on each tile.parallel that selects">
  ];
  let dependentDialects = [
    "::mlir::tile::TileDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def SpecializeBounds : Pass<"tile-specialize-bounds", "ModuleOp"> {
  let summary = "Version loops so that interior tiles are copied without "
                "bounds checks";
  let description = [{
    Copies between global memory and tiles mask the elements outside the
    tensor. For every `scf.for` in a tile kernel whose body copies regions
    at offsets that do not decrease with the induction variable (built from
    it and loop-invariant values by `arith.addi` and `arith.muli` by
    non-negative constants), the pass emits one test before the loop: every
    such copy of every iteration is in bounds (offsets of the first
    iteration not negative, regions of the last within the tensor) and
    aligned (rows, and the last offsets of the first two
    iterations, multiples of the copy's vector width). An `scf.if` then runs
    a clone of the loop whose copies are marked `in_bounds`, which the
    lowering turns into unmasked vector or `cp.async` copies with no
    per-iteration test, or else the original loop. Loop attributes such as
    `tile.num_stages` are kept on both versions, which are pipelined alike.

    Runs before software pipelining; copies with other offsets are left to
    the lowering's per-copy test.
  }];
  let dependentDialects = [
    "::mlir::tile::TileDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def PipelinePlanning : Pass<"tile-pipeline-planning", "ModuleOp"> {
  let summary = "Schedule the ops of loops marked for software pipelining";
  let description = [{
    For every `scf.for` with `tile.num_stages = S` (S >= 2) inside a tile
    kernel, assigns each op of the body a stage and an emission order,
    written as `tile.stage` and `tile.order`:

    * copies from global into whole shared tiles that later ops of the body
      read (the producers) go to stage 0, with the side-effect-free ops that
      compute their offsets;
    * every other op goes to stage S - 1;
    * stage-0 ops are emitted first, each group in program order.

    User-given `tile.stage` / `tile.order` arrays are checked instead: an op
    may not use a value produced by a later stage, and a shared tile must be
    written in an earlier stage than the one reading it.

    A loop that cannot be pipelined keeps its sequential semantics: the pass
    removes its pipelining attributes and emits a remark saying why (no copy
    into shared memory to overlap, a shared tile read before it is
    overwritten in the same iteration, a tile also used outside the loop
    other than by loops pipelined with it, a view of the tile other than a
    `memref.subview`, loop-carried values, copies under nested regions...).

    The pass also checks that the multi-buffered shared memory fits the
    target. `tile.num_stages` is a request: one source serves chips with
    different amounts of shared memory (228 KiB on sm_90a, 64 KiB of LDS on
    CDNA), so a count whose buffers do not fit is lowered with the largest
    count that does, with a warning naming both numbers, and the loop's
    `tile.num_stages` is rewritten to it. Where only one buffer fits, the
    loop keeps it and gets `tile.register_prefetch = true` (the next
    iteration's tiles wait in registers, tile-register-prefetch) unless it
    says `false` or the tiles take more than 256 bytes a thread; then it
    stays sequential. A
    loop with `tile.exact_stages` (or a user-given `tile.stage` schedule)
    asks for exactly its count: there the pass reports the bytes needed,
    the limit and the largest `num_stages` that would fit as an error.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let options = [
    Option<"maxSharedMemory", "max-shared-memory", "int64_t",
           /*default=*/"232448",
           "Shared memory available to one thread block, in bytes">
  ];
}

def InjectPipeline : Pass<"tile-inject-pipeline", "ModuleOp"> {
  let summary = "Multi-version shared tiles and emit software-pipelined loops";
  let description = [{
    Runs after `tile-pipeline-planning`. For every scheduled `scf.for`:

    * every shared tile written in stage w and read up to stage r gets a
      leading dimension of r - w + 1 versions (its allocation, outside the
      loop, is rewritten); each stage uses version
      `((iv - lb) / step) mod versions` through `memref.subview`. Two
      pipelined loops that need different version counts for one tile are an
      error naming both loops;
    * the loop runs `S - 1` more iterations, and the ops of stage s execute
      iteration `iv - s * step` when it is within the original bounds
      (predication instead of prologue and epilogue, so trip counts smaller
      than S, zero and dynamic ones are correct);
    * copies into versioned tiles that no op of their own stage reads become
      asynchronous; each iteration commits one group right after its last
      asynchronous copy and, at the start of the iteration, waits until only
      the groups of later iterations are in flight (the wait's barrier also
      orders the previous iteration's reads of the versions the new copies
      overwrite);
    * a shared tile may be versioned by several pipelined loops when they
      agree on the number of versions.

    Layout inference runs afterwards and extends shared layouts over the
    version dimension.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TILE_TRANSFORMS_PASSES_TD
