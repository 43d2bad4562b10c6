//===- Layouts.h - AMD MFMA operand and accumulator layouts -----*- C++ -*-===//

#ifndef TILE_TARGET_AMD_LAYOUTS_H
#define TILE_TARGET_AMD_LAYOUTS_H

#include "tile/Dialect/LinearLayout.h"

namespace mlir::tile::amd {

/// The accumulator of MFMA `instr` x `instr` (32x32 or 16x16) with 64-wide
/// wavefronts over an M x N tile, waves arranged `wavesM` x `wavesN`.
LinearLayout mfmaAccumulator(int64_t m, int64_t n, int64_t instr,
                             int64_t wavesM, int64_t wavesN);

/// The K of one `instr` x `instr` MFMA whose lanes hold `kPerLane`
/// consecutive k elements (4 for 16-bit inputs): 32x32x8 and 16x16x16 for
/// f16 / bf16.
inline int64_t mfmaInstrK(int64_t instr, int64_t kPerLane) {
  return kPerLane * (64 / instr);
}

/// The A operand (M x K) of MFMA `instr` x `instr`: lane l holds row
/// l % instr and the `kPerLane` consecutive k elements starting at
/// kPerLane * (l / instr); then the k steps, then the m tiles of the wave.
/// Waves along N hold copies.
LinearLayout mfmaOperandA(int64_t m, int64_t k, int64_t instr, int64_t kPerLane,
                          int64_t wavesM, int64_t wavesN);

/// The B operand (K x N), the transpose of A's pattern: lane l holds column
/// l % instr. Waves along M hold copies.
LinearLayout mfmaOperandB(int64_t k, int64_t n, int64_t instr, int64_t kPerLane,
                          int64_t wavesM, int64_t wavesN);

} // namespace mlir::tile::amd

#endif // TILE_TARGET_AMD_LAYOUTS_H
