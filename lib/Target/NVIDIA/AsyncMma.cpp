//===- AsyncMma.cpp - wgmma as an asynchronous MMA --------------*- C++ -*-===//
//
// What passes ask of wgmma as an asynchronous MMA (AsyncMmaInfo): its wait,
// the registers one instruction holds while it runs (tile-check-resources),
// the K span after which partial sums are promoted (tile-select-mma's
// `promote_k`) and the narrower instruction a promoting gemm uses. Wgmma.cpp
// selects and emits the instruction.
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

void NVIDIATargetInfo::emitMmaWait(OpBuilder &b, Location loc,
                                   int64_t pending) const {
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pending);
}

/// Registers per thread a wgmma needs besides its accumulator and register
/// operand (descriptors, addresses): the least ptxas (CUDA 13.0) compiles
/// m64n32, m64n64 and m64n128 with is 42, 58 and 90 ("Insufficient
/// registers ... Try to compile with register target of 90"), 16, 32 and
/// 64 of them the f32 accumulator.
static constexpr int64_t kWgmmaOverheadRegisters = 26;

int64_t NVIDIATargetInfo::getInstructionRegisters(GemmOp gemm,
                                                  MmaAttr mma) const {
  // An m64nNkK instruction is spread over the 128 threads of a warpgroup.
  auto bits = [](Value v) {
    return cast<MemRefType>(v.getType()).getElementTypeBitWidth();
  };
  int64_t m = mma.getInstrM(), n = mma.getInstrN(), k = mma.getInstrK();
  int64_t threads = getWarpgroupSize(), bitsPerRegister = 32;
  int64_t registers =
      llvm::divideCeil(m * n * bits(gemm.getC()), threads * bitsPerRegister) +
      kWgmmaOverheadRegisters;
  if (getMemoryKind(cast<MemRefType>(gemm.getA().getType())) ==
      MemoryKind::Fragment)
    registers +=
        llvm::divideCeil(m * k * bits(gemm.getA()), threads * bitsPerRegister);
  // Promotion: the partial sums of one instruction, held until they are
  // added (slabs are promoted one at a time).
  if (gemm.getPromotionSpan())
    registers +=
        llvm::divideCeil(m * n * bits(gemm.getC()), threads * bitsPerRegister);
  return registers;
}

/// Hopper's tensor cores sum 8-bit float products with fewer bits than f32
/// (about 14 of mantissa, DeepSeek-V3's report); DeepGEMM promotes every 4
/// k32 instructions.
static constexpr int64_t kFloat8PromotionSpan = 128;

int64_t NVIDIATargetInfo::getPromotionSpan(GemmOp gemm, MmaAttr mma) const {
  Type in = cast<MemRefType>(gemm.getA().getType()).getElementType();
  return mma.getKind() == MmaKind::Wgmma && isFloat8(in) ? kFloat8PromotionSpan
                                                         : 0;
}

/// The registers a thread may give a promoting gemm's accumulator slab and
/// partial sums, leaving the rest of a consumer warpgroup's 232 for the
/// addressing: a 64 x 128 slab with two sets of partial sums (promotion one
/// K block late, design.md 5.6) takes 192, a 64 x 144 one 216.
static constexpr int64_t kPromotionRegisters = 216;
/// The widest instruction a narrowed promoting gemm takes: its partial sums
/// (64 registers a thread) beside a 64 x 256 slab (128) fit the same budget
/// promoted in place (m64n256's sums alone would need 128).
static constexpr int64_t kPromotionInstrN = 128;

MmaAttr NVIDIATargetInfo::narrowForPromotion(GemmOp gemm, MmaAttr mma) const {
  if (mma.getKind() != MmaKind::Wgmma)
    return {};
  // Registers a thread per 8 columns of one 64-row slab: 4 (m64nNk's
  // accumulator holds N / 2 a thread).
  int64_t n = mma.getInstrN(), slab = n / 2;
  // One instruction across the tile keeps two sets of partial sums beside
  // the slab.
  if (3 * slab <= kPromotionRegisters)
    return {};
  // Else the widest multiple of 8 up to kPromotionInstrN dividing N.
  int64_t narrow = kPromotionInstrN;
  while (narrow > 8 && n % narrow != 0)
    narrow -= 8;
  return MmaAttr::get(gemm.getContext(), MmaKind::Wgmma,
                      {mma.getInstrM(), narrow, mma.getInstrK()},
                      {mma.getWarpsM(), mma.getWarpsN()});
}
