//===- Epilogue.h - Tensor stores of accumulator tiles ----------*- C++ -*-===//
//
// A copy of a fragment (an accumulator) into a global tensor can leave the
// registers through shared memory and tensor stores: the threads write one
// column panel of the tile (rows x 128 bytes, swizzled as a tensor map
// reads it) into a staging buffer, and one thread hands the panel to the
// tensor copy engine, which writes it to global memory while the threads
// go on (with two buffers, with the next panel; then with the next tile's
// main loop). `tile-select-tma` decides it and records the number of
// staging buffers on the copy as `tile.tma_store = N` (0: keep the
// register path, the caller's override); `tile-lower-ops` emits what the
// attribute says.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_EPILOGUE_H
#define TILE_TRANSFORMS_EPILOGUE_H

#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir::tile {

/// The attribute on a fragment -> global tile.copy: staging buffers of its
/// tensor store (0 or absent: the register path).
inline constexpr llvm::StringLiteral kTmaStoreAttrName = "tile.tma_store";

/// The attribute on a tensor-store copy: the bytes of one row of a staging
/// panel, 32, 64 or 128 (absent: 128), the swizzle span of the buffers and
/// the tensor map.
inline constexpr llvm::StringLiteral kTmaStorePanelAttrName =
    "tile.tma_store_panel";

/// Bytes of one row of a staging panel by default: the 128-byte swizzle span.
inline constexpr int64_t kTmaStorePanelBytes = 128;

/// Why `copy` (fragment -> global) cannot be a tensor store with panels of
/// `panelBytes`-byte rows, or "": the element type, the tile's shape (at
/// most 256 rows, whole panels), the fragment's layout (each element held
/// once, the threads' columns inside one panel) and the tensor's static
/// strides.
std::string whyNotTmaStore(CopyOp copy,
                           int64_t panelBytes = kTmaStorePanelBytes);

/// Bytes of staging shared memory `buffers` panels of `copy` take.
int64_t getTmaStoreStagingBytes(CopyOp copy, int64_t buffers,
                                int64_t panelBytes);

/// The panel row bytes recorded on `copy` (kTmaStorePanelBytes when none).
inline int64_t getTmaStorePanelBytes(CopyOp copy) {
  auto attr = copy->getAttrOfType<IntegerAttr>(kTmaStorePanelAttrName);
  return attr ? attr.getInt() : kTmaStorePanelBytes;
}

/// The staging buffers recorded on `copy` (0 when none).
int64_t getTmaStoreBuffers(CopyOp copy);

/// Whether tensor store `copy`, run by `groups` warpgroups of
/// `warpgroupSize` threads, can store per warpgroup: each warpgroup's
/// threads hold only rows of their own slab of rows / groups consecutive
/// rows (a multiple of 8, the swizzle's period), so that each warpgroup
/// writes, fences and stores its slab of every panel on its own.
bool storesRowsByWarpgroup(CopyOp copy, int64_t groups, int64_t warpgroupSize);

/// Whether the staging buffers of tensor stores `a` and `b` may lie over
/// each other: the same threads issue both (thread 0 of the same tile.ws
/// region, or of the kernel; not warpgroups taking tiles in turn, which
/// store apart), never both in one run of their code (they lie in the two
/// regions of the scf.if closest around both). The lowering of such a
/// store waits, before its first panel, for every earlier store's reads.
bool tmaStagingsMayShare(CopyOp a, CopyOp b);

/// Tensor stores grouped by the storage their staging buffers share: the
/// stores, largest staging first (`bytes`), each join the first group all
/// of whose stores may share with it. A group's first store has the
/// largest staging; the group takes its bytes.
SmallVector<SmallVector<CopyOp>>
groupTmaStagings(ArrayRef<CopyOp> stores,
                 llvm::function_ref<int64_t(CopyOp)> bytes);

/// The attribute on a gemm that promotes one K block late (`partials`) in
/// a persistent kernel's tile loop: its tile's epilogue runs one tile late,
/// at the first K block of the next tile, once that block's MMAs are in
/// flight (tile-plan-pipes marks it where the kernel asks for it with
/// `tile.epilogue_late = true`, and the rule holds).
inline constexpr llvm::StringLiteral kEpilogueLateAttrName =
    "tile.epilogue_late";

/// What runs one tile late: the ops of a tile loop's body after the op
/// holding the gemms' K loops, and the zero fill of their accumulator that
/// the body starts with.
struct LateEpilogue {
  /// The persistent tile loop (`tile.tile_loop`).
  scf::ForOp tileLoop;
  /// The fill of the accumulator, before `ops` in their block.
  FillOp fill;
  /// The epilogue: every op after the K loops' op in the block, in order.
  SmallVector<Operation *> ops;
  /// Scalars the epilogue uses that the tile's body defines: carried to the
  /// next tile.
  SmallVector<Value> carried;
  /// The gemms into the accumulator, all in the K loops' op.
  SmallVector<GemmOp> gemms;
};

/// Why the epilogue of the tile of `gemm` cannot run one tile late, or ""
/// with `result` filled. It can where `gemm` promotes one K block late
/// (`partials`: the first K block's MMAs go in flight into the partial
/// sums, not into the accumulator) in a loop inside a tile.ws region's
/// tile loop whose body (or the branch of it taking valid tiles) is: the
/// zero fill of the accumulator, ops, the op holding the K loop (every gemm
/// into the accumulator in it promoting late in a loop), then the epilogue:
/// tile copies, fills and parallels, and ops that write no memory, that
/// read tiles only the epilogue writes or the accumulator, use only scalars
/// of the body, and whose results only the epilogue uses. Tiles of one grid
/// are unordered, so the next tile's ops may run first.
std::string analyzeLateEpilogue(GemmOp gemm, LateEpilogue &result);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_EPILOGUE_H
