//===- Layout.cpp - C API for tile layouts ----------------------*- C++ -*-===//

#include "tile-c/Layout.h"

#include "mlir/CAPI/IR.h"
#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Target/AMD/Layouts.h"
#include "tile/Target/NVIDIA/Layouts.h"
#include "tile/Target/ShapeChecks.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::tile;

/// The limits of the named layouts' arguments: powers of two of at most
/// 2^30 each, covering at most 2^62 elements (as #tile.linear allows).
constexpr int64_t kMaxLayoutArgument = int64_t(1) << 30;
constexpr unsigned kMaxLayoutBits = 62;
constexpr intptr_t kMaxLayoutRank = 16;

static bool isPow2(int64_t v) {
  return v > 0 && v <= kMaxLayoutArgument && llvm::isPowerOf2_64(v);
}

/// The layout as an attribute; null for a null context or a tile of more
/// than 2^62 elements.
static MlirAttribute wrapLayout(MlirContext ctx,
                                function_ref<LinearLayout()> build,
                                ArrayRef<int64_t> shape) {
  if (mlirContextIsNull(ctx))
    return {nullptr};
  unsigned bits = 0;
  for (int64_t size : shape)
    bits += llvm::Log2_64(size);
  if (bits > kMaxLayoutBits)
    return {nullptr};
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<TileDialect>();
  return wrap(LinearLayoutAttr::get(context, build()));
}

MlirAttribute tileLinearLayoutGetMmaSyncAccumulator(MlirContext ctx, int64_t m,
                                                    int64_t n, int64_t warpsM,
                                                    int64_t warpsN) {
  if (!isPow2(m) || !isPow2(n) || !isPow2(warpsM) || !isPow2(warpsN) ||
      !nvidia::checkMmaSyncAccumulator(m, n, warpsM, warpsN).empty())
    return {nullptr};
  return wrapLayout(
      ctx, [&] { return nvidia::mmaSyncAccumulator(m, n, warpsM, warpsN); },
      {m, n});
}

MlirAttribute tileLinearLayoutGetMmaSyncOperandA(MlirContext ctx, int64_t m,
                                                 int64_t k, int64_t bits,
                                                 int64_t warpsM,
                                                 int64_t warpsN) {
  if (!isPow2(m) || !isPow2(k) || !isPow2(warpsM) || !isPow2(warpsN) ||
      !nvidia::checkMmaSyncOperandA(m, k, bits, warpsM).empty())
    return {nullptr};
  return wrapLayout(
      ctx, [&] { return nvidia::mmaSyncOperandA(m, k, bits, warpsM, warpsN); },
      {m, k});
}

MlirAttribute tileLinearLayoutGetMmaSyncOperandB(MlirContext ctx, int64_t k,
                                                 int64_t n, int64_t bits,
                                                 int64_t warpsM,
                                                 int64_t warpsN) {
  if (!isPow2(n) || !isPow2(k) || !isPow2(warpsM) || !isPow2(warpsN) ||
      !nvidia::checkMmaSyncOperandB(k, n, bits, warpsN).empty())
    return {nullptr};
  return wrapLayout(
      ctx, [&] { return nvidia::mmaSyncOperandB(k, n, bits, warpsM, warpsN); },
      {k, n});
}

MlirAttribute tileLinearLayoutGetWgmmaAccumulator(MlirContext ctx, int64_t m,
                                                  int64_t n,
                                                  int64_t warpgroups) {
  if (!isPow2(m) || !isPow2(n) || !isPow2(warpgroups) ||
      !nvidia::checkWgmmaAccumulator(m, n, warpgroups).empty())
    return {nullptr};
  return wrapLayout(
      ctx, [&] { return nvidia::wgmmaAccumulator(m, n, warpgroups); }, {m, n});
}

MlirAttribute tileLinearLayoutGetMfmaAccumulator(MlirContext ctx, int64_t m,
                                                 int64_t n, int64_t instr,
                                                 int64_t wavesM,
                                                 int64_t wavesN) {
  if (!isPow2(m) || !isPow2(n) || !isPow2(wavesM) || !isPow2(wavesN) ||
      !amd::checkMfmaAccumulator(m, n, instr, wavesM, wavesN).empty())
    return {nullptr};
  return wrapLayout(
      ctx, [&] { return amd::mfmaAccumulator(m, n, instr, wavesM, wavesN); },
      {m, n});
}

