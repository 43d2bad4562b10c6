//===- ShapeChecks.h - Shapes an MMA layout can cover -----------*- C++ -*-===//
//
// The rules on the tile shapes the targets' MMA layouts cover (see
// NVIDIA/Layouts.h and AMD/Layouts.h), stated once for everything that
// builds those layouts from user input: the C API
// (tileLinearLayoutGet*) and tile-layout. Each check returns an empty
// string for a shape the layout covers, else what is wrong, as
// "M = 24 must be a multiple of 16 x warps along M (32)".
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_SHAPECHECKS_H
#define TILE_TARGET_SHAPECHECKS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tile {

/// "" when `size` is a positive multiple of `unit`, else the rule.
std::string requireMultiple(StringRef what, int64_t size, int64_t unit,
                            StringRef unitText);

namespace nvidia {
/// mma.sync accumulator: M a multiple of 16 x warpsM, N of 8 x warpsN.
std::string checkMmaSyncAccumulator(int64_t m, int64_t n, int64_t warpsM,
                                    int64_t warpsN);
/// mma.sync A (M x K) and B (K x N) operands: elements of 8, 16 or 32
/// bits, K a multiple of 256 / bits, M and N as for the accumulator.
std::string checkMmaSyncOperandA(int64_t m, int64_t k, int64_t bits,
                                 int64_t warpsM);
std::string checkMmaSyncOperandB(int64_t k, int64_t n, int64_t bits,
                                 int64_t warpsN);
/// wgmma accumulator: M a multiple of 64 x warpgroups, N of 8, at most 256.
std::string checkWgmmaAccumulator(int64_t m, int64_t n, int64_t warpgroups);
/// wgmma register A operand: M as the accumulator's, K a multiple of 16.
std::string checkWgmmaOperandA(int64_t m, int64_t k, int64_t warpgroups);
} // namespace nvidia

namespace amd {
/// MFMA accumulator: instructions of 16 or 32, M a multiple of
/// instr x wavesM, N of instr x wavesN.
std::string checkMfmaAccumulator(int64_t m, int64_t n, int64_t instr,
                                 int64_t wavesM, int64_t wavesN);
} // namespace amd

} // namespace mlir::tile

#endif // TILE_TARGET_SHAPECHECKS_H
