//===- Wgmma.cpp - Hopper warpgroup MMA (wgmma) -----------------*- C++ -*-===//
//
// Legality, layouts and emission of `wgmma.mma_async` m64nNk16 (f16 and
// bf16 inputs) and m64nNk32 (8-bit floats, e4m3 and e5m2 mixed), f32
// accumulators, sm_90a. Warpgroups split the accumulator
// along M: warpgroup w owns rows [w * M / G, (w + 1) * M / G), computed as
// 64-row slabs, each with the whole N (at most 256) per instruction. A and
// B are read from swizzled shared memory through matrix descriptors:
//
//   bits  0-13  start address >> 4 (shared window)
//   bits 16-29  leading byte offset >> 4 (LBO)
//   bits 32-45  stride byte offset >> 4 (SBO)
//   bits 62-63  swizzle: 1 = 128B, 2 = 64B, 3 = 32B
//
// An operand whose contiguous dimension is K ("K-major", A untransposed, B
// transposed) has rows of `swizzle` bytes, 8-row groups SBO = 8 x swizzle
// apart; a k step moves the start address within the row (the hardware
// applies the swizzle to absolute address bits, hence the 1024-byte
// alignment of shared tiles). An operand whose contiguous dimension is M
// or N ("MN-major") stores its rows of K in `swizzle`-byte column panels
// (`#tile.shared` panels): LBO is the distance between panels, SBO the one
// between groups of 8 rows of K.
//
// 8-bit operands are read K-major only (the PTX instruction has no
// transpose for them): A untransposed, B transposed (stored N x K); the
// NVIDIA target diagnoses other layouts before selection.
//
// A may also come from registers (the RS form): a fragment with the
// layout `wgmmaOperandA`, whose 8 f16 / bf16 (16 8-bit) elements per
// thread, 64-row slab and k step are packed into 4 x b32 registers. Upstream
// NVVM has no op for it, so it is emitted as inline assembly (`emitWgmmaAsm`,
// which also emits the SS form with a run-time scale-d). The fragment is
// untransposed (the op verifier rules out a transposed register operand): PTX
// has no transpose flag for register A.
//
// The gemm completes before the emitted code goes on (`wgmma.wait_group
// 0`) unless it leaves groups in flight: a pipelined loop may then release
// the stage the gemm read. A gemm with `promote_k` issues each span of K
// into fresh accumulators, waits for them and adds them to its own in f32
// registers; with `partials` (one span, deferred promotion) it first waits
// for its previous MMAs and adds their partial sums, then issues its own
// into the partials and leaves them in flight. Descriptors and operand
// forms are in WgmmaInstructions.cpp.
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"
#include "WgmmaInstructions.h"

#include "tile/Target/IndexBuilder.h"
#include "tile/Target/NVIDIA/Layouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

namespace {
/// Why wgmma cannot compute a gemm (empty when it can).
struct WgmmaCheck {
  std::string reason;
  explicit operator bool() const { return reason.empty(); }
};
} // namespace

static int64_t rowBytes(Value operand) {
  auto type = cast<MemRefType>(operand.getType());
  return type.getShape().back() * type.getElementTypeBitWidth() / 8;
}