MlirAttribute tileLinearLayoutGetBlocked(MlirContext ctx, intptr_t rank,
                                         const int64_t *shape, int64_t threads,
                                         int64_t vector, int64_t warpSize) {
  if (rank <= 0 || rank > kMaxLayoutRank || !shape || !isPow2(warpSize) ||
      !isPow2(threads) || threads < warpSize || !isPow2(vector))
    return {nullptr};
  SmallVector<int64_t> padded;
  for (intptr_t d = 0; d < rank; ++d) {
    if (shape[d] <= 0 || shape[d] > kMaxLayoutArgument)
      return {nullptr};
    padded.push_back(llvm::PowerOf2Ceil(shape[d]));
  }
  return wrapLayout(
      ctx,
      [&] { return LinearLayout::blocked(padded, threads, vector, warpSize); },
      padded);
}

static std::optional<LinearLayout> getLayout(MlirAttribute attr) {
  if (auto layout = dyn_cast_or_null<LinearLayoutAttr>(unwrap(attr)))
    return layout.getLinearLayout();
  return std::nullopt;
}

bool tileAttributeIsALinearLayout(MlirAttribute attr) {
  return isa_and_present<LinearLayoutAttr>(unwrap(attr));
}

intptr_t tileLinearLayoutGetRank(MlirAttribute attr) {
  std::optional<LinearLayout> l = getLayout(attr);
  return l ? static_cast<intptr_t>(l->getOutRank()) : -1;
}

int64_t tileLinearLayoutGetDimSize(MlirAttribute attr, intptr_t dim) {
  std::optional<LinearLayout> l = getLayout(attr);
  if (!l || dim < 0 || dim >= static_cast<intptr_t>(l->getOutRank()))
    return -1;
  return l->getOutShape()[dim];
}

int64_t tileLinearLayoutGetNumThreads(MlirAttribute attr) {
  std::optional<LinearLayout> l = getLayout(attr);
  return l ? l->getInDimSize(LinearLayout::kLane) *
                 l->getInDimSize(LinearLayout::kWarp)
           : -1;
}

int64_t tileLinearLayoutGetRegistersPerThread(MlirAttribute attr) {
  std::optional<LinearLayout> l = getLayout(attr);
  return l ? l->getRegistersPerThread() : -1;
}

int64_t tileLinearLayoutGetReplication(MlirAttribute attr) {
  std::optional<LinearLayout> l = getLayout(attr);
  return l ? l->getReplication() : -1;
}

int64_t tileLinearLayoutGetVectorWidth(MlirAttribute attr) {
  std::optional<LinearLayout> l = getLayout(attr);
  return l ? l->getVectorWidth() : -1;
}

bool tileLinearLayoutGetElement(MlirAttribute attr, int64_t thread, int64_t reg,
                                int64_t *coord) {
  std::optional<LinearLayout> l = getLayout(attr);
  if (!l || !coord)
    return false;
  int64_t lanes = l->getInDimSize(LinearLayout::kLane);
  int64_t threads = lanes * l->getInDimSize(LinearLayout::kWarp);
  if (thread < 0 || thread >= threads || reg < 0 ||
      reg >= l->getRegistersPerThread())
    return false;
  SmallVector<int64_t> c = l->apply({{LinearLayout::kRegister, reg},
                                     {LinearLayout::kLane, thread % lanes},
                                     {LinearLayout::kWarp, thread / lanes}});
  llvm::copy(c, coord);
  return true;
}

namespace {
/// Vectors over GF(2) in echelon form: at most one vector per leading bit,
/// each with the combination of variables (`BitVector` over them) it is
/// the sum of.
struct Echelon {
  struct Row {
    uint64_t value = 0;
    llvm::BitVector combination;
  };
  std::array<std::optional<Row>, 64> rows;

  /// Reduces `row` by the rows; returns whether it became 0.
  bool reduce(Row &row) const {
    for (int bit = 63; bit >= 0; --bit)
      if ((row.value >> bit) & 1 && rows[bit]) {
        row.value ^= rows[bit]->value;
        row.combination ^= rows[bit]->combination;
      }
    return row.value == 0;
  }
};
} // namespace

