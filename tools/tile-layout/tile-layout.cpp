//===- tile-layout.cpp - Print and draw tile layouts ------------*- C++ -*-===//
//
// Shows which thread and register hold each element of a distributed tile
// layout, or where each chunk of a shared-memory tile lands, as a text grid or
// an SVG picture (in the spirit of CuTe's print_layout and print_latex).
//
//   tile-layout --mma-acc=16x8
//   tile-layout --mma-a=16x16 --bits=16 --format=svg -o a.svg
//   tile-layout '#tile.linear<[128], register = [[8], [16]],
//                lane = [[0], [0], [1], [2], [4]], warp = [[32], [64]]>'
//                --holders
//   tile-layout '#tile.shared<swizzle = 128>' --shape=8x64 --element-bits=16
//
//===----------------------------------------------------------------------===//

#include "tile/Target/AMD/Layouts.h"
#include "tile/Target/NVIDIA/Layouts.h"
#include "tile/Dialect/ChipDescription.h"
#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
namespace cl = llvm::cl;

static constexpr llvm::StringLiteral kToolName = "tile-layout";

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

namespace {
enum class OutputFormat { Text, Svg };
enum class SharedCell { Group, Offset, Bank };
enum class ColorBy { Thread, Warp, Register };
} // namespace

static cl::OptionCategory layoutCategory("Layout (give exactly one)");
static cl::OptionCategory modifierCategory("Layout parameters");
static cl::OptionCategory outputCategory("Output");

static cl::opt<std::string>
    attrText(cl::Positional, cl::desc("<layout attribute>"),
             cl::value_desc("#tile.linear<...> | #tile.shared<...>"),
             cl::cat(layoutCategory));

static cl::opt<std::string>
    mmaAcc("mma-acc", cl::value_desc("MxN"), cl::cat(layoutCategory),
           cl::desc("mma.sync m16n8 accumulator (C/D) over an M x N tile "
                    "(with --warps)"));
static cl::opt<std::string>
    mmaA("mma-a", cl::value_desc("MxK"), cl::cat(layoutCategory),
         cl::desc("mma.sync A operand over an M x K tile (with --bits, "
                  "--warps)"));
static cl::opt<std::string>
    mmaB("mma-b", cl::value_desc("KxN"), cl::cat(layoutCategory),
         cl::desc("mma.sync B operand over a K x N tile (with --bits, "
                  "--warps)"));
static cl::opt<std::string>
    wgmmaAcc("wgmma-acc", cl::value_desc("MxN"), cl::cat(layoutCategory),
             cl::desc("Hopper wgmma m64nNk* accumulator over an M x N tile "
                      "(with --warpgroups)"));
static cl::opt<std::string>
    mfmaAcc("mfma-acc", cl::value_desc("MxN"), cl::cat(layoutCategory),
            cl::desc("AMD MFMA accumulator over an M x N tile (with --instr, "
                     "--warps; 64-lane wavefronts)"));
static cl::opt<std::string>
    blockedShape("blocked", cl::value_desc("SHAPE"), cl::cat(layoutCategory),
                 cl::desc("blocked element-wise layout of a tile of SHAPE "
                          "(e.g. 128 or 64x64; with --threads, --vector)"));
static cl::opt<int>
    swizzleBytes("swizzle", cl::value_desc("BYTES"), cl::cat(layoutCategory),
                 cl::desc("shared tile with a 32, 64 or 128-byte XOR swizzle "
                          "(0: row-major; with --shape, --element-bits)"));
static cl::opt<int>
    padBytes("pad", cl::value_desc("BYTES"), cl::cat(layoutCategory),
             cl::desc("shared tile whose rows are followed by BYTES unused "
                      "bytes (with --shape, --element-bits)"));

static cl::opt<std::string>
    warps("warps", cl::value_desc("WMxWN"), cl::init("1x1"),
          cl::cat(modifierCategory),
          cl::desc("warps (waves) along M x N for --mma-acc, --mma-a, "
                   "--mma-b, --mfma-acc (default 1x1)"));
