//===- LaneExchange.cpp - Widening register runs through shuffles -*- C++ -*-=//
//
// A thread of an MMA accumulator holds only two consecutive elements of a
// row: the next pairs of the row sit in the neighbouring lanes, and the
// thread's other registers hold the same columns further right. Stored as
// they are, the elements go out as 4-byte (bf16) or 8-byte (f32) accesses
// that each touch half a sector. Swapping a register bit with a lane bit of
// the layout (one `shuffle xor` per pair of registers) moves the
// neighbours' pairs into the thread's registers, until a run of registers
// covers 16 bytes of a row.
//
// Over GF(2) a swap is exact: in the layout after swapping register bit i
// with lane bit j, the element of (lane l, register r) is the one of lane l
// with bit j set to bit i of r, register r with bit i set to bit j of l, in
// the layout before. Half of each pair of registers stays, the other half
// comes from the partner lane l ^ (1 << j).
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

int64_t mlir::tile::lowering::contiguousRegisters(const LinearLayout &layout) {
  auto lastCoord = [&](uint64_t basis) {
    return layout.unpackCoord(basis).back();
  };
  ArrayRef<uint64_t> regs = layout.getBases(LinearLayout::kRegister);
  int64_t run = 1;
  unsigned runBits = 0;
  for (uint64_t basis : regs) {
    SmallVector<int64_t> c = layout.unpackCoord(basis);
    bool next =
        c.back() == run && llvm::all_of(ArrayRef<int64_t>(c).drop_back(),
                                        [](int64_t x) { return x == 0; });
    if (!next)
      break;
    run *= 2;
    ++runBits;
  }
  auto shrink = [&](uint64_t basis) {
    while (run > 1 && (lastCoord(basis) & (run - 1)) != 0)
      run /= 2;
  };
  for (uint64_t basis : regs.drop_front(runBits))
    shrink(basis);
  for (StringRef dim : {LinearLayout::kLane, LinearLayout::kWarp})
    for (uint64_t basis : layout.getBases(dim))
      shrink(basis);
  return run;
}

/// The column (last coordinate) a basis vector moves along, if it moves
/// along nothing else.
static std::optional<int64_t> pureColumn(const LinearLayout &layout,
                                         uint64_t basis) {
  SmallVector<int64_t> c = layout.unpackCoord(basis);
  if (!llvm::all_of(ArrayRef<int64_t>(c).drop_back(),
                    [](int64_t x) { return x == 0; }))
    return std::nullopt;
  return c.back();
}

std::optional<LaneExchange>
mlir::tile::lowering::planLaneExchange(const LinearLayout &layout,
                                       int64_t want) {
  int64_t run = contiguousRegisters(layout);
  if (run >= want || !layout.hasInDim(LinearLayout::kLane))
    return std::nullopt;
  unsigned runBits = llvm::Log2_64(run);
  SmallVector<uint64_t> regs(layout.getBases(LinearLayout::kRegister));
  SmallVector<uint64_t> lanes(layout.getBases(LinearLayout::kLane));
  LaneExchange plan;
  plan.word = run;
  llvm::SmallBitVector used(regs.size());
  for (unsigned i = 0; i < runBits; ++i) {
    used.set(i);
    plan.order.push_back(i);
  }
  // Register bits that may trade places with a lane bit: those moving the
  // column by a multiple of `want` (the wide runs stay aligned), else
  // those moving only other coordinates.
  auto spare = [&]() -> std::optional<unsigned> {
    std::optional<unsigned> best, other;
    for (unsigned i = runBits; i < regs.size(); ++i) {
      if (used.test(i) || regs[i] == 0)
        continue;
      std::optional<int64_t> col = pureColumn(layout, regs[i]);
      if (col && *col >= want && *col % want == 0) {
        if (!best || *col < *pureColumn(layout, regs[*best]))
          best = i;
      } else if (layout.unpackCoord(regs[i]).back() == 0 && !other) {
        other = i;
      }
    }
    return best ? best : other;
  };
  for (int64_t col = run; col < want; col *= 2) {
    auto inRegs =
        llvm::find_if(llvm::seq<unsigned>(0, regs.size()), [&](unsigned i) {
          return !used.test(i) && pureColumn(layout, regs[i]) == col;
        });
    if (inRegs != llvm::seq<unsigned>(0, regs.size()).end()) {
      used.set(*inRegs);
      plan.order.push_back(*inRegs);
      continue;
    }
    auto lane =
        llvm::find_if(llvm::seq<unsigned>(0, lanes.size()), [&](unsigned j) {
          return pureColumn(layout, lanes[j]) == col;
        });
    std::optional<unsigned> reg = spare();
    if (lane == llvm::seq<unsigned>(0, lanes.size()).end() || !reg)
      break;
    std::swap(regs[*reg], lanes[*lane]);
    plan.swaps.push_back({*reg, *lane});
    used.set(*reg);
    plan.order.push_back(*reg);
  }
  if (plan.order.size() == runBits)
    return std::nullopt;
  for (unsigned i = 0; i < regs.size(); ++i)
    if (!used.test(i))
      plan.order.push_back(i);

  SmallVector<LinearLayout::InDim> dims;
  for (const LinearLayout::InDim &dim : layout.getInDims()) {
    LinearLayout::InDim d = dim;
    if (d.name == LinearLayout::kRegister)
      d.bases =
          llvm::map_to_vector(plan.order, [&](unsigned i) { return regs[i]; });
    else if (d.name == LinearLayout::kLane)
      d.bases = lanes;
    dims.push_back(std::move(d));
  }
  plan.layout = LinearLayout(std::move(dims), layout.getOutShape());
  plan.vector = std::min(contiguousRegisters(plan.layout), want);
  if (plan.vector <= run)
    return std::nullopt;
  return plan;
}

