//===- NVIDIATargetInfo.cpp - The NVIDIA target and its MMAs ----*- C++ -*-===//
//
// The NVIDIA target's factory and its matrix-multiply dispatch: a gemm is
// computed with `wgmma` where the chip has it and the gemm allows it
// (Wgmma.cpp), with `mma.sync` otherwise (MmaSync.cpp); both families
// offer the same four leaves (select, verify, layouts, emit), and this file
// only picks one.
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"

#include "../TargetFactories.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

std::unique_ptr<TargetInfo> mlir::tile::createNVIDIATargetInfo(TargetAttr t) {
  return std::make_unique<NVIDIATargetInfo>(t);
}

FailureOr<MmaAttr> NVIDIATargetInfo::selectMma(GemmOp op,
                                               int64_t numThreads) const {
  // wgmma where the chip has it and the gemm allows it (whole warpgroups,
  // swizzled shared operands), mma.sync otherwise.
  if (chip->wgmma)
    if (MmaAttr mma =
            trySelectWgmma(op, numThreads, getWarpSize(), getWarpgroupSize()))
      return mma;
  return selectMmaSync(op, numThreads, getChipName(), getWarpSize());
}

LogicalResult NVIDIATargetInfo::verifyMma(GemmOp op, MmaAttr mma,
                                          int64_t numThreads) const {
  switch (mma.getKind()) {
  case MmaKind::MmaSync:
    return verifyMmaSync(op, mma, numThreads, getChipName(), getWarpSize());
  case MmaKind::Wgmma:
    if (!chip->wgmma)
      return op.emitOpError("wgmma needs sm_90a; the target is ")
             << getChipName();
    return verifyWgmma(op, mma, numThreads, getWarpSize(), getWarpgroupSize());
  case MmaKind::Mfma:
    break;
  }
  return op.emitOpError("mfma is an AMD instruction; the target is ")
         << getChipName();
}

MmaLayouts NVIDIATargetInfo::getMmaLayouts(GemmOp op, MmaAttr mma) const {
  if (mma.getKind() == MmaKind::Wgmma)
    return getWgmmaLayouts(op, mma);
  return getMmaSyncLayouts(op, mma);
}

LogicalResult NVIDIATargetInfo::emitGemm(OpBuilder &b, Location loc,
                                         const GemmEmission &g) const {
  if (g.mma.getKind() == MmaKind::Wgmma && chip->wgmma)
    return emitWgmma(b, loc, g, getWarpgroupSize());
  if (g.mma.getKind() == MmaKind::MmaSync)
    return emitMmaSync(b, loc, g, getWarpSize());
  GemmOp op = g.op;
  return op.emitOpError("no lowering for this mma choice on ") << getChipName();
}

bool NVIDIATargetInfo::isAsync(MmaAttr mma) const {
  return mma.getKind() == MmaKind::Wgmma && chip->wgmma;
}
