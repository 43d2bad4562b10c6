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

/// Diagnoses the 8-bit float gemms no NVIDIA FP8 instruction computes:
/// chips without them (before sm_89), AMD's FNUZ flavours, and shared
/// operands not stored K-major (neither wgmma nor mma.sync transposes 8-bit
/// operands, nor does ldmatrix).
static LogicalResult checkFloat8Gemm(GemmOp op, TargetAttr target) {
  const ChipDescription &chip = *target.getDescription();
  auto aType = cast<MemRefType>(op.getA().getType());
  auto bType = cast<MemRefType>(op.getB().getType());
  if (!isFloat8(aType.getElementType()))
    return success();
  if (!chip.fp8Mma)
    return op.emitOpError("8-bit float inputs need FP8 matrix instructions, "
                          "which ")
           << chip.name << " does not have (sm_89 and later)";
  for (Type t : {aType.getElementType(), bType.getElementType()})
    if (isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(t))
      return op.emitOpError()
             << t << " is the FNUZ flavour of CDNA3; NVIDIA's FP8 "
             << "instructions read f8E4M3FN and f8E5M2";
  if (op.getTransposeA())
    return op.emitOpError("FP8 matrix instructions read A with K contiguous "
                          "only: store A as M x K, without transpose_a");
  if (!op.getTransposeB() && getMemoryKind(bType) == MemoryKind::Shared)
    return op.emitOpError("FP8 matrix instructions read B with K contiguous "
                          "only: store B as N x K (\"TN\", B transposed) "
                          "and use transpose_b");
  return success();
}

/// mma.sync on 8-bit floats is PTX ISA 8.4's, mma.sp (a 2:4-sparse A) 7.1's.
static LogicalResult checkMmaSyncPtx(GemmOp op, TargetAttr target) {
  if (op.isSparse() && target.getPtxVersion() < 71)
    return op.emitOpError("mma.sp (a 2:4-sparse A) needs PTX ISA 7.1, but ")
           << target.getChip() << " is compiled with +ptx"
           << target.getPtxVersion() << " here (the target's features)";
  if (!isFloat8(cast<MemRefType>(op.getA().getType()).getElementType()) ||
      target.getPtxVersion() >= 84)
    return success();
  return op.emitOpError("mma.sync on 8-bit floats needs PTX ISA 8.4, but ")
         << target.getChip() << " is compiled with +ptx"
         << target.getPtxVersion() << " here (the target's features)";
}

FailureOr<MmaAttr> NVIDIATargetInfo::selectMma(GemmOp op,
                                               int64_t numThreads) const {
  if (failed(checkFloat8Gemm(op, target)))
    return failure();
  // wgmma where the chip has it and the gemm allows it (whole warpgroups,
  // swizzled shared operands), mma.sync otherwise. A 2:4-sparse A takes
  // wgmma.sp where the PTX ISA has it (8.2), else mma.sp.
  if (chip->wgmma && (!op.isSparse() || target.getPtxVersion() >= 82))
    if (MmaAttr mma =
            trySelectWgmma(op, numThreads, getWarpSize(), getWarpgroupSize()))
      return mma;
  if (failed(checkMmaSyncPtx(op, target)))
    return failure();
  return selectMmaSync(op, numThreads, getChipName(), getWarpSize());
}

LogicalResult NVIDIATargetInfo::verifyMma(GemmOp op, MmaAttr mma,
                                          int64_t numThreads) const {
  if (failed(checkFloat8Gemm(op, target)))
    return failure();
  switch (mma.getKind()) {
  case MmaKind::MmaSync:
    if (failed(checkMmaSyncPtx(op, target)))
      return failure();
    return verifyMmaSync(op, mma, numThreads, getChipName(), getWarpSize());
  case MmaKind::Wgmma:
    if (!chip->wgmma)
      return op.emitOpError("wgmma needs sm_90a; the target is ")
             << getChipName();
    if (op.isSparse() && target.getPtxVersion() < 82)
      return op.emitOpError("wgmma.sp (a 2:4-sparse A) needs PTX ISA 8.2, "
                            "but ")
             << getChipName() << " is compiled with +ptx"
             << target.getPtxVersion() << " here: compile with features=+ptx84";
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
