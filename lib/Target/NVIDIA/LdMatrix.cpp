//===- LdMatrix.cpp - NVIDIA shared -> register loads (ldmatrix) -*- C++
//-*-===//
//
// `ldmatrix` gives lane l the elements (l / 4, 2 * (l % 4) + {0, 1}) of an
// 8x8 matrix of 16-bit elements whose rows lanes 8m..8m+7 address. A fragment
// layout matches when register bit 0 and the lane bits are that pattern and
// its other register and warp bits move by whole 8x8 blocks; such fragments
// load up to four matrices per instruction.
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"

#include "tile/Target/IndexBuilder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

/// Whether `layout` (of a tile of `type`) is the ldmatrix pattern.
static bool isLdMatrixLayout(const LinearLayout &layout, MemRefType type,
                             Type sharedElement) {
  if (layout.getOutRank() != 2 || type.getElementTypeBitWidth() != 16 ||
      type.getElementType() != sharedElement ||
      !llvm::all_of(type.getShape(),
                    [](int64_t s) { return llvm::isPowerOf2_64(s); }) ||
      layout.getInDimBits(LinearLayout::kLane) != 5)
    return false;
  int64_t cols = layout.getOutShape()[1];
  auto flat = [&](int64_t row, int64_t col) {
    return static_cast<uint64_t>(row * cols + col);
  };
  ArrayRef<uint64_t> regs = layout.getBases(LinearLayout::kRegister);
  SmallVector<uint64_t> lanePattern{flat(0, 2), flat(0, 4), flat(1, 0),
                                    flat(2, 0), flat(4, 0)};
  if (regs.empty() || regs[0] != flat(0, 1) ||
      ArrayRef<uint64_t>(lanePattern) != layout.getBases(LinearLayout::kLane))
    return false;
  auto blockAligned = [&](uint64_t basis) {
    SmallVector<int64_t> c = layout.unpackCoord(basis);
    return c[0] % 8 == 0 && c[1] % 8 == 0;
  };
  return llvm::all_of(regs.drop_front(), blockAligned) &&
         llvm::all_of(layout.getBases(LinearLayout::kWarp), blockAligned);
}

LogicalResult NVIDIATargetInfo::emitSharedToRegisters(
    OpBuilder &b, Location loc, const SharedOperand &src,
    const RegisterOperand &dst, Value tid) const {
  const LinearLayout &layout = dst.layout;
  if (!isLdMatrixLayout(layout, dst.type, src.elementType))
    return failure();
  IndexBuilder ib{b, loc};
  // Warp part of the coordinates (lanes are inside the 8x8 matrices).
  int64_t laneBits = llvm::Log2_64(getWarpSize());
  Value lane = ib.andConst(tid, getWarpSize() - 1);
  SmallVector<Value> warpCoords(2, ib.idx(0));
  for (auto [bit, basis] :
       llvm::enumerate(layout.getBases(LinearLayout::kWarp))) {
    SmallVector<int64_t> c = layout.unpackCoord(basis);
    Value set = ib.andConst(ib.shrConst(tid, laneBits + bit), 1);
    for (unsigned d = 0; d < 2; ++d)
      if (c[d])
        warpCoords[d] = ib.xorV(warpCoords[d], ib.mul(set, ib.idx(c[d])));
  }
  int64_t numMatrices = layout.getRegistersPerThread() / 2;
  int64_t perLoad = std::min<int64_t>(4, numMatrices);
  Value laneRow = ib.andConst(lane, 7);
  Value laneMatrix = ib.shrConst(lane, 3);
  Type elt = dst.type.getElementType();
  for (int64_t first = 0; first < numMatrices; first += perLoad) {
    // Lane l addresses row l % 8 of matrix first + l / 8 (lanes past the
    // last matrix of an x1/x2 load repeat valid addresses).
    Value rowOrigin = ib.idx(0), colOrigin = ib.idx(0);
    for (int64_t m = 0; m < perLoad; ++m) {
      SmallVector<int64_t> origin = layout.unpackCoord(
          layout.applyFlat({{LinearLayout::kRegister, 2 * (first + m)}}));
      Value isM = ib.eq(laneMatrix, ib.idx(m % perLoad));
      rowOrigin =
          arith::SelectOp::create(b, loc, isM, ib.idx(origin[0]), rowOrigin);
      colOrigin =
          arith::SelectOp::create(b, loc, isM, ib.idx(origin[1]), colOrigin);
    }
    Value row = ib.add(ib.xorV(rowOrigin, warpCoords[0]), laneRow);
    Value col = ib.xorV(colOrigin, warpCoords[1]);
    Value index = src.index(b, loc, {row, col});
    auto type = VectorType::get({perLoad, 2}, elt);
    Value loaded = nvgpu::LdMatrixOp::create(
        b, loc, type, src.view, ValueRange{index},
        /*transpose=*/false, static_cast<int32_t>(perLoad));
    for (int64_t m = 0; m < perLoad; ++m)
      for (int64_t e = 0; e < 2; ++e) {
        Value v =
            vector::ExtractOp::create(b, loc, loaded, ArrayRef<int64_t>{m, e});
        memref::StoreOp::create(b, loc, v, dst.regs,
                                ib.idx(2 * (first + m) + e));
      }
  }
  return success();
}