static cl::opt<int> bits("bits", cl::value_desc("B"), cl::init(16),
                         cl::cat(modifierCategory),
                         cl::desc("element bits of --mma-a / --mma-b: 8, 16 "
                                  "or 32 (tf32) (default 16)"));
static cl::opt<int>
    warpgroups("warpgroups", cl::value_desc("G"), cl::init(1),
               cl::cat(modifierCategory),
               cl::desc("warpgroups stacked along M for --wgmma-acc "
                        "(default 1)"));
static cl::opt<int> instr("instr", cl::value_desc("16|32"), cl::init(32),
                          cl::cat(modifierCategory),
                          cl::desc("MFMA instruction size for --mfma-acc: "
                                   "32 (32x32x8) or 16 (16x16x16) "
                                   "(default 32)"));
/// Threads of --blocked; its option is built in main (see there).
static int numThreads = 128;
static cl::opt<std::string>
    chipName("chip", cl::value_desc("CHIP"), cl::init(kDefaultChip.str()),
             cl::cat(modifierCategory),
             cl::desc("target whose warp size --blocked uses (default "
                      "sm_90a: 32 lanes; gfx942: 64-lane wavefronts)"));
static cl::opt<int> vectorWidth("vector", cl::value_desc("V"), cl::init(1),
                                cl::cat(modifierCategory),
                                cl::desc("consecutive elements per thread of "
                                         "--blocked (default 1)"));
static cl::opt<std::string>
    sharedShape("shape", cl::value_desc("RxC"), cl::cat(modifierCategory),
                cl::desc("tile shape of a shared layout (--swizzle, --pad or "
                         "#tile.shared)"));
static cl::opt<int>
    elementBits("element-bits", cl::value_desc("B"), cl::init(16),
                cl::cat(modifierCategory),
                cl::desc("element bits of a shared layout: 4, 8, 16, 32 or "
                         "64 (default 16)"));

