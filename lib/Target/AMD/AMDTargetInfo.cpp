//===- AMDTargetInfo.cpp - AMD CDNA targets (gfx90a, gfx942) ----*- C++ -*-===//
//
// The factory of the AMD CDNA target. What the chips lack is diagnosed by
// the shared hooks from the chip table: `tile.ws` and register budgets
// (no warpgroups, no setmaxnreg) by verifyKernel, tensor copies (no TMA)
// when their pipes are planned, NVIDIA MMA choices by verifyMma (Mfma.cpp).
//
//===----------------------------------------------------------------------===//

#include "AMDTargetInfo.h"

#include "../TargetFactories.h"

using namespace mlir;
using namespace mlir::tile;

std::unique_ptr<TargetInfo> mlir::tile::createAMDTargetInfo(TargetAttr t) {
  return std::make_unique<amd::AMDTargetInfo>(t);
}
