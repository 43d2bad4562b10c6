//===- Mfma.cpp - AMD CDNA matrix cores (MFMA) ------------------*- C++ -*-===//
//
// Selection, operand layouts and emission of MFMA gemms on CDNA (gfx90a,
// gfx942): f16 and bf16 inputs accumulated in f32, with the 32x32x8 or the
// 16x16x16 instruction over 64-lane waves. Each wave owns a
// (M / wavesM) x (N / wavesN) block of the accumulator, made of
// instr x instr atoms whose registers hold the MFMA result layout
// (`amd::mfmaAccumulator`). An operand in LDS is read per atom and k step:
// each lane reads its run of 4 consecutive k elements with one 8-byte LDS
// load where k is the tile's contiguous dimension (A as M x K, B transposed
// as N x K; LdsLayouts.cpp picks their LDS layout), element by element
// otherwise; a register operand must already
// hold the MFMA operand layout (`amd::mfmaOperandA/B`). `amdgpu.mfma` picks
// the chip's instruction (`v_mfma_f32_32x32x8bf16_1k` on gfx90a,
// `v_mfma_f32_32x32x8_bf16` on gfx942, ...).
//
//===----------------------------------------------------------------------===//

#include "AMDTargetInfo.h"

#include "tile/Target/AMD/Layouts.h"
#include "tile/Target/IndexBuilder.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::amd;

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

static Type getInputType(GemmOp op) {
  return cast<MemRefType>(op.getA().getType()).getElementType();
}

/// k elements one lane holds per instruction: 64 bits of inputs.
static int64_t getKPerLane(GemmOp op) {
  return 64 / cast<MemRefType>(op.getA().getType()).getElementTypeBitWidth();
}

/// Checks the element types the MFMA emitter supports on `chip`.
static LogicalResult checkMfmaTypes(GemmOp op, const ChipDescription &chip) {
  if (op.isSparse())
    return op.emitOpError("a 2:4-sparse A (sparse) has no instruction on ")
           << chip.name
           << ": MLIR 22's ROCDL has no 2:4 sparse MFMA (CDNA3's smfmac)";
  Type in = getInputType(op);
  Type acc = cast<MemRefType>(op.getC().getType()).getElementType();
  if (isFloat8(in)) {
    if (chip.version < 0x942)
      return op.emitOpError("fp8 inputs need fp8 matrix cores, which ")
             << chip.name << " does not have (they start with gfx942)";
    Type inB = cast<MemRefType>(op.getB().getType()).getElementType();
    for (Type t : {in, inB})
      if (!isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(t))
        return op.emitOpError("fp8 MFMA on ")
               << chip.name << " reads the FNUZ flavours (f8E4M3FNUZ, "
               << "f8E5M2FNUZ), got " << t;
    if (!acc.isF32())
      return op.emitOpError("mfma on ")
             << chip.name << " accumulates in f32, got " << acc;
    return success();
  }
  if (!in.isF16() && !in.isBF16())
    return op.emitOpError("mfma on ")
           << chip.name << " supports f16 and bf16 inputs, got " << in;
  if (!acc.isF32())
    return op.emitOpError("mfma on ")
           << chip.name << " accumulates in f32, got " << acc;
  return success();
}

/// The instruction sizes tried, best first: a 32x32 atom reads each operand
/// element from LDS for twice the MACs of a 16x16 one.
static constexpr int64_t kInstrSizes[] = {32, 16};

/// Checks that the gemm tiles `instr` x `instr` atoms with `wavesM` x
/// `wavesN` waves and that M, N and K are powers of two (the layouts'
/// repeats).
static LogicalResult checkMfmaShape(GemmOp op, int64_t instr, int64_t wavesM,
                                    int64_t wavesN) {
  int64_t instrK = mfmaInstrK(instr, getKPerLane(op));
  for (auto [what, size, unit] :
       {std::tuple<StringRef, int64_t, int64_t>{"M", op.getM(), instr * wavesM},
        {"N", op.getN(), instr * wavesN},
        {"K", op.getK(), instrK}})
    if (size % unit != 0 || !llvm::isPowerOf2_64(size))
      return op.emitOpError("mfma ")
             << instr << "x" << instr << "x" << instrK << " over " << wavesM
             << "x" << wavesN << " waves needs " << what
             << " to be a power of two and a multiple of " << unit << ", got "
             << size;
  return success();
}

