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

#endif // TILE_TRANSFORMS_PASSES_TD
