//===- WarpSpecializeOccupancy.cpp - Producer costs and budgets -*- C++ -*-===//
//
// The producer warpgroup's register and occupancy costs
// (WarpSpecializeOccupancy.h) and the rule by which tile-warp-specialize's
// default declines it.
//
//===----------------------------------------------------------------------===//

#include "WarpSpecializeOccupancy.h"

#include "tile/Dialect/ChipDescription.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/Pipelining.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

/// The MMA work (16-bit multiply-adds) a producer must keep loaded ahead of
/// each consumer warpgroup for a specialized kernel to beat an
/// unspecialized one with more blocks resident (docs/design.md 3.1).
static constexpr int64_t kMinWorkAhead = int64_t(1) << 20;

/// The MMA work the stages loaded ahead of a consumer hold: per pipelined
/// loop with tensor copies, the multiply-adds of its gemms per iteration
/// (8-bit operands and 2:4-sparse A count half: the tensor cores run them
/// at twice the rate) times the stages loaded ahead (all but the one being
/// consumed; the stage count is the slots of the pipe its tensor copies
/// hand off through), split over `groups` consumer warpgroups. The most
/// of any such loop; 0 without one.
static int64_t workAhead(KernelOp kernel, int64_t groups) {
  int64_t most = 0;
  kernel.walk([&](scf::ForOp loop) {
    int64_t stages = 0;
    loop.getBody()->walk([&](CopyOp copy) {
      if (PipeProduceAcquireOp handOff =
              copy.getTma() ? getHandOff(copy) : nullptr)
        stages = std::max(
            stages, cast<PipeType>(handOff.getPipe().getType()).getSlots());
    });
    if (stages < 2)
      return;
    int64_t work = 0;
    loop.getBody()->walk([&](GemmOp gemm) {
      int64_t macs = gemm.getM() * gemm.getN() * gemm.getK();
      Type element = cast<MemRefType>(gemm.getB().getType()).getElementType();
      if (element.getIntOrFloatBitWidth() <= 8)
        macs /= 2;
      if (gemm.isSparse())
        macs /= 2;
      work += macs;
    });
    most = std::max(most, work * (stages - 1) / groups);
  });
  return most;
}

/// The register budget of each consumer thread of a specialized kernel
/// of `total` threads launched for `blocks` blocks per multiprocessor.
int64_t mlir::tile::getConsumerBudget(const TargetInfo &target, int64_t total,
                                      int64_t warpgroup, int64_t blocks) {
  int64_t entry = target.getEntryRegisters(total, blocks);
  int64_t available = entry * total - kProducerRegisters * warpgroup;
  return std::min(target.registerBudgets()->getMaxConsumerBudget(),
                  available / (total - warpgroup) / 8 * 8);
}

/// Blocks per multiprocessor the specialized kernel is launched for: as
/// many as leave each consumer thread the target's least consumer budget
/// (at least one).
int64_t mlir::tile::getSpecializedBlocks(const TargetInfo &target,
                                         int64_t total, int64_t warpgroup) {
  int64_t blocks = 1;
  while (getConsumerBudget(target, total, warpgroup, blocks + 1) >=
         target.registerBudgets()->getMinConsumerBudget())
    ++blocks;
  return blocks;
}

/// Why the default should leave `kernel` alone, or "": the producer
/// warpgroup must not cut the consumer warpgroups resident on a
/// multiprocessor where its stages hold little work. More resident
/// warpgroups hide one warpgroup's MMA and load latency behind
/// another's; a producer hides it by loading ahead, which pays once the
/// stages it keeps ahead of each consumer hold kMinWorkAhead
/// multiply-adds (docs/perf.md run 90: 128 x 128 tiles of one or two
/// consumer warpgroups, K steps of 32 and 64, 2 to 4 stages).
std::string mlir::tile::checkProducerOccupancy(KernelOp kernel,
                                               const ChipDescription &chip) {
  int64_t threads = kernel.getThreads();
  int64_t groups = threads / chip.warpgroupSize;
  int64_t shared = computeSharedMemoryBytes(kernel);
  int64_t registers = estimateKernelRegisters(kernel);
  int64_t before = groups * residentBlocksPerMultiprocessor(chip, threads,
                                                            registers, shared);
  int64_t total = threads + chip.warpgroupSize;
  int64_t blocks;
  std::unique_ptr<TargetInfo> target = getTargetInfo(kernel);
  if (target->registerBudgets()) {
    blocks = std::min(
        getSpecializedBlocks(*target, total, chip.warpgroupSize),
        residentBlocksPerMultiprocessor(chip, total, /*registers=*/1, shared));
  } else {
    blocks = residentBlocksPerMultiprocessor(chip, total, registers, shared);
  }
  int64_t after = groups * blocks;
  if (after >= before)
    return "";
  int64_t ahead = workAhead(kernel, groups);
  if (ahead >= kMinWorkAhead)
    return "";
  return "a producer warpgroup would leave " + std::to_string(after) +
         " consumer warpgroups resident per multiprocessor instead of " +
         std::to_string(before) + " and load " + std::to_string(ahead) +
         " multiply-adds ahead of each (fewer than " +
         std::to_string(kMinWorkAhead) +
         ") (tile.warp_specialize = true specializes it anyway)";
}
