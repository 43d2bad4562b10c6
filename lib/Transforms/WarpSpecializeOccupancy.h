//===- WarpSpecializeOccupancy.h - Producer costs and budgets ----*- C++
//-*-===//
//
// What a producer warpgroup costs a kernel (registers, resident blocks) and
// whether tile-warp-specialize's default adds one anyway: shared by the
// pass's decision and its register budgets.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_WARPSPECIALIZEOCCUPANCY_H
#define TILE_TRANSFORMS_WARPSPECIALIZEOCCUPANCY_H

#include "tile/Dialect/TileOps.h"
#include "tile/Transforms/Resources.h"

#include <string>

namespace mlir::tile {
struct ChipDescription;
class TargetInfo;

/// Register budget of the producer warpgroup: it only computes addresses.
inline constexpr int64_t kProducerRegisters = kAddressRegisters;

/// The register budget of each consumer thread of a specialized kernel of
/// `total` threads (`warpgroup` of them the producer's) launched for
/// `blocks` blocks per multiprocessor.
int64_t getConsumerBudget(const TargetInfo &target, int64_t total,
                          int64_t warpgroup, int64_t blocks);

/// Blocks per multiprocessor a specialized kernel of `total` threads is
/// launched for: as many as leave each consumer thread the target's least
/// consumer budget (at least one).
int64_t getSpecializedBlocks(const TargetInfo &target, int64_t total,
                             int64_t warpgroup);

/// Why the default should leave `kernel` unspecialized, or "": where the
/// producer warpgroup would leave fewer consumer warpgroups resident per
/// multiprocessor, its stages must keep enough MMA work loaded ahead of
/// each consumer warpgroup (docs/design.md 3.1).
std::string checkProducerOccupancy(KernelOp kernel,
                                   const ChipDescription &chip);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_WARPSPECIALIZEOCCUPANCY_H
