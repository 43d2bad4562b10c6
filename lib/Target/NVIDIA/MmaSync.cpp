//===- MmaSync.cpp - NVIDIA warp-level MMA (mma.sync) -----------*- C++ -*-===//
//
// Selection, operand layouts and emission of `mma.sync` m16n8k16 gemms
// (f16 and bf16 inputs, f32 or f16 accumulators) and m16n8k32 ones (8-bit
// floats, e4m3 and e5m2 mixed, f32 accumulators, sm_89 and later). Each
// warp owns a (M / warpsM) x (N / warpsN) block of the accumulator; shared
// operands are read with x4 `ldmatrix` loads (8 rows of 16 bytes per
// matrix, whatever the element size: 8-bit operands are K-major), register
// operands must already hold the instruction's operand layout. bf16 goes
// through `nvvm.mma.sync`, since `nvgpu.mma.sync` cannot lower it in MLIR
// 22, and 8-bit floats through inline assembly (no NVVM op takes them).
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"
#include "WgmmaInstructions.h"

#include "tile/Target/IndexBuilder.h"
#include "tile/Target/NVIDIA/Layouts.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

static int64_t getInputBits(GemmOp op) {
  return cast<MemRefType>(op.getA().getType()).getElementTypeBitWidth();
}

/// K of one mma.sync: 32 bytes of inputs (m16n8k16 for 16-bit types), of
/// the logical K (twice the stored values) for mma.sp on a 2:4-sparse A.
static int64_t getMmaSyncK(GemmOp op) {
  return 256 / getInputBits(op) * (op.isSparse() ? 2 : 1);
}

/// Checks the element types the mma.sync emitter supports.
static LogicalResult checkMmaSyncTypes(GemmOp op, StringRef chip) {
  Type in = cast<MemRefType>(op.getA().getType()).getElementType();
  Type acc = cast<MemRefType>(op.getC().getType()).getElementType();
  // 8-bit floats: the chip and the operands' layout are checked for every
  // NVIDIA FP8 gemm (checkFloat8Gemm) before selection.
  if (isFloat8(in)) {
    if (!acc.isF32())
      return op.emitOpError("mma.sync on ")
             << chip << " accumulates 8-bit floats in f32, got " << acc;
    return success();
  }
  if (!in.isF16() && !in.isBF16())
    return op.emitOpError("mma.sync on ")
           << chip << " supports f16 and bf16 inputs, got " << in;
  if (!acc.isF32() && !acc.isF16())
    return op.emitOpError("mma.sync on ")
           << chip << " supports f32 and f16 accumulators, got " << acc;
  if (in.isBF16() && !acc.isF32())
    return op.emitOpError("mma.sync on ")
           << chip << " accumulates bf16 inputs in f32, got " << acc;
  return success();
}

/// Checks that the gemm's M, N and K tile the m16n8k16 instruction with
/// `warpsM` x `warpsN` warps (0 when the partition is not fixed yet).
static LogicalResult checkMmaSyncShape(GemmOp op, int64_t warpsM,
                                       int64_t warpsN) {
  int64_t kAtom = getMmaSyncK(op);
  for (auto [what, size, unit] :
       {std::tuple<StringRef, int64_t, int64_t>{"M", op.getM(), 16},
        {"N", op.getN(), 8},
        {"K", op.getK(), kAtom}})
    if (size % unit != 0 || !llvm::isPowerOf2_64(size))
      return op.emitOpError("mma.sync needs ")
             << what << " to be a power of two and a multiple of " << unit
             << ", got " << size;
  if (warpsM && (op.getM() % (16 * warpsM) || op.getN() % (8 * warpsN)))
    return op.emitOpError("a ")
           << op.getM() << "x" << op.getN() << " accumulator cannot be split "
           << "over " << warpsM << "x" << warpsN
           << " warps with mma.sync m16n8 tiles";
  return success();
}

