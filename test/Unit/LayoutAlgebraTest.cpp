//===- LayoutAlgebraTest.cpp - Unit tests of linear layouts -----*- C++ -*-===//
//
// Checks the linear layout algebra (inversion, composition, containment,
// projection, replication) over every named layout, and checks the named
// layouts against the fragment mappings documented in the PTX ISA (mma.sync
// m16n8k16 / m16n8k8 / m16n8k32, wgmma m64nNk16 accumulator and register
// A), AMD's MFMA tables and the TMA swizzle patterns. Prints one line per group
// and exits non-zero on the first failed group.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Target/AMD/Layouts.h"
#include "tile/Target/NVIDIA/Layouts.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <set>

using namespace mlir;
using namespace mlir::tile;

static int numFailures = 0;
static int numChecks = 0;

#define CHECK_TRUE(cond, what)                                                 \
  do {                                                                         \
    ++numChecks;                                                               \
    if (!(cond)) {                                                             \
      ++numFailures;                                                           \
      llvm::errs() << "FAILED: " << what << " (" #cond ") at line "            \
                   << __LINE__ << "\n";                                        \
    }                                                                          \
  } while (false)

using Coord = SmallVector<int64_t>;

static Coord at(const LinearLayout &l, int64_t reg, int64_t lane,
                int64_t warp) {
  return l.apply({{LinearLayout::kRegister, reg},
                  {LinearLayout::kLane, lane},
                  {LinearLayout::kWarp, warp}});
}

/// Named layouts with a label.
static SmallVector<std::pair<std::string, LinearLayout>> namedLayouts() {
  SmallVector<std::pair<std::string, LinearLayout>> all;
  for (auto [m, n, wm, wn] : {std::tuple{16, 8, 1, 1},
                              {64, 64, 2, 2},
                              {128, 128, 2, 2},
                              {128, 64, 4, 1},
                              {128, 256, 1, 4}})
    all.push_back({"mma_acc", nvidia::mmaSyncAccumulator(m, n, wm, wn)});
  for (int bits : {32, 16, 8})
    for (auto [m, k, wm, wn] :
         {std::tuple{16, 256 / bits, 1, 1}, {128, 64, 2, 2}, {64, 32, 4, 1}})
      all.push_back({"mma_a" + std::to_string(bits),
                     nvidia::mmaSyncOperandA(m, k, bits, wm, wn)});
  for (int bits : {32, 16, 8})
    for (auto [k, n, wm, wn] :
         {std::tuple{256 / bits, 8, 1, 1}, {64, 128, 2, 2}, {32, 64, 1, 4}})
      all.push_back({"mma_b" + std::to_string(bits),
                     nvidia::mmaSyncOperandB(k, n, bits, wm, wn)});
  for (auto [m, n, g] :
       {std::tuple{64, 8, 1}, {64, 256, 1}, {128, 128, 2}, {256, 64, 2}})
    all.push_back({"wgmma_acc", nvidia::wgmmaAccumulator(m, n, g)});
  for (auto [m, k, g] :
       {std::tuple{64, 16, 1}, {64, 64, 1}, {128, 64, 2}, {256, 32, 2}})
    all.push_back({"wgmma_a", nvidia::wgmmaOperandA(m, k, g)});
  for (auto [m, n, i, wm, wn] : {std::tuple{32, 32, 32, 1, 1},
                                 {16, 16, 16, 1, 1},
                                 {128, 128, 32, 2, 2},
                                 {64, 64, 16, 2, 2}})
    all.push_back({"mfma_acc", amd::mfmaAccumulator(m, n, i, wm, wn)});
  for (auto [shape, threads, vec] : {std::tuple{Coord{128, 128}, 128, 4},
                                     {Coord{64}, 128, 1},
                                     {Coord{128, 32}, 128, 8},
                                     {Coord{256}, 256, 2}})
    all.push_back({"blocked", LinearLayout::blocked(shape, threads, vec, 32)});
  for (int bits : {8, 16, 32})
    for (int swizzle : {0, 32, 64, 128})
      for (Coord shape : {Coord{64, 64}, Coord{4, 128, 64}, Coord{32, 128}})
        all.push_back({"swizzle" + std::to_string(swizzle),
                       LinearLayout::swizzled(shape, bits, swizzle)});
  return all;
}