FailureOr<MmaAttr> AMDTargetInfo::selectMma(GemmOp op,
                                            int64_t numThreads) const {
  if (failed(checkMfmaTypes(op, *chip)))
    return failure();
  int64_t waveSize = getWarpSize();
  if (numThreads % waveSize != 0 || !llvm::isPowerOf2_64(numThreads / waveSize))
    return op.emitOpError("mfma needs a power-of-two number of ")
           << waveSize << "-lane waves, got " << numThreads << " threads";
  int64_t waves = numThreads / waveSize;
  int64_t kPerLane = getKPerLane(op);
  for (int64_t instr : kInstrSizes) {
    int64_t instrK = mfmaInstrK(instr, kPerLane);
    if (op.getK() % instrK != 0 || !llvm::isPowerOf2_64(op.getK()) ||
        !llvm::isPowerOf2_64(op.getM()) || !llvm::isPowerOf2_64(op.getN()))
      continue;
    if (auto split = partitionWarps(op.getPolicy(), op.getM(), op.getN(), waves,
                                    instr, instr))
      return MmaAttr::get(op.getContext(), MmaKind::Mfma,
                          {instr, instr, instrK},
                          {split->first, split->second});
  }
  return op.emitOpError("cannot compute a ")
         << op.getM() << "x" << op.getN() << "x" << op.getK() << " gemm over "
         << waves << " waves with the '" << stringifyWarpPolicy(op.getPolicy())
         << "' policy and mfma 32x32x" << mfmaInstrK(32, kPerLane)
         << " or 16x16x" << mfmaInstrK(16, kPerLane)
         << " atoms (M, N and K must be powers of two that the atoms tile)";
}

/// Checks an mfma choice against the chip and the gemm (not the number of
/// threads executing it).
static LogicalResult verifyMfmaChoice(GemmOp op, MmaAttr mma,
                                      const ChipDescription &chip) {
  if (mma.getKind() != MmaKind::Mfma)
    return op.emitOpError(stringifyMmaKind(mma.getKind()))
           << " is an NVIDIA instruction; the target is " << chip.name;
  if (failed(checkMfmaTypes(op, chip)))
    return failure();
  int64_t instr = mma.getInstrM();
  int64_t kPerLane = getKPerLane(op);
  if (!llvm::is_contained(kInstrSizes, instr) || mma.getInstrN() != instr ||
      mma.getInstrK() != mfmaInstrK(instr, kPerLane))
    return op.emitOpError("mfma on ")
           << chip.name << " has the shapes 32x32x" << mfmaInstrK(32, kPerLane)
           << " and 16x16x" << mfmaInstrK(16, kPerLane) << " for "
           << getInputType(op) << " inputs, got " << mma.getInstrM() << "x"
           << mma.getInstrN() << "x" << mma.getInstrK();
  return checkMfmaShape(op, instr, mma.getWarpsM(), mma.getWarpsN());
}

LogicalResult AMDTargetInfo::verifyMma(GemmOp op, MmaAttr mma,
                                       int64_t numThreads) const {
  if (failed(verifyMfmaChoice(op, mma, *chip)))
    return failure();
  if (mma.getWarpsM() * mma.getWarpsN() * getWarpSize() != numThreads)
    return op.emitOpError("the mma choice partitions the gemm over ")
           << mma.getWarpsM() << "x" << mma.getWarpsN()
           << " waves, but it is executed by " << numThreads / getWarpSize()
           << " waves of " << getWarpSize() << " lanes";
  return success();
}