static cl::opt<OutputFormat> outputFormat(
    "format", cl::desc("output format"), cl::init(OutputFormat::Text),
    cl::values(clEnumValN(OutputFormat::Text, "text", "a text grid (default)"),
               clEnumValN(OutputFormat::Svg, "svg",
                          "an SVG picture, one coloured box per cell")),
    cl::cat(outputCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("output file"),
                                           cl::value_desc("file"),
                                           cl::init("-"),
                                           cl::cat(outputCategory));
static cl::opt<bool>
    holders("holders", cl::cat(outputCategory),
            cl::desc("list every thread and register holding each element "
                     "(distributed layouts, text only)"));
static cl::opt<bool>
    printAttr("print-attr", cl::cat(outputCategory),
              cl::desc("print the layout attribute (#tile.linear<...> or "
                       "#tile.shared<...>) and nothing else"));
static cl::opt<bool>
    elementCells("elements", cl::cat(outputCategory),
                 cl::desc("shared layouts: one cell per element instead of "
                          "one per 16-byte chunk"));
static cl::opt<SharedCell> sharedCell(
    "cell", cl::desc("what a shared layout's cells show"),
    cl::init(SharedCell::Group),
    cl::values(clEnumValN(SharedCell::Group, "group",
                          "16-byte bank group: byte offset / 16 % 8 "
                          "(default)"),
               clEnumValN(SharedCell::Offset, "offset",
                          "physical byte offset from the tile's base"),
               clEnumValN(SharedCell::Bank, "bank",
                          "4-byte bank: byte offset / 4 % 32")),
    cl::cat(outputCategory));
static cl::opt<ColorBy> colorBy(
    "color-by", cl::desc("SVG colours of distributed layouts"),
    cl::init(ColorBy::Thread),
    cl::values(clEnumValN(ColorBy::Thread, "thread", "thread % 8 (default)"),
               clEnumValN(ColorBy::Warp, "warp", "warp % 8"),
               clEnumValN(ColorBy::Register, "register", "register % 8")),
    cl::cat(outputCategory));

static const char *const kOverview = R"(tile-layout: print or draw tile layouts

Give one layout: a layout attribute as the positional argument, or one of the
named layouts below.

  tile-layout '#tile.linear<[16, 8], register = [[0, 1], [8, 0]],
      lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>'
  tile-layout --mma-acc=64x64 --warps=2x2
  tile-layout --mma-a=16x16 --bits=16 --format=svg -o a.svg
  tile-layout --swizzle=128 --shape=8x64 --element-bits=16
  tile-layout '#tile.shared<pad = 16>' --shape=16x64 --cell=bank --elements

Distributed layouts (#tile.linear and the mma / wgmma / mfma / blocked
layouts): the text grid has one cell per element (rows = leading dimensions,
columns = the last dimension), `T<t>:R<r>`: register r of thread t, where
t = warp * lanes-per-warp (32, or 64 for wavefronts) + lane is the
lowest-numbered thread holding the element (and r its lowest register);
`-` marks an element no thread holds. A header line gives the shape, the
threads, the registers per thread, the replication (threads holding each
element) and the vector width (consecutive elements in consecutive
registers). --holders lists every (thread, register) holding each element
instead. --print-attr prints the #tile.linear attribute of a named layout.

Shared layouts (#tile.shared, --swizzle, --pad; need --shape): one cell per
16-byte chunk of a row (the column index is the logical chunk index), or per
element with --elements; the cell shows the 16-byte bank group of the
physical byte offset of the chunk's first element (offset / 16 % 8: banks
4g..4g+3), its byte offset (--cell=offset), or its 4-byte bank
(--cell=bank). For a 128-byte swizzle the group of chunk c of row r is
c ^ (r % 8). Eight 16-byte accesses (one phase of ldmatrix, or of 16-byte
loads and stores) are free of bank conflicts when their chunks lie in eight
different groups.

SVG output draws one box per cell with row and column indices on the
margins: distributed layouts are coloured by thread % 8 (or --color-by) and
labelled T<t> and R<r>, with every holder in the box's tooltip; shared
layouts are coloured by bank group.
)";

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), kToolName) << message << "\n";
  return 1;
}

/// Parses "16x8" / "128" / "4x64x64" into positive sizes.
static LogicalResult parseShape(StringRef text, StringRef option,
                                SmallVectorImpl<int64_t> &shape,
                                bool powersOfTwo) {
  shape.clear();
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  int64_t total = 1;
  for (StringRef part : parts) {
    int64_t size;
    if (part.trim().getAsInteger(10, size) || size <= 0 ||
        size > (int64_t(1) << 24)) {
      fail(llvm::formatv("--{0}: expected sizes separated by 'x' (like "
                         "16x8), got '{1}'",
                         option, text));
      return failure();
    }
    total *= size;
    if (total > (int64_t(1) << 40)) {
      fail(llvm::formatv("--{0}: shape {1} is too large", option, text));
      return failure();
    }
    shape.push_back(size);
  }
  if (powersOfTwo)
    for (int64_t size : shape)
      if (!llvm::isPowerOf2_64(size)) {
        fail(llvm::formatv("--{0}: shape entries must be powers of two, got "
                           "{1} in {2}",
                           option, size, text));
        return failure();
      }
  return success();
}

static std::string joinShape(ArrayRef<int64_t> shape, StringRef sep = "x") {
  return llvm::join(
      llvm::map_range(shape, [](int64_t s) { return std::to_string(s); }), sep);
}