/// Identity check: `l` maps every input flat index to itself.
static bool isIdentity(const LinearLayout &l) {
  unsigned bit = 0;
  for (const LinearLayout::InDim &dim : l.getInDims())
    for (uint64_t b : dim.bases)
      if (b != (uint64_t(1) << bit++))
        return false;
  return bit == l.getNumOutBits();
}

static void testPtxMmaSync() {
  // PTX ISA, mma.m16n8k16 f32 accumulator: groupID = lane >> 2,
  // threadID_in_group = lane % 4; c_i: row = groupID + 8 * (i >= 2),
  // col = 2 * threadID_in_group + (i & 1).
  LinearLayout acc = nvidia::mmaSyncAccumulator(16, 8, 1, 1);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      Coord expected{lane / 4 + 8 * (i >= 2), 2 * (lane % 4) + (i & 1)};
      CHECK_TRUE(at(acc, i, lane, 0) == expected, "mma accumulator c" << i);
    }
  // A operand, .f16/.bf16 m16n8k16: a_i: row = groupID + 8 * ((i / 2) % 2),
  // col = 2 * threadID_in_group + (i & 1) + 8 * (i >= 4).
  LinearLayout a16 = nvidia::mmaSyncOperandA(16, 16, 16, 1, 1);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 8; ++i) {
      Coord expected{lane / 4 + 8 * ((i / 2) % 2),
                     2 * (lane % 4) + (i & 1) + 8 * (i >= 4)};
      CHECK_TRUE(at(a16, i, lane, 0) == expected, "mma f16 A a" << i);
    }
  // B operand f16: b_i: row = 2 * threadID_in_group + (i & 1) + 8 * (i >= 2),
  // col = groupID.
  LinearLayout b16 = nvidia::mmaSyncOperandB(16, 8, 16, 1, 1);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      Coord expected{2 * (lane % 4) + (i & 1) + 8 * (i >= 2), lane / 4};
      CHECK_TRUE(at(b16, i, lane, 0) == expected, "mma f16 B b" << i);
    }
  // A operand .tf32 m16n8k8: a_i: row = groupID + 8 * (i % 2),
  // col = threadID_in_group + 4 * (i >= 2).
  LinearLayout a32 = nvidia::mmaSyncOperandA(16, 8, 32, 1, 1);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) {
      Coord expected{lane / 4 + 8 * (i % 2), lane % 4 + 4 * (i >= 2)};
      CHECK_TRUE(at(a32, i, lane, 0) == expected, "mma tf32 A a" << i);
    }
  // A operand .s8 m16n8k32: a_i: row = groupID + 8 * ((i / 4) % 2),
  // col = 4 * threadID_in_group + (i % 4) + 16 * (i >= 8).
  LinearLayout a8 = nvidia::mmaSyncOperandA(16, 32, 8, 1, 1);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 16; ++i) {
      Coord expected{lane / 4 + 8 * ((i / 4) % 2),
                     4 * (lane % 4) + (i % 4) + 16 * (i >= 8)};
      CHECK_TRUE(at(a8, i, lane, 0) == expected, "mma s8 A a" << i);
    }
  // B operand .s8: b_i: row = 4 * threadID_in_group + (i % 4) + 16 * (i >= 4),
  // col = groupID.
  LinearLayout b8 = nvidia::mmaSyncOperandB(32, 8, 8, 1, 1);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 8; ++i) {
      Coord expected{4 * (lane % 4) + (i % 4) + 16 * (i >= 4), lane / 4};
      CHECK_TRUE(at(b8, i, lane, 0) == expected, "mma s8 B b" << i);
    }
  llvm::outs() << "ptx mma.sync fragments: ok\n";
}

