//===- WgmmaInstructions.h - wgmma descriptors and inline asm ---*- C++ -*-===//
//
// The pieces of a `wgmma.mma_async` that Wgmma.cpp's emitter composes:
// matrix descriptors of shared operands (WgmmaInstructions.cpp documents
// their bits) and the instruction as inline assembly for the forms NVVM's
// op lacks (register A, run-time scale-d).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TARGET_NVIDIA_WGMMAINSTRUCTIONS_H
#define TILE_LIB_TARGET_NVIDIA_WGMMAINSTRUCTIONS_H

#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tile::nvidia {

/// A shared operand as descriptors address it.
struct DescriptorOperand {
  SharedOperand tile;
  bool kMajor;    // the contiguous (last) dimension is K
  int64_t rows;   // rows of the stored matrix
  int64_t bytes;  // bytes per element
  uint64_t fixed; // LBO, SBO and swizzle bits
  Value baseLow;  // low descriptor word (i32) of the tile's buffer start
  Value offset;   // i32 bytes from the buffer start to the operand
};

/// Operand `x` of `op` (`name` in diagnostics) as descriptors address it,
/// K-major when `kMajor`; an error where its tile is not in a swizzled
/// shared layout.
FailureOr<DescriptorOperand> describe(OpBuilder &b, Location loc, GemmOp op,
                                      const GemmOperand &x, StringRef name,
                                      bool kMajor);

/// The descriptor of the instruction operand starting at MN index `mn` (a
/// multiple of the panel width) and K index `k`.
/// The descriptor at K index 0 is built once per MN index (the same
/// values for every k step, which CSE shares); a k step adds its constant
/// byte offset / 16 to the start address field. All offsets are multiples
/// of 16 and the operand lies in the shared window (below 2^18 bytes), so
/// the field never carries into the next one. Only the low word depends on
/// the address: it is computed in 32 bits and the high word is a constant,
/// which keeps 64-bit shifts and carries out of every K step. The low word
/// is the buffer's (loop-invariant, hoisted by LLVM) plus the operand's
/// offset / 16, so that a slot of a multi-versioned buffer costs one add
/// of a value derived from the loop counter.
Value descriptorAt(OpBuilder &b, Location loc, const DescriptorOperand &d,
                   Value mn, int64_t k);

/// One `wgmma.mma_async` emitted as inline assembly: A from a descriptor
/// (SS form) or from 4 x b32 registers (RS form), scale-d (add to the
/// accumulator, or overwrite it) a run-time i1 or a constant.
struct WgmmaAsm {
  Value acc;            // struct of n / 2 f32, tied to the result
  Value descA;          // i64 descriptor (SS form), or
  SmallVector<Value> a; // 4 x i32 (RS form)
  Value descB;          // i64 descriptor
  Value meta;           // i32 2:4 sparsity metadata (wgmma.sp), or null
  Value accumulate;     // i1 scale-d, or null: the constant `scaleD`
  bool scaleD = true;
  int64_t n = 0, k = 16;
  StringRef typeA, typeB; // PTX input types ("f16", "e4m3", ...)
  // 16-bit inputs only: PTX has no transpose for 8-bit ones.
  bool transposeA = false; // SS form only
  bool transposeB = false;
};

/// wgmma.sp reads its metadata registers while it runs, which ptxas does
/// not know: where a gemm leaves MMA groups in flight, each K step's words
/// must stay in their registers until a later step's wait completes those
/// MMAs. Each gemm stores its words in its own carried array and returns
/// the previous gemm's (GemmEmission::carriedArrays), for keepRegistersLive
/// after its wait.
SmallVector<Value> carrySparseMetadata(OpBuilder &b, Location loc,
                                       const GemmEmission &g,
                                       ArrayRef<Value> metas);

/// A use of `values` that ptxas keeps: a store of them to a scratch word of
/// shared memory, predicated on the first being 0x7fffffff (an invalid
/// metadata word; the store harms nothing if it runs).
void keepRegistersLive(OpBuilder &b, Location loc, ValueRange values);

/// Emits `w`. NVVM's op takes only a descriptor for A and a constant
/// scale-d (LLVM would also merge two constant variants under a branch into
/// one with a non-constant operand): the RS form and run-time scale-d go
/// through here.
Value emitWgmmaAsm(OpBuilder &b, Location loc, const WgmmaAsm &w);

/// The PTX and NVVM names of a wgmma input type.
StringRef getPtxType(Type t);

/// The 32-bit 2:4 sparsity metadata register lane `lane` of a warp passes
/// to mma.sp m16n8k32 or, per warp, to wgmma.sp m64nNk32 (sparsity
/// selector 0) for K step `ks` (32 of K) of the 16 rows from `rows` of the
/// metadata tile `meta` (M x K/16 words of i16, docs/design.md 5.7): lanes
/// 4g and 4g + 1 hold rows g and g + 8, 16 of K each (lane 4g + i the i-th
/// half of the step), in the low and high 16 bits; the other two lanes of
/// a quad load the same words, which the instructions ignore.
Value loadSparseMetadata(OpBuilder &b, Location loc, const SharedOperand &meta,
                         Value rows, Value lane, int64_t ks);

/// The shared metadata tile of a 2:4-sparse gemm (an error on the gemm
/// where it has none).
FailureOr<SharedOperand> resolveSparseMetadata(const GemmEmission &g);

NVVM::WGMMATypes getNvvmType(Type t);

} // namespace mlir::tile::nvidia

#endif // TILE_LIB_TARGET_NVIDIA_WGMMAINSTRUCTIONS_H
