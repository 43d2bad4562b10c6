//===- Utils.cpp - Helpers shared by tile passes ----------------*- C++ -*-===//

#include "tile/Transforms/Utils.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::getNumThreads(Operation *op, KernelOp kernel) {
  if (auto ws = op->getParentOfType<WsOp>())
    return ws.getNumThreads();
  return kernel.getThreads();
}

int64_t mlir::tile::getFirstThread(Operation *op) {
  if (auto ws = op->getParentOfType<WsOp>())
    return ws.getFirstThread();
  return 0;
}

SmallVector<int64_t> mlir::tile::getPaddedShape(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> padded;
  for (int64_t size : shape)
    padded.push_back(llvm::PowerOf2Ceil(size));
  return padded;
}

LinearLayout mlir::tile::getPartitionLayout(ArrayRef<int64_t> shape,
                                            int64_t threads,
                                            int64_t elementBits) {
  SmallVector<int64_t> padded = getPaddedShape(shape);
  int64_t elements = 1;
  for (int64_t size : padded)
    elements *= size;
  int64_t vector = 128 / std::max<int64_t>(elementBits, 8);
  vector = std::max<int64_t>(1, std::min(vector, elements / threads));
  return LinearLayout::blocked(padded, threads, vector);
}

FailureOr<WarpPartition> mlir::tile::partitionWarps(GemmOp gemm,
                                                    int64_t numWarps) {
  int64_t m = gemm.getM(), n = gemm.getN();
  auto fits = [&](int64_t wm, int64_t wn) {
    return m % (16 * wm) == 0 && n % (8 * wn) == 0;
  };
  switch (gemm.getPolicy()) {
  case WarpPolicy::FullRow:
    if (!fits(numWarps, 1))
      return gemm.emitOpError("policy full_row needs M to be a multiple of "
                              "16 x ")
             << numWarps << " warps, got M = " << m;
    return WarpPartition{numWarps, 1};
  case WarpPolicy::FullCol:
    if (!fits(1, numWarps))
      return gemm.emitOpError("policy full_col needs N to be a multiple of "
                              "8 x ")
             << numWarps << " warps, got N = " << n;
    return WarpPartition{1, numWarps};
  case WarpPolicy::Square: {
    std::optional<WarpPartition> best;
    int64_t bestScore = 0;
    for (int64_t wm = numWarps; wm >= 1; wm /= 2) {
      int64_t wn = numWarps / wm;
      if (!fits(wm, wn))
        continue;
      int64_t score = std::abs(m / wm - n / wn);
      if (!best || score < bestScore) {
        best = WarpPartition{wm, wn};
        bestScore = score;
      }
    }
    if (!best)
      return gemm.emitOpError("cannot partition a ")
             << m << "x" << n << " accumulator over " << numWarps
             << " warps with mma.sync m16n8 tiles";
    return *best;
  }
  }
  llvm_unreachable("unknown policy");
}

LogicalResult mlir::tile::verifyMmaSyncShape(GemmOp gemm) {
  int64_t bits =
      cast<MemRefType>(gemm.getA().getType()).getElementTypeBitWidth();
  int64_t kAtom = 256 / bits;
  for (auto [what, size, unit] :
       {std::tuple<StringRef, int64_t, int64_t>{"M", gemm.getM(), 16},
        {"N", gemm.getN(), 8},
        {"K", gemm.getK(), kAtom}})
    if (size % unit != 0 || !llvm::isPowerOf2_64(size))
      return gemm.emitOpError("mma.sync needs ")
             << what << " to be a power of two and a multiple of " << unit
             << ", got " << size;
  return success();
}

static int64_t getInputBits(GemmOp gemm) {
  return cast<MemRefType>(gemm.getA().getType()).getElementTypeBitWidth();
}

LinearLayout mlir::tile::getMmaAccumulatorLayout(GemmOp gemm,
                                                 WarpPartition warps) {
  return LinearLayout::mmaSyncAccumulator(gemm.getM(), gemm.getN(),
                                          warps.warpsM, warps.warpsN);
}

LinearLayout mlir::tile::getMmaOperandALayout(GemmOp gemm,
                                              WarpPartition warps) {
  return LinearLayout::mmaSyncOperandA(
      gemm.getM(), gemm.getK(), getInputBits(gemm), warps.warpsM, warps.warpsN);
}

LinearLayout mlir::tile::getMmaOperandBLayout(GemmOp gemm,
                                              WarpPartition warps) {
  return LinearLayout::mmaSyncOperandB(
      gemm.getK(), gemm.getN(), getInputBits(gemm), warps.warpsM, warps.warpsN);
}

int64_t mlir::tile::getCopyVectorWidth(CopyOp copy) {
  MemRefType source = copy.getSourceType(), target = copy.getTargetType();
  bool globalSource = getMemoryKind(source) == MemoryKind::Global;
  bool globalTarget = getMemoryKind(target) == MemoryKind::Global;
  int64_t bits = globalSource != globalTarget
                     ? (globalSource ? source : target).getElementTypeBitWidth()
                     : std::max(source.getElementTypeBitWidth(),
                                target.getElementTypeBitWidth());
  int64_t vec = std::max<int64_t>(1, 128 / bits);
  ArrayRef<int64_t> extent = copy.getExtent();
  while (vec > 1 && !extent.empty() && extent.back() % vec != 0)
    vec /= 2;
  return vec;
}
