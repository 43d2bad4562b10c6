//===- Resources.cpp - On-chip resource accounting --------------*- C++ -*-===//

#include "tile/Transforms/Resources.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::getTileSizeInBytes(MemRefType type) {
  int64_t bits = type.getElementTypeBitWidth();
  return llvm::divideCeil(type.getNumElements() * bits, 8);
}

int64_t mlir::tile::getSharedTileSizeInBytes(AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (auto layout = dyn_cast_or_null<SharedLayoutAttr>(alloc.getLayoutAttr()))
    return layout.getSizeInBytes(type.getShape(),
                                 type.getElementTypeBitWidth());
  return getTileSizeInBytes(type);
}

int64_t mlir::tile::getSharedAlignment(AllocOp alloc) {
  return alloc.getAlignment().value_or(kDefaultSharedAlignment);
}

int64_t mlir::tile::computeSharedMemoryBytes(KernelOp kernel) {
  int64_t offset = 0;
  kernel.walk([&](AllocOp alloc) {
    if (getMemoryKind(alloc.getType()) != MemoryKind::Shared)
      return;
    offset = llvm::alignTo(offset, getSharedAlignment(alloc));
    offset += getSharedTileSizeInBytes(alloc);
  });
  return offset;
}

int64_t mlir::tile::estimateTileRegisters(KernelOp kernel) {
  int64_t bytes = 0;
  int64_t threads = kernel.getThreads();
  kernel.walk([&](AllocOp alloc) {
    MemRefType type = alloc.getType();
    switch (getMemoryKind(type)) {
    case MemoryKind::Fragment:
      bytes += llvm::divideCeil(getTileSizeInBytes(type), threads);
      break;
    case MemoryKind::Local:
      bytes += getTileSizeInBytes(type);
      break;
    default:
      break;
    }
  });
  return llvm::divideCeil(bytes, 4);
}
