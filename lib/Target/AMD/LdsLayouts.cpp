//===- LdsLayouts.cpp - LDS layouts of MFMA operands ------------*- C++ -*-===//
//
// The shared (LDS) layout of a tile that MFMA gemms read as an operand. The
// MFMA emitter reads an operand whose k runs along the tile's rows with one
// 8-byte access per lane: the 16 lanes of a phase read 16 consecutive rows
// at the same k. The 16-byte-chunk swizzles that suit ldmatrix keep the
// 8-byte half of every 16-byte chunk fixed, so those reads reach only 16 of
// the 32 banks (two cycles where one would do); a swizzle of 8-byte units
// (`#tile.shared<swizzle = S, unit = 8>`) spreads them over all 32, while
// each 16-byte vector a copy stores still lands in one aligned 16-byte slot
// (its halves exchanged in registers where the XOR flips the unit bit).
// Rather than rules per case, the target evaluates each candidate layout on
// the bank model (LdsBanks.h) with the reads of the gemms that use the tile
// and the stores of a copy filling it, and keeps the cheapest (the
// 16-byte-chunk swizzle on ties).
//
//===----------------------------------------------------------------------===//

#include "AMDTargetInfo.h"

#include "tile/Target/AMD/LdsBanks.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::amd;

static std::string describe(const LdsLayoutCost &cost) {
  return llvm::formatv("reads {0} LDS cycles (minimum {1}), copy stores {2} "
                       "(minimum {3})",
                       cost.reads.cycles, cost.reads.minimum,
                       cost.stores.cycles, cost.stores.minimum)
      .str();
}

SharedLayoutChoice
AMDTargetInfo::chooseGemmOperandLayout(MemRefType type,
                                       ArrayRef<SharedGemmUse> uses) const {
  SmallVector<MfmaOperandReads> reads;
  for (SharedGemmUse use : uses) {
    MmaAttr mma = use.gemm.getMmaAttr();
    if (!mma || mma.getKind() != MmaKind::Mfma || type.getRank() < 2)
      return TargetInfo::chooseGemmOperandLayout(type, uses);
    reads.push_back(getMfmaOperandReads(use.gemm, use.isA));
  }
  SmallVector<LdsLayoutCost> candidates = evaluateLdsLayouts(type, reads);
  const LdsLayoutCost &best = getCheapest(candidates);
  std::string reason = "mfma operand " + describe(best);
  if (best.layout != candidates.front().layout) {
    llvm::raw_string_ostream os(reason);
    os << "; " << candidates.front().layout << " would take "
       << describe(candidates.front());
  }
  return {best.layout, reason};
}
