//===- Passes.td - Tile transformation passes --------------*- tablegen -*-===//

#ifndef TILE_TRANSFORMS_PASSES_TD
#define TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    stay in registers).
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

def LayoutInference : Pass<"tile-layout-inference", "ModuleOp"> {
  let summary = "Assign a layout to every register and shared tile";
  let description = [{
    Annotates every fragment `tile.alloc` and every `tile.parallel` with a
    distributed `#tile.linear` layout, and every shared `tile.alloc` with a
    `#tile.shared` layout (and the alignment it needs).

    Layouts are decided in three levels:

    1. *strict*: layouts given by the user and the operand layouts of the
       gemm instruction chosen for the target (`mma.sync` m16n8k* with the
       warps partitioned by the gemm's policy);
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

    Shared tiles used as gemm operands get the widest XOR swizzle their rows
    allow (128, 64 or 32 bytes; 16 bytes of row padding otherwise) so that
    `ldmatrix` reads are free of bank conflicts; other shared tiles are
    row-major. Ops inside `tile.ws` are distributed over the threads of the
    listed warpgroups only.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per tile.parallel with its layout's replication">
  ];
}

def LowerOps : Pass<"tile-lower-ops", "ModuleOp"> {
  let summary = "Lower block-cooperative tile ops to per-thread code";
  let description = [{
    Runs after `tile-layout-inference`. Inside every `tile.kernel`, rewrites
    the tile ops into the code one thread executes, using the layouts:

    * shared tiles become views into the kernel's dynamic shared memory
      (`gpu.dynamic_shared_memory`), addressed through their swizzle or
      padding; fragments become per-thread register arrays;
    * `tile.copy` between global and shared memory moves 16-byte vectors
      (when the row stride and offsets allow; element-wise otherwise) spread
      over the threads, reading zeros and dropping writes outside the
      tensor; copies to and from fragments move each thread's own elements;
      fragment-to-fragment copies between different layouts go through
      shared memory;
    * `tile.gemm` becomes `nvgpu.ldmatrix` loads of the shared operands and
      `nvgpu.mma.sync` m16n8k16 (f16 and bf16 inputs, f32 or f16
      accumulators) over each warp's part of the accumulator;
    * `tile.fill` and `tile.parallel` run over each thread's own elements;
      `tile.reduce` combines in-thread, then across lanes with shuffles, then
      across warps through shared memory;
    * `tile.ws` becomes a branch on the thread's warpgroup.

    `gpu.barrier`s are placed around writes to shared memory. The kernel
    records its shared memory size in `tile.shared_memory_bytes`.
  }];
  let dependentDialects = [
    "::mlir::tile::TileDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // TILE_TRANSFORMS_PASSES_TD
