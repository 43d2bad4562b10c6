//===- LdsBanks.cpp - The LDS bank model of CDNA ----------------*- C++ -*-===//
//
// The cycle count of LDS accesses over 32 banks of 4 bytes, and the
// accesses of MFMA operand reads and of copies into shared tiles.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/AMD/LdsBanks.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::amd;

static constexpr int64_t kBanks = 32;
static constexpr int64_t kBankBytes = 4;
static constexpr int64_t kWaveSize = 64;

LdsCycles amd::getLdsCycles(const LdsAccess &access) {
  int64_t dwordsPerLane =
      std::max<int64_t>(1, llvm::divideCeil(access.bytes, kBankBytes));
  int64_t phaseLanes = std::min<int64_t>(kBanks, kBanks / dwordsPerLane);
  LdsCycles total;
  int64_t lanes = access.addresses.size();
  for (int64_t first = 0; first < lanes; first += phaseLanes) {
    // Distinct dwords per bank within the phase.
    std::vector<llvm::SmallDenseSet<int64_t, 4>> banks(kBanks);
    int64_t dwords = 0;
    for (int64_t l = first; l < std::min(lanes, first + phaseLanes); ++l) {
      int64_t address = access.addresses[l];
      if (address < 0)
        continue;
      for (int64_t d = address / kBankBytes;
           d <= (address + access.bytes - 1) / kBankBytes; ++d)
        dwords += banks[d % kBanks].insert(d).second;
    }
    if (!dwords)
      continue;
    size_t most = 0;
    for (auto &bank : banks)
      most = std::max<size_t>(most, bank.size());
    total.cycles += most;
    total.minimum += llvm::divideCeil(dwords, kBanks);
  }
  return total;
}

LdsCycles amd::getLdsCycles(ArrayRef<LdsAccess> accesses) {
  LdsCycles total;
  for (const LdsAccess &access : accesses)
    total += getLdsCycles(access);
  return total;
}

MfmaOperandReads amd::getMfmaOperandReads(GemmOp gemm, bool isA) {
  MmaAttr mma = gemm.getMmaAttr();
  assert(mma && mma.getKind() == MmaKind::Mfma && "an mfma choice");
  int64_t bits =
      cast<MemRefType>(gemm.getA().getType()).getElementTypeBitWidth();
  MfmaOperandReads reads;
  reads.instr = mma.getInstrM();
  reads.instrK = mma.getInstrK();
  reads.kPerLane = 64 / bits;
  reads.k = gemm.getK();
  if (isA) {
    reads.outerWaves = mma.getWarpsM();
    reads.outerPerWave = gemm.getM() / mma.getWarpsM();
    reads.kContiguous = !gemm.getTransposeA();
  } else {
    reads.outerWaves = mma.getWarpsN();
    reads.outerPerWave = gemm.getN() / mma.getWarpsN();
    reads.kContiguous = gemm.getTransposeB();
  }
  return reads;
}

/// Byte offset of (row, col) in a matrix of `shape` in `layout`.
static int64_t offsetOf(SharedLayoutAttr layout, ArrayRef<int64_t> shape,
                        int64_t bits, int64_t row, int64_t col) {
  return layout.getByteOffset({row, col}, shape, bits);
}

