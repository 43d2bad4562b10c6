//===- Layout.cpp - C API for tile layouts ----------------------*- C++ -*-===//

#include "tile-c/Layout.h"

#include "mlir/CAPI/IR.h"
#include "tile/Target/AMD/Layouts.h"
#include "tile/Target/NVIDIA/Layouts.h"
#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileDialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

static MlirAttribute wrapLayout(MlirContext ctx, const LinearLayout &layout) {
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<TileDialect>();
  return wrap(LinearLayoutAttr::get(context, layout));
}

static bool isPow2(int64_t v) { return v > 0 && llvm::isPowerOf2_64(v); }

MlirAttribute tileLinearLayoutGetMmaSyncAccumulator(MlirContext ctx, int64_t m,
                                                    int64_t n, int64_t warpsM,
                                                    int64_t warpsN) {
  if (!isPow2(m) || !isPow2(n) || !isPow2(warpsM) || !isPow2(warpsN) ||
      m % (16 * warpsM) || n % (8 * warpsN))
    return {nullptr};
  return wrapLayout(ctx,
                    nvidia::mmaSyncAccumulator(m, n, warpsM, warpsN));
}

MlirAttribute tileLinearLayoutGetMmaSyncOperandA(MlirContext ctx, int64_t m,
                                                 int64_t k, int64_t bits,
                                                 int64_t warpsM,
                                                 int64_t warpsN) {
  if (!isPow2(m) || !isPow2(k) || !isPow2(warpsM) || !isPow2(warpsN) ||
      (bits != 8 && bits != 16 && bits != 32) || m % (16 * warpsM) ||
      k % (256 / bits))
    return {nullptr};
  return wrapLayout(ctx,
                    nvidia::mmaSyncOperandA(m, k, bits, warpsM, warpsN));
}

MlirAttribute tileLinearLayoutGetMmaSyncOperandB(MlirContext ctx, int64_t k,
                                                 int64_t n, int64_t bits,
                                                 int64_t warpsM,
                                                 int64_t warpsN) {
  if (!isPow2(n) || !isPow2(k) || !isPow2(warpsM) || !isPow2(warpsN) ||
      (bits != 8 && bits != 16 && bits != 32) || n % (8 * warpsN) ||
      k % (256 / bits))
    return {nullptr};
  return wrapLayout(ctx,
                    nvidia::mmaSyncOperandB(k, n, bits, warpsM, warpsN));
}

MlirAttribute tileLinearLayoutGetWgmmaAccumulator(MlirContext ctx, int64_t m,
                                                  int64_t n,
                                                  int64_t warpgroups) {
  if (!isPow2(m) || !isPow2(n) || !isPow2(warpgroups) ||
      m % (64 * warpgroups) || n % 8 || n > 256)
    return {nullptr};
  return wrapLayout(ctx, nvidia::wgmmaAccumulator(m, n, warpgroups));
}

MlirAttribute tileLinearLayoutGetMfmaAccumulator(MlirContext ctx, int64_t m,
                                                 int64_t n, int64_t instr,
                                                 int64_t wavesM,
                                                 int64_t wavesN) {
  if ((instr != 16 && instr != 32) || !isPow2(m) || !isPow2(n) ||
      !isPow2(wavesM) || !isPow2(wavesN) || m % (instr * wavesM) ||
      n % (instr * wavesN))
    return {nullptr};
  return wrapLayout(ctx,
                    amd::mfmaAccumulator(m, n, instr, wavesM, wavesN));
}

MlirAttribute tileLinearLayoutGetBlocked(MlirContext ctx, intptr_t rank,
                                         const int64_t *shape, int64_t threads,
                                         int64_t vector, int64_t warpSize) {
  if (rank <= 0 || warpSize <= 0 || !isPow2(warpSize) || threads % warpSize ||
      !isPow2(threads / warpSize) || !isPow2(vector))
    return {nullptr};
  SmallVector<int64_t> padded;
  for (intptr_t d = 0; d < rank; ++d) {
    if (shape[d] <= 0)
      return {nullptr};
    padded.push_back(llvm::PowerOf2Ceil(shape[d]));
  }
  return wrapLayout(ctx, LinearLayout::blocked(padded, threads, vector, warpSize));
}

static std::optional<LinearLayout> getLayout(MlirAttribute attr) {
  if (auto layout = dyn_cast_or_null<LinearLayoutAttr>(unwrap(attr)))
    return layout.getLinearLayout();
  return std::nullopt;
}

bool tileAttributeIsALinearLayout(MlirAttribute attr) {
  return isa<LinearLayoutAttr>(unwrap(attr));
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
  if (!l)
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

bool tileLinearLayoutGetHolder(MlirAttribute attr, const int64_t *coord,
                               int64_t *thread, int64_t *reg) {
  std::optional<LinearLayout> l = getLayout(attr);
  if (!l)
    return false;
  ArrayRef<int64_t> shape = l->getOutShape();
  for (unsigned d = 0; d < shape.size(); ++d)
    if (coord[d] < 0 || coord[d] >= shape[d])
      return false;
  uint64_t target = l->packCoord(ArrayRef<int64_t>(coord, l->getOutRank()));
  int64_t lanes = l->getInDimSize(LinearLayout::kLane);
  int64_t threads = lanes * l->getInDimSize(LinearLayout::kWarp);
  int64_t regs = l->getRegistersPerThread();
  // Lowest thread, then lowest register: a direct search is exact and cheap
  // at tile sizes (at most threads x registers applications).
  for (int64_t t = 0; t < threads; ++t) {
    uint64_t threadPart = l->applyFlat(
        {{LinearLayout::kLane, t % lanes}, {LinearLayout::kWarp, t / lanes}});
    for (int64_t r = 0; r < regs; ++r)
      if ((threadPart ^ l->applyFlat({{LinearLayout::kRegister, r}})) ==
          target) {
        *thread = t;
        *reg = r;
        return true;
      }
  }
  return false;
}

bool tileLinearLayoutIsContainedIn(MlirAttribute attr, MlirAttribute other) {
  std::optional<LinearLayout> a = getLayout(attr), b = getLayout(other);
  return a && b && a->isContainedIn(*b);
}

MlirAttribute tileSharedLayoutGet(MlirContext ctx, int64_t swizzle,
                                  int64_t pad) {
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<TileDialect>();
  auto attr = SharedLayoutAttr::getChecked(
      [&] { return emitError(UnknownLoc::get(context)); }, context, swizzle,
      pad);
  return wrap(attr);
}

bool tileAttributeIsASharedLayout(MlirAttribute attr) {
  return isa<SharedLayoutAttr>(unwrap(attr));
}

int64_t tileSharedLayoutGetSwizzle(MlirAttribute attr) {
  auto layout = dyn_cast<SharedLayoutAttr>(unwrap(attr));
  return layout ? layout.getSwizzle() : -1;
}

int64_t tileSharedLayoutGetPad(MlirAttribute attr) {
  auto layout = dyn_cast<SharedLayoutAttr>(unwrap(attr));
  return layout ? layout.getPad() : -1;
}

int64_t tileSharedLayoutGetByteOffset(MlirAttribute attr, intptr_t rank,
                                      const int64_t *shape,
                                      const int64_t *coord,
                                      int64_t elementBits) {
  auto layout = dyn_cast<SharedLayoutAttr>(unwrap(attr));
  if (!layout || rank <= 0)
    return -1;
  return layout.getByteOffset(ArrayRef<int64_t>(coord, rank),
                              ArrayRef<int64_t>(shape, rank), elementBits);
}