static void testPtxWgmma() {
  // PTX ISA, wgmma .m64nNk16 f32 accumulator: warp w of the warpgroup owns
  // rows 16w..16w+15; d_i: row = 16 * w + groupID + 8 * ((i / 2) % 2),
  // col = 8 * (i / 4) + 2 * threadID_in_group + (i & 1).
  for (int n : {8, 64, 256}) {
    LinearLayout acc = nvidia::wgmmaAccumulator(64, n, 1);
    for (int w = 0; w < 4; ++w)
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < n / 2; ++i) {
          Coord expected{16 * w + lane / 4 + 8 * ((i / 2) % 2),
                         8 * (i / 4) + 2 * (lane % 4) + (i & 1)};
          CHECK_TRUE(at(acc, i, lane, w) == expected, "wgmma d" << i);
        }
  }
  // Widths that are not powers of two (m64n144, n192, n24): the PTX
  // formula for d_0 .. d_(N/2 - 1) over the layout padded to a power of
  // two; every register past N / 2 holds, in every thread, a column past
  // the tile (isRegisterOutside), and none before it does.
  for (int n : {24, 144, 192}) {
    LinearLayout acc = nvidia::wgmmaAccumulator(64, n, 1);
    int64_t padded = llvm::PowerOf2Ceil(n);
    CHECK_TRUE(acc.getOutShape()[1] == padded, "padded wgmma width " << n);
    for (int w = 0; w < 4; ++w)
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < padded / 2; ++i) {
          Coord expected{16 * w + lane / 4 + 8 * ((i / 2) % 2),
                         8 * (i / 4) + 2 * (lane % 4) + (i & 1)};
          CHECK_TRUE(at(acc, i, lane, w) == expected,
                     "wgmma n" << n << " d" << i);
        }
    for (int i = 0; i < padded / 2; ++i) {
      CHECK_TRUE(acc.isRegisterOutside(i, {64, n}) == (i >= n / 2),
                 "wgmma n" << n << " register " << i << " outside");
      CHECK_TRUE(acc.isRegisterInside(i, 1, n) == (i < n / 2),
                 "wgmma n" << n << " register " << i << " inside");
    }
  }
  // A register some threads hold inside the tile and others outside is
  // not outside: 2 columns, one lane bit, a tile of width 1.
  LinearLayout pair(
      {{LinearLayout::kRegister.str(), {}}, {LinearLayout::kLane.str(), {1}}},
      {2});
  CHECK_TRUE(!pair.isRegisterOutside(0, {1}), "straddling register");
  CHECK_TRUE(!pair.isRegisterInside(0, 0, 1), "straddling register inside");
  CHECK_TRUE(pair.isRegisterInside(0, 0, 2), "register inside");
  llvm::outs() << "ptx wgmma accumulator: ok\n";
  // Register A operand (RS form), .f16/.bf16 m64nNk16: per warpgroup a
  // 64 x 16 tile per k step; warp w holds rows 16w..16w+15 and a_i:
  // row = 16 * w + groupID + 8 * ((i / 2) % 2),
  // col = 2 * threadID_in_group + (i & 1) + 8 * (i >= 4). Registers of k
  // step s are 8s..8s+7 (columns + 16s), then the 64-row slabs, then the
  // warpgroups (warps 4g..4g+3 own rows [g * M / G, (g + 1) * M / G)).
  for (auto [m, k, g] : {std::tuple{64, 16, 1}, {64, 64, 1}, {256, 32, 2}}) {
    LinearLayout a = nvidia::wgmmaOperandA(m, k, g);
    int64_t slabs = m / g / 64, steps = k / 16;
    CHECK_TRUE(a.getRegistersPerThread() == 8 * steps * slabs,
               "wgmma A registers");
    for (int group = 0; group < g; ++group)
      for (int w = 0; w < 4; ++w)
        for (int lane = 0; lane < 32; ++lane)
          for (int slab = 0; slab < slabs; ++slab)
            for (int step = 0; step < steps; ++step)
              for (int i = 0; i < 8; ++i) {
                Coord expected{group * (m / g) + 64 * slab + 16 * w + lane / 4 +
                                   8 * ((i / 2) % 2),
                               16 * step + 2 * (lane % 4) + (i & 1) +
                                   8 * (i >= 4)};
                int64_t reg = i + 8 * step + 8 * steps * slab;
                CHECK_TRUE(at(a, reg, lane, 4 * group + w) == expected,
                           "wgmma A a" << i << " (" << m << "x" << k << ")");
              }
    // FlashAttention-3's observation: the f32 accumulator of an M x K
    // product, converted element-wise, is the register A operand.
    CHECK_TRUE(a == nvidia::wgmmaAccumulator(m, k, g),
               "wgmma A equals the accumulator layout");
  }
  // Register A of the 8-bit floats' m64nNk32 (e4m3 / e5m2): per k step of
  // 32, a_i (i < 16): row = 16 * w + groupID + 8 * ((i / 4) % 2),
  // col = 4 * threadID_in_group + (i % 4) + 16 * (i >= 8); registers of k
  // step s are 16s..16s+15, then the slabs, then the warpgroups.
  for (auto [m, k, g] : {std::tuple{64, 32, 1}, {64, 128, 1}, {256, 64, 2}}) {
    LinearLayout a = nvidia::wgmmaOperandA(m, k, g, /*elementBits=*/8);
    int64_t slabs = m / g / 64, steps = k / 32;
    CHECK_TRUE(a.getRegistersPerThread() == 16 * steps * slabs,
               "wgmma 8-bit A registers");
    for (int group = 0; group < g; ++group)
      for (int w = 0; w < 4; ++w)
        for (int lane = 0; lane < 32; ++lane)
          for (int slab = 0; slab < slabs; ++slab)
            for (int step = 0; step < steps; ++step)
              for (int i = 0; i < 16; ++i) {
                Coord expected{group * (m / g) + 64 * slab + 16 * w + lane / 4 +
                                   8 * ((i / 4) % 2),
                               32 * step + 4 * (lane % 4) + (i % 4) +
                                   16 * (i >= 8)};
                int64_t reg = i + 16 * step + 16 * steps * slab;
                CHECK_TRUE(at(a, reg, lane, 4 * group + w) == expected,
                           "wgmma 8-bit A a" << i << " (" << m << "x" << k
                                             << ")");
              }
  }
  llvm::outs() << "ptx wgmma register A: ok\n";
}

