//===- AMDTargetInfo.h - AMD CDNA targets (gfx90a, gfx942) ------*- C++ -*-===//
//
// The AMD CDNA implementation of `TargetInfo`: 64-lane wavefronts, 64 KiB of
// LDS per block, no asynchronous copy engine, no warpgroups, no named
// barriers. Block barriers (`s_barrier`, through `gpu.barrier`) and wave
// shuffles (`ds_bpermute`, through `gpu.shuffle` over 64 lanes) are the
// target-neutral defaults. Each instruction family has its own file here:
//
//   Mfma.cpp        MFMA selection, operand layouts and emission
//   Conversions.cpp rounding to the 8-bit floats
//   LdsLayouts.cpp  LDS layouts of MFMA operands (on the bank model of
//                   LdsBanks.cpp)
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TARGET_AMD_AMDTARGETINFO_H
#define TILE_LIB_TARGET_AMD_AMDTARGETINFO_H

#include "tile/Target/TargetInfo.h"

namespace mlir::tile::amd {

class AMDTargetInfo : public TargetInfo {
public:
  using TargetInfo::TargetInfo;

  // Mfma.cpp
  FailureOr<MmaAttr> selectMma(GemmOp op, int64_t numThreads) const override;
  LogicalResult verifyMma(GemmOp op, MmaAttr mma,
                          int64_t numThreads) const override;
  MmaLayouts getMmaLayouts(GemmOp op, MmaAttr mma) const override;
  // LdsLayouts.cpp
  SharedLayoutChoice
  chooseGemmOperandLayout(MemRefType type,
                          ArrayRef<SharedGemmUse> uses) const override;
  LogicalResult emitGemm(OpBuilder &b, Location loc,
                         const GemmEmission &g) const override;
  // Conversions.cpp
  FailureOr<Value> emitFloat8Truncate(OpBuilder &b, Location loc, Value x,
                                      FloatType type) const override;
};

} // namespace mlir::tile::amd

#endif // TILE_LIB_TARGET_AMD_AMDTARGETINFO_H