/// The warp partition of `op` over `numWarps` warps following its policy.
static FailureOr<std::pair<int64_t, int64_t>>
partitionMmaSyncWarps(GemmOp op, int64_t numWarps) {
  int64_t m = op.getM(), n = op.getN();
  if (auto split = mlir::tile::partitionWarps(op.getPolicy(), m, n, numWarps,
                                              /*unitM=*/16, /*unitN=*/8))
    return *split;
  switch (op.getPolicy()) {
  case WarpPolicy::FullRow:
    return op.emitOpError("policy full_row needs M to be a multiple of "
                          "16 x ")
           << numWarps << " warps, got M = " << m;
  case WarpPolicy::FullCol:
    return op.emitOpError("policy full_col needs N to be a multiple of "
                          "8 x ")
           << numWarps << " warps, got N = " << n;
  case WarpPolicy::Square:
    break;
  }
  return op.emitOpError("cannot partition a ")
         << m << "x" << n << " accumulator over " << numWarps
         << " warps with mma.sync m16n8 tiles";
}

FailureOr<MmaAttr> nvidia::selectMmaSync(GemmOp op, int64_t numThreads,
                                         StringRef chipName, int64_t warpSize) {
  if (failed(checkMmaSyncTypes(op, chipName)) ||
      failed(checkMmaSyncShape(op, 0, 0)))
    return failure();
  if (numThreads % warpSize != 0 || !llvm::isPowerOf2_64(numThreads / warpSize))
    return op.emitOpError("mma.sync needs a power-of-two number of warps, "
                          "got ")
           << numThreads << " threads";
  FailureOr<std::pair<int64_t, int64_t>> warps =
      partitionMmaSyncWarps(op, numThreads / warpSize);
  if (failed(warps))
    return failure();
  return MmaAttr::get(op.getContext(), MmaKind::MmaSync,
                      {16, 8, getMmaSyncK(op)}, {warps->first, warps->second});
}

LogicalResult nvidia::verifyMmaSync(GemmOp op, MmaAttr mma, int64_t numThreads,
                                    StringRef chipName, int64_t warpSize) {
  if (failed(checkMmaSyncTypes(op, chipName)))
    return failure();
  int64_t kAtom = getMmaSyncK(op);
  if (mma.getInstrM() != 16 || mma.getInstrN() != 8 || mma.getInstrK() != kAtom)
    return op.emitOpError(op.isSparse() ? "mma.sp on " : "mma.sync on ")
           << chipName << " has the shape m16n8k" << kAtom << " for "
           << cast<MemRefType>(op.getA().getType()).getElementType()
           << " inputs, got m" << mma.getInstrM() << "n" << mma.getInstrN()
           << "k" << mma.getInstrK();
  if (mma.getWarpsM() * mma.getWarpsN() * warpSize != numThreads)
    return op.emitOpError("the mma choice partitions the gemm over ")
           << mma.getWarpsM() << "x" << mma.getWarpsN()
           << " warps, but it is executed by " << numThreads / warpSize
           << " warps";
  return checkMmaSyncShape(op, mma.getWarpsM(), mma.getWarpsN());
}