static std::string attrToString(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

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

//===----------------------------------------------------------------------===//
// Grids
//===----------------------------------------------------------------------===//

namespace {
/// One cell of a rendered layout.
struct Cell {
  /// Text of the cell in the text grid.
  std::string text;
  /// Lines of the label in the SVG picture.
  SmallVector<std::string, 2> labels;
  /// SVG tooltip.
  std::string title;
  /// Palette index, or -1 for a blank (white) cell.
  int color = -1;
};

/// A rows x cols grid of cells with margin labels.
struct Grid {
  std::string header;
  SmallVector<std::string> rowLabels;
  SmallVector<std::string> colLabels;
  std::vector<Cell> cells;
  int64_t rows = 0, cols = 0;
  /// SVG box size.
  int cellWidth = 44, cellHeight = 28;

  const Cell &at(int64_t row, int64_t col) const {
    return cells[row * cols + col];
  }
};
} // namespace

/// Largest number of cells drawn.
static constexpr int64_t kMaxCells = int64_t(1) << 16;

static void printTextGrid(const Grid &grid, llvm::raw_ostream &os) {
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

static void printSvgGrid(const Grid &grid, llvm::raw_ostream &os) {
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

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

namespace {
/// Every (thread, register) holding each element of a distributed layout.
struct Holders {
  int64_t lanesPerWarp = 32, numWarps = 1, numRegs = 1;
  /// Per flat element, in increasing (thread, register) order.
  std::vector<SmallVector<std::pair<int64_t, int64_t>, 1>> of;
};
} // namespace

static Holders computeHolders(const LinearLayout &layout) {
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

static Grid distributedGrid(const LinearLayout &layout, const Holders &h) {
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

static void printHolders(const LinearLayout &layout, const Holders &h,
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

static Grid sharedGrid(SharedLayoutAttr attr, ArrayRef<int64_t> shape,
                       int64_t eltBits, int64_t elemsPerCell) {
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

//===----------------------------------------------------------------------===//
// Building the layout
//===----------------------------------------------------------------------===//

namespace {
/// The layout to show: distributed or shared.
struct Layout {
  std::optional<LinearLayout> distributed;
  SharedLayoutAttr shared;
};
} // namespace

/// Checks that `size` is a positive multiple of `unit`.
static LogicalResult checkMultiple(StringRef option, StringRef what,
                                   int64_t size, int64_t unit,
                                   StringRef unitText) {
  if (size % unit == 0)
    return success();
  fail(llvm::formatv("--{0}: {1} = {2} must be a multiple of {3} ({4})", option,
                     what, size, unitText, unit));
  return failure();
}

static LogicalResult checkPowerOfTwo(StringRef option, int64_t value,
                                     int64_t minimum) {
  if (value >= minimum && llvm::isPowerOf2_64(value))
    return success();
  fail(llvm::formatv("--{0} must be a power of two of at least {1}, got {2}",
                     option, minimum, value));
  return failure();
}

static LogicalResult parseWarps(int64_t &wm, int64_t &wn) {
  SmallVector<int64_t> w;
  if (failed(parseShape(warps, "warps", w, /*powersOfTwo=*/true)))
    return failure();
  if (w.size() != 2) {
    fail("--warps: expected WMxWN, got '" + warps + "'");
    return failure();
  }
  wm = w[0];
  wn = w[1];
  return success();
}

static LogicalResult parseMatrix(StringRef text, StringRef option,
                                 int64_t &rows, int64_t &cols) {
  SmallVector<int64_t> shape;
  if (failed(parseShape(text, option, shape, /*powersOfTwo=*/true)))
    return failure();
  if (shape.size() != 2) {
    fail(llvm::formatv("--{0}: expected a 2-d shape like 16x8, got '{1}'",
                       option, text));
    return failure();
  }
  rows = shape[0];
  cols = shape[1];
  return success();
}

static LogicalResult checkMmaBits(StringRef option) {
  if (bits == 8 || bits == 16 || bits == 32)
    return success();
  fail(llvm::formatv("--{0}: --bits must be 8, 16 or 32, got {1}", option,
                     int(bits)));
  return failure();
}

static std::optional<LinearLayout> buildNamedLayout(StringRef source) {
  int64_t m, n, wm, wn;
  if (source == "mma-acc") {
    if (failed(parseMatrix(mmaAcc, source, m, n)) ||
        failed(parseWarps(wm, wn)) ||
        failed(checkMultiple(source, "M", m, 16 * wm, "16 x warps along M")) ||
        failed(checkMultiple(source, "N", n, 8 * wn, "8 x warps along N")))
      return std::nullopt;
    return nvidia::mmaSyncAccumulator(m, n, wm, wn);
  }
  if (source == "mma-a") {
    if (failed(parseMatrix(mmaA, source, m, n)) || failed(parseWarps(wm, wn)) ||
        failed(checkMmaBits(source)) ||
        failed(checkMultiple(source, "M", m, 16 * wm, "16 x warps along M")) ||
        failed(checkMultiple(source, "K", n, 256 / bits, "256 / bits")))
      return std::nullopt;
    return nvidia::mmaSyncOperandA(m, n, bits, wm, wn);
  }
  if (source == "mma-b") {
    if (failed(parseMatrix(mmaB, source, m, n)) || failed(parseWarps(wm, wn)) ||
        failed(checkMmaBits(source)) ||
        failed(checkMultiple(source, "K", m, 256 / bits, "256 / bits")) ||
        failed(checkMultiple(source, "N", n, 8 * wn, "8 x warps along N")))
      return std::nullopt;
    return nvidia::mmaSyncOperandB(m, n, bits, wm, wn);
  }
  if (source == "wgmma-acc") {
    if (failed(parseMatrix(wgmmaAcc, source, m, n)) ||
        failed(checkPowerOfTwo("warpgroups", warpgroups, 1)) ||
        failed(checkMultiple(source, "M", m, 64 * warpgroups,
                             "64 x warpgroups")) ||
        failed(checkMultiple(source, "N", n, 8, "8")))
      return std::nullopt;
    return nvidia::wgmmaAccumulator(m, n, warpgroups);
  }
  if (source == "mfma-acc") {
    if (instr != 16 && instr != 32) {
      fail(llvm::formatv("--instr must be 16 or 32, got {0}", int(instr)));
      return std::nullopt;
    }
    if (failed(parseMatrix(mfmaAcc, source, m, n)) ||
        failed(parseWarps(wm, wn)) ||
        failed(checkMultiple(source, "M", m, instr * wm,
                             "instr x warps along M")) ||
        failed(
            checkMultiple(source, "N", n, instr * wn, "instr x warps along N")))
      return std::nullopt;
    return amd::mfmaAccumulator(m, n, instr, wm, wn);
  }
  assert(source == "blocked" && "unknown named layout");
  SmallVector<int64_t> shape;
  if (failed(parseShape(blockedShape, source, shape, /*powersOfTwo=*/true)) ||
      failed(checkPowerOfTwo("vector", vectorWidth, 1)))
    return std::nullopt;
  const ChipDescription *chip = lookupChip(chipName);
  if (!chip) {
    fail("--chip: unknown chip '" + chipName +
         "'; supported chips: " + getSupportedChipList());
    return std::nullopt;
  }
  if (failed(checkPowerOfTwo("threads", numThreads, chip->warpSize)))
    return std::nullopt;
  int64_t total = 1;
  for (int64_t s : shape)
    total *= s;
  if (total > (int64_t(1) << 40) / numThreads) {
    fail("--blocked: layout too large");
    return std::nullopt;
  }
  return LinearLayout::blocked(shape, numThreads, vectorWidth,
                              chip->warpSize);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  // libLLVM registers an unrelated --threads option: this tool's replaces it.
  if (cl::Option *other = cl::getRegisteredOptions().lookup("threads"))
    other->removeArgument();
  cl::opt<int, true> threads(
      "threads", cl::location(numThreads), cl::value_desc("T"),
      cl::cat(modifierCategory),
      cl::desc("threads of --blocked, a power of two >= 32 (default 128)"));
  cl::HideUnrelatedOptions(
      {&layoutCategory, &modifierCategory, &outputCategory});
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  MLIRContext context;
  context.loadDialect<TileDialect>();
  // Reports parser and verifier diagnostics as tool errors.
  ScopedDiagnosticHandler handler(&context, [](Diagnostic &diag) {
    std::string message = diag.str();
    if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
      message += llvm::formatv(" (at column {0})", loc.getColumn()).str();
    switch (diag.getSeverity()) {
    case DiagnosticSeverity::Error:
      llvm::WithColor::error(llvm::errs(), kToolName) << message << "\n";
      break;
    case DiagnosticSeverity::Warning:
      llvm::WithColor::warning(llvm::errs(), kToolName) << message << "\n";
      break;
    default:
      llvm::WithColor::note(llvm::errs(), kToolName) << message << "\n";
      break;
    }
    for (Diagnostic &note : diag.getNotes())
      llvm::WithColor::note(llvm::errs(), kToolName) << note.str() << "\n";
    return success();
  });

  // Which layout?
  SmallVector<StringRef> sources;
  if (attrText.getNumOccurrences())
    sources.push_back("attr");
  for (auto [name, given] :
       {std::pair<StringRef, bool>{"mma-acc", mmaAcc.getNumOccurrences()},
        {"mma-a", mmaA.getNumOccurrences()},
        {"mma-b", mmaB.getNumOccurrences()},
        {"wgmma-acc", wgmmaAcc.getNumOccurrences()},
        {"mfma-acc", mfmaAcc.getNumOccurrences()},
        {"blocked", blockedShape.getNumOccurrences()},
        {"swizzle", swizzleBytes.getNumOccurrences()},
        {"pad", padBytes.getNumOccurrences()}})
    if (given)
      sources.push_back(name);
  // --swizzle and --pad together describe one (invalid) shared layout; the
  // attribute verifier reports it.
  if (sources.size() == 2 && sources[0] == "swizzle" && sources[1] == "pad")
    sources.pop_back();
  auto sourceName = [](StringRef source) -> std::string {
    return source == "attr" ? "a layout attribute" : "--" + source.str();
  };
  if (sources.empty())
    return fail("no layout given: pass a #tile.linear / #tile.shared "
                "attribute or one of --mma-acc, --mma-a, --mma-b, "
                "--wgmma-acc, --mfma-acc, --blocked, --swizzle, --pad (see "
                "--help)");
  if (sources.size() > 1)
    return fail("give one layout, got " + sourceName(sources[0]) + " and " +
                sourceName(sources[1]));
  StringRef source = sources.front();

  Layout layout;
  if (source == "attr") {
    if (StringRef(attrText).trim().empty())
      return fail("empty layout attribute");
    Attribute attr = parseAttribute(attrText, &context);
    if (!attr)
      return fail("cannot parse the layout attribute '" + attrText + "'");
    if (auto linear = dyn_cast<LinearLayoutAttr>(attr))
      layout.distributed = linear.getLinearLayout();
    else if (auto shared = dyn_cast<SharedLayoutAttr>(attr))
      layout.shared = shared;
    else
      return fail("expected a #tile.linear or #tile.shared layout, got '" +
                  attrToString(attr) + "'");
  } else if (source == "swizzle" || source == "pad") {
    layout.shared = SharedLayoutAttr::getChecked(
        [&] { return emitError(UnknownLoc::get(&context)); }, &context,
        swizzleBytes.getNumOccurrences() ? int64_t(swizzleBytes) : 0,
        padBytes.getNumOccurrences() ? int64_t(padBytes) : 0);
    if (!layout.shared)
      return 1;
  } else {
    layout.distributed = buildNamedLayout(source);
    if (!layout.distributed)
      return 1;
  }
  bool isShared = static_cast<bool>(layout.shared);

  // Options that do not apply to this layout.
  struct Applies {
    const cl::Option &option;
    SmallVector<StringRef> sources;
  };
  SmallVector<StringRef> sharedSources = {"swizzle", "pad"};
  if (isShared)
    sharedSources.push_back("attr");
  SmallVector<StringRef> distributedSources = {
      "mma-acc", "mma-a", "mma-b", "wgmma-acc", "mfma-acc", "blocked"};
  if (!isShared)
    distributedSources.push_back("attr");
  Applies table[] = {
      {warps, {"mma-acc", "mma-a", "mma-b", "mfma-acc"}},
      {bits, {"mma-a", "mma-b"}},
      {warpgroups, {"wgmma-acc"}},
      {instr, {"mfma-acc"}},
      {threads, {"blocked"}},
      {vectorWidth, {"blocked"}},
      {sharedShape, sharedSources},
      {elementBits, sharedSources},
      {elementCells, sharedSources},
      {sharedCell, sharedSources},
      {holders, distributedSources},
      {colorBy, distributedSources},
  };
  for (const Applies &entry : table)
    if (entry.option.getNumOccurrences() &&
        !llvm::is_contained(entry.sources, source))
      return fail("--" + entry.option.ArgStr + " does not apply to " +
                  (source == "attr"
                       ? std::string(isShared ? "a #tile.shared layout"
                                              : "a #tile.linear layout")
                       : "--" + source.str()));
  if (holders && outputFormat == OutputFormat::Svg)
    return fail("--holders prints text: it cannot be combined with "
                "--format=svg (the SVG tooltips list the holders)");
  if (printAttr && (holders || outputFormat.getNumOccurrences() ||
                    elementCells || sharedCell.getNumOccurrences()))
    return fail("--print-attr prints only the attribute: it cannot be "
                "combined with --holders, --format, --elements or --cell");

  // Shared layouts need a tile.
  SmallVector<int64_t> shape;
  if (isShared && !printAttr) {
    if (!sharedShape.getNumOccurrences())
      return fail("a shared layout needs --shape=RxC (and --element-bits, "
                  "default 16)");
    if (failed(parseShape(sharedShape, "shape", shape, /*powersOfTwo=*/false)))
      return 1;
    if (elementBits != 4 && elementBits != 8 && elementBits != 16 &&
        elementBits != 32 && elementBits != 64)
      return fail(llvm::formatv("--element-bits must be 4, 8, 16, 32 or 64, "
                                "got {0}",
                                int(elementBits)));
    Type eltType = IntegerType::get(&context, elementBits);
    if (failed(layout.shared.verifyShape(shape, eltType, [&] {
          return emitError(UnknownLoc::get(&context));
        })))
      return 1;
  }

  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return fail(errorMessage);
  llvm::raw_ostream &os = output->os();

  if (printAttr) {
    Attribute attr =
        isShared
            ? Attribute(layout.shared)
            : Attribute(LinearLayoutAttr::get(&context, *layout.distributed));
    os << attrToString(attr) << "\n";
    output->keep();
    return 0;
  }

  Grid grid;
  if (isShared) {
    int64_t elemsPerCell = 1;
    if (!elementCells && (shape.back() * elementBits) % 128 == 0)
      elemsPerCell = 128 / elementBits;
    int64_t cells = 1;
    for (int64_t s : shape)
      cells *= s;
    cells /= elemsPerCell;
    if (cells > kMaxCells)
      return fail(llvm::formatv("layout too large to show: {0} cells (at "
                                "most {1})",
                                cells, kMaxCells));
    grid = sharedGrid(layout.shared, shape, elementBits, elemsPerCell);
  } else {
    const LinearLayout &l = *layout.distributed;
    if (l.getNumOutBits() > 16 || l.getNumInBits() > 22)
      return fail(llvm::formatv("layout too large to show: {0} elements, {1} "
                                "(thread, register) pairs (at most {2} and "
                                "{3})",
                                uint64_t(1) << l.getNumOutBits(),
                                uint64_t(1) << l.getNumInBits(), kMaxCells,
                                1 << 22));
    Holders h = computeHolders(l);
    if (holders) {
      printHolders(l, h, os);
      output->keep();
      return 0;
    }
    grid = distributedGrid(l, h);
  }

  if (outputFormat == OutputFormat::Svg)
    printSvgGrid(grid, os);
  else
    printTextGrid(grid, os);
  output->keep();
  return 0;
}
