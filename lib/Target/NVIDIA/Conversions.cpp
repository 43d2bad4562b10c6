//===- Conversions.cpp - NVIDIA 8-bit float conversions ---------*- C++ -*-===//
//
// Rounding f32 to the 8-bit floats (e4m3, e5m2), which LLVM has no types
// for: `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32` (sm_89 and later) converts a
// pair; the value is converted with itself and one byte kept.
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

FailureOr<Value> NVIDIATargetInfo::emitFloat8Truncate(OpBuilder &b,
                                                      Location loc, Value x,
                                                      FloatType type) const {
  if (!chip->fp8Mma || !isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return emitError(loc, "rounding to ")
           << type << " needs an 8-bit float conversion, which "
           << getChipName()
           << " does not have (sm_89 and later convert to f8E4M3FN and "
              "f8E5M2)";
  Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
      b, loc, b.getI16Type(), x, x, NVVM::FPRoundingMode::RN,
      NVVM::SaturationMode::SATFINITE, /*relu=*/false, type);
  Value byte = arith::TruncIOp::create(b, loc, b.getI8Type(), pair);
  return arith::BitcastOp::create(b, loc, type, byte).getResult();
}
