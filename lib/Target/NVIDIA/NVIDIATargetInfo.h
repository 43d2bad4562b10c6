//===- NVIDIATargetInfo.h - NVIDIA sm_80 / sm_90 targets --------*- C++ -*-===//
//
// The NVIDIA implementation of `TargetInfo`. sm_80-class chips use
// `mma.sync`, `ldmatrix` and `cp.async`; sm_90a adds `setmaxnreg` (TMA,
// mbarriers and `wgmma` come with the Hopper lowering). Each instruction
// family has its own file in this folder:
//
//   Sync.cpp      block and named barriers, shuffles, register budgets
//   CpAsync.cpp   the asynchronous copy engine (cp.async groups)
//   LdMatrix.cpp  shared -> register fragment loads
//   MmaSync.cpp   mma.sync selection, operand layouts and emission
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TARGET_NVIDIA_NVIDIATARGETINFO_H
#define TILE_LIB_TARGET_NVIDIA_NVIDIATARGETINFO_H

#include "tile/Target/TargetInfo.h"

namespace mlir::tile::nvidia {

class NVIDIATargetInfo : public TargetInfo {
public:
  using TargetInfo::TargetInfo;

  // MmaSync.cpp
  FailureOr<MmaAttr> selectMma(GemmOp op, int64_t numThreads) const override;
  LogicalResult verifyMma(GemmOp op, MmaAttr mma,
                          int64_t numThreads) const override;
  MmaLayouts getMmaLayouts(GemmOp op, MmaAttr mma) const override;
  LogicalResult emitGemm(OpBuilder &b, Location loc,
                         const GemmEmission &g) const override;

  // Sync.cpp
  void emitBarrier(OpBuilder &b, Location loc,
                   BarrierScope scope) const override;
  LogicalResult emitRegisterBudget(OpBuilder &b, Location loc,
                                   int64_t registers,
                                   Operation *op) const override;

  // CpAsync.cpp
  void emitAsyncCopy(OpBuilder &b, Location loc, Value dst, Value dstIndex,
                     Value src, ValueRange srcIndices, int64_t elements,
                     int64_t elementBits, Value count) const override;
  void emitAsyncCommit(OpBuilder &b, Location loc) const override;
  void emitAsyncWait(OpBuilder &b, Location loc,
                     int64_t pending) const override;

  // LdMatrix.cpp
  LogicalResult emitSharedToRegisters(OpBuilder &b, Location loc,
                                      const SharedOperand &src,
                                      const RegisterOperand &dst,
                                      Value tid) const override;
};

} // namespace mlir::tile::nvidia

#endif // TILE_LIB_TARGET_NVIDIA_NVIDIATARGETINFO_H
