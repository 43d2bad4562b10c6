//===- Grid.cpp - Text and SVG rendering of a cell grid -------------------===//
//
// Renders a Grid as a text grid or as an SVG picture.
//
//===----------------------------------------------------------------------===//

#include "Grid.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using llvm::SmallVector;
using llvm::StringRef;

namespace tile_layout {

/// Escapes the characters that are markup in XML text and attributes.
static std::string xmlEscape(StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

void printTextGrid(const Grid &grid, llvm::raw_ostream &os) {
  os << grid.header << "\n";
  size_t labelWidth = 0;
  for (const std::string &label : grid.rowLabels)
    labelWidth = std::max(labelWidth, label.size());
  SmallVector<size_t> widths(grid.cols, 0);
  for (int64_t c = 0; c < grid.cols; ++c) {
    widths[c] = grid.colLabels[c].size();
    for (int64_t r = 0; r < grid.rows; ++r)
      widths[c] = std::max(widths[c], grid.at(r, c).text.size());
  }
  auto printRow = [&](StringRef label, auto cellText) {
    std::string line;
    line += std::string(labelWidth - label.size(), ' ');
    line += label;
    line += " |";
    for (int64_t c = 0; c < grid.cols; ++c) {
      StringRef text = cellText(c);
      line += " ";
      line += text;
      line += std::string(widths[c] - text.size(), ' ');
    }
    os << StringRef(line).rtrim() << "\n";
  };
  printRow("", [&](int64_t c) -> StringRef { return grid.colLabels[c]; });
  for (int64_t r = 0; r < grid.rows; ++r)
    printRow(grid.rowLabels[r],
             [&](int64_t c) -> StringRef { return grid.at(r, c).text; });
}

/// CuTe's print_latex palette.
static constexpr const char *kPalette[] = {"#afafff", "#afffaf", "#ffffaf",
                                           "#ffafaf", "#d2d2ff", "#d2ffd2",
                                           "#ffffd2", "#ffd2d2"};

void printSvgGrid(const Grid &grid, llvm::raw_ostream &os) {
  size_t labelChars = 1;
  for (const std::string &label : grid.rowLabels)
    labelChars = std::max(labelChars, label.size());
  const int w = grid.cellWidth, h = grid.cellHeight;
  const int left = 12 + 7 * labelChars;
  const int captionY = 16, colLabelY = 36, top = 46;
  int64_t width = std::max<int64_t>(left + grid.cols * w + 12,
                                    16 + 7 * int64_t(grid.header.size()));
  int64_t height = top + grid.rows * h + 12;

  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                      "width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n",
                      width, height);
  os << "<style>\n"
        "  svg { background-color: white; }\n"
        "  rect { stroke: black; stroke-width: 0.5; }\n"
        "  text { font-family: monospace; font-size: 10px; "
        "text-anchor: middle; dominant-baseline: central; }\n"
        "  text.caption { font-size: 12px; text-anchor: start; }\n"
        "  text.index { fill: #555555; }\n"
        "</style>\n";
  os << "<desc>" << xmlEscape(grid.header) << "</desc>\n";
  os << llvm::formatv("<text class=\"caption\" x=\"8\" y=\"{0}\">{1}</text>\n",
                      captionY, xmlEscape(grid.header));
  os << "<g class=\"col-indices\">\n";
  for (int64_t c = 0; c < grid.cols; ++c)
    os << llvm::formatv("  <text class=\"index\" x=\"{0}\" y=\"{1}\">{2}"
                        "</text>\n",
                        left + c * w + w / 2, colLabelY,
                        xmlEscape(grid.colLabels[c]));
  os << "</g>\n<g class=\"row-indices\">\n";
  for (int64_t r = 0; r < grid.rows; ++r)
    os << llvm::formatv("  <text class=\"index\" x=\"{0}\" y=\"{1}\">{2}"
                        "</text>\n",
                        left / 2, top + r * h + h / 2,
                        xmlEscape(grid.rowLabels[r]));
  os << "</g>\n<g class=\"cells\">\n";
  for (int64_t r = 0; r < grid.rows; ++r) {
    for (int64_t c = 0; c < grid.cols; ++c) {
      const Cell &cell = grid.at(r, c);
      int64_t x = left + c * w, y = top + r * h;
      const char *fill = cell.color < 0 ? "#ffffff" : kPalette[cell.color % 8];
      os << llvm::formatv("  <g><title>{0}</title><rect x=\"{1}\" y=\"{2}\" "
                          "width=\"{3}\" height=\"{4}\" fill=\"{5}\"/>",
                          xmlEscape(cell.title), x, y, w, h, fill);
      size_t n = cell.labels.size();
      for (auto [i, label] : llvm::enumerate(cell.labels)) {
        // Spread the lines evenly over the box.
        int64_t ly = y + (h * (2 * int64_t(i) + 1)) / (2 * int64_t(n));
        os << llvm::formatv("<text x=\"{0}\" y=\"{1}\">{2}</text>", x + w / 2,
                            ly, xmlEscape(label));
      }
      os << "</g>\n";
    }
  }
  os << "</g>\n</svg>\n";
}

} // namespace tile_layout
