//===- LinearLayout.h - Linear layouts over GF(2) ---------------*- C++ -*-===//
//
// A linear layout maps the bits of named hardware indices (a register slot, a
// lane, a warp; or a memory offset) to the bits of a logical tile coordinate,
// linearly over GF(2): the coordinate of an input is the XOR of the basis
// vectors of its set bits. Tile shapes are padded to powers of two; the
// coordinate is packed into a flat, row-major index (the last dimension in
// the lowest bits), so a row-major memory layout is the identity matrix and
// an XOR swizzle is the identity plus a few off-diagonal bits.
//
// Distributed (fragment) layouts use the input dimensions "register", "lane"
// and "warp"; memory layouts use "offset" (in elements). A zero basis vector
// of "lane" or "warp" means replication: several threads hold the element.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_LINEARLAYOUT_H
#define TILE_DIALECT_LINEARLAYOUT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::tile {

class LinearLayout {
public:
  /// Names of the standard input dimensions.
  static constexpr llvm::StringLiteral kRegister = "register";
  static constexpr llvm::StringLiteral kLane = "lane";
  static constexpr llvm::StringLiteral kWarp = "warp";
  static constexpr llvm::StringLiteral kOffset = "offset";

  /// An input dimension: one basis vector (a flat output index) per bit.
  struct InDim {
    std::string name;
    SmallVector<uint64_t> bases;
    bool operator==(const InDim &other) const {
      return name == other.name && bases == other.bases;
    }
  };

  LinearLayout() = default;
  /// Builds a layout; `outShape` entries must be powers of two.
  LinearLayout(SmallVector<InDim> inDims, ArrayRef<int64_t> outShape);

  //===--------------------------------------------------------------------===//
  // Named constructors
  //===--------------------------------------------------------------------===//

  /// Row-major memory layout of a tile: offset -> coordinate is the identity.
  static LinearLayout rowMajor(ArrayRef<int64_t> shape);

  /// XOR-swizzled memory layout of a tile whose last dimension holds
  /// elements of `elementBits` bits: the `unitBytes`-byte chunk index within
  /// each `swizzleBytes` span (32, 64 or 128) is XORed with the index of
  /// the 128-byte line modulo the number of chunks the span holds, as TMA
  /// and wgmma define it for 16-byte units. Rows wider than `swizzleBytes`
  /// are first split into column panels of `swizzleBytes`, stored one after
  /// another (the layout of a tile that TMA loads as several boxes).
  /// `swizzleBytes` = 0 gives the row-major layout.
  static LinearLayout swizzled(ArrayRef<int64_t> shape, int64_t elementBits,
                               int64_t swizzleBytes, int64_t unitBytes = 16);

  /// Blocked element-wise layout over `numThreads` threads in warps of
  /// `warpSize` lanes: each thread holds `vector` consecutive elements of the
  /// last dimension, consecutive lanes take consecutive vectors (row-major),
  /// then warps, then the layout repeats in registers. Threads beyond the
  /// tile replicate it.
  static LinearLayout blocked(ArrayRef<int64_t> shape, int64_t numThreads,
                              int64_t vector, int64_t warpSize);

  // Instruction layouts (mma.sync, wgmma, MFMA) live with their targets:
  // tile/Target/NVIDIA/Layouts.h and tile/Target/AMD/Layouts.h.

  /// Helpers for building layouts of 2-D tiles: the flat index of (row, col)
  /// in a tile with `n` columns, and one basis vector per bit of `count` (a
  /// power of two) along a direction starting at `unit` (unit, 2*unit, ...).
  static uint64_t flatIndex2D(int64_t row, int64_t col, int64_t n);
  static void appendRepeats(SmallVector<uint64_t> &bases, int64_t count,
                            llvm::function_ref<uint64_t(int64_t)> at,
                            int64_t unit);

  //===--------------------------------------------------------------------===//
  // Structure
  //===--------------------------------------------------------------------===//

