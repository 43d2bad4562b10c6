//===- LayoutGrids.h - Grids of distributed and shared layouts --*- C++ -*-===//
//
// Turns a layout into the Grid tile-layout renders: a distributed layout
// (#tile.linear) into one cell per element showing the thread and register
// holding it, a shared layout (#tile.shared) into one cell per 16-byte chunk
// or element showing where it lands in shared memory. Also lists every holder
// of each element of a distributed layout (--holders).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_LAYOUTGRIDS_H
#define TILE_LAYOUT_LAYOUTGRIDS_H

#include "Grid.h"

#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileAttrs.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tile_layout {

/// What the cells of a shared layout show (--cell).
enum class SharedCell { Group, Offset, Bank };
/// What the SVG colours of a distributed layout show (--color-by).
enum class ColorBy { Thread, Warp, Register };

/// Every (thread, register) holding each element of a distributed layout.
struct Holders {
  int64_t lanesPerWarp = 32, numWarps = 1, numRegs = 1;
  /// Per flat element, in increasing (thread, register) order.
  std::vector<llvm::SmallVector<std::pair<int64_t, int64_t>, 1>> of;
};

/// Applies `layout` to every (register, lane, warp).
Holders computeHolders(const mlir::tile::LinearLayout &layout);

/// Prints the header line, then one line per element listing all its holders.
void printHolders(const mlir::tile::LinearLayout &layout, const Holders &h,
                  llvm::raw_ostream &os);

/// One cell per element, showing its lowest (thread, register) holder.
Grid distributedGrid(const mlir::tile::LinearLayout &layout, const Holders &h,
                     ColorBy colorBy);

/// One cell per `elemsPerCell` consecutive elements of a row of a tile of
/// `shape` x `eltBits`-bit elements, showing `sharedCell` of the physical
/// byte offset of its first element.
Grid sharedGrid(mlir::tile::SharedLayoutAttr attr,
                llvm::ArrayRef<int64_t> shape, int64_t eltBits,
                int64_t elemsPerCell, SharedCell sharedCell);

} // namespace tile_layout

#endif // TILE_LAYOUT_LAYOUTGRIDS_H