MmaLayouts nvidia::getMmaSyncLayouts(GemmOp op, MmaAttr mma) {
  int64_t wm = mma.getWarpsM(), wn = mma.getWarpsN();
  int64_t bits = getInputBits(op);
  return {nvidia::mmaSyncOperandA(op.getM(), op.getK(), bits, wm, wn),
          nvidia::mmaSyncOperandB(op.getK(), op.getN(), bits, wm, wn),
          nvidia::mmaSyncAccumulator(op.getM(), op.getN(), wm, wn)};
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

namespace {
struct MmaSyncEmitter {
  OpBuilder &b;
  Location loc;
  IndexBuilder ib;
  const GemmEmission &g;

  /// Loads the per-(tile, k step) atoms of a register operand; operand
  /// layouts hold an atom's registers contiguously, k steps next, then the
  /// m (A) or n (B) tiles.
  LogicalResult
  loadRegisterOperand(const RegisterOperand &tile, const LinearLayout &expected,
                      StringRef name, VectorType atomType,
                      SmallVectorImpl<SmallVector<Value>> &frags) {
    GemmOp op = g.op;
    if (tile.layout != expected)
      return op.emitOpError("the ")
             << name << " fragment's layout is not the mma.sync " << name
             << " operand layout of this gemm";
    int64_t atomRegs = atomType.getNumElements();
    int64_t kSteps = frags.front().size();
    int64_t kBits = llvm::Log2_64(kSteps);
    int64_t atomBits = llvm::Log2_64(atomRegs);
    for (auto [tileIndex, row] : llvm::enumerate(frags))
      for (int64_t ks = 0; ks < kSteps; ++ks)
        row[ks] = loadRegisterRun(
            b, loc, tile,
            (ks << atomBits) | (int64_t(tileIndex) << (atomBits + kBits)),
            atomType);
    return success();
  }

  /// Appends the first `rows` rows of the fragment `vec` (32 bits each) to
  /// `out` as i32 registers.
  void packWords(Value vec, int64_t rows, SmallVectorImpl<Value> &out) {
    auto wordType = VectorType::get({1}, b.getI32Type());
    for (int64_t r = 0; r < rows; ++r) {
      Value row = vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{r});
      Value word = vector::BitCastOp::create(b, loc, wordType, row);
      out.push_back(
          vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0}));
    }
  }

  /// Appends the 4 f32 of an m16n8 accumulator fragment `c` (vector<2x2>)
  /// to `out`, in the instructions' register order.
  void unpackAccumulator(Value c, SmallVectorImpl<Value> &out) {
    for (int64_t i = 0; i < 4; ++i)
      out.push_back(vector::ExtractOp::create(b, loc, c,
                                              ArrayRef<int64_t>{i / 2, i % 2}));
  }

  Value mmaBF16(Value a, Value bv, Value c) {
    MLIRContext *ctx = b.getContext();
    Type f32 = b.getF32Type();
    SmallVector<Value> aRegs, bRegs, cRegs;
    packWords(a, 4, aRegs);
    packWords(bv, 2, bRegs);
    unpackAccumulator(c, cRegs);
    auto resultType =
        LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
    auto mma = NVVM::MmaOp::create(
        b, loc, resultType, aRegs, bRegs, cRegs, ArrayRef<int64_t>{16, 8, 16},
        std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> out;
    for (int64_t i = 0; i < 4; ++i)
      out.push_back(
          LLVM::ExtractValueOp::create(b, loc, mma, ArrayRef<int64_t>{i}));
    return vector::FromElementsOp::create(b, loc, VectorType::get({2, 2}, f32),
                                          out);
  }

  /// What ldmatrix reads a shared operand of `element`s from, and the
  /// element type it loads: the view itself, or for 8-bit floats the same
  /// `memref.view` of the kernel's shared bytes as i8 (NVGPU's lowering has
  /// no 8-bit float vectors).
  FailureOr<std::pair<Value, Type>> ldmatrixSource(Value view, Type element) {
    if (!isFloat8(element))
      return std::make_pair(view, element);
    auto source = view.getDefiningOp<memref::ViewOp>();
    if (!source) {
      GemmOp op = g.op;
      return op.emitOpError("expects its shared operands to be views of "
                            "the kernel's shared memory");
    }
    auto type = cast<MemRefType>(view.getType());
    auto bytes = MemRefType::get(type.getShape(), b.getI8Type(),
                                 type.getLayout(), type.getMemorySpace());
    Value bytesView =
        memref::ViewOp::create(b, loc, bytes, source.getSource(),
                               source.getByteShift(), source.getSizes());
    return std::make_pair(bytesView, Type(b.getI8Type()));
  }

  /// One m16n8k32 on 8-bit floats of types `typeA` and `typeB` (A vector<4x4>,
  /// B vector<2x4> of 8-bit elements, C vector<2x2xf32>), as inline assembly.
  Value mmaFloat8(Value a, Value bv, Value c, Type typeA, Type typeB) {
    SmallVector<Value> operands;
    unpackAccumulator(c, operands);
    packWords(a, 4, operands);
    packWords(bv, 2, operands);
    auto ptxType = [](Type t) {
      return isa<Float8E4M3FNType>(t) ? "e4m3" : "e5m2";
    };
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "mma.sync.aligned.m16n8k32.row.col.f32." << ptxType(typeA) << "."
       << ptxType(typeB) << ".f32 {$0, $1, $2, $3}, {$8, $9, $10, $11}, "
       << "{$12, $13}, {$4, $5, $6, $7};";
    return mmaAsm(text, operands);
  }

  /// One mma.sp m16n8k32 on a 2:4-sparse A of f16 or bf16 `element`s (A
  /// vector<4x2>: 16 x 16 kept values; B the two k16 halves, vector<2x2>
  /// each; C vector<2x2xf32>; `meta` the lane's i32 metadata), as inline
  /// assembly, sparsity selector 0. (Not the ordered-metadata form: the
  /// metadata copies zero-fill past the tensor, and the groups there, whose
  /// B rows are zero too, are described by (0, 0).)
  Value mmaSparse(Value a, Value b0, Value b1, Value meta, Value c,
                  Type element) {
    SmallVector<Value> operands;
    unpackAccumulator(c, operands);
    packWords(a, 4, operands);
    packWords(b0, 2, operands);
    packWords(b1, 2, operands);
    operands.push_back(meta);
    std::string text;
    llvm::raw_string_ostream os(text);
    StringRef type = element.isBF16() ? "bf16" : "f16";
    os << "mma.sp.sync.aligned.m16n8k32.row.col.f32." << type << "." << type
       << ".f32 {$0, $1, $2, $3}, "
       << "{$8, $9, $10, $11}, {$12, $13, $14, $15}, {$4, $5, $6, $7}, "
       << "$16, 0x0;";
    return mmaAsm(text, operands);
  }

  /// An m16n8 MMA as inline assembly `text`: $0-$3 the f32 results, tied to
  /// the accumulator's $4-$7 (the first four `operands`), then the other
  /// operands, 32-bit registers; the result as vector<2x2xf32>.
  Value mmaAsm(StringRef text, ArrayRef<Value> operands) {
    MLIRContext *ctx = b.getContext();
    Type f32 = b.getF32Type();
    std::string constraints = "=f,=f,=f,=f,0,1,2,3";
    for (size_t i = 4; i < operands.size(); ++i)
      constraints += ",r";
    auto resultType =
        LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
    Value mma = LLVM::InlineAsmOp::create(
                    b, loc, resultType, operands, text, constraints,
                    /*has_side_effects=*/false, /*is_align_stack=*/false,
                    LLVM::tailcallkind::TailCallKind::None,
                    LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
                    ArrayAttr())
                    .getResult(0);
    SmallVector<Value> out;
    for (int64_t i = 0; i < 4; ++i)
      out.push_back(
          LLVM::ExtractValueOp::create(b, loc, mma, ArrayRef<int64_t>{i}));
    return vector::FromElementsOp::create(b, loc, VectorType::get({2, 2}, f32),
                                          out);
  }

  LogicalResult emit(int64_t warpSize);
};
} // namespace

