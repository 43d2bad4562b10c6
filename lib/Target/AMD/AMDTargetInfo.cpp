//===- AMDTargetInfo.cpp - AMD CDNA targets (gfx90a, gfx942) ----*- C++ -*-===//
//
// The AMD CDNA implementation of `TargetInfo`: 64-lane wavefronts, 64 KiB of
// LDS, no asynchronous copy engine, no warpgroups. Passes that only need the
// chip's geometry and resources (layout inference over 64-lane waves,
// pipeline planning, resource checks) work for these chips today; the MFMA
// instruction family is not selected or emitted yet, which is diagnosed at
// selection, naming the chip.
//
//===----------------------------------------------------------------------===//

#include "../TargetFactories.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
class AMDTargetInfo : public TargetInfo {
public:
  using TargetInfo::TargetInfo;

  FailureOr<MmaAttr> selectMma(GemmOp op, int64_t) const override {
    return op.emitOpError("no matrix-multiply lowering for ")
           << getChipName() << " yet (MFMA is not implemented)";
  }
  LogicalResult verifyMma(GemmOp op, MmaAttr mma, int64_t) const override {
    if (mma.getKind() != MmaKind::Mfma)
      return op.emitOpError(stringifyMmaKind(mma.getKind()))
             << " is an NVIDIA instruction; the target is " << getChipName();
    return op.emitOpError("no matrix-multiply lowering for ")
           << getChipName() << " yet (MFMA is not implemented)";
  }
  MmaLayouts getMmaLayouts(GemmOp, MmaAttr) const override {
    llvm_unreachable("no MFMA choice verifies yet");
  }
  LogicalResult emitGemm(OpBuilder &, Location,
                         const GemmEmission &g) const override {
    GemmOp op = g.op;
    return op.emitOpError("no matrix-multiply lowering for ")
           << getChipName() << " yet (MFMA is not implemented)";
  }
};
} // namespace

std::unique_ptr<TargetInfo> mlir::tile::createAMDTargetInfo(TargetAttr t) {
  return std::make_unique<AMDTargetInfo>(t);
}
