//===- LdsBanks.h - The LDS bank model of CDNA ------------------*- C++ -*-===//
//
// How many cycles the LDS of a CDNA compute unit (gfx90a, gfx942) takes to
// serve one wave's access, and the accesses a gemm's MFMA operand reads and
// the copies filling its shared tiles make. The AMD target chooses the
// shared layouts of gemm operands with it, and the tests measure layouts
// with it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_AMD_LDSBANKS_H
#define TILE_TARGET_AMD_LDSBANKS_H

#include "tile/Target/TargetInfo.h"

namespace mlir::tile::amd {

/// One LDS instruction of a wave: the byte address each lane accesses (-1:
/// the lane is inactive) and the bytes every lane accesses (1 to 16).
struct LdsAccess {
  int64_t bytes = 0;
  SmallVector<int64_t> addresses;
};

/// LDS cycles: taken, and the fewest the accessed bytes need.
struct LdsCycles {
  int64_t cycles = 0;
  int64_t minimum = 0;
  int64_t excess() const { return cycles - minimum; }
  LdsCycles &operator+=(const LdsCycles &other) {
    cycles += other.cycles;
    minimum += other.minimum;
    return *this;
  }
};

/// The bank model: 32 banks of 4 bytes (bank = address / 4 % 32). A wave's
/// access is served in phases of consecutive lanes that together move 128
/// bytes (8 lanes for 16-byte accesses, 16 for 8 bytes, 32 for 4 bytes or
/// less); a phase takes as many cycles as the most distinct dwords one bank
/// serves in it (lanes reading the same dword share it), at least the
/// dwords it moves / 32. This is the conservative reading of what AMD
/// documents (8-lane phases for ds_write_b128, half waves for 4-byte
/// accesses): a phase without conflicts here is also one on gfx942, whose
/// ds_read_b64 serves each half wave in 2 cycles when no bank has more than
/// 2 of its 64 dwords.
LdsCycles getLdsCycles(const LdsAccess &access);
LdsCycles getLdsCycles(ArrayRef<LdsAccess> accesses);

/// How the MFMA emitter reads one operand from a shared matrix: lane l of
/// a wave reads outer coordinate (M for A, N for B) outer0 + t * instr +
/// l % instr and the kPerLane elements from k = s * instrK + (l / instr) *
/// kPerLane, for every outer tile t and k step s; `outerWaves` waves each
/// own `outerPerWave` consecutive outer coordinates. Where k is the
/// matrix's contiguous dimension (`kContiguous`: A as M x K, B transposed
/// as N x K) a lane reads its run with one access, element by element
/// otherwise (the matrix is then K x outer).
struct MfmaOperandReads {
  int64_t instr = 32;
  int64_t instrK = 8;
  int64_t kPerLane = 4;
  int64_t k = 0;
  int64_t outerWaves = 1;
  int64_t outerPerWave = 0;
  bool kContiguous = true;
};

/// The reads of operand A (`isA`) or B of `gemm` under its MMA choice (an
/// MFMA one).
MfmaOperandReads getMfmaOperandReads(GemmOp gemm, bool isA);

/// The accesses of `reads` from a matrix of `shape` (the tile's trailing
/// two dimensions) with `elementBits`-bit elements in `layout`.
SmallVector<LdsAccess> getReadAccesses(const MfmaOperandReads &reads,
                                       ArrayRef<int64_t> shape,
                                       int64_t elementBits,
                                       SharedLayoutAttr layout);

/// The stores of a copy filling a matrix of `shape` in `layout`: vectors of
/// 16 bytes (fewer where a row is shorter) consecutive along rows on
/// consecutive lanes, each one access to its aligned slot (the halves of a
/// vector that a swizzle of 8-byte units exchanges are swapped in
/// registers).
SmallVector<LdsAccess> getCopyStores(ArrayRef<int64_t> shape,
                                     int64_t elementBits,
                                     SharedLayoutAttr layout);

/// A shared layout and what it costs a tile under the bank model.
struct LdsLayoutCost {
  SharedLayoutAttr layout;
  LdsCycles reads, stores;
  int64_t cycles() const { return reads.cycles + stores.cycles; }
};

/// The candidate layouts of a tile of `type` that MFMA operand reads
/// `reads` use and a copy fills, each with its cost: first the 16-byte-chunk
/// swizzle (or padding) of `getChunkSwizzledLayout`, then the swizzles of
/// 8-byte units that its rows fill, widest first.
SmallVector<LdsLayoutCost> evaluateLdsLayouts(MemRefType type,
                                              ArrayRef<MfmaOperandReads> reads);

/// The cheapest of `candidates` (the first on ties).
const LdsLayoutCost &getCheapest(ArrayRef<LdsLayoutCost> candidates);

} // namespace mlir::tile::amd

#endif // TILE_TARGET_AMD_LDSBANKS_H