MmaLayouts AMDTargetInfo::getMmaLayouts(GemmOp op, MmaAttr mma) const {
  int64_t wm = mma.getWarpsM(), wn = mma.getWarpsN();
  int64_t instr = mma.getInstrM(), kPerLane = getKPerLane(op);
  return {mfmaOperandA(op.getM(), op.getK(), instr, kPerLane, wm, wn),
          mfmaOperandB(op.getK(), op.getN(), instr, kPerLane, wm, wn),
          mfmaAccumulator(op.getM(), op.getN(), instr, wm, wn)};
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

namespace {
struct MfmaEmitter {
  OpBuilder &b;
  Location loc;
  IndexBuilder ib;
  const GemmEmission &g;
  int64_t instr, instrK, kPerLane;

  /// The fragments of operand `name` per (outer tile t, k step s): lane
  /// `lane` of the wave holds outer coordinate outerBase + t * instr +
  /// lane % instr and the kPerLane elements from s * instrK + (lane / instr)
  /// * kPerLane. `kIsRow`: the shared tile is stored k x outer (A
  /// transposed, B as K x N), so the run is strided; otherwise k is its last
  /// (contiguous) dimension.
  LogicalResult loadOperand(const GemmOperand &operand,
                            const LinearLayout &expected, StringRef name,
                            Value outerBase, Value lane, bool kIsRow,
                            SmallVectorImpl<SmallVector<Value>> &frags);

  LogicalResult emit(const AMDTargetInfo &target);
};
} // namespace

LogicalResult
MfmaEmitter::loadOperand(const GemmOperand &operand,
                         const LinearLayout &expected, StringRef name,
                         Value outerBase, Value lane, bool kIsRow,
                         SmallVectorImpl<SmallVector<Value>> &frags) {
  GemmOp op = g.op;
  Type elt = getInputType(op);
  auto fragType = VectorType::get({kPerLane}, elt);
  int64_t kSteps = frags.front().size();
  if (!operand.isShared()) {
    // Registers: an atom's run, then the k steps, then the outer tiles.
    if (operand.regs->layout != expected)
      return op.emitOpError("the ")
             << name << " fragment's layout is not the mfma " << name
             << " operand layout of this gemm";
    int64_t runBits = llvm::Log2_64(kPerLane);
    int64_t kBits = llvm::Log2_64(kSteps);
    for (auto [t, row] : llvm::enumerate(frags))
      for (int64_t ks = 0; ks < kSteps; ++ks)
        row[ks] = loadRegisterRun(
            b, loc, *operand.regs,
            (ks << runBits) | (int64_t(t) << (runBits + kBits)), fragType);
    return success();
  }
  FailureOr<SharedOperand> shared = operand.resolveShared();
  if (failed(shared))
    return failure();
  Value laneOuter = ib.andConst(lane, instr - 1);
  Value perLane = ib.idx(kPerLane);
  Value laneK = ib.mul(ib.shrConst(lane, llvm::Log2_64(instr)), perLane);
  // Swizzles permute chunks of 16 or 8 bytes (the 8-byte units the target
  // picks for these reads, LdsLayouts.cpp) and padding keeps rows whole, so
  // a run of kPerLane elements (8 bytes) along the contiguous dimension
  // stays contiguous and aligned.
  int64_t align = kPerLane * shared->elementBits / 8;
  for (auto [t, row] : llvm::enumerate(frags)) {
    Value outer = ib.add(outerBase, ib.addConst(laneOuter, t * instr));
    for (int64_t ks = 0; ks < kSteps; ++ks) {
      Value k = ib.addConst(laneK, ks * instrK);
      if (!kIsRow) {
        // k is the last (contiguous) dimension: one vector load.
        Value index = shared->index(b, loc, {outer, k});
        row[ks] = vector::LoadOp::create(
            b, loc, fragType, shared->view, ValueRange{index},
            /*nontemporal=*/false, llvm::MaybeAlign(align));
        continue;
      }
      SmallVector<Value> elems;
      for (int64_t e = 0; e < kPerLane; ++e) {
        Value index = shared->index(b, loc, {ib.addConst(k, e), outer});
        elems.push_back(memref::LoadOp::create(b, loc, shared->view, index));
      }
      row[ks] = vector::FromElementsOp::create(b, loc, fragType, elems);
    }
  }
  return success();
}

LogicalResult MfmaEmitter::emit(const AMDTargetInfo &target) {
  GemmOp op = g.op;
  const RegisterOperand &c = *g.c;
  MmaLayouts layouts = target.getMmaLayouts(op, g.mma);
  if (c.layout != layouts.c)
    return op.emitOpError("the accumulator's layout is not the mfma "
                          "accumulator layout of this gemm");
  int64_t wavesM = g.mma.getWarpsM(), wavesN = g.mma.getWarpsN();
  int64_t tm = op.getM() / wavesM, tn = op.getN() / wavesN;
  int64_t mTiles = tm / instr, nTiles = tn / instr;
  int64_t kSteps = op.getK() / instrK;
  int64_t waveSize = target.getWarpSize();

  Value lane = ib.andConst(g.tid, waveSize - 1);
  Value wave = ib.shrConst(g.tid, llvm::Log2_64(waveSize));
  // (One op a statement where several create ops: the op order must not
  // depend on the order the C++ compiler evaluates arguments in.)
  Value rowsPerWave = ib.idx(tm);
  Value mBase = ib.mul(ib.divConst(wave, wavesN), rowsPerWave);
  Value colsPerWave = ib.idx(tn);
  Value nBase = ib.mul(ib.remConst(wave, wavesN), colsPerWave);

  // A is M x K (K x M when transposed), B is K x N (N x K when transposed).
  SmallVector<SmallVector<Value>> aFrags(mTiles, SmallVector<Value>(kSteps));
  SmallVector<SmallVector<Value>> bFrags(nTiles, SmallVector<Value>(kSteps));
  if (failed(loadOperand(g.a, layouts.a, "A", mBase, lane,
                         /*kIsRow=*/op.getTransposeA(), aFrags)) ||
      failed(loadOperand(g.b, layouts.b, "B", nBase, lane,
                         /*kIsRow=*/!op.getTransposeB(), bFrags)))
    return failure();

  // Atom (mi, ni) holds accumulator registers base .. base + atomRegs - 1
  // (n tiles first, then m tiles, as in the layout).
  int64_t atomRegs = instr * instr / waveSize;
  auto accType = VectorType::get({atomRegs}, b.getF32Type());
  auto baseOf = [&](int64_t mi, int64_t ni) {
    return (mi * nTiles + ni) * atomRegs;
  };
  SmallVector<SmallVector<Value>> accs(mTiles, SmallVector<Value>(nTiles));
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      accs[mi][ni] = op.getClearAccum()
                         ? arith::ConstantOp::create(b, loc, accType,
                                                     b.getZeroAttr(accType))
                               .getResult()
                         : loadRegisterRun(b, loc, c, baseOf(mi, ni), accType);
  // k steps outermost: consecutive MFMAs write different accumulators, so
  // none waits for the previous one's result.
  for (int64_t ks = 0; ks < kSteps; ++ks)
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t ni = 0; ni < nTiles; ++ni)
        accs[mi][ni] = amdgpu::MFMAOp::create(
            b, loc, accType, static_cast<uint32_t>(instr),
            static_cast<uint32_t>(instr), static_cast<uint32_t>(instrK),
            /*blocks=*/uint32_t(1), aFrags[mi][ks], bFrags[ni][ks],
            accs[mi][ni]);
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      for (int64_t i = 0; i < atomRegs; ++i) {
        Value e = vector::ExtractOp::create(b, loc, accs[mi][ni],
                                            ArrayRef<int64_t>{i});
        memref::StoreOp::create(b, loc, e, c.regs, ib.idx(baseOf(mi, ni) + i));
      }
  return success();
}

LogicalResult AMDTargetInfo::emitGemm(OpBuilder &b, Location loc,
                                      const GemmEmission &g) const {
  GemmOp op = g.op;
  // A choice pinned on IR that skipped layout inference is checked here.
  if (failed(verifyMfmaChoice(op, g.mma, *chip)))
    return failure();
  int64_t instr = g.mma.getInstrM();
  MfmaEmitter emitter{b,
                      loc,
                      IndexBuilder{b, loc},
                      g,
                      instr,
                      g.mma.getInstrK(),
                      getKPerLane(op)};
  return emitter.emit(*this);
}