namespace {
/// Moves words of `word` elements as 32-bit pieces.
struct WordPacker {
  OpBuilder &b;
  Location loc;
  Type elt;
  int64_t word;

  int64_t bits() const { return word * elt.getIntOrFloatBitWidth(); }
  int64_t pieces() const { return std::max<int64_t>(1, bits() / 32); }

  SmallVector<Value> pack(ArrayRef<Value> elems) {
    Value v = vector::FromElementsOp::create(
        b, loc, VectorType::get({word}, elt), elems);
    Type i32 = b.getI32Type();
    if (bits() >= 32) {
      auto type = VectorType::get({pieces()}, i32);
      Value cast = vector::BitCastOp::create(b, loc, type, v);
      SmallVector<Value> out;
      for (int64_t p = 0; p < pieces(); ++p)
        out.push_back(
            vector::ExtractOp::create(b, loc, cast, ArrayRef<int64_t>{p}));
      return out;
    }
    Type narrow = b.getIntegerType(bits());
    Value cast =
        vector::BitCastOp::create(b, loc, VectorType::get({1}, narrow), v);
    Value scalar =
        vector::ExtractOp::create(b, loc, cast, ArrayRef<int64_t>{0});
    return {arith::ExtUIOp::create(b, loc, i32, scalar)};
  }

  SmallVector<Value> unpack(ArrayRef<Value> pieces32) {
    Value v;
    if (bits() >= 32) {
      v = vector::FromElementsOp::create(
          b, loc, VectorType::get({pieces()}, b.getI32Type()), pieces32);
    } else {
      Type narrow = b.getIntegerType(bits());
      Value scalar = arith::TruncIOp::create(b, loc, narrow, pieces32[0]);
      v = vector::FromElementsOp::create(b, loc, VectorType::get({1}, narrow),
                                         scalar);
    }
    Value cast =
        vector::BitCastOp::create(b, loc, VectorType::get({word}, elt), v);
    SmallVector<Value> out;
    for (int64_t e = 0; e < word; ++e)
      out.push_back(
          vector::ExtractOp::create(b, loc, cast, ArrayRef<int64_t>{e}));
    return out;
  }
};
} // namespace

SmallVector<Value> mlir::tile::lowering::exchangeLanes(LoweringContext &ctx,
                                                       const LaneExchange &plan,
                                                       ArrayRef<Value> regs,
                                                       Value tid) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc();
  WordPacker packer{b, loc, regs.front().getType(), plan.word};
  int64_t numWords = regs.size() / plan.word;
  SmallVector<SmallVector<Value>> words;
  for (int64_t w = 0; w < numWords; ++w)
    words.push_back(packer.pack(regs.slice(w * plan.word, plan.word)));

  unsigned runBits = llvm::Log2_64(plan.word);
  int64_t warpSize = plan.layout.getInDimSize(LinearLayout::kLane);
  for (auto [reg, lane] : plan.swaps) {
    int64_t bit = int64_t(1) << (reg - runBits);
    Value zero = ctx.idx(0);
    Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       ctx.andConst(tid, 1 << lane), zero);
    for (int64_t w = 0; w < numWords; ++w) {
      if (w & bit)
        continue;
      SmallVector<Value> &lo = words[w], &hi = words[w | bit];
      for (size_t p = 0; p < lo.size(); ++p) {
        // Lanes with the bit set keep their high register and send the low
        // one; the others keep the low register and send the high one.
        Value send = arith::SelectOp::create(b, loc, high, lo[p], hi[p]);
        Value recv =
            ctx.target.emitShuffleXor(b, loc, send, 1 << lane, warpSize);
        Value newLo = arith::SelectOp::create(b, loc, high, recv, lo[p]);
        hi[p] = arith::SelectOp::create(b, loc, high, hi[p], recv);
        lo[p] = newLo;
      }
    }
  }

  SmallVector<Value> swapped;
  for (SmallVector<Value> &w : words)
    llvm::append_range(swapped, packer.unpack(w));
  // Register r of the new layout is the register whose bit order[k] is bit
  // k of r.
  SmallVector<Value> out;
  for (int64_t r = 0; r < int64_t(swapped.size()); ++r) {
    int64_t from = 0;
    for (auto [k, bit] : llvm::enumerate(plan.order))
      if (r & (int64_t(1) << k))
        from |= int64_t(1) << bit;
    out.push_back(swapped[from]);
  }
  return out;
}
