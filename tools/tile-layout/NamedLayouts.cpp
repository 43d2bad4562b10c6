//===- NamedLayouts.cpp - The named distributed layouts -------------------===//
//
// Checks the shapes and parameters of the named layouts and builds them with
// the NVIDIA, AMD and blocked layout constructors.
//
//===----------------------------------------------------------------------===//

#include "NamedLayouts.h"
#include "Support.h"

#include "tile/Dialect/ChipDescription.h"
#include "tile/Target/AMD/Layouts.h"
#include "tile/Target/NVIDIA/Layouts.h"
#include "tile/Target/ShapeChecks.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>

using namespace mlir;
using namespace mlir::tile;

namespace tile_layout {

/// Reports the rule a shape breaks (Target/ShapeChecks.h), if any.
static LogicalResult check(StringRef option, const std::string &why) {
  if (why.empty())
    return success();
  fail(llvm::formatv("--{0}: {1}", option, why));
  return failure();
}

static LogicalResult checkPowerOfTwo(StringRef option, int64_t value,
                                     int64_t minimum) {
  if (value >= minimum && llvm::isPowerOf2_64(value))
    return success();
  fail(llvm::formatv("--{0} must be a power of two of at least {1}, got {2}",
                     option, minimum, value));
  return failure();
}

static LogicalResult parseWarps(const std::string &warps, int64_t &wm,
                                int64_t &wn) {
  SmallVector<int64_t> w;
  if (failed(parseShape(warps, "warps", w, /*powersOfTwo=*/true)))
    return failure();
  if (w.size() != 2) {
    fail("--warps: expected WMxWN, got '" + warps + "'");
    return failure();
  }
  wm = w[0];
  wn = w[1];
  return success();
}

static LogicalResult parseMatrix(StringRef text, StringRef option,
                                 int64_t &rows, int64_t &cols) {
  SmallVector<int64_t> shape;
  if (failed(parseShape(text, option, shape, /*powersOfTwo=*/true)))
    return failure();
  if (shape.size() != 2) {
    fail(llvm::formatv("--{0}: expected a 2-d shape like 16x8, got '{1}'",
                       option, text));
    return failure();
  }
  rows = shape[0];
  cols = shape[1];
  return success();
}

std::optional<LinearLayout>
buildNamedLayout(StringRef source, const NamedLayoutOptions &options) {
  const int bits = options.bits, warpgroups = options.warpgroups,
            instr = options.instr, numThreads = options.threads,
            vectorWidth = options.vector;
  const std::string &chipName = options.chip;
  int64_t m, n, wm, wn;
  if (source == "mma-acc") {
    if (failed(parseMatrix(options.shape, source, m, n)) ||
        failed(parseWarps(options.warps, wm, wn)) ||
        failed(check(source, nvidia::checkMmaSyncAccumulator(m, n, wm, wn))))
      return std::nullopt;
    return nvidia::mmaSyncAccumulator(m, n, wm, wn);
  }
  if (source == "mma-a") {
    if (failed(parseMatrix(options.shape, source, m, n)) ||
        failed(parseWarps(options.warps, wm, wn)) ||
        failed(check(source, nvidia::checkMmaSyncOperandA(m, n, bits, wm))))
      return std::nullopt;
    return nvidia::mmaSyncOperandA(m, n, bits, wm, wn);
  }
  if (source == "mma-b") {
    if (failed(parseMatrix(options.shape, source, m, n)) ||
        failed(parseWarps(options.warps, wm, wn)) ||
        failed(check(source, nvidia::checkMmaSyncOperandB(m, n, bits, wn))))
      return std::nullopt;
    return nvidia::mmaSyncOperandB(m, n, bits, wm, wn);
  }
  if (source == "wgmma-acc") {
    if (failed(parseMatrix(options.shape, source, m, n)) ||
        failed(checkPowerOfTwo("warpgroups", warpgroups, 1)) ||
        failed(check(source, nvidia::checkWgmmaAccumulator(m, n, warpgroups))))
      return std::nullopt;
    return nvidia::wgmmaAccumulator(m, n, warpgroups);
  }
  if (source == "wgmma-a") {
    if (failed(parseMatrix(options.shape, source, m, n)) ||
        failed(checkPowerOfTwo("warpgroups", warpgroups, 1)) ||
        failed(check(source, nvidia::checkWgmmaOperandA(m, n, warpgroups))))
      return std::nullopt;
    return nvidia::wgmmaOperandA(m, n, warpgroups);
  }
  if (source == "mfma-acc") {
    if (instr != 16 && instr != 32) {
      fail(llvm::formatv("--instr must be 16 or 32, got {0}", instr));
      return std::nullopt;
    }
    if (failed(parseMatrix(options.shape, source, m, n)) ||
        failed(parseWarps(options.warps, wm, wn)) ||
        failed(check(source, amd::checkMfmaAccumulator(m, n, instr, wm, wn))))
      return std::nullopt;
    return amd::mfmaAccumulator(m, n, instr, wm, wn);
  }
  assert(source == "blocked" && "unknown named layout");
  SmallVector<int64_t> shape;
  if (failed(parseShape(options.shape, source, shape, /*powersOfTwo=*/true)) ||
      failed(checkPowerOfTwo("vector", vectorWidth, 1)))
    return std::nullopt;
  const ChipDescription *chip = lookupChip(chipName);
  if (!chip) {
    fail("--chip: unknown chip '" + chipName +
         "'; supported chips: " + getSupportedChipList());
    return std::nullopt;
  }
  if (failed(checkPowerOfTwo("threads", numThreads, chip->warpSize)))
    return std::nullopt;
  int64_t total = 1;
  for (int64_t s : shape)
    total *= s;
  if (total > (int64_t(1) << 40) / numThreads) {
    fail("--blocked: layout too large");
    return std::nullopt;
  }
  return LinearLayout::blocked(shape, numThreads, vectorWidth, chip->warpSize);
}

} // namespace tile_layout