static WgmmaCheck checkWgmma(GemmOp op, int64_t numThreads,
                             int64_t warpgroupSize) {
  auto fail = [](const Twine &why) { return WgmmaCheck{why.str()}; };
  auto aType = cast<MemRefType>(op.getA().getType());
  auto bType = cast<MemRefType>(op.getB().getType());
  Type in = aType.getElementType();
  Type acc = cast<MemRefType>(op.getC().getType()).getElementType();
  // A is shared or, untransposed, a fragment: the op's verifier checks that.
  bool registerA = getMemoryKind(aType) == MemoryKind::Fragment;
  if (getMemoryKind(bType) != MemoryKind::Shared)
    return fail("wgmma reads B from shared memory");
  bool eightBit = isFloat8(in);
  if (eightBit) {
    // Layouts and flavours: checked for every NVIDIA FP8 gemm
    // (nvidia::checkFloat8Gemm) before selection.
    if (!isFloat8(bType.getElementType()))
      return fail("wgmma multiplies 8-bit floats by 8-bit floats");
  } else if ((!in.isF16() && !in.isBF16()) || bType.getElementType() != in) {
    return fail("wgmma supports f16, bf16 and 8-bit float inputs here");
  }
  if (!acc.isF32())
    return fail("wgmma accumulates in f32 here");
  if (op.getPolicy() == WarpPolicy::FullCol)
    return fail("wgmma splits the gemm along M, which policy full_col "
                "rules out");
  if (!warpgroupSize || numThreads % warpgroupSize != 0)
    return fail("wgmma runs on whole warpgroups of " + Twine(warpgroupSize) +
                " threads, the gemm on " + Twine(numThreads));
  int64_t groups = numThreads / warpgroupSize;
  if (op.getM() % (64 * groups) != 0)
    return fail("wgmma needs M to be a multiple of 64 x " + Twine(groups) +
                " warpgroups, got " + Twine(op.getM()));
  if (op.getN() % 8 != 0 || op.getN() > 256)
    return fail("wgmma needs N to be a multiple of 8 up to 256, got " +
                Twine(op.getN()));
  // The accumulator's register layout covers a power-of-two number of
  // rows (its columns are padded to one: wgmmaAccumulator).
  if (!llvm::isPowerOf2_64(op.getM()))
    return fail("wgmma needs M to be a power of two here (the "
                "accumulator's register layout), got " +
                Twine(op.getM()));
  int64_t instrK = getWgmmaInstrK(op);
  if (op.getK() % instrK != 0)
    return fail("wgmma needs K to be a multiple of " + Twine(instrK) +
                ", got " + Twine(op.getK()));
  if (int64_t span = op.getPromotionSpan(); span % instrK != 0)
    return fail("wgmma promotes partial sums every multiple of " +
                Twine(instrK) + " of K, got promote_k = " + Twine(span));
  for (auto [name, v] :
       {std::pair<StringRef, Value>{"A", op.getA()}, {"B", op.getB()}}) {
    if (name == "A" && registerA)
      continue;
    if (rowBytes(v) % 32 != 0)
      return fail("wgmma needs swizzled operands: rows of " + name +
                  " must be multiples of 32 bytes, got " + Twine(rowBytes(v)));
    // A layout the kernel fixed itself (padded rows, no swizzle) is one
    // wgmma's descriptors cannot address.
    Value root = v;
    while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
      root = view.getViewSource();
    auto alloc = root.getDefiningOp<AllocOp>();
    auto layout =
        alloc ? dyn_cast_or_null<SharedLayoutAttr>(alloc.getLayoutAttr())
              : SharedLayoutAttr();
    if (layout && (layout.getSwizzle() == 0 || layout.getPad() != 0))
      return fail("wgmma needs swizzled operands: the " + name +
                  " tile's layout is fixed to padded or unswizzled rows");
    if (layout && layout.getUnit() != 16)
      return fail("wgmma needs swizzles of 16-byte chunks: the " + name +
                  " tile's layout swizzles 8-byte units");
  }
  return {};
}

int64_t nvidia::getWgmmaInstrK(GemmOp op) {
  // wgmma.sp's K is the logical one, twice the values A holds.
  return 256 / cast<MemRefType>(op.getA().getType()).getElementTypeBitWidth() *
         (op.isSparse() ? 2 : 1);
}

MmaAttr nvidia::trySelectWgmma(GemmOp op, int64_t numThreads, int64_t warpSize,
                               int64_t warpgroupSize) {
  if (!checkWgmma(op, numThreads, warpgroupSize))
    return {};
  return MmaAttr::get(op.getContext(), MmaKind::Wgmma,
                      {64, op.getN(), getWgmmaInstrK(op)},
                      {numThreads / warpSize, 1});
}

