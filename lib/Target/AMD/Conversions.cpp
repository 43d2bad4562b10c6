//===- Conversions.cpp - AMD 8-bit float conversions ------------*- C++ -*-===//
//
// Rounding f32 to the 8-bit floats of CDNA3 (gfx942: f8E4M3FNUZ and
// f8E5M2FNUZ, the formats its matrix cores read): `v_cvt_pk_fp8_f32` /
// `v_cvt_pk_bf8_f32` convert a pair into one half of a 32-bit word, through
// `amdgpu.packed_trunc_2xfp8`; the value is converted alone and one byte
// kept. The FNUZ formats have no infinity and the instruction gives NaN
// beyond the largest finite value, so the value is first clamped to it, as
// NVIDIA's `satfinite` conversion does (NaN stays NaN).
//
//===----------------------------------------------------------------------===//

#include "AMDTargetInfo.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::amd;

FailureOr<Value> AMDTargetInfo::emitFloat8Truncate(OpBuilder &b, Location loc,
                                                   Value x,
                                                   FloatType type) const {
  if (chip->version < 0x942 ||
      !isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(type))
    return emitError(loc, "rounding to ")
           << type << " needs an 8-bit float conversion, which "
           << getChipName()
           << " does not have (gfx942 converts to f8E4M3FNUZ and "
              "f8E5M2FNUZ)";
  APFloat largest = APFloat::getLargest(type.getFloatSemantics());
  bool lost = false;
  largest.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
  Type f32 = b.getF32Type();
  auto constant = [&](const APFloat &v) {
    return arith::ConstantOp::create(b, loc, f32, b.getFloatAttr(f32, v));
  };
  Value lowest = constant(-largest);
  Value above = arith::MaximumFOp::create(b, loc, x, lowest);
  Value highest = constant(largest);
  Value clamped = arith::MinimumFOp::create(b, loc, above, highest);
  Value packed = amdgpu::PackedTrunc2xFp8Op::create(
      b, loc, VectorType::get({4}, type), clamped, /*sourceB=*/Value(),
      /*wordIndex=*/0, /*existing=*/Value());
  return vector::ExtractOp::create(b, loc, packed, ArrayRef<int64_t>{0})
      .getResult();
}
