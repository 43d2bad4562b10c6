//===- LdMatrix.cpp - NVIDIA shared <-> register (ldmatrix, stmatrix) -===//
//
// `ldmatrix` gives lane l the elements (l / 4, 2 * (l % 4) + {0, 1}) of an
// 8x8 matrix of 16-bit elements whose rows lanes 8m..8m+7 address, and
// `stmatrix` (sm_90) stores them back from the same lanes. A fragment
// layout matches when register bit 0 and the lane bits are that pattern and
// its other register and warp bits move by whole 8x8 blocks; such fragments
// load or store up to four matrices per instruction.
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"

#include "tile/Target/IndexBuilder.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

/// Whether register bit 0 and the lane bits of the 2-D `layout` are the 8x8
/// matrix pattern, its other register and warp bits whole 8x8 blocks.
static bool isMatrixPattern(const LinearLayout &layout) {
  if (layout.getOutRank() != 2 || layout.getInDimBits(LinearLayout::kLane) != 5)
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

/// Whether `layout` (of a tile of `type`) is the ldmatrix pattern.
static bool isLdMatrixLayout(const LinearLayout &layout, MemRefType type,
                             Type sharedElement) {
  return type.getElementTypeBitWidth() == 16 &&
         type.getElementType() == sharedElement &&
         llvm::all_of(type.getShape(),
                      [](int64_t s) { return llvm::isPowerOf2_64(s); }) &&
         isMatrixPattern(layout);
}

namespace {
/// The coordinates lane `tid % 32` addresses in matrix stores and loads: its
/// warp's part of every element's coordinates, and which row of which of an
/// instruction's matrices it gives the address of.
struct MatrixLanes {
  MatrixLanes(IndexBuilder &ib, const LinearLayout &layout, Value tid,
              int64_t warpSize) {
    int64_t laneBits = llvm::Log2_64(warpSize);
    Value lane = ib.andConst(tid, warpSize - 1);
    warp.assign(2, ib.idx(0));
    for (auto [bit, basis] :
         llvm::enumerate(layout.getBases(LinearLayout::kWarp))) {
      SmallVector<int64_t> c = layout.unpackCoord(basis);
      Value set = ib.andConst(ib.shrConst(tid, laneBits + bit), 1);
      for (unsigned d = 0; d < 2; ++d)
        if (c[d])
          warp[d] = ib.xorV(warp[d], ib.mul(set, ib.idx(c[d])));
    }
    row = ib.andConst(lane, 7);
    matrix = ib.shrConst(lane, 3);
  }

  /// The element whose address this lane gives for matrices `first`, ...,
  /// `first + count - 1` (matrix m: registers 2m and 2m + 1; lanes past the
  /// last matrix repeat valid addresses).
  std::pair<Value, Value> element(IndexBuilder &ib, const LinearLayout &layout,
                                  int64_t first, int64_t count) const {
    OpBuilder &b = ib.b;
    Location loc = ib.loc;
    Value rowOrigin = ib.idx(0), colOrigin = ib.idx(0);
    for (int64_t m = 0; m < count; ++m) {
      SmallVector<int64_t> origin = layout.unpackCoord(
          layout.applyFlat({{LinearLayout::kRegister, 2 * (first + m)}}));
      Value isM = ib.eq(matrix, ib.idx(m));
      rowOrigin =
          arith::SelectOp::create(b, loc, isM, ib.idx(origin[0]), rowOrigin);
      colOrigin =
          arith::SelectOp::create(b, loc, isM, ib.idx(origin[1]), colOrigin);
    }
    return {ib.add(ib.xorV(rowOrigin, warp[0]), row),
            ib.xorV(colOrigin, warp[1])};
  }

  SmallVector<Value> warp;
  Value row, matrix;
};
} // namespace

LogicalResult NVIDIATargetInfo::emitSharedToRegisters(
    OpBuilder &b, Location loc, const SharedOperand &src,
    const RegisterOperand &dst, Value tid) const {
  const LinearLayout &layout = dst.layout;
  if (!isLdMatrixLayout(layout, dst.type, src.elementType))
    return failure();
  IndexBuilder ib{b, loc};
  MatrixLanes lanes(ib, layout, tid, getWarpSize());
  int64_t numMatrices = layout.getRegistersPerThread() / 2;
  int64_t perLoad = std::min<int64_t>(4, numMatrices);
  Type elt = dst.type.getElementType();
  for (int64_t first = 0; first < numMatrices; first += perLoad) {
    auto [row, col] = lanes.element(ib, layout, first, perLoad);
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

LogicalResult NVIDIATargetInfo::emitRegistersToShared(
    OpBuilder &b, Location loc, const LinearLayout &layout,
    ArrayRef<int64_t> firsts, function_ref<Value(int64_t)> value,
    function_ref<Value(Value, Value)> pointer, Value tid) const {
  if (!chip->tma || !isMatrixPattern(layout) ||
      llvm::any_of(firsts, [](int64_t r) { return r % 8 != 0; }))
    return failure();
  IndexBuilder ib{b, loc};
  MatrixLanes lanes(ib, layout, tid, getWarpSize());
  auto shape = NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8);
  for (int64_t first : firsts) {
    auto [row, col] = lanes.element(ib, layout, first / 2, 4);
    // Matrix m's register: the 16-bit values of registers 2m and 2m + 1.
    SmallVector<Value> sources;
    for (int64_t m = 0; m < 4; ++m) {
      Value lo = value(first + 2 * m), hi = value(first + 2 * m + 1);
      auto pair = VectorType::get({2}, lo.getType());
      Value packed =
          vector::FromElementsOp::create(b, loc, pair, ValueRange{lo, hi});
      Value word = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), packed);
      sources.push_back(vector::ExtractOp::create(b, loc, word, 0));
    }
    NVVM::StMatrixOp::create(b, loc, pointer(row, col), sources,
                             NVVM::MMALayout::row, shape,
                             NVVM::LdStMatrixEltType::B16);
  }
  return success();
}
