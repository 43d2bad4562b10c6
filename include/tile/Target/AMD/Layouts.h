//===- Layouts.h - AMD MFMA accumulator layouts -----------------*- C++ -*-===//

#ifndef TILE_TARGET_AMD_LAYOUTS_H
#define TILE_TARGET_AMD_LAYOUTS_H

#include "tile/Dialect/LinearLayout.h"

namespace mlir::tile::amd {

/// The accumulator of MFMA `instr` x `instr` (32x32 or 16x16) with 64-wide
/// wavefronts over an M x N tile, waves arranged `wavesM` x `wavesN`.
LinearLayout mfmaAccumulator(int64_t m, int64_t n, int64_t instr,
                             int64_t wavesM, int64_t wavesN);

} // namespace mlir::tile::amd

#endif // TILE_TARGET_AMD_LAYOUTS_H
