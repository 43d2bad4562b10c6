//===- Resources.cpp - On-chip resource accounting --------------*- C++ -*-===//

#include "tile/Transforms/Resources.h"

#include "tile/Dialect/ChipDescription.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::addSizes(int64_t a, int64_t b) {
  if (a == kSaturatedSize || b == kSaturatedSize)
    return kSaturatedSize;
  std::optional<int64_t> sum = llvm::checkedAdd(a, b);
  return sum ? *sum : kSaturatedSize;
}

int64_t mlir::tile::mulSizes(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  if (a == kSaturatedSize || b == kSaturatedSize)
    return kSaturatedSize;
  std::optional<int64_t> product = llvm::checkedMul(a, b);
  return product ? *product : kSaturatedSize;
}

std::string mlir::tile::describeSize(int64_t size) {
  if (size == kSaturatedSize)
    return "more than " + std::to_string(kSaturatedSize - 1);
  return std::to_string(size);
}

/// alignTo that saturates instead of wrapping.
int64_t mlir::tile::alignSize(int64_t size, int64_t alignment) {
  if (alignment <= 1 || size == kSaturatedSize)
    return size;
  int64_t rem = size % alignment;
  return rem ? addSizes(size, alignment - rem) : size;
}

int64_t mlir::tile::getElementStorageBytes(Type type) {
  if (!type.isIntOrFloat())
    return 0;
  uint64_t bits = type.getIntOrFloatBitWidth();
  return static_cast<int64_t>(llvm::PowerOf2Ceil(llvm::divideCeil(bits, 8)));
}

int64_t mlir::tile::getNumElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count = mulSizes(count, std::max<int64_t>(size, 0));
  return count;
}

int64_t mlir::tile::getTileSizeInBytes(MemRefType type) {
  return mulSizes(getNumElements(type.getShape()),
                  getElementStorageBytes(type.getElementType()));
}

int64_t mlir::tile::getSharedTileSizeInBytes(AllocOp alloc) {
  MemRefType type = alloc.getType();
  int64_t plain = getTileSizeInBytes(type);
  // Layouts compute sizes in plain int64_t: only ask them about tiles whose
  // size is far from overflowing (the padding at most doubles a row).
  if (plain > (int64_t(1) << 48))
    return kSaturatedSize;
  if (auto layout = dyn_cast_or_null<SharedLayoutAttr>(alloc.getLayoutAttr()))
    return layout.getSizeInBytes(
        type.getShape(), 8 * getElementStorageBytes(type.getElementType()));
  return plain;
}

int64_t mlir::tile::getSharedAlignment(AllocOp alloc) {
  return alloc.getAlignment().value_or(kDefaultSharedAlignment);
}

int64_t mlir::tile::computeSharedMemoryBytes(KernelOp kernel) {
  int64_t offset = 0;
  kernel.walk([&](AllocOp alloc) {
    if (getMemoryKind(alloc.getType()) != MemoryKind::Shared)
      return;
    offset = alignSize(offset, getSharedAlignment(alloc));
    offset = addSizes(offset, getSharedTileSizeInBytes(alloc));
  });
  return offset;
}

int64_t mlir::tile::getCooperatingThreads(Operation *op) {
  if (auto ws = dyn_cast<WsOp>(op))
    return ws.getNumThreads();
  if (auto ws = op->getParentOfType<WsOp>())
    return ws.getNumThreads();
  if (auto kernel = dyn_cast<KernelOp>(op))
    return kernel.getThreads();
  if (auto kernel = op->getParentOfType<KernelOp>())
    return kernel.getThreads();
  return 1;
}

/// The tile.ws region whose threads alone use `alloc`, or null.
static WsOp getHomeRegion(AllocOp alloc) {
  if (auto ws = alloc->getParentOfType<WsOp>())
    return ws;
  WsOp home;
  for (Operation *user : alloc->getUsers()) {
    auto ws = user->getParentOfType<WsOp>();
    if (!ws || (home && ws != home))
      return nullptr;
    home = ws;
  }
  return home;
}

int64_t mlir::tile::estimateTileRegisters(KernelOp kernel) {
  // Tiles that the threads of one tile.ws region alone use live in those
  // threads only: a thread holds the kernel's other tiles and those of its
  // own region.
  int64_t common = 0;
  llvm::MapVector<Operation *, int64_t> regions;
  kernel.walk([&](AllocOp alloc) {
    MemRefType type = alloc.getType();
    WsOp home = getHomeRegion(alloc);
    int64_t size;
    switch (getMemoryKind(type)) {
    case MemoryKind::Fragment: {
      int64_t threads = std::max<int64_t>(getCooperatingThreads(alloc), 1);
      size = getTileSizeInBytes(type);
      // The accumulator of a gemm whose consumer takes it in chunks holds
      // one chunk at a time (consumer_chunk).
      for (Operation *user : alloc->getUsers())
        if (auto gemm = dyn_cast<GemmOp>(user);
            gemm && gemm.getC() == alloc.getResult() &&
            gemm.getConsumerChunk() && size != kSaturatedSize)
          size = size / gemm.getN() * *gemm.getConsumerChunk();
      size = size == kSaturatedSize ? kSaturatedSize
                                    : llvm::divideCeil(size, threads);
      break;
    }
    case MemoryKind::Local:
      size = getTileSizeInBytes(type);
      break;
    default:
      return;
    }
    int64_t &bytes = home ? regions[home] : common;
    bytes = addSizes(bytes, size);
  });
  int64_t most = 0;
  for (auto &entry : regions)
    most = std::max(most, entry.second);
  int64_t bytes = addSizes(common, most);
  return bytes == kSaturatedSize ? kSaturatedSize : llvm::divideCeil(bytes, 4);
}

int64_t mlir::tile::estimateKernelRegisters(KernelOp kernel) {
  const ChipDescription *chip = getTargetAttr(kernel).getDescription();
  if (!chip)
    chip = lookupChip(kDefaultChip);
  return std::min(chip->maxRegistersPerThread,
                  addSizes(estimateTileRegisters(kernel), kAddressRegisters));
}

int64_t mlir::tile::residentBlocksPerMultiprocessor(const ChipDescription &chip,
                                                    int64_t threads,
                                                    int64_t registers,
                                                    int64_t sharedBytes) {
  // Registers are allocated per warp in units of 8 per thread; NVIDIA
  // reserves 1 KiB of shared memory per resident block.
  int64_t perThread = llvm::alignTo(std::max<int64_t>(registers, 1), 8);
  int64_t reserved = chip.isNVIDIA() ? 1024 : 0;
  threads = std::max<int64_t>(threads, 1);
  int64_t blocks = std::min(chip.maxThreadsPerMultiprocessor / threads,
                            chip.registersPerBlock / threads / perThread);
  if (sharedBytes > 0)
    blocks = std::min(blocks, chip.sharedMemoryPerMultiprocessor /
                                  addSizes(sharedBytes, reserved));
  return std::max<int64_t>(blocks, 1);
}

ResourceLimits mlir::tile::getResourceLimits(Operation *op,
                                             int64_t sharedMemoryOption,
                                             int64_t registersOption) {
  const ChipDescription *chip = getTargetAttr(op).getDescription();
  if (!chip)
    chip = lookupChip(kDefaultChip);
  ResourceLimits limits{chip->maxSharedMemoryPerBlock,
                        chip->maxRegistersPerThread, chip->registersPerBlock};
  if (sharedMemoryOption > 0)
    limits.sharedMemoryPerBlock = sharedMemoryOption;
  if (registersOption > 0)
    limits.registersPerThread = registersOption;
  return limits;
}
