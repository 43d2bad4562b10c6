//===- ShapeChecks.cpp - Shapes an MMA layout can cover ---------*- C++ -*-===//

#include "tile/Target/ShapeChecks.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;

std::string mlir::tile::requireMultiple(StringRef what, int64_t size,
                                        int64_t unit, StringRef unitText) {
  if (unit > 0 && size > 0 && size % unit == 0)
    return "";
  return llvm::formatv("{0} = {1} must be a multiple of {2} ({3})", what, size,
                       unitText, unit)
      .str();
}

static std::string checkBits(int64_t bits) {
  if (bits == 8 || bits == 16 || bits == 32)
    return "";
  return llvm::formatv("bits must be 8, 16 or 32, got {0}", bits).str();
}

/// The first failed check of `checks`, or "".
static std::string firstOf(std::initializer_list<std::string> checks) {
  for (const std::string &check : checks)
    if (!check.empty())
      return check;
  return "";
}

std::string mlir::tile::nvidia::checkMmaSyncAccumulator(int64_t m, int64_t n,
                                                        int64_t warpsM,
                                                        int64_t warpsN) {
  return firstOf({requireMultiple("M", m, 16 * warpsM, "16 x warps along M"),
                  requireMultiple("N", n, 8 * warpsN, "8 x warps along N")});
}

std::string mlir::tile::nvidia::checkMmaSyncOperandA(int64_t m, int64_t k,
                                                     int64_t bits,
                                                     int64_t warpsM) {
  if (std::string why = checkBits(bits); !why.empty())
    return why;
  return firstOf({requireMultiple("M", m, 16 * warpsM, "16 x warps along M"),
                  requireMultiple("K", k, 256 / bits, "256 / bits")});
}

std::string mlir::tile::nvidia::checkMmaSyncOperandB(int64_t k, int64_t n,
                                                     int64_t bits,
                                                     int64_t warpsN) {
  if (std::string why = checkBits(bits); !why.empty())
    return why;
  return firstOf({requireMultiple("K", k, 256 / bits, "256 / bits"),
                  requireMultiple("N", n, 8 * warpsN, "8 x warps along N")});
}

std::string mlir::tile::nvidia::checkWgmmaAccumulator(int64_t m, int64_t n,
                                                      int64_t warpgroups) {
  if (std::string why =
          firstOf({requireMultiple("M", m, 64 * warpgroups, "64 x warpgroups"),
                   requireMultiple("N", n, 8, "8")});
      !why.empty())
    return why;
  if (n > 256)
    return llvm::formatv("N = {0} is more than a wgmma's 256", n).str();
  return "";
}

std::string mlir::tile::nvidia::checkWgmmaOperandA(int64_t m, int64_t k,
                                                   int64_t warpgroups) {
  return firstOf({requireMultiple("M", m, 64 * warpgroups, "64 x warpgroups"),
                  requireMultiple("K", k, 16, "16")});
}

std::string mlir::tile::amd::checkMfmaAccumulator(int64_t m, int64_t n,
                                                  int64_t instr, int64_t wavesM,
                                                  int64_t wavesN) {
  if (instr != 16 && instr != 32)
    return llvm::formatv("the MFMA instruction must be 16 or 32, got {0}",
                         instr)
        .str();
  return firstOf(
      {requireMultiple("M", m, instr * wavesM, "instr x warps along M"),
       requireMultiple("N", n, instr * wavesN, "instr x warps along N")});
}
