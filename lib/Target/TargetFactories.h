//===- TargetFactories.h - One constructor per vendor -----------*- C++ -*-===//

#ifndef TILE_LIB_TARGET_TARGETFACTORIES_H
#define TILE_LIB_TARGET_TARGETFACTORIES_H

#include "tile/Target/TargetInfo.h"

namespace mlir::tile {
std::unique_ptr<TargetInfo> createNVIDIATargetInfo(TargetAttr target);
std::unique_ptr<TargetInfo> createAMDTargetInfo(TargetAttr target);
} // namespace mlir::tile

#endif