LogicalResult nvidia::verifyWgmma(GemmOp op, MmaAttr mma, int64_t numThreads,
                                  int64_t warpSize, int64_t warpgroupSize) {
  if (WgmmaCheck check = checkWgmma(op, numThreads, warpgroupSize); !check)
    return op.emitOpError(check.reason);
  int64_t instrK = getWgmmaInstrK(op), instrN = mma.getInstrN();
  if (mma.getInstrM() != 64 || instrN % 8 != 0 || op.getN() % instrN != 0 ||
      mma.getInstrK() != instrK)
    return op.emitOpError("wgmma computes this gemm with m64nNk")
           << instrK << ", N a multiple of 8 dividing " << op.getN()
           << ", got m" << mma.getInstrM() << "n" << instrN << "k"
           << mma.getInstrK();
  if (mma.getWarpsM() * warpSize != numThreads || mma.getWarpsN() != 1)
    return op.emitOpError("wgmma splits the gemm along M over its ")
           << numThreads / warpSize << " warps: expected warps = ["
           << numThreads / warpSize << ", 1]";
  return success();
}

MmaLayouts nvidia::getWgmmaLayouts(GemmOp op, MmaAttr mma) {
  MmaLayouts layouts;
  int64_t groups = mma.getWarpsM() / 4;
  // The register form of A (B is always in shared memory).
  layouts.a = wgmmaOperandA(
      op.getM(), op.getK(), groups,
      cast<MemRefType>(op.getA().getType()).getElementTypeBitWidth());
  layouts.c = wgmmaAccumulator(op.getM(), op.getN(), groups);
  return layouts;
}

