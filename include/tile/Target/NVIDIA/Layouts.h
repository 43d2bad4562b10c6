//===- Layouts.h - NVIDIA MMA operand and accumulator layouts ---*- C++ -*-===//

#ifndef TILE_TARGET_NVIDIA_LAYOUTS_H
#define TILE_TARGET_NVIDIA_LAYOUTS_H

#include "tile/Dialect/LinearLayout.h"

namespace mlir::tile::nvidia {

/// The accumulator fragment of `mma.sync` m16n8k* over an M x N tile, with
/// the warps arranged as `warpsM` x `warpsN` (warp id = m * warpsN + n),
/// each warp owning a contiguous (M / warpsM) x (N / warpsN) block.
LinearLayout mmaSyncAccumulator(int64_t m, int64_t n, int64_t warpsM,
                                int64_t warpsN);

/// The A operand fragment of `mma.sync` m16n8k(256/bits) over an M x K tile
/// (replicated over the `warpsN` warps that share rows).
LinearLayout mmaSyncOperandA(int64_t m, int64_t k, int64_t elementBits,
                             int64_t warpsM, int64_t warpsN);

/// The B operand fragment of `mma.sync` over a K x N tile (replicated over
/// the `warpsM` warps that share columns).
LinearLayout mmaSyncOperandB(int64_t k, int64_t n, int64_t elementBits,
                             int64_t warpsM, int64_t warpsN);

/// The accumulator of Hopper `wgmma` m64nNk* over an M x N tile computed by
/// `numWarpgroups` warpgroups stacked along M (each owns M / numWarpgroups
/// rows, a multiple of 64). N, a multiple of 8, need not be a power of two:
/// the layout covers the tile padded to one, and a 64-row slab's registers
/// past its first N / 2 hold padded columns only.
LinearLayout wgmmaAccumulator(int64_t m, int64_t n, int64_t numWarpgroups);

/// The register A operand of Hopper `wgmma` (the RS form) over an M x K tile
/// of `elementBits`-bit elements (16: f16 / bf16, m64nNk16; 8: 8-bit
/// floats, m64nNk32), split along M like the accumulator: per 64-row slab
/// and k step, warp w of the warpgroup holds rows 16w..16w+15 as the A
/// fragment of `mma.sync` m16n8k16 (m16n8k32). Registers: the 8 (16) of a
/// (slab, k step) first, then the k steps, then the slabs. For 16 bits it
/// equals `wgmmaAccumulator(m, k, numWarpgroups)`: an accumulator converted
/// element by element is an A operand without any data movement.
LinearLayout wgmmaOperandA(int64_t m, int64_t k, int64_t numWarpgroups,
                           int64_t elementBits = 16);

} // namespace mlir::tile::nvidia

#endif // TILE_TARGET_NVIDIA_LAYOUTS_H