static void testMfma() {
  // v_mfma_f32_32x32x8f16: reg i of lane l holds
  // row = (i % 4) + 4 * (l / 32) + 8 * (i / 4), col = l % 32.
  LinearLayout l32 = amd::mfmaAccumulator(32, 32, 32, 1, 1);
  for (int lane = 0; lane < 64; ++lane)
    for (int i = 0; i < 16; ++i) {
      Coord expected{i % 4 + 4 * (lane / 32) + 8 * (i / 4), lane % 32};
      CHECK_TRUE(at(l32, i, lane, 0) == expected, "mfma32 " << i);
    }
  // v_mfma_f32_16x16x16f16: row = i + 4 * (l / 16), col = l % 16.
  LinearLayout l16 = amd::mfmaAccumulator(16, 16, 16, 1, 1);
  for (int lane = 0; lane < 64; ++lane)
    for (int i = 0; i < 4; ++i) {
      Coord expected{i + 4 * (lane / 16), lane % 16};
      CHECK_TRUE(at(l16, i, lane, 0) == expected, "mfma16 " << i);
    }
  llvm::outs() << "amd mfma accumulators: ok\n";
}

static void testSwizzles(MLIRContext &ctx) {
  // The linear swizzle (offset -> coordinate) agrees with the byte-address
  // swizzle of SharedLayoutAttr (coordinate -> offset) on every element.
  // Also for swizzles of 8-byte units (AMD's MFMA operands).
  for (int bits : {8, 16, 32})
    for (auto [swizzle, unit] : {std::pair{0, 16},
                                 {32, 16},
                                 {64, 16},
                                 {128, 16},
                                 {32, 8},
                                 {64, 8},
                                 {128, 8}})
      for (Coord shape : {Coord{64, 64}, Coord{2, 64, 64}, Coord{128, 32}}) {
        auto attr = SharedLayoutAttr::get(&ctx, swizzle, 0, unit);
        std::optional<LinearLayout> l = attr.getLinearLayout(shape, bits);
        CHECK_TRUE(l && l->isBijective(), "swizzle is a bijection");
        if (!l)
          continue;
        int64_t numElements = 1;
        for (int64_t s : shape)
          numElements *= s;
        bool agree = true;
        for (int64_t off = 0; off < numElements; ++off) {
          Coord coord = l->apply({{LinearLayout::kOffset, off}});
          int64_t bytes = attr.getByteOffset(coord, shape, bits);
          agree &= bytes == off * bits / 8;
        }
        CHECK_TRUE(agree, "swizzle " << swizzle << " unit " << unit << " bits "
                                     << bits);
      }
  // 128B swizzle of f16 64-wide rows: 16-byte chunk c of row r lands in
  // chunk c ^ (r % 8): the 8 rows an ldmatrix reads hit 8 different chunks.
  auto attr = SharedLayoutAttr::get(&ctx, 128, 0);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      CHECK_TRUE(attr.getByteOffset({r, c * 8}, {64, 64}, 16) ==
                     r * 128 + ((c ^ r) * 16),
                 "128B swizzle chunk");
  // Rows wider than the swizzle: the 32 x 128 bf16 B tile of the GEMM is
  // stored as two column panels of 32 rows x 128 bytes, each 128B-swizzled.
  // The 8 k rows one ldmatrix.trans reads, and the 8 chunks of a panel row
  // that 8 consecutive threads copy, both fall in 8 different 16-byte bank
  // groups.
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 16; ++c)
      CHECK_TRUE(attr.getByteOffset({r, c * 8}, {32, 128}, 16) ==
                     (c / 8) * 32 * 128 + r * 128 + (((c % 8) ^ (r % 8)) * 16),
                 "128B swizzle panels");
  for (int c = 0; c < 16; ++c) {
    std::set<int64_t> rowsGroups, chunkGroups;
    for (int i = 0; i < 8; ++i) {
      rowsGroups.insert(attr.getByteOffset({i, c * 8}, {32, 128}, 16) / 16 % 8);
      chunkGroups.insert(
          attr.getByteOffset({c, (c / 8) * 64 + i * 8}, {32, 128}, 16) / 16 %
          8);
    }
    CHECK_TRUE(rowsGroups.size() == 8 && chunkGroups.size() == 8,
               "128B panels are conflict-free");
  }
  // Padding: rows of 64 f16 plus 16 bytes.
  auto padded = SharedLayoutAttr::get(&ctx, 0, 16);
  CHECK_TRUE(padded.getByteOffset({3, 5}, {8, 64}, 16) == 3 * 144 + 10,
             "padded offset");
  CHECK_TRUE(padded.getSizeInBytes({8, 64}, 16) == 8 * 144, "padded size");
  CHECK_TRUE(!padded.getLinearLayout({8, 64}, 16), "padding is not linear");
  llvm::outs() << "shared swizzles: ok\n";
}

