//===- Layouts.cpp - AMD MFMA accumulator layouts ---------------*- C++ -*-===//
//
// The register layouts of the MFMA accumulators over 64-lane wavefronts, as
// linear layouts over GF(2), following AMD's CDNA ISA (checked element by
// element in the layout algebra test).
//
//===----------------------------------------------------------------------===//

#include "tile/Target/AMD/Layouts.h"

using namespace mlir;
using namespace mlir::tile;

LinearLayout mlir::tile::amd::mfmaAccumulator(int64_t m, int64_t n,
                                              int64_t instr, int64_t wavesM,
                                              int64_t wavesN) {
  int64_t tm = m / wavesM, tn = n / wavesN;
  auto row = [&](int64_t r) { return LinearLayout::flatIndex2D(r, 0, n); };
  auto col = [&](int64_t c) { return LinearLayout::flatIndex2D(0, c, n); };
  LinearLayout::InDim reg{LinearLayout::kRegister.str(), {row(1), row(2)}};
  LinearLayout::InDim lane{LinearLayout::kLane.str(), {}};
  LinearLayout::appendRepeats(lane.bases, instr, col, 1);
  if (instr == 32) {
    // v_mfma_f32_32x32x8: row = (i & 3) + 4 * (lane >> 5) + 8 * (i >> 2).
    lane.bases.push_back(row(4));
    reg.bases.push_back(row(8));
    reg.bases.push_back(row(16));
  } else {
    // v_mfma_f32_16x16x16: row = i + 4 * (lane >> 4).
    lane.bases.push_back(row(4));
    lane.bases.push_back(row(8));
  }
  LinearLayout::appendRepeats(reg.bases, tn / instr, col, instr);
  LinearLayout::appendRepeats(reg.bases, tm / instr, row, instr);
  LinearLayout::InDim warp{LinearLayout::kWarp.str(), {}};
  LinearLayout::appendRepeats(warp.bases, wavesN, col, tn);
  LinearLayout::appendRepeats(warp.bases, wavesM, row, tm);
  return LinearLayout({reg, lane, warp}, {m, n});
}

/// The operand whose lanes run along the `outer` dimension (M for A, N for
/// B) and whose registers hold runs of k: `along(i)` and `across(i)` give
/// the flat index of i steps along k and along the outer dimension.
static LinearLayout mfmaOperand(ArrayRef<int64_t> shape, int64_t tileOuter,
                                int64_t k, int64_t instr, int64_t kPerLane,
                                int64_t outerWaves, int64_t otherWaves,
                                bool outerIsWaveLow,
                                llvm::function_ref<uint64_t(int64_t)> along,
                                llvm::function_ref<uint64_t(int64_t)> across) {
  auto zero = [](int64_t) { return uint64_t(0); };
  int64_t instrK = amd::mfmaInstrK(instr, kPerLane);
  LinearLayout::InDim reg{LinearLayout::kRegister.str(), {}};
  LinearLayout::appendRepeats(reg.bases, kPerLane, along, 1);
  LinearLayout::appendRepeats(reg.bases, k / instrK, along, instrK);
  LinearLayout::appendRepeats(reg.bases, tileOuter / instr, across, instr);
  LinearLayout::InDim lane{LinearLayout::kLane.str(), {}};
  LinearLayout::appendRepeats(lane.bases, instr, across, 1);
  LinearLayout::appendRepeats(lane.bases, 64 / instr, along, kPerLane);
  LinearLayout::InDim warp{LinearLayout::kWarp.str(), {}};
  // Wave id = m * wavesN + n: the low bits step along N.
  if (outerIsWaveLow) {
    LinearLayout::appendRepeats(warp.bases, outerWaves, across, tileOuter);
    LinearLayout::appendRepeats(warp.bases, otherWaves, zero, 1);
  } else {
    LinearLayout::appendRepeats(warp.bases, otherWaves, zero, 1);
    LinearLayout::appendRepeats(warp.bases, outerWaves, across, tileOuter);
  }
  return LinearLayout({reg, lane, warp}, shape);
}

LinearLayout mlir::tile::amd::mfmaOperandA(int64_t m, int64_t k, int64_t instr,
                                           int64_t kPerLane, int64_t wavesM,
                                           int64_t wavesN) {
  return mfmaOperand(
      {m, k}, m / wavesM, k, instr, kPerLane, wavesM, wavesN,
      /*outerIsWaveLow=*/false,
      [&](int64_t c) { return LinearLayout::flatIndex2D(0, c, k); },
      [&](int64_t r) { return LinearLayout::flatIndex2D(r, 0, k); });
}

LinearLayout mlir::tile::amd::mfmaOperandB(int64_t k, int64_t n, int64_t instr,
                                           int64_t kPerLane, int64_t wavesM,
                                           int64_t wavesN) {
  return mfmaOperand(
      {k, n}, n / wavesN, k, instr, kPerLane, wavesN, wavesM,
      /*outerIsWaveLow=*/true,
      [&](int64_t r) { return LinearLayout::flatIndex2D(r, 0, n); },
      [&](int64_t c) { return LinearLayout::flatIndex2D(0, c, n); });
}