bool tileLinearLayoutGetHolder(MlirAttribute attr, const int64_t *coord,
                               int64_t *thread, int64_t *reg) {
  std::optional<LinearLayout> l = getLayout(attr);
  if (!l || !coord || !thread || !reg)
    return false;
  ArrayRef<int64_t> shape = l->getOutShape();
  for (unsigned d = 0; d < shape.size(); ++d)
    if (coord[d] < 0 || coord[d] >= shape[d])
      return false;
  uint64_t target = l->packCoord(ArrayRef<int64_t>(coord, l->getOutRank()));
  // Solved over GF(2), in time polynomial in the layout's bits (a search
  // over threads x registers takes minutes on large layouts). The
  // variables are the input bits, least significant first: the register
  // bits, then the thread's (lane bits, then warp bits), so that among the
  // solutions the least as a number is the lowest thread, then its lowest
  // register.
  SmallVector<uint64_t> columns;
  for (StringRef name :
       {LinearLayout::kRegister, LinearLayout::kLane, LinearLayout::kWarp})
    llvm::append_range(columns, l->getBases(name));
  unsigned numVars = columns.size();
  unsigned regBits = l->getInDimBits(LinearLayout::kRegister);
  unsigned laneBits = l->getInDimBits(LinearLayout::kLane);
  Echelon image;
  SmallVector<llvm::BitVector> kernel;
  for (unsigned var = 0; var < numVars; ++var) {
    Echelon::Row row{columns[var], llvm::BitVector(numVars)};
    row.combination.set(var);
    if (image.reduce(row))
      kernel.push_back(std::move(row.combination));
    else
      image.rows[llvm::Log2_64(row.value)] = std::move(row);
  }
  Echelon::Row solution{target, llvm::BitVector(numVars)};
  if (!image.reduce(solution))
    return false; // no input reaches the element
  // The least solution: the kernel in echelon form by leading variable,
  // then each leading variable cleared from the highest down.
  std::vector<std::optional<llvm::BitVector>> byLead(numVars);
  for (llvm::BitVector &vector : kernel) {
    for (int lead = vector.find_last(); lead >= 0; lead = vector.find_last()) {
      if (!byLead[lead]) {
        byLead[lead] = std::move(vector);
        break;
      }
      vector ^= *byLead[lead];
    }
  }
  llvm::BitVector &x = solution.combination;
  for (int var = static_cast<int>(numVars) - 1; var >= 0; --var)
    if (byLead[var] && x.test(var))
      x ^= *byLead[var];
  auto bits = [&](unsigned first, unsigned count) {
    int64_t value = 0;
    for (unsigned i = 0; i < count; ++i)
      if (x.test(first + i))
        value |= int64_t(1) << i;
    return value;
  };
  int64_t lanes = l->getInDimSize(LinearLayout::kLane);
  *reg = bits(0, regBits);
  *thread = bits(regBits, laneBits) +
            lanes * bits(regBits + laneBits, numVars - regBits - laneBits);
  return true;
}

bool tileLinearLayoutIsContainedIn(MlirAttribute attr, MlirAttribute other) {
  std::optional<LinearLayout> a = getLayout(attr), b = getLayout(other);
  return a && b && a->isContainedIn(*b);
}

MlirAttribute tileSharedLayoutGet(MlirContext ctx, int64_t swizzle,
                                  int64_t pad) {
  if (mlirContextIsNull(ctx))
    return {nullptr};
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<TileDialect>();
  auto attr = SharedLayoutAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(context)); }, context, swizzle,
      pad);
  return wrap(attr);
}

bool tileAttributeIsASharedLayout(MlirAttribute attr) {
  return isa_and_present<SharedLayoutAttr>(unwrap(attr));
}

int64_t tileSharedLayoutGetSwizzle(MlirAttribute attr) {
  auto layout = dyn_cast_if_present<SharedLayoutAttr>(unwrap(attr));
  return layout ? layout.getSwizzle() : -1;
}

int64_t tileSharedLayoutGetPad(MlirAttribute attr) {
  auto layout = dyn_cast_if_present<SharedLayoutAttr>(unwrap(attr));
  return layout ? layout.getPad() : -1;
}

int64_t tileSharedLayoutGetByteOffset(MlirAttribute attr, intptr_t rank,
                                      const int64_t *shape,
                                      const int64_t *coord,
                                      int64_t elementBits) {
  auto layout = dyn_cast_if_present<SharedLayoutAttr>(unwrap(attr));
  if (!layout || rank <= 0 || rank > kMaxLayoutRank || !shape || !coord ||
      elementBits <= 0 || elementBits > 64)
    return -1;
  // Every coordinate in its dimension, and the tile's bytes (with the
  // padding of every row) within int64_t: then no offset overflows.
  int64_t rows = 1;
  for (intptr_t d = 0; d < rank; ++d) {
    if (shape[d] <= 0 || coord[d] < 0 || coord[d] >= shape[d])
      return -1;
    if (d + 1 < rank && llvm::MulOverflow(rows, shape[d], rows))
      return -1;
  }
  int64_t rowBits, rowBytes, bytes;
  if (llvm::MulOverflow(shape[rank - 1], elementBits, rowBits) ||
      llvm::AddOverflow(rowBits / 8, layout.getPad(), rowBytes) ||
      llvm::MulOverflow(rows, rowBytes, bytes) ||
      bytes > std::numeric_limits<int64_t>::max() / 2)
    return -1;
  return layout.getByteOffset(ArrayRef<int64_t>(coord, rank),
                              ArrayRef<int64_t>(shape, rank), elementBits);
}