SmallVector<LdsAccess> amd::getReadAccesses(const MfmaOperandReads &reads,
                                            ArrayRef<int64_t> shape,
                                            int64_t elementBits,
                                            SharedLayoutAttr layout) {
  ArrayRef<int64_t> matrix = shape.take_back(2);
  int64_t eltBytes = elementBits / 8;
  SmallVector<LdsAccess> accesses;
  if (matrix.size() != 2)
    return accesses;
  for (int64_t w = 0; w < reads.outerWaves; ++w)
    for (int64_t t = 0; t < reads.outerPerWave / reads.instr; ++t)
      for (int64_t s = 0; s < reads.k / reads.instrK; ++s)
        for (int64_t e = 0; e < (reads.kContiguous ? 1 : reads.kPerLane); ++e) {
          LdsAccess access;
          access.bytes =
              reads.kContiguous ? reads.kPerLane * eltBytes : eltBytes;
          for (int64_t l = 0; l < kWaveSize; ++l) {
            int64_t outer =
                w * reads.outerPerWave + t * reads.instr + l % reads.instr;
            int64_t k =
                s * reads.instrK + (l / reads.instr) * reads.kPerLane + e;
            access.addresses.push_back(
                reads.kContiguous
                    ? offsetOf(layout, matrix, elementBits, outer, k)
                    : offsetOf(layout, matrix, elementBits, k, outer));
          }
          accesses.push_back(std::move(access));
        }
  return accesses;
}

SmallVector<LdsAccess> amd::getCopyStores(ArrayRef<int64_t> shape,
                                          int64_t elementBits,
                                          SharedLayoutAttr layout) {
  ArrayRef<int64_t> matrix = shape.take_back(2);
  if (matrix.size() != 2)
    return {};
  int64_t rows = matrix[0], cols = matrix[1];
  int64_t vec = std::max<int64_t>(1, 128 / elementBits);
  while (vec > 1 && cols % vec != 0)
    vec /= 2;
  int64_t bytes = vec * elementBits / 8;
  // The vector's slot: the lowest offset of its swizzle units.
  int64_t unitElems = std::max<int64_t>(
      1, (layout.getSwizzle() ? layout.getUnit() : bytes) * 8 / elementBits);
  int64_t chunksPerRow = cols / vec, chunks = rows * chunksPerRow;
  SmallVector<LdsAccess> accesses;
  for (int64_t first = 0; first < chunks; first += kWaveSize) {
    LdsAccess access;
    access.bytes = bytes;
    for (int64_t chunk = first; chunk < first + kWaveSize; ++chunk) {
      if (chunk >= chunks) {
        access.addresses.push_back(-1);
        continue;
      }
      int64_t row = chunk / chunksPerRow, col = (chunk % chunksPerRow) * vec;
      int64_t slot = offsetOf(layout, matrix, elementBits, row, col);
      for (int64_t e = unitElems; e < vec; e += unitElems)
        slot =
            std::min(slot, offsetOf(layout, matrix, elementBits, row, col + e));
      access.addresses.push_back(slot);
    }
    accesses.push_back(std::move(access));
  }
  return accesses;
}

SmallVector<LdsLayoutCost>
amd::evaluateLdsLayouts(MemRefType type, ArrayRef<MfmaOperandReads> reads) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t bits = type.getElementTypeBitWidth();
  SmallVector<SharedLayoutAttr> layouts = {getChunkSwizzledLayout(type)};
  int64_t rowBytes = shape.back() * bits / 8;
  int64_t rows = shape.size() > 1 ? shape[shape.size() - 2] : 1;
  for (int64_t swizzle : {128, 64, 32})
    if (rowBytes % swizzle == 0 && (rowBytes * rows) % swizzle == 0)
      layouts.push_back(
          SharedLayoutAttr::get(type.getContext(), swizzle, 0, /*unit=*/8));
  SmallVector<LdsLayoutCost> costs;
  for (SharedLayoutAttr layout : layouts) {
    LdsLayoutCost cost{layout, {}, {}};
    for (const MfmaOperandReads &r : reads)
      cost.reads += getLdsCycles(getReadAccesses(r, shape, bits, layout));
    cost.stores = getLdsCycles(getCopyStores(shape, bits, layout));
    costs.push_back(cost);
  }
  return costs;
}

const LdsLayoutCost &amd::getCheapest(ArrayRef<LdsLayoutCost> candidates) {
  const LdsLayoutCost *best = &candidates.front();
  for (const LdsLayoutCost &c : candidates)
    if (c.cycles() < best->cycles())
      best = &c;
  return *best;
}