LogicalResult nvidia::emitWgmma(OpBuilder &b, Location loc,
                                const GemmEmission &g, int64_t warpgroupSize) {
  GemmOp op = g.op;
  const RegisterOperand &c = *g.c;
  MLIRContext *ctx = b.getContext();
  IndexBuilder ib{b, loc};
  int64_t m = op.getM(), n = op.getN(), k = op.getK();
  int64_t groups = g.mma.getWarpsM() / 4;
  if (c.layout != wgmmaAccumulator(m, n, groups))
    return op.emitOpError("the accumulator's layout is not the wgmma "
                          "accumulator layout of this gemm");
  Type in = cast<MemRefType>(op.getA().getType()).getElementType();
  Type inB = cast<MemRefType>(op.getB().getType()).getElementType();
  int64_t bits = in.getIntOrFloatBitWidth();
  int64_t instrK = g.mma.getInstrK();
  bool registerA = !g.a.isShared();
  if (registerA && g.a.regs->layout != wgmmaOperandA(m, k, groups, bits))
    return op.emitOpError("the A fragment's layout is not the wgmma "
                          "register A layout of this gemm");
  int64_t span = op.getPromotionSpan();
  if (span && !g.partials && (g.mmaGroupsInFlight || g.accumulate))
    return op.emitOpError("promotes its partial sums, which completes its "
                          "MMAs: it cannot leave groups in flight");
  if (g.partials && g.partials->layout != c.layout)
    return op.emitOpError("the partial sums' layout is not the wgmma "
                          "accumulator layout of this gemm");
  if (g.partials && (span != k || g.mmaGroupsInFlight != 1))
    return op.emitOpError("keeps its partial sums in flight, which needs one "
                          "span (promote_k = K) left in flight");
  std::optional<DescriptorOperand> a;
  if (!registerA) {
    FailureOr<DescriptorOperand> d =
        describe(b, loc, op, g.a, "A", !op.getTransposeA());
    if (failed(d))
      return failure();
    a = *d;
  }
  FailureOr<DescriptorOperand> bd =
      describe(b, loc, op, g.b, "B", op.getTransposeB());
  if (failed(bd))
    return failure();

  int64_t rowsPerGroup = m / groups, slabs = rowsPerGroup / 64;
  // An instruction narrower than the tile (a promoting gemm's, see
  // narrowForPromotion) covers one of `chunks` column ranges of a slab: the
  // accumulator layout orders a slab's registers by column, so chunk c of
  // slab s holds instrN / 2 consecutive registers (regOf below).
  // Instructions are issued per unit u = s * chunks + c.
  int64_t instrN = g.mma.getInstrN(), chunks = n / instrN;
  int64_t units = slabs * chunks;
  // The first row of the warpgroup's slabs (A descriptors).
  Value rowBase;
  if (!registerA) {
    Value rows = ib.idx(rowsPerGroup);
    rowBase = ib.mul(
        g.warpgroup ? g.warpgroup : ib.divConst(g.tid, warpgroupSize), rows);
  }

  // Accumulators, one struct of instrN / 2 floats per unit: registers
  // [c * instrN / 2, (c + 1) * instrN / 2) of slab s, whose registers start
  // at s * N' / 2 (N' the tile's width padded to a power of two: the
  // registers of padded columns hold no element and no instruction writes
  // them).
  Type f32 = b.getF32Type();
  int64_t perUnit = instrN / 2;
  int64_t slabRegisters = static_cast<int64_t>(llvm::PowerOf2Ceil(n)) / 2;
  auto regOf = [&](int64_t u, int64_t i) {
    return u / chunks * slabRegisters + u % chunks * perUnit + i;
  };
  auto accType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(perUnit, f32));
  SmallVector<Value> accs;
  for (int64_t u = 0; u < units; ++u) {
    Value acc = LLVM::PoisonOp::create(b, loc, accType);
    if (!op.getClearAccum())
      for (int64_t i = 0; i < perUnit; ++i) {
        Value v = memref::LoadOp::create(b, loc, c.regs, ib.idx(regOf(u, i)));
        acc = LLVM::InsertValueOp::create(b, loc, acc, v, ArrayRef<int64_t>{i});
      }
    accs.push_back(acc);
  }

  // Register A: the 4 x (32 / bits) elements of (slab s, k step ks) are
  // registers [(s * kSteps + ks) * 4 * epr, + 4 * epr) of the layout,
  // packed epr at a time into 4 x b32. Packed before the fence, which
  // orders these register writes before the wgmma reads.
  int64_t kSteps = k / instrK, epr = 32 / bits;
  SmallVector<SmallVector<Value>> packedA;
  if (registerA) {
    auto packType = VectorType::get({epr}, in);
    auto wordType = VectorType::get({1}, b.getI32Type());
    for (int64_t s = 0; s < slabs; ++s)
      for (int64_t ks = 0; ks < kSteps; ++ks) {
        SmallVector<Value> &words = packedA.emplace_back();
        int64_t base = (s * kSteps + ks) * 4 * epr;
        for (int64_t j = 0; j < 4; ++j) {
          SmallVector<Value> elements;
          for (int64_t e = 0; e < epr; ++e)
            elements.push_back(memref::LoadOp::create(
                b, loc, g.a.regs->regs, ib.idx(base + j * epr + e)));
          Value pack =
              vector::FromElementsOp::create(b, loc, packType, elements);
          Value word = vector::BitCastOp::create(b, loc, wordType, pack);
          words.push_back(
              vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0}));
        }
      }
  }

  // wgmma.sp's metadata, per (slab, k step): warp w of the warpgroup reads
  // rows 16w .. 16w + 15 of the slab as one mma.sp does (design.md 5.7):
  // lanes 4g and 4g + 1 hold rows g and g + 8, 16 of K each (lane 4g + i
  // the i-th half of the step), in the low and high 16 bits.
  bool sparse = op.isSparse();
  SmallVector<Value> metas;
  if (sparse) {
    FailureOr<SharedOperand> meta = resolveSparseMetadata(g);
    if (failed(meta))
      return failure();
    Value lane = ib.andConst(g.tid, 31);
    Value warp = ib.andConst(ib.shrConst(g.tid, 5), warpgroupSize / 32 - 1);
    Value warpRows = ib.add(rowBase, ib.mul(warp, ib.idx(16)));
    for (int64_t s = 0; s < slabs; ++s)
      for (int64_t ks = 0; ks < kSteps; ++ks)
        metas.push_back(loadSparseMetadata(
            b, loc, *meta, ib.add(warpRows, ib.idx(s * 64)), lane, ks));
    // Every thread reads the metadata with ordinary loads. Where the same
    // threads refill the slots (no warp specialization), a slot released
    // once the first warps' MMAs complete can be refilled under a slower
    // warp's reads: a barrier over the gemm's threads orders every read
    // before every MMA (racecheck, docs/perf.md run 61). Warp-specialized
    // consumers need none (each warp releases after its own reads; run 64).
    if (g.barrier)
      g.barrier();
  }

  // What this gemm's inline-asm wgmmas share.
  WgmmaAsm common;
  common.n = instrN;
  common.k = instrK;
  common.typeA = getPtxType(in);
  common.typeB = getPtxType(inB);
  common.transposeA = a && !a->kMajor;
  common.transposeB = !bd->kMajor;
  NVVM::WGMMATypes typeA = getNvvmType(in), typeB = getNvvmType(inB);
  // Layouts in NVVM's terms: row-major A and column-major B are K-major.
  auto layoutA = !a || a->kMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  auto layoutB = bd->kMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row;

  // Issues the k steps [first, last) of units [unitBegin, unitEnd) into
  // `targets` (one per unit); the first step overwrites them when
  // `overwrite`, or adds on `accumulate` (null: always adds).
  auto issue = [&](SmallVectorImpl<Value> &targets, int64_t first, int64_t last,
                   bool overwrite, Value accumulate, int64_t unitBegin,
                   int64_t unitEnd) {
    for (int64_t ks = first; ks < last; ++ks) {
      for (int64_t u = unitBegin; u < unitEnd; ++u) {
        int64_t s = u / chunks;
        Value descB =
            descriptorAt(b, loc, *bd, ib.idx(u % chunks * instrN), ks * instrK);
        bool firstStep = ks == first;
        if (sparse || registerA) {
          WgmmaAsm w = common;
          w.acc = targets[u];
          w.descB = descB;
          if (registerA) {
            w.a = packedA[s * kSteps + ks];
          } else {
            // wgmma.sp: A's descriptor at the step's stored values (half
            // the logical K), the warp's metadata register.
            w.descA = descriptorAt(b, loc, *a, ib.add(rowBase, ib.idx(s * 64)),
                                   ks * instrK / 2);
            w.meta = metas[s * kSteps + ks];
          }
          if (firstStep && overwrite)
            w.scaleD = false;
          else if (firstStep)
            w.accumulate = accumulate;
          targets[u] = emitWgmmaAsm(b, loc, w);
          continue;
        }
        Value rows = ib.add(rowBase, ib.idx(s * 64));
        Value descA = descriptorAt(b, loc, *a, rows, ks * instrK);
        if (firstStep && !overwrite && accumulate) {
          // Whether to add to the accumulator is known at run time only.
          WgmmaAsm w = common;
          w.acc = targets[u];
          w.descA = descA;
          w.descB = descB;
          w.accumulate = accumulate;
          targets[u] = emitWgmmaAsm(b, loc, w);
          continue;
        }
        targets[u] = NVVM::WgmmaMmaAsyncOp::create(
            b, loc, accType, targets[u], descA, descB,
            NVVM::MMAShapeAttr::get(ctx, 64, instrN, instrK), typeA, typeB,
            NVVM::WGMMATypes::f32,
            firstStep && overwrite ? NVVM::WGMMAScaleOut::zero
                                   : NVVM::WGMMAScaleOut::one,
            NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, layoutA, layoutB,
            NVVM::MMAIntOverflowAttr());
      }
    }
  };

  // The descriptors of every step, ahead of a wait for MMAs in flight (CSE
  // keeps these for the issue), so that their arithmetic runs while the
  // previous MMAs do.
  auto computeDescriptors = [&]() {
    for (int64_t ks = 0; ks < kSteps; ++ks) {
      for (int64_t ch = 0; ch < chunks; ++ch)
        descriptorAt(b, loc, *bd, ib.idx(ch * instrN), ks * instrK);
      for (int64_t s = 0; a && s < slabs; ++s)
        descriptorAt(b, loc, *a, ib.add(rowBase, ib.idx(s * 64)), ks * instrK);
    }
  };
  if (g.partials) {
    // Deferred promotion: the descriptors first, then the previous
    // partial sums, complete, join the accumulator, and this gemm's go in
    // flight into the same registers. In a loop unrolled by two the
    // additions come after the issue instead, while the MMAs run into the
    // registers of the other iteration of the pass.
    computeDescriptors();
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    SmallVector<Value> partial(units);
    for (int64_t u = 0; u < units; ++u)
      partial[u] = LLVM::PoisonOp::create(b, loc, accType);
    auto addPartials = [&]() {
      for (int64_t u = 0; u < units; ++u) {
        // accs[u] + the unit's partial sums.
        auto add = [&, u](OpBuilder &b, Location loc) {
          IndexBuilder ib{b, loc};
          Value sums = accs[u];
          for (int64_t i = 0; i < perUnit; ++i) {
            int64_t at[] = {i};
            Value p = memref::LoadOp::create(b, loc, g.partials->regs,
                                             ib.idx(regOf(u, i)));
            Value sum = arith::AddFOp::create(
                b, loc, LLVM::ExtractValueOp::create(b, loc, sums, at), p);
            sums = LLVM::InsertValueOp::create(b, loc, sums, sum, at);
          }
          return sums;
        };
        if (!g.accumulate) {
          accs[u] = add(b, loc);
          continue;
        }
        accs[u] = scf::IfOp::create(
                      b, loc, g.accumulate,
                      [&](OpBuilder &b, Location loc) {
                        scf::YieldOp::create(b, loc, add(b, loc));
                      },
                      [&, u](OpBuilder &b, Location loc) {
                        scf::YieldOp::create(b, loc, accs[u]);
                      })
                      .getResult(0);
      }
    };
    if (!g.addPartialsAfterIssue)
      addPartials();
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    issue(partial, 0, kSteps, /*overwrite=*/true, Value(), 0, units);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    if (g.passTurn)
      g.passTurn(b, loc);
    if (g.addPartialsAfterIssue)
      addPartials();
    for (int64_t u = 0; u < units; ++u)
      for (int64_t i = 0; i < perUnit; ++i) {
        Value at = ib.idx(regOf(u, i));
        Value v = LLVM::ExtractValueOp::create(b, loc, partial[u],
                                               ArrayRef<int64_t>{i});
        memref::StoreOp::create(b, loc, v, g.partials->regs, at);
      }
  } else if (!span && g.consumeChunk && g.mmaGroupsInFlight) {
    // A product consumed one gemm late (tile.consumer_late): C holds the
    // previous gemm's product, complete once the wait below returns, which
    // the consumer takes before (or, in a loop unrolled by two, after) this
    // gemm's MMAs go in flight into other registers; they are stored into
    // C for the next gemm (the last is consumed after the loop).
    if (!op.getClearAccum() || g.accumulate || g.mmaGroupsInFlight != 1)
      return op.emitOpError("consumes its product one gemm late, so it "
                            "clears its accumulator and leaves one MMA "
                            "group in flight");
    computeDescriptors();
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    llvm::BitVector all(c.layout.getRegistersPerThread(), true);
    if (!g.addPartialsAfterIssue && failed(g.consumeChunk(b, loc, all)))
      return failure();
    SmallVector<Value> product(units);
    for (int64_t u = 0; u < units; ++u)
      product[u] = LLVM::PoisonOp::create(b, loc, accType);
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    issue(product, 0, kSteps, /*overwrite=*/true, Value(), 0, units);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    if (g.passTurn)
      g.passTurn(b, loc);
    if (g.addPartialsAfterIssue && failed(g.consumeChunk(b, loc, all)))
      return failure();
    for (int64_t u = 0; u < units; ++u)
      for (int64_t i = 0; i < perUnit; ++i) {
        Value at = ib.idx(regOf(u, i));
        Value v = LLVM::ExtractValueOp::create(b, loc, product[u],
                                               ArrayRef<int64_t>{i});
        memref::StoreOp::create(b, loc, v, c.regs, at);
      }
    return success();
  } else if (!span && g.consumeChunk) {
    // The product handed over in chunks (consumer_chunk): each unit's MMAs
    // are issued, completed and consumed before the next unit's, so that
    // one unit of the product is live at a time.
    if (g.mmaGroupsInFlight || g.accumulate || !op.getClearAccum())
      return op.emitOpError("hands its product over in chunks, so it clears "
                            "its accumulator and completes its MMAs");
    if (instrN > static_cast<int64_t>(*op.getConsumerChunk()))
      return op.emitOpError("hands its product over in chunks of ")
             << *op.getConsumerChunk() << " columns, narrower than its "
             << instrN << "-column instruction";
    for (int64_t u = 0; u < units; ++u) {
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
      issue(accs, 0, kSteps, /*overwrite=*/true, Value(), u, u + 1);
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      if (g.passTurn && u + 1 == units)
        g.passTurn(b, loc);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
      for (int64_t i = 0; i < perUnit; ++i) {
        Value v =
            LLVM::ExtractValueOp::create(b, loc, accs[u], ArrayRef<int64_t>{i});
        memref::StoreOp::create(b, loc, v, c.regs, ib.idx(regOf(u, i)));
      }
      llvm::BitVector registers(c.layout.getRegistersPerThread());
      registers.set(regOf(u, 0), regOf(u, 0) + perUnit);
      if (failed(g.consumeChunk(b, loc, registers)))
        return failure();
    }
    return success();
  } else if (!span) {
    // A sparse gemm leaving MMAs in flight keeps the previous gemm's
    // metadata registers until its wait has completed their MMAs.
    SmallVector<Value> previousMetas;
    if (sparse && g.mmaGroupsInFlight)
      previousMetas = carrySparseMetadata(b, loc, g, metas);
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    issue(accs, 0, kSteps, op.getClearAccum(), g.accumulate, 0, units);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    if (g.passTurn)
      g.passTurn(b, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, g.mmaGroupsInFlight);
    if (!previousMetas.empty())
      keepRegistersLive(b, loc, previousMetas);
  } else {
    // Promotion: each span of K goes into a fresh accumulator (the first
    // span of a clearing gemm straight into the gemm's own), which is
    // completed and added to the gemm's in f32. One slab at a time: the
    // partial sums of one instruction are all the registers promotion adds.
    int64_t spanSteps = span / instrK;
    for (int64_t first = 0; first < kSteps; first += spanSteps) {
      bool direct = first == 0 && op.getClearAccum();
      for (int64_t u = 0; u < units; ++u) {
        SmallVector<Value> partial(units);
        partial[u] = direct ? accs[u] : LLVM::PoisonOp::create(b, loc, accType);
        NVVM::WgmmaFenceAlignedOp::create(b, loc);
        issue(partial, first, first + spanSteps, /*overwrite=*/true, Value(), u,
              u + 1);
        NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
        if (g.passTurn && first + spanSteps == kSteps && u + 1 == units)
          g.passTurn(b, loc);
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
        if (direct) {
          accs[u] = partial[u];
          continue;
        }
        for (int64_t i = 0; i < perUnit; ++i) {
          int64_t at[] = {i};
          Value p = LLVM::ExtractValueOp::create(b, loc, partial[u], at);
          Value a = LLVM::ExtractValueOp::create(b, loc, accs[u], at);
          Value sum = arith::AddFOp::create(b, loc, a, p);
          accs[u] = LLVM::InsertValueOp::create(b, loc, accs[u], sum, at);
        }
      }
    }
  }
  for (int64_t u = 0; u < units; ++u)
    for (int64_t i = 0; i < perUnit; ++i) {
      Value v =
          LLVM::ExtractValueOp::create(b, loc, accs[u], ArrayRef<int64_t>{i});
      memref::StoreOp::create(b, loc, v, c.regs, ib.idx(regOf(u, i)));
    }
  return success();
}