LogicalResult MmaSyncEmitter::emit(int64_t warpSize) {
  GemmOp op = g.op;
  const RegisterOperand &c = *g.c;
  MmaLayouts layouts = getMmaSyncLayouts(op, g.mma);
  if (c.layout != layouts.c)
    return op.emitOpError("the accumulator's layout is not the mma.sync "
                          "accumulator layout of this gemm");
  Type inElt = cast<MemRefType>(op.getA().getType()).getElementType();
  Type inEltB = cast<MemRefType>(op.getB().getType()).getElementType();
  Type accElt = c.type.getElementType();
  int64_t warpsM = g.mma.getWarpsM(), warpsN = g.mma.getWarpsN();
  int64_t tm = op.getM() / warpsM, tn = op.getN() / warpsN;
  // An instruction's K is 32 bytes of inputs: two 16-byte halves, which an
  // ldmatrix matrix's rows span. mma.sp's is twice that of the values A
  // holds: its A atom is a dense one (16 x 16 values) and its B atom two
  // (loadK: the K of one A or B load).
  bool sparse = op.isSparse();
  int64_t kAtom = g.mma.getInstrK(), loadK = sparse ? kAtom / 2 : kAtom;
  int64_t kHalf = loadK / 2;
  int64_t epr = 32 / getInputBits(op);
  int64_t mTiles = tm / 16, nTiles = tn / 8, kSteps = op.getK() / kAtom;
  int64_t bSteps = op.getK() / loadK;

  Value lane = ib.andConst(g.tid, warpSize - 1);
  Value warp = ib.shrConst(g.tid, llvm::Log2_64(warpSize));
  Value warpN = ib.remConst(warp, warpsN);
  Value warpM = ib.divConst(warp, warpsN);
  Value mBase = ib.mul(warpM, ib.idx(tm));
  Value nBase = ib.mul(warpN, ib.idx(tn));
  Value laneRow = ib.andConst(lane, 7);    // row within an 8x8 matrix
  Value laneMat = ib.shrConst(lane, 3);    // which of the 4 matrices
  Value matLow = ib.andConst(laneMat, 1);  // matrix index bit 0
  Value matHigh = ib.shrConst(laneMat, 1); // matrix index bit 1
  Value eight = ib.idx(8);

  // Shared coordinates lane l addresses in an x4 ldmatrix of the 16 x 16
  // block at (rowBase, colBase) (16 x kAtom for K-major 8-bit operands):
  // row l % 8 of matrix l / 8, whose bit 0 (matLow) moves it 8 rows down
  // and bit 1 (matHigh) 16 bytes right, or the other way round when
  // !rowsAlongLow (transposed operands: rows are K, 8 apart).
  auto x4Coords = [&](Value rowBase, Value colBase,
                      bool rowsAlongLow) -> SmallVector<Value> {
    Value down = ib.mul(rowsAlongLow ? matLow : matHigh, eight);
    Value row = ib.add(ib.add(rowBase, laneRow), down);
    Value col = ib.add(colBase, rowsAlongLow ? ib.mul(matHigh, ib.idx(kHalf))
                                             : ib.mul(matLow, ib.idx(kHalf)));
    return {row, col};
  };
  auto aVecType = VectorType::get({4, epr}, inElt);
  auto bVecType = VectorType::get({2, epr}, inEltB);
  auto cVecType = VectorType::get({2, 2}, accElt);

  // Operand A fragments, per (m tile, k step): vector<4x2>.
  SmallVector<SmallVector<Value>> aFrags(mTiles, SmallVector<Value>(kSteps));
  if (!g.a.isShared()) {
    if (failed(
            loadRegisterOperand(*g.a.regs, layouts.a, "A", aVecType, aFrags)))
      return failure();
  } else {
    FailureOr<SharedOperand> a = g.a.resolveShared();
    if (failed(a))
      return failure();
    FailureOr<std::pair<Value, Type>> aSource = ldmatrixSource(a->view, inElt);
    if (failed(aSource))
      return failure();
    auto [aView, aLoadElt] = *aSource;
    auto aLoadType = VectorType::get({4, epr}, aLoadElt);
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t ks = 0; ks < kSteps; ++ks) {
        // Matrix j of the x4 load: rows +8 for j odd, columns +8 for j >= 2.
        Value mm = ib.add(mBase, ib.idx(mi * 16));
        Value kk = ib.idx(ks * loadK);
        Value index = a->index(b, loc,
                               op.getTransposeA()
                                   ? x4Coords(kk, mm, /*rowsAlongLow=*/false)
                                   : x4Coords(mm, kk, /*rowsAlongLow=*/true));
        aFrags[mi][ks] = nvgpu::LdMatrixOp::create(
            b, loc, aLoadType, aView, ValueRange{index}, op.getTransposeA(),
            /*numTiles=*/4);
      }
  }

  // Operand B fragments, per (n tile, k step of one load): vector<2x2>.
  SmallVector<SmallVector<Value>> bFrags(nTiles, SmallVector<Value>(bSteps));
  if (!g.b.isShared()) {
    if (failed(
            loadRegisterOperand(*g.b.regs, layouts.b, "B", bVecType, bFrags)))
      return failure();
  } else {
    FailureOr<SharedOperand> bs = g.b.resolveShared();
    if (failed(bs))
      return failure();
    FailureOr<std::pair<Value, Type>> bSource =
        ldmatrixSource(bs->view, inEltB);
    if (failed(bSource))
      return failure();
    auto [bView, bLoadElt] = *bSource;
    // x4 loads cover two n tiles (or one, x2, when nTiles is odd).
    for (int64_t ni = 0; ni < nTiles; ni += 2) {
      int64_t tiles = ni + 1 < nTiles ? 4 : 2;
      for (int64_t ks = 0; ks < bSteps; ++ks) {
        // Matrix j: k half = j & 1, n tile = j >> 1.
        Value nn = ib.add(nBase, ib.idx(ni * 8));
        Value kk = ib.idx(ks * loadK);
        Value index = bs->index(b, loc,
                                op.getTransposeB()
                                    ? x4Coords(nn, kk, /*rowsAlongLow=*/false)
                                    : x4Coords(kk, nn, /*rowsAlongLow=*/true));
        auto type = VectorType::get({tiles, epr}, bLoadElt);
        Value loaded = nvgpu::LdMatrixOp::create(
            b, loc, type, bView, ValueRange{index}, !op.getTransposeB(), tiles);
        auto at = [&](Value v, int64_t i) {
          return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{i});
        };
        for (int64_t t = 0; t < tiles / 2; ++t) {
          SmallVector<Value> elements;
          for (int64_t r = 2 * t; r < 2 * t + 2; ++r) {
            Value row = at(loaded, r);
            for (int64_t e = 0; e < epr; ++e)
              elements.push_back(at(row, e));
          }
          bFrags[ni + t][ks] = vector::FromElementsOp::create(
              b, loc, VectorType::get({2, epr}, bLoadElt), elements);
        }
      }
    }
  }

  // mma.sp's metadata, per (m tile, k step): lanes 4g and 4g + 1 (sparsity
  // selector 0) hold rows g and g + 8 of the m tile, 16 of K each (lane
  // 4g + i the i-th half of the step), in the low and high 16 bits; the
  // other two lanes of a quad load the same words, which mma.sp ignores.
  SmallVector<SmallVector<Value>> metas(mTiles, SmallVector<Value>(kSteps));
  if (sparse) {
    FailureOr<SharedOperand> meta = resolveSparseMetadata(g);
    if (failed(meta))
      return failure();
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t ks = 0; ks < kSteps; ++ks)
        metas[mi][ks] = loadSparseMetadata(
            b, loc, *meta, ib.add(mBase, ib.idx(mi * 16)), lane, ks);
  }

  // Accumulate: registers of atom (mi, ni) are base + {0..3}. The k steps
  // are the outer loop so that consecutive mma.sync ops are independent
  // (each accumulator's chain is spread over a whole k step).
  int64_t nBits = llvm::Log2_64(nTiles);
  auto baseOf = [&](int64_t mi, int64_t ni) {
    return (ni << 2) | (mi << (2 + nBits));
  };
  SmallVector<SmallVector<Value>> accs(mTiles, SmallVector<Value>(nTiles));
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      accs[mi][ni] = op.getClearAccum()
                         ? arith::ConstantOp::create(b, loc, cVecType,
                                                     b.getZeroAttr(cVecType))
                               .getResult()
                         : loadRegisterRun(b, loc, c, baseOf(mi, ni), cVecType);
  // A product handed over in parts (consumer_chunk): each part's n tiles
  // are computed, stored and consumed before the next part's.
  int64_t parts = 1;
  if (g.consumeChunk) {
    parts = op.getN() / *op.getConsumerChunk();
    if (nTiles % parts != 0)
      return op.emitOpError("cannot hand its product over in ")
             << parts << " parts: a warp computes " << nTiles
             << " n tiles of 8 columns";
  }
  int64_t perPart = nTiles / parts;
  for (int64_t part = 0; part < parts; ++part) {
    for (int64_t ks = 0; ks < kSteps; ++ks)
      for (int64_t mi = 0; mi < mTiles; ++mi)
        for (int64_t ni = part * perPart; ni < (part + 1) * perPart; ++ni) {
          Value &acc = accs[mi][ni];
          if (sparse) {
            acc = mmaSparse(aFrags[mi][ks], bFrags[ni][2 * ks],
                            bFrags[ni][2 * ks + 1], metas[mi][ks], acc, inElt);
            continue;
          }
          if (isFloat8(inElt)) {
            acc = mmaFloat8(aFrags[mi][ks], bFrags[ni][ks], acc, inElt, inEltB);
            continue;
          }
          acc = inElt.isBF16()
                    ? mmaBF16(aFrags[mi][ks], bFrags[ni][ks], acc)
                    : nvgpu::MmaSyncOp::create(b, loc, aFrags[mi][ks],
                                               bFrags[ni][ks], acc,
                                               ArrayRef<int64_t>{16, 8, 16})
                          .getResult();
        }
    llvm::BitVector registers(c.layout.getRegistersPerThread());
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t ni = part * perPart; ni < (part + 1) * perPart; ++ni)
        for (int64_t i = 0; i < 4; ++i) {
          Value e = vector::ExtractOp::create(b, loc, accs[mi][ni],
                                              ArrayRef<int64_t>{i / 2, i % 2});
          memref::StoreOp::create(b, loc, e, c.regs,
                                  ib.idx(baseOf(mi, ni) + i));
          registers.set(baseOf(mi, ni) + i);
        }
    if (g.consumeChunk && failed(g.consumeChunk(b, loc, registers)))
      return failure();
  }
  return success();
}

LogicalResult nvidia::emitMmaSync(OpBuilder &b, Location loc,
                                  const GemmEmission &g, int64_t warpSize) {
  MmaSyncEmitter emitter{b, loc, IndexBuilder{b, loc}, g};
  return emitter.emit(warpSize);
}
