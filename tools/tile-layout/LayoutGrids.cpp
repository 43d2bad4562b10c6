//===- LayoutGrids.cpp - Grids of distributed and shared layouts ----------===//
//
// Builds the Grid of a distributed or shared layout, and the --holders list.
//
//===----------------------------------------------------------------------===//

#include "LayoutGrids.h"
#include "Support.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

using namespace mlir;
using namespace mlir::tile;

namespace tile_layout {

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

Holders computeHolders(const LinearLayout &layout) {
  Holders result;
  result.lanesPerWarp = layout.getInDimSize(LinearLayout::kLane);
  result.numWarps = layout.getInDimSize(LinearLayout::kWarp);
  result.numRegs = layout.getInDimSize(LinearLayout::kRegister);
  result.of.resize(size_t(1) << layout.getNumOutBits());
  for (int64_t warp = 0; warp < result.numWarps; ++warp)
    for (int64_t lane = 0; lane < result.lanesPerWarp; ++lane) {
      int64_t thread = warp * result.lanesPerWarp + lane;
      for (int64_t reg = 0; reg < result.numRegs; ++reg) {
        uint64_t flat = layout.applyFlat({{LinearLayout::kRegister, reg},
                                          {LinearLayout::kLane, lane},
                                          {LinearLayout::kWarp, warp}});
        result.of[flat].push_back({thread, reg});
      }
    }
  return result;
}

static std::string holderText(std::pair<int64_t, int64_t> holder) {
  return llvm::formatv("T{0}:R{1}", holder.first, holder.second).str();
}

static std::string coordText(ArrayRef<int64_t> coord) {
  return "(" + joinShape(coord, ", ") + ")";
}

static std::string distributedHeader(const LinearLayout &layout,
                                     const Holders &h) {
  std::string header;
  llvm::raw_string_ostream os(header);
  int64_t numThreads = h.numWarps * h.lanesPerWarp;
  os << "shape " << joinShape(layout.getOutShape()) << ", threads "
     << numThreads << " (" << h.numWarps
     << (h.numWarps == 1 ? " warp x " : " warps x ") << h.lanesPerWarp
     << " lanes), registers " << h.numRegs << " per thread, replication "
     << layout.getReplication() << ", vector " << layout.getVectorWidth();
  if (int64_t dup = layout.getRegisterDuplication(); dup > 1)
    os << ", register duplication " << dup;
  int64_t unheld =
      llvm::count_if(h.of, [](const auto &v) { return v.empty(); });
  if (unheld)
    os << ", " << unheld << " of " << h.of.size() << " elements not held";
  return header;
}

/// Row labels of a grid whose rows are the leading dimensions of `shape`.
static SmallVector<std::string> leadingRowLabels(ArrayRef<int64_t> shape) {
  SmallVector<std::string> labels;
  if (shape.size() <= 1)
    return {""};
  ArrayRef<int64_t> leading = shape.drop_back();
  int64_t rows = 1;
  for (int64_t s : leading)
    rows *= s;
  for (int64_t r = 0; r < rows; ++r) {
    SmallVector<int64_t> coord(leading.size());
    int64_t rest = r;
    for (int d = leading.size() - 1; d >= 0; --d) {
      coord[d] = rest % leading[d];
      rest /= leading[d];
    }
    labels.push_back(joinShape(coord, ","));
  }
  return labels;
}

Grid distributedGrid(const LinearLayout &layout, const Holders &h,
                     ColorBy colorBy) {
  Grid grid;
  grid.header = distributedHeader(layout, h);
  ArrayRef<int64_t> shape = layout.getOutShape();
  grid.cols = shape.back();
  grid.rows = int64_t(h.of.size()) / grid.cols;
  grid.rowLabels = leadingRowLabels(shape);
  for (int64_t c = 0; c < grid.cols; ++c)
    grid.colLabels.push_back(std::to_string(c));
  grid.cells.resize(h.of.size());
  for (auto [flat, list] : llvm::enumerate(h.of)) {
    Cell &cell = grid.cells[flat];
    std::string coord = coordText(layout.unpackCoord(flat));
    if (list.empty()) {
      cell.text = "-";
      cell.labels = {"-"};
      cell.title = coord + ": not held";
      continue;
    }
    auto [thread, reg] = list.front();
    cell.text = holderText(list.front());
    cell.labels = {"T" + std::to_string(thread), "R" + std::to_string(reg)};
    switch (colorBy) {
    case ColorBy::Thread:
      cell.color = thread % 8;
      break;
    case ColorBy::Warp:
      cell.color = (thread / h.lanesPerWarp) % 8;
      break;
    case ColorBy::Register:
      cell.color = reg % 8;
      break;
    }
    cell.title = coord + ":";
    constexpr size_t kMaxListed = 16;
    for (auto holder : ArrayRef(list).take_front(kMaxListed))
      cell.title += " " + holderText(holder);
    if (list.size() > kMaxListed)
      cell.title += llvm::formatv(" ... ({0} holders)", list.size()).str();
  }
  return grid;
}

void printHolders(const LinearLayout &layout, const Holders &h,
                  llvm::raw_ostream &os) {
  os << distributedHeader(layout, h) << "\n";
  for (auto [flat, list] : llvm::enumerate(h.of)) {
    os << coordText(layout.unpackCoord(flat)) << ":";
    if (list.empty())
      os << " -";
    for (auto holder : list)
      os << " " << holderText(holder);
    os << "\n";
  }
}

//===----------------------------------------------------------------------===//
// Shared layouts
//===----------------------------------------------------------------------===//

Grid sharedGrid(SharedLayoutAttr attr, ArrayRef<int64_t> shape, int64_t eltBits,
                int64_t elemsPerCell, SharedCell sharedCell) {
  Grid grid;
  grid.cellWidth = sharedCell == SharedCell::Offset ? 44 : 28;
  grid.cellHeight = 22;
  int64_t rowBytes = shape.back() * eltBits / 8;
  {
    llvm::raw_string_ostream os(grid.header);
    os << attrToString(attr) << " over " << joinShape(shape) << " x " << eltBits
       << "-bit: " << rowBytes + attr.getPad() << " bytes per row, "
       << attr.getSizeInBytes(shape, eltBits) << " bytes; cells: ";
    if (elemsPerCell > 1)
      os << "16-byte chunks (" << elemsPerCell << " elements)";
    else
      os << "elements";
    switch (sharedCell) {
    case SharedCell::Group:
      os << ", bank group (byte offset / 16 % 8)";
      break;
    case SharedCell::Offset:
      os << ", byte offset";
      break;
    case SharedCell::Bank:
      os << ", bank (byte offset / 4 % 32)";
      break;
    }
  }
  grid.cols = shape.back() / elemsPerCell;
  grid.rowLabels = leadingRowLabels(shape);
  grid.rows = grid.rowLabels.size();
  for (int64_t c = 0; c < grid.cols; ++c)
    grid.colLabels.push_back(std::to_string(c));
  ArrayRef<int64_t> leading = shape.drop_back();
  for (int64_t r = 0; r < grid.rows; ++r) {
    SmallVector<int64_t> coord(shape.size(), 0);
    int64_t rest = r;
    for (int d = leading.size() - 1; d >= 0; --d) {
      coord[d] = rest % leading[d];
      rest /= leading[d];
    }
    for (int64_t c = 0; c < grid.cols; ++c) {
      coord.back() = c * elemsPerCell;
      int64_t offset = attr.getByteOffset(coord, shape, eltBits);
      int64_t group = (offset / 16) % 8;
      int64_t value = sharedCell == SharedCell::Group    ? group
                      : sharedCell == SharedCell::Offset ? offset
                                                         : (offset / 4) % 32;
      Cell cell;
      cell.text = std::to_string(value);
      cell.labels = {cell.text};
      cell.color = group;
      std::string where = coordText(coord);
      if (elemsPerCell > 1) {
        coord.back() += elemsPerCell - 1;
        where += ".." + coordText(coord);
      }
      cell.title = llvm::formatv("{0}: byte offset {1}, bank group {2}, "
                                 "bank {3}",
                                 where, offset, group, (offset / 4) % 32)
                       .str();
      grid.cells.push_back(std::move(cell));
    }
  }
  return grid;
}

} // namespace tile_layout
