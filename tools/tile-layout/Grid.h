//===- Grid.h - The cell grid tile-layout renders ---------------*- C++ -*-===//
//
// A rows x cols grid of labelled cells with margin labels, the model every
// layout is turned into, and its rendering as a text grid or an SVG picture
// (one coloured box per cell, in the spirit of CuTe's print_latex).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_GRID_H
#define TILE_LAYOUT_GRID_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile_layout {

/// One cell of a rendered layout.
struct Cell {
  /// Text of the cell in the text grid.
  std::string text;
  /// Lines of the label in the SVG picture.
  llvm::SmallVector<std::string, 2> labels;
  /// SVG tooltip.
  std::string title;
  /// Palette index, or -1 for a blank (white) cell.
  int color = -1;
};

/// A rows x cols grid of cells with margin labels.
struct Grid {
  std::string header;
  llvm::SmallVector<std::string> rowLabels;
  llvm::SmallVector<std::string> colLabels;
  std::vector<Cell> cells;
  int64_t rows = 0, cols = 0;
  /// SVG box size.
  int cellWidth = 44, cellHeight = 28;

  const Cell &at(int64_t row, int64_t col) const {
    return cells[row * cols + col];
  }
};

/// Largest number of cells drawn.
inline constexpr int64_t kMaxCells = int64_t(1) << 16;

/// Prints the header line, then the column labels and one line per row, each
/// cell padded to its column's width.
void printTextGrid(const Grid &grid, llvm::raw_ostream &os);

/// Prints a standalone SVG document: the header as a caption, row and column
/// labels on the margins, one box per cell with its labels and tooltip.
void printSvgGrid(const Grid &grid, llvm::raw_ostream &os);

} // namespace tile_layout

#endif // TILE_LAYOUT_GRID_H
