//===- Layouts.cpp - NVIDIA MMA operand and accumulator layouts -*- C++ -*-===//
//
// The register layouts of mma.sync (m16n8k*) operands and accumulators and
// of the wgmma accumulator and register A operand, as linear layouts over
// GF(2), following the PTX ISA's fragment figures (checked element by element
// in the layout algebra test and `tile-layout`).
//
//===----------------------------------------------------------------------===//

#include "tile/Target/NVIDIA/Layouts.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

LinearLayout mlir::tile::nvidia::mmaSyncAccumulator(int64_t m, int64_t n,
                                                    int64_t warpsM,
                                                    int64_t warpsN) {
  int64_t tm = m / warpsM, tn = n / warpsN;
  auto at = [&](int64_t r, int64_t c) {
    return LinearLayout::flatIndex2D(r, c, n);
  };
  auto row = [&](int64_t r) { return at(r, 0); };
  auto col = [&](int64_t c) { return at(0, c); };
  LinearLayout::InDim reg{LinearLayout::kRegister.str(), {col(1), row(8)}};
  LinearLayout::appendRepeats(reg.bases, tn / 8, col, 8);
  LinearLayout::appendRepeats(reg.bases, tm / 16, row, 16);
  LinearLayout::InDim lane{LinearLayout::kLane.str(),
                           {col(2), col(4), row(1), row(2), row(4)}};
  LinearLayout::InDim warp{LinearLayout::kWarp.str(), {}};
  LinearLayout::appendRepeats(warp.bases, warpsN, col, tn);
  LinearLayout::appendRepeats(warp.bases, warpsM, row, tm);
  return LinearLayout({reg, lane, warp}, {m, n});
}

LinearLayout mlir::tile::nvidia::mmaSyncOperandA(int64_t m, int64_t k,
                                                 int64_t elementBits,
                                                 int64_t warpsM,
                                                 int64_t warpsN) {
  int64_t epr = std::max<int64_t>(32 / elementBits, 1);
  int64_t tm = m / warpsM;
  auto row = [&](int64_t r) { return LinearLayout::flatIndex2D(r, 0, k); };
  auto col = [&](int64_t c) { return LinearLayout::flatIndex2D(0, c, k); };
  LinearLayout::InDim reg{LinearLayout::kRegister.str(), {}};
  LinearLayout::appendRepeats(reg.bases, epr, col, 1);
  reg.bases.push_back(row(8));
  reg.bases.push_back(col(4 * epr));
  LinearLayout::appendRepeats(reg.bases, k / (8 * epr), col, 8 * epr);
  LinearLayout::appendRepeats(reg.bases, tm / 16, row, 16);
  LinearLayout::InDim lane{LinearLayout::kLane.str(),
                           {col(epr), col(2 * epr), row(1), row(2), row(4)}};
  LinearLayout::InDim warp{LinearLayout::kWarp.str(), {}};
  LinearLayout::appendRepeats(
      warp.bases, warpsN, [](int64_t) { return uint64_t(0); }, 1);
  LinearLayout::appendRepeats(warp.bases, warpsM, row, tm);
  return LinearLayout({reg, lane, warp}, {m, k});
}

LinearLayout mlir::tile::nvidia::mmaSyncOperandB(int64_t k, int64_t n,
                                                 int64_t elementBits,
                                                 int64_t warpsM,
                                                 int64_t warpsN) {
  int64_t epr = std::max<int64_t>(32 / elementBits, 1);
  int64_t tn = n / warpsN;
  auto row = [&](int64_t r) { return LinearLayout::flatIndex2D(r, 0, n); };
  auto col = [&](int64_t c) { return LinearLayout::flatIndex2D(0, c, n); };
  LinearLayout::InDim reg{LinearLayout::kRegister.str(), {}};
  LinearLayout::appendRepeats(reg.bases, epr, row, 1);
  reg.bases.push_back(row(4 * epr));
  LinearLayout::appendRepeats(reg.bases, k / (8 * epr), row, 8 * epr);
  LinearLayout::appendRepeats(reg.bases, tn / 8, col, 8);
  LinearLayout::InDim lane{LinearLayout::kLane.str(),
                           {row(epr), row(2 * epr), col(1), col(2), col(4)}};
  LinearLayout::InDim warp{LinearLayout::kWarp.str(), {}};
  LinearLayout::appendRepeats(warp.bases, warpsN, col, tn);
  LinearLayout::appendRepeats(
      warp.bases, warpsM, [](int64_t) { return uint64_t(0); }, 1);
  return LinearLayout({reg, lane, warp}, {k, n});
}

LinearLayout mlir::tile::nvidia::wgmmaAccumulator(int64_t m, int64_t n,
                                                  int64_t numWarpgroups) {
  int64_t tm = m / numWarpgroups;
  n = llvm::PowerOf2Ceil(n);
  auto row = [&](int64_t r) { return LinearLayout::flatIndex2D(r, 0, n); };
  auto col = [&](int64_t c) { return LinearLayout::flatIndex2D(0, c, n); };
  LinearLayout::InDim reg{LinearLayout::kRegister.str(), {col(1), row(8)}};
  LinearLayout::appendRepeats(reg.bases, n / 8, col, 8);
  LinearLayout::appendRepeats(reg.bases, tm / 64, row, 64);
  LinearLayout::InDim lane{LinearLayout::kLane.str(),
                           {col(2), col(4), row(1), row(2), row(4)}};
  LinearLayout::InDim warp{LinearLayout::kWarp.str(), {row(16), row(32)}};
  LinearLayout::appendRepeats(warp.bases, numWarpgroups, row, tm);
  return LinearLayout({reg, lane, warp}, {m, n});
}

LinearLayout mlir::tile::nvidia::wgmmaOperandA(int64_t m, int64_t k,
                                               int64_t numWarpgroups,
                                               int64_t elementBits) {
  int64_t tm = m / numWarpgroups;
  // Elements per 32-bit register: 2 (16 bits, k16) or 4 (8 bits, k32).
  int64_t epr = 32 / elementBits;
  auto row = [&](int64_t r) { return LinearLayout::flatIndex2D(r, 0, k); };
  auto col = [&](int64_t c) { return LinearLayout::flatIndex2D(0, c, k); };
  // a0..a(4 epr - 1) of a 16 x 8 epr block: a register's consecutive
  // columns, rows + 8, columns + 4 epr.
  LinearLayout::InDim reg{LinearLayout::kRegister.str(), {}};
  LinearLayout::appendRepeats(reg.bases, epr, col, 1);
  reg.bases.push_back(row(8));
  reg.bases.push_back(col(4 * epr));
  LinearLayout::appendRepeats(reg.bases, k / (8 * epr), col, 8 * epr);
  LinearLayout::appendRepeats(reg.bases, tm / 64, row, 64);
  LinearLayout::InDim lane{LinearLayout::kLane.str(),
                           {col(epr), col(2 * epr), row(1), row(2), row(4)}};
  LinearLayout::InDim warp{LinearLayout::kWarp.str(), {row(16), row(32)}};
  LinearLayout::appendRepeats(warp.bases, numWarpgroups, row, tm);
  return LinearLayout({reg, lane, warp}, {m, k});
}