  ArrayRef<InDim> getInDims() const { return inDims; }
  ArrayRef<int64_t> getOutShape() const { return outShape; }
  unsigned getOutRank() const { return outShape.size(); }
  unsigned getNumOutBits() const { return numOutBits; }
  unsigned getNumInBits() const;
  /// Bits of input dimension `name` (0 if absent).
  unsigned getInDimBits(StringRef name) const;
  int64_t getInDimSize(StringRef name) const {
    return int64_t(1) << getInDimBits(name);
  }
  bool hasInDim(StringRef name) const;
  ArrayRef<uint64_t> getBases(StringRef name) const;
  /// True if the layout distributes elements over threads.
  bool isDistributed() const { return hasInDim(kLane); }

  /// Packs a coordinate into a flat index and back.
  uint64_t packCoord(ArrayRef<int64_t> coord) const;
  SmallVector<int64_t> unpackCoord(uint64_t flat) const;

  /// Applies the layout: XOR of the basis vectors of the set bits of each
  /// input (inputs not named are 0).
  uint64_t applyFlat(ArrayRef<std::pair<StringRef, int64_t>> inputs) const;
  SmallVector<int64_t>
  apply(ArrayRef<std::pair<StringRef, int64_t>> inputs) const {
    return unpackCoord(applyFlat(inputs));
  }

  //===--------------------------------------------------------------------===//
  // Algebra
  //===--------------------------------------------------------------------===//

  /// Rank of the layout's matrix over GF(2).
  unsigned getRank() const;
  bool isSurjective() const { return getRank() == numOutBits; }
  bool isInjective() const { return getRank() == getNumInBits(); }
  bool isBijective() const { return isSurjective() && isInjective(); }

  /// Number of threads that hold each element of a surjective distributed
  /// layout (1 without replication); 1 for memory layouts.
  int64_t getReplication() const;
  /// Number of registers of one thread holding the same element (1 unless
  /// registers are duplicated).
  int64_t getRegisterDuplication() const;
  /// Elements per thread (the register dimension's size).
  int64_t getRegistersPerThread() const { return getInDimSize(kRegister); }
  /// Number of consecutive elements of the last dimension held in
  /// consecutive registers (the widest vector access).
  int64_t getVectorWidth() const;
  /// True if register `r` of a distributed layout holds, in every thread,
  /// an element outside `shape` (a tile the layout covers padded to powers
  /// of two): the bits no lane or warp input moves already put it there.
  bool isRegisterOutside(int64_t r, ArrayRef<int64_t> shape) const;
  /// True if register `r` holds, in every thread, an element whose
  /// coordinate along `dim` lies inside `extent`.
  bool isRegisterInside(int64_t r, unsigned dim, int64_t extent) const;

  /// The inverse of an injective layout: its single input dimension
  /// "coord" ranges over flat coordinates, its output is the flat index of
  /// this layout's inputs, of shape [size of each input dimension, last
  /// first]. For a bijection it is the inverse; for an injective layout that
  /// does not cover its tile it is a left inverse, exact on the layout's
  /// image (inverse . layout is the identity). None if not injective.
  std::optional<LinearLayout> invert() const;

  /// `outer` after `this`: requires `outer` to have one input dimension with
  /// as many bits as this layout's output. The result has this layout's
  /// inputs and `outer`'s output.
  std::optional<LinearLayout> compose(const LinearLayout &outer) const;

  /// True if every thread that holds an element in this layout also holds
  /// it in `other` (both distributed over the same shape and threads).
  bool isContainedIn(const LinearLayout &other) const;

  /// The same map with all input dimensions merged into one named `name`
  /// (the first input dimension in the lowest bits).
  LinearLayout flattenInDims(StringRef name) const;

  /// Drops output dimension `dim` (reducing over it). Register bits that no
  /// longer move are removed; lane and warp bits become replication.
  LinearLayout projectOut(unsigned dim) const;

  /// Removes register basis vectors that are zero or that duplicate the span
  /// of earlier register vectors.
  LinearLayout compactRegisters() const;

  bool operator==(const LinearLayout &other) const {
    return inDims == other.inDims && outShape == other.outShape;
  }
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }

  void print(llvm::raw_ostream &os) const;

private:
  SmallVector<InDim> inDims;
  SmallVector<int64_t> outShape;
  unsigned numOutBits = 0;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const LinearLayout &layout) {
  layout.print(os);
  return os;
}

/// Rank over GF(2) of a set of bit vectors.
unsigned getGF2Rank(ArrayRef<uint64_t> vectors);

} // namespace mlir::tile

#endif // TILE_DIALECT_LINEARLAYOUT_H
