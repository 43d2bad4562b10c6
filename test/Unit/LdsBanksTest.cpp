//===- LdsBanksTest.cpp - The CDNA LDS bank model and MFMA layouts -*- C++ -*-//
//
// Checks the LDS bank model of the AMD target on hand-computed access
// patterns, then prints, for MFMA operand tiles (A and B, both
// transposes, the 32x32x8 and 16x16x16 instructions, 16-bit elements: f16
// and bf16 read alike), the LDS cycles of the operand reads and of a copy's
// stores under the 16-byte-chunk swizzle the tile got before (the ldmatrix
// one) and under the layout the AMD target chooses now. A row fails when
// the chosen layout takes more than the minimum cycles; the test also
// counts the rows whose previous layout had conflicts.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/AMD/LdsBanks.h"
#include "tile/Dialect/TileDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::amd;

static int numFailures = 0;

static void expect(bool ok, const Twine &what) {
  if (!ok) {
    ++numFailures;
    llvm::outs() << "FAILED: " << what << "\n";
  }
}

/// A wave's access with lane l at `address(l)`.
static LdsAccess access(int64_t bytes, function_ref<int64_t(int64_t)> at) {
  LdsAccess a;
  a.bytes = bytes;
  for (int64_t l = 0; l < 64; ++l)
    a.addresses.push_back(at(l));
  return a;
}

static void testModel() {
  auto cycles = [](const LdsAccess &a) { return getLdsCycles(a).cycles; };
  // Consecutive dwords, 8-byte and 16-byte runs: one cycle per 128 bytes.
  expect(cycles(access(4, [](int64_t l) { return 4 * l; })) == 2, "b32 run");
  expect(cycles(access(8, [](int64_t l) { return 8 * l; })) == 4, "b64 run");
  expect(cycles(access(16, [](int64_t l) { return 16 * l; })) == 8, "b128 run");
  // Everybody reads one dword: a broadcast.
  expect(cycles(access(4, [](int64_t) { return 0; })) == 2, "broadcast");
  // A stride of 128 bytes: the lanes of a phase share one bank.
  expect(cycles(access(4, [](int64_t l) { return 128 * l; })) == 64,
         "b32 stride 128");
  expect(cycles(access(8, [](int64_t l) { return 128 * l; })) == 64,
         "b64 stride 128");
  // 8-byte reads of 16 rows of 64 bytes: two rows per 128 bytes, 8 lanes
  // per bank pair.
  expect(cycles(access(8, [](int64_t l) { return 64 * l; })) == 32,
         "b64 stride 64");
  // 16-bit reads: two lanes per dword.
  expect(cycles(access(2, [](int64_t l) { return 2 * l; })) == 2, "b16 run");
  // Inactive lanes take nothing.
  LdsAccess half = access(16, [](int64_t l) { return l < 32 ? 16 * l : -1; });
  expect(getLdsCycles(half).cycles == 4 && getLdsCycles(half).minimum == 4,
         "inactive lanes");
  llvm::outs() << "bank model: " << (numFailures ? "FAILED" : "ok") << "\n";
}

namespace {
struct Case {
  const char *operand; // A, A^T, B, B^T
  int64_t instr;
  int64_t rows, cols; // the shared tile
  int64_t outerWaves;
};
} // namespace

static void testOperands(MLIRContext &ctx) {
  // The tiles of the examples (gemm: A 128x32, B 32x128; FlashAttention:
  // Q 128x128, K 64x128 read transposed, V 64x128) and more K extents.
  const Case cases[] = {
      {"A", 32, 128, 32, 2},   {"A", 16, 128, 32, 2},   {"A", 32, 128, 64, 2},
      {"A", 16, 128, 64, 2},   {"A", 32, 128, 128, 4},  {"A", 16, 128, 128, 4},
      {"A", 32, 64, 16, 2},    {"A", 16, 64, 16, 2},    {"B^T", 32, 64, 128, 1},
      {"B^T", 16, 64, 128, 1}, {"B^T", 32, 128, 32, 2}, {"B^T", 16, 128, 32, 2},
      {"B", 32, 32, 128, 2},   {"B", 16, 32, 128, 2},   {"B", 32, 64, 128, 1},
      {"B", 16, 64, 128, 1},   {"A^T", 32, 32, 128, 2}, {"A^T", 16, 32, 128, 2},
  };
  Type f16 = Float16Type::get(&ctx);
  auto space = gpu::AddressSpaceAttr::get(&ctx, gpu::AddressSpace::Workgroup);
  int64_t conflictedBefore = 0;
  llvm::outs() << "operand instr tile: before: layout reads/min stores/min; "
                  "after: layout reads/min stores/min\n";
  for (const Case &c : cases) {
    StringRef operand = c.operand;
    bool kContiguous = operand == "A" || operand == "B^T";
    MfmaOperandReads reads;
    reads.instr = c.instr;
    reads.kPerLane = 4;
    reads.instrK = c.instr == 32 ? 8 : 16;
    reads.k = kContiguous ? c.cols : c.rows;
    int64_t outer = kContiguous ? c.rows : c.cols;
    reads.outerWaves = c.outerWaves;
    reads.outerPerWave = outer / c.outerWaves;
    reads.kContiguous = kContiguous;
    auto type = MemRefType::get({c.rows, c.cols}, f16,
                                MemRefLayoutAttrInterface(), space);
    SmallVector<LdsLayoutCost> costs = evaluateLdsLayouts(type, {reads});
    const LdsLayoutCost &before = costs.front();
    const LdsLayoutCost &after = getCheapest(costs);
    auto show = [](const LdsLayoutCost &cost) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << cost.layout << " " << cost.reads.cycles << "/" << cost.reads.minimum
         << " " << cost.stores.cycles << "/" << cost.stores.minimum;
      return text;
    };
    llvm::outs() << llvm::formatv("{0} {1} {2}x{3}: before: {4}; after: {5}\n",
                                  operand, c.instr, c.rows, c.cols,
                                  show(before), show(after));
    expect(after.reads.excess() == 0 && after.stores.excess() == 0,
           Twine("conflicts left for ") + operand);
    if (before.reads.excess() || before.stores.excess())
      ++conflictedBefore;
  }
  llvm::outs() << "operands with conflicts before: " << conflictedBefore
               << "\n";
}

int main() {
  MLIRContext ctx;
  ctx.loadDialect<TileDialect, gpu::GPUDialect>();
  testModel();
  testOperands(ctx);
  llvm::outs() << numFailures << " failures\n";
  return numFailures ? 1 : 0;
}