static void testRoundTrips() {
  int count = 0;
  for (auto &[name, l] : namedLayouts()) {
    ++count;
    // Every named layout covers its whole tile.
    CHECK_TRUE(l.isSurjective(), name << " is surjective");
    if (l.isBijective()) {
      std::optional<LinearLayout> inv = l.invert();
      CHECK_TRUE(inv.has_value(), name << " invertible");
      if (!inv)
        continue;
      std::optional<LinearLayout> there = l.compose(*inv);
      std::optional<LinearLayout> back = inv->compose(l.flattenInDims("in"));
      CHECK_TRUE(there && isIdentity(*there), name << ": inv . l == id");
      CHECK_TRUE(back && isIdentity(*back), name << ": l . inv == id");
      std::optional<LinearLayout> twice = inv->invert();
      CHECK_TRUE(
          twice && twice->getInDims().front().bases ==
                       [&] {
                         SmallVector<uint64_t> cols;
                         for (auto &d : l.getInDims())
                           llvm::append_range(cols, d.bases);
                         return cols;
                       }(),
          name << ": inverse of inverse");
    } else {
      CHECK_TRUE(l.isInjective() || !l.invert(),
                 name << ": only injective layouts invert");
      CHECK_TRUE(l.getReplication() > 1 || l.getRegisterDuplication() > 1,
                 name << ": non-bijective named layouts replicate");
    }
    // Every layout is contained in itself.
    if (l.isDistributed())
      CHECK_TRUE(l.isContainedIn(l), name << " contained in itself");
  }
  llvm::outs() << "round trips over " << count << " named layouts: ok\n";
}

