//===- LinearLayout.cpp - Linear layouts over GF(2) -------------*- C++ -*-===//

#include "tile/Dialect/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// GF(2) helpers
//===----------------------------------------------------------------------===//

namespace {
/// An echelon basis of a subspace of GF(2)^64, kept reduced by leading bit.
class GF2Basis {
public:
  /// Reduces `v` against the basis.
  uint64_t reduce(uint64_t v) const {
    for (uint64_t b : basis)
      v = std::min(v, v ^ b);
    return v;
  }
  bool contains(uint64_t v) const { return reduce(v) == 0; }
  /// Adds `v`; returns true if it was independent.
  bool insert(uint64_t v) {
    v = reduce(v);
    if (!v)
      return false;
    basis.push_back(v);
    // Keep sorted descending by leading bit so that `reduce` works greedily.
    llvm::sort(basis, std::greater<uint64_t>());
    return true;
  }
  unsigned size() const { return basis.size(); }

private:
  SmallVector<uint64_t> basis;
};
} // namespace

unsigned mlir::tile::getGF2Rank(ArrayRef<uint64_t> vectors) {
  GF2Basis basis;
  for (uint64_t v : vectors)
    basis.insert(v);
  return basis.size();
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

LinearLayout::LinearLayout(SmallVector<InDim> dims, ArrayRef<int64_t> shape)
    : inDims(std::move(dims)), outShape(shape) {
  numOutBits = 0;
  for (int64_t size : outShape) {
    assert(size > 0 && llvm::isPowerOf2_64(size) &&
           "output sizes must be powers of two");
    numOutBits += llvm::Log2_64(size);
  }
  assert(numOutBits <= 64 && "layout too large");
}

uint64_t LinearLayout::flatIndex2D(int64_t row, int64_t col, int64_t n) {
  return (static_cast<uint64_t>(row) << llvm::Log2_64(n)) |
         static_cast<uint64_t>(col);
}

void LinearLayout::appendRepeats(SmallVector<uint64_t> &bases, int64_t count,
                                 llvm::function_ref<uint64_t(int64_t)> at,
                                 int64_t unit) {
  for (int64_t step = unit; step < unit * count; step *= 2)
    bases.push_back(at(step));
}

LinearLayout LinearLayout::rowMajor(ArrayRef<int64_t> shape) {
  return swizzled(shape, /*elementBits=*/8, /*swizzleBytes=*/0);
}

LinearLayout LinearLayout::swizzled(ArrayRef<int64_t> shape,
                                    int64_t elementBits, int64_t swizzleBytes,
                                    int64_t unitBytes) {
  LinearLayout probe({}, shape);
  unsigned bits = probe.getNumOutBits();
  // Byte bit b of an element offset is element bit b - log2(element bytes).
  int64_t eltShift = llvm::Log2_64(std::max<int64_t>(elementBits / 8, 1));
  // Rows wider than the swizzle are stored as column panels of swizzleBytes:
  // physical offset bits are [panel column | row | panel index | leading],
  // logical (row-major) ones [column | row | leading].
  unsigned colBits = shape.empty() ? 0 : llvm::Log2_64(shape.back());
  unsigned rowBits =
      shape.size() > 1 ? llvm::Log2_64(shape[shape.size() - 2]) : 0;
  unsigned panelColBits = colBits;
  if (swizzleBytes > 0) {
    int64_t panelElems = swizzleBytes >> eltShift;
    if (panelElems > 0 && panelElems < (int64_t(1) << colBits))
      panelColBits = llvm::Log2_64(panelElems);
  }
  auto logical = [&](unsigned i) -> uint64_t {
    unsigned bit = i;
    if (i >= panelColBits && i < colBits + rowBits) {
      unsigned rel = i - panelColBits;
      bit = rel < rowBits ? colBits + rel : panelColBits + (rel - rowBits);
    }
    return uint64_t(1) << bit;
  };
  // Chunk bits [u, u + s) are XORed with bits [7, 7 + s), u = log2(unit),
  // s = log2(span / unit).
  int64_t u = llvm::Log2_64(unitBytes);
  int64_t s =
      swizzleBytes >= unitBytes ? llvm::Log2_64(swizzleBytes / unitBytes) : 0;
  InDim offset{kOffset.str(), {}};
  for (unsigned i = 0; i < bits; ++i) {
    uint64_t col = logical(i);
    int64_t byteBit = i + eltShift;
    int64_t chunkBit = byteBit - 7 + u - eltShift;
    if (byteBit >= 7 && byteBit < 7 + s && chunkBit >= 0)
      col |= logical(chunkBit);
    offset.bases.push_back(col);
  }
  return LinearLayout({offset}, shape);
}

/// Assigns flat bits in order: `take` returns the next unassigned bit or 0
/// once all bits are taken (which means replication for thread dimensions).
namespace {
struct BitCursor {
  unsigned next = 0, end;
  explicit BitCursor(unsigned end) : end(end) {}
  uint64_t take() { return next < end ? uint64_t(1) << next++ : 0; }
  bool done() const { return next >= end; }
};
} // namespace

LinearLayout LinearLayout::blocked(ArrayRef<int64_t> shape, int64_t numThreads,
                                   int64_t vector, int64_t warpSize) {
  LinearLayout probe({}, shape);
  BitCursor cursor(probe.getNumOutBits());
  int64_t lastDim = shape.empty() ? 1 : shape.back();
  vector = std::min(vector, lastDim);
  InDim reg{kRegister.str(), {}}, lane{kLane.str(), {}}, warp{kWarp.str(), {}};
  for (int64_t v = 1; v < vector; v *= 2)
    reg.bases.push_back(cursor.take());
  for (int64_t l = 1; l < warpSize; l *= 2)
    lane.bases.push_back(cursor.take());
  for (int64_t w = 1; w < numThreads / warpSize; w *= 2)
    warp.bases.push_back(cursor.take());
  while (!cursor.done())
    reg.bases.push_back(cursor.take());
  return LinearLayout({reg, lane, warp}, shape);
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

unsigned LinearLayout::getNumInBits() const {
  unsigned bits = 0;
  for (const InDim &dim : inDims)
    bits += dim.bases.size();
  return bits;
}

unsigned LinearLayout::getInDimBits(StringRef name) const {
  for (const InDim &dim : inDims)
    if (dim.name == name)
      return dim.bases.size();
  return 0;
}

bool LinearLayout::hasInDim(StringRef name) const {
  return llvm::any_of(inDims,
                      [&](const InDim &dim) { return dim.name == name; });
}

ArrayRef<uint64_t> LinearLayout::getBases(StringRef name) const {
  for (const InDim &dim : inDims)
    if (dim.name == name)
      return dim.bases;
  return {};
}

uint64_t LinearLayout::packCoord(ArrayRef<int64_t> coord) const {
  uint64_t flat = 0;
  for (auto [c, size] : llvm::zip_equal(coord, outShape))
    flat = (flat << llvm::Log2_64(size)) | static_cast<uint64_t>(c);
  return flat;
}

SmallVector<int64_t> LinearLayout::unpackCoord(uint64_t flat) const {
  SmallVector<int64_t> coord(outShape.size());
  for (int d = static_cast<int>(outShape.size()) - 1; d >= 0; --d) {
    coord[d] = flat & (outShape[d] - 1);
    flat >>= llvm::Log2_64(outShape[d]);
  }
  return coord;
}

uint64_t
LinearLayout::applyFlat(ArrayRef<std::pair<StringRef, int64_t>> inputs) const {
  uint64_t out = 0;
  for (auto [name, value] : inputs) {
    ArrayRef<uint64_t> bases = getBases(name);
    for (auto [bit, basis] : llvm::enumerate(bases))
      if ((value >> bit) & 1)
        out ^= basis;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Algebra
//===----------------------------------------------------------------------===//

/// All basis vectors in input order.
static SmallVector<uint64_t> allColumns(const LinearLayout &layout) {
  SmallVector<uint64_t> cols;
  for (const LinearLayout::InDim &dim : layout.getInDims())
    llvm::append_range(cols, dim.bases);
  return cols;
}

unsigned LinearLayout::getRank() const { return getGF2Rank(allColumns(*this)); }

int64_t LinearLayout::getReplication() const {
  if (!isDistributed())
    return 1;
  GF2Basis regs;
  for (uint64_t b : getBases(kRegister))
    regs.insert(b);
  unsigned threadBits = getInDimBits(kLane) + getInDimBits(kWarp);
  unsigned independent = 0;
  GF2Basis all = regs;
  for (StringRef name : {kLane, kWarp})
    for (uint64_t b : getBases(name))
      independent += all.insert(b);
  return int64_t(1) << (threadBits - independent);
}

int64_t LinearLayout::getRegisterDuplication() const {
  ArrayRef<uint64_t> regs = getBases(kRegister);
  return int64_t(1) << (regs.size() - getGF2Rank(regs));
}

/// The bits of a distributed layout's output that some lane or warp input
/// moves.
static uint64_t threadMovedBits(const LinearLayout &layout) {
  uint64_t moved = 0;
  for (StringRef dim : {LinearLayout::kLane, LinearLayout::kWarp})
    if (layout.hasInDim(dim))
      for (uint64_t basis : layout.getBases(dim))
        moved |= basis;
  return moved;
}

bool LinearLayout::isRegisterOutside(int64_t r, ArrayRef<int64_t> shape) const {
  assert(shape.size() == outShape.size() && "one extent per output dim");
  // A thread's coordinate is the register's XOR the thread's bases: bits
  // outside every thread basis are the register's in all threads.
  SmallVector<int64_t> least =
      unpackCoord(applyFlat({{kRegister, r}}) & ~threadMovedBits(*this));
  for (auto [coord, extent] : llvm::zip_equal(least, shape))
    if (coord >= extent)
      return true;
  return false;
}

bool LinearLayout::isRegisterInside(int64_t r, unsigned dim,
                                    int64_t extent) const {
  // The largest coordinate any thread's element of `r` can have: every bit
  // a thread moves set.
  SmallVector<int64_t> most =
      unpackCoord(applyFlat({{kRegister, r}}) | threadMovedBits(*this));
  return most[dim] < extent;
}

int64_t LinearLayout::getVectorWidth() const {
  ArrayRef<uint64_t> regs = getBases(kRegister);
  unsigned lastBits = outShape.empty() ? 0 : llvm::Log2_64(outShape.back());
  unsigned k = 0;
  while (k < regs.size() && k < lastBits && regs[k] == (uint64_t(1) << k))
    ++k;
  return int64_t(1) << k;
}

std::optional<LinearLayout> LinearLayout::invert() const {
  if (!isInjective())
    return std::nullopt;
  SmallVector<uint64_t> cols = allColumns(*this);
  unsigned n = cols.size();
  // Rows of the matrix (one per output bit, over input bits). Keep n
  // independent ones (all of them for a bijection): the square submatrix
  // they form is invertible; output bits outside it do not matter on the
  // image of the layout.
  SmallVector<uint64_t> rows, aug;
  GF2Basis chosen;
  for (unsigned r = 0; r < numOutBits && rows.size() < n; ++r) {
    uint64_t row = 0;
    for (unsigned c = 0; c < n; ++c)
      if ((cols[c] >> r) & 1)
        row |= uint64_t(1) << c;
    if (!chosen.insert(row))
      continue;
    rows.push_back(row);
    aug.push_back(uint64_t(1) << r);
  }
  assert(rows.size() == n && "injective layout has full column rank");
  // Gauss-Jordan on the chosen rows, augmented with their output bits.
  for (unsigned c = 0; c < n; ++c) {
    unsigned pivot = c;
    while (pivot < n && !((rows[pivot] >> c) & 1))
      ++pivot;
    assert(pivot < n && "chosen rows must be independent");
    std::swap(rows[c], rows[pivot]);
    std::swap(aug[c], aug[pivot]);
    for (unsigned r = 0; r < n; ++r)
      if (r != c && ((rows[r] >> c) & 1)) {
        rows[r] ^= rows[c];
        aug[r] ^= aug[c];
      }
  }
  // Now input bit c = XOR of output bits in aug[c]. The inverse maps output
  // bit j to the input bits c whose aug[c] contains j.
  InDim coord{"coord", {}};
  for (unsigned j = 0; j < numOutBits; ++j) {
    uint64_t col = 0;
    for (unsigned c = 0; c < n; ++c)
      if ((aug[c] >> j) & 1)
        col |= uint64_t(1) << c;
    coord.bases.push_back(col);
  }
  // Input flat index: the first input dimension in the lowest bits, so the
  // output shape lists the input dimensions last-first.
  SmallVector<int64_t> shape;
  for (const InDim &dim : llvm::reverse(inDims))
    shape.push_back(int64_t(1) << dim.bases.size());
  return LinearLayout({coord}, shape);
}

std::optional<LinearLayout>
LinearLayout::compose(const LinearLayout &outer) const {
  if (outer.inDims.size() != 1 ||
      outer.inDims.front().bases.size() != numOutBits)
    return std::nullopt;
  ArrayRef<uint64_t> outerCols = outer.inDims.front().bases;
  SmallVector<InDim> dims;
  for (const InDim &dim : inDims) {
    InDim composed{dim.name, {}};
    for (uint64_t basis : dim.bases) {
      uint64_t image = 0;
      for (unsigned bit = 0; bit < numOutBits; ++bit)
        if ((basis >> bit) & 1)
          image ^= outerCols[bit];
      composed.bases.push_back(image);
    }
    dims.push_back(std::move(composed));
  }
  return LinearLayout(std::move(dims), outer.outShape);
}

bool LinearLayout::isContainedIn(const LinearLayout &other) const {
  if (outShape != other.outShape || !isDistributed() || !other.isDistributed())
    return false;
  for (StringRef name : {kLane, kWarp})
    if (getInDimBits(name) != other.getInDimBits(name))
      return false;
  GF2Basis otherRegs;
  for (uint64_t b : other.getBases(kRegister))
    otherRegs.insert(b);
  for (uint64_t b : getBases(kRegister))
    if (!otherRegs.contains(b))
      return false;
  for (StringRef name : {kLane, kWarp})
    for (auto [mine, theirs] :
         llvm::zip_equal(getBases(name), other.getBases(name)))
      if (!otherRegs.contains(mine ^ theirs))
        return false;
  return true;
}

LinearLayout LinearLayout::flattenInDims(StringRef name) const {
  return LinearLayout({InDim{name.str(), allColumns(*this)}}, outShape);
}

LinearLayout LinearLayout::projectOut(unsigned dim) const {
  assert(dim < outShape.size() && "dimension out of range");
  SmallVector<int64_t> shape(outShape);
  shape.erase(shape.begin() + dim);
  // Bit range of `dim` in the flat index.
  unsigned low = 0;
  for (unsigned d = dim + 1; d < outShape.size(); ++d)
    low += llvm::Log2_64(outShape[d]);
  unsigned width = llvm::Log2_64(outShape[dim]);
  uint64_t lowMask = (uint64_t(1) << low) - 1;
  SmallVector<InDim> dims;
  for (const InDim &in : inDims) {
    InDim projected{in.name, {}};
    for (uint64_t basis : in.bases)
      projected.bases.push_back((basis & lowMask) |
                                ((basis >> (low + width)) << low));
    dims.push_back(std::move(projected));
  }
  if (shape.empty())
    shape.push_back(1);
  return LinearLayout(std::move(dims), shape).compactRegisters();
}

LinearLayout LinearLayout::compactRegisters() const {
  LinearLayout result = *this;
  for (InDim &dim : result.inDims) {
    if (dim.name != kRegister)
      continue;
    GF2Basis span;
    SmallVector<uint64_t> kept;
    for (uint64_t b : dim.bases)
      if (span.insert(b))
        kept.push_back(b);
    dim.bases = std::move(kept);
  }
  return result;
}

void LinearLayout::print(llvm::raw_ostream &os) const {
  os << "[";
  llvm::interleaveComma(outShape, os);
  os << "]";
  for (const InDim &dim : inDims) {
    os << ", " << dim.name << " = [";
    llvm::interleaveComma(dim.bases, os, [&](uint64_t basis) {
      os << "[";
      llvm::interleaveComma(unpackCoord(basis), os);
      os << "]";
    });
    os << "]";
  }
}