static void testReplicationAndContainment() {
  // Operand A over 2x2 warps is replicated over the 2 warps sharing rows.
  LinearLayout a = nvidia::mmaSyncOperandA(64, 32, 16, 2, 2);
  CHECK_TRUE(a.getReplication() == 2, "operand A replication");
  LinearLayout acc = nvidia::mmaSyncAccumulator(64, 64, 2, 2);
  CHECK_TRUE(acc.getReplication() == 1, "accumulator not replicated");
  CHECK_TRUE(acc.getVectorWidth() == 2, "accumulator holds pairs");
  // FlashAttention: with warps only along M, the f32 accumulator of
  // S = Q K^T is exactly the f16 A operand layout of P V.
  CHECK_TRUE(nvidia::mmaSyncAccumulator(128, 64, 4, 1) ==
                 nvidia::mmaSyncOperandA(128, 64, 16, 4, 1),
             "accumulator == A operand (full_row)");
  CHECK_TRUE(nvidia::mmaSyncAccumulator(128, 64, 2, 2) !=
                 nvidia::mmaSyncOperandA(128, 64, 16, 2, 2),
             "accumulator != A operand (square)");
  // Reducing rows of the accumulator: each row is held by the 4 lanes of a
  // quad.
  LinearLayout rows = nvidia::mmaSyncAccumulator(128, 64, 4, 1).projectOut(1);
  CHECK_TRUE(rows.getOutShape() == ArrayRef<int64_t>{128}, "row shape");
  CHECK_TRUE(rows.getReplication() == 4, "row vector replicated 4x");
  CHECK_TRUE(rows.getRegistersPerThread() == 4, "row vector registers");
  // Containment: the thread running (i, j) of the accumulator holds row i.
  // Lift the row layout back: every holder of S[i, j] holds m[i].
  LinearLayout s = nvidia::mmaSyncAccumulator(128, 64, 4, 1);
  bool holds = true;
  for (int w = 0; w < 4; ++w)
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < s.getRegistersPerThread(); ++r) {
        Coord e = at(s, r, lane, w);
        bool found = false;
        for (int r2 = 0; r2 < rows.getRegistersPerThread(); ++r2)
          found |= at(rows, r2, lane, w)[0] == e[0];
        holds &= found;
      }
  CHECK_TRUE(holds, "row vector holders cover accumulator rows");
  // A blocked layout is not contained in an mma layout and vice versa.
  LinearLayout blocked = LinearLayout::blocked({64, 64}, 128, 2, 32);
  CHECK_TRUE(!blocked.isContainedIn(acc), "blocked not in mma");
  CHECK_TRUE(!acc.isContainedIn(blocked), "mma not in blocked");
  // A non-replicated layout is contained in its replicated superset: 64
  // elements over 128 threads (replicated over warp bit 1) contain the
  // layout where warps 2, 3 hold the same elements as warps 0, 1.
  LinearLayout small = LinearLayout::blocked({64}, 128, 1, 32);
  CHECK_TRUE(small.getReplication() == 2, "64 elements over 128 threads");
  LinearLayout narrow = LinearLayout::blocked({64}, 64, 1, 32);
  CHECK_TRUE(narrow.getReplication() == 1, "64 elements over 64 threads");
  llvm::outs() << "replication and containment: ok\n";
}

static void testInjectiveInverse() {
  // Injective layouts that do not cover their tile: one warp holding a
  // column block of a wider tile, and a memory layout over part of a tile.
  SmallVector<LinearLayout> layouts;
  layouts.push_back(LinearLayout(
      {{"register", {1, 8 * 16}}, {"lane", {2, 4, 16, 32, 64}}}, {16, 16}));
  layouts.push_back(LinearLayout({{"offset", {1, 2, 4, 16 | 1}}}, {8, 4}));
  for (const LinearLayout &l : layouts) {
    CHECK_TRUE(l.isInjective() && !l.isSurjective(), "injective only");
    std::optional<LinearLayout> inv = l.invert();
    CHECK_TRUE(inv.has_value(), "left inverse exists");
    if (!inv)
      continue;
    // Layout then inverse (in -> coord -> in) is the identity; the other
    // way round only holds on the layout's image.
    std::optional<LinearLayout> roundTrip = l.flattenInDims("in").compose(*inv);
    CHECK_TRUE(roundTrip && isIdentity(*roundTrip),
               "left inverse: inverse(layout(x)) == x");
  }
  // A replicated layout is not injective: no inverse.
  CHECK_TRUE(!LinearLayout::blocked({64}, 128, 1, 32).invert(),
             "replicated layouts have no inverse");
  llvm::outs() << "injective inverses: ok\n";
}

static void testCompose(MLIRContext &ctx) {
  // Distributed -> coordinate -> swizzled offset, checked pointwise.
  LinearLayout a = nvidia::mmaSyncOperandA(64, 64, 16, 2, 2);
  auto attr = SharedLayoutAttr::get(&ctx, 128, 0);
  LinearLayout mem = *attr.getLinearLayout({64, 64}, 16);
  std::optional<LinearLayout> toOffset = a.compose(*mem.invert());
  CHECK_TRUE(toOffset.has_value(), "compose with swizzle inverse");
  bool agree = true;
  for (int w = 0; w < 4; ++w)
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < a.getRegistersPerThread(); ++r) {
        Coord e = at(a, r, lane, w);
        Coord off = toOffset->apply({{LinearLayout::kRegister, r},
                                     {LinearLayout::kLane, lane},
                                     {LinearLayout::kWarp, w}});
        agree &= off[0] * 2 == attr.getByteOffset(e, {64, 64}, 16);
      }
  CHECK_TRUE(agree, "composed offsets");
  llvm::outs() << "composition: ok\n";
}

static void testAttributes(MLIRContext &ctx) {
  for (auto &[name, l] : namedLayouts()) {
    if (!l.isDistributed())
      continue;
    auto attr = LinearLayoutAttr::get(&ctx, l);
    CHECK_TRUE(attr.getLinearLayout() == l, name << " attribute round trip");
  }
  llvm::outs() << "attributes: ok\n";
}

int main() {
  MLIRContext ctx;
  ctx.loadDialect<TileDialect>();
  testPtxMmaSync();
  testPtxWgmma();
  testMfma();
  testSwizzles(ctx);
  testRoundTrips();
  testReplicationAndContainment();
  testInjectiveInverse();
  testCompose(ctx);
  testAttributes(ctx);
  llvm::outs() << numChecks << " checks, " << numFailures << " failures\n";
  return numFailures == 0 ? 0 : 1;
}
