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
// This file holds the command line and the driver; the grid model and its
// rendering are in Grid.*, the grids of distributed and shared layouts in
// LayoutGrids.*, the named layouts (--mma-acc, ...) in NamedLayouts.*.
//
//===----------------------------------------------------------------------===//

#include "Grid.h"
#include "LayoutGrids.h"
#include "NamedLayouts.h"
#include "Support.h"

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
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::tile;
using namespace tile_layout;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

namespace {
enum class OutputFormat { Text, Svg };
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
    wgmmaA("wgmma-a", cl::value_desc("MxK"), cl::cat(layoutCategory),
           cl::desc("Hopper wgmma m64nNk16 register A operand (f16/bf16) "
                    "over an M x K tile (with --warpgroups)"));
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
               cl::desc("warpgroups stacked along M for --wgmma-acc and "
                        "--wgmma-a (default 1)"));
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
// Building the layout
//===----------------------------------------------------------------------===//

namespace {
/// The layout to show: distributed or shared.
struct Layout {
  std::optional<LinearLayout> distributed;
  SharedLayoutAttr shared;
};
} // namespace

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
        {"wgmma-a", wgmmaA.getNumOccurrences()},
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
                "--wgmma-acc, --wgmma-a, --mfma-acc, --blocked, --swizzle, "
                "--pad (see --help)");
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
    NamedLayoutOptions named;
    named.shape = llvm::StringSwitch<std::string>(source)
                      .Case("mma-acc", mmaAcc)
                      .Case("mma-a", mmaA)
                      .Case("mma-b", mmaB)
                      .Case("wgmma-acc", wgmmaAcc)
                      .Case("wgmma-a", wgmmaA)
                      .Case("mfma-acc", mfmaAcc)
                      .Default(blockedShape);
    named.warps = warps;
    named.bits = bits;
    named.warpgroups = warpgroups;
    named.instr = instr;
    named.threads = numThreads;
    named.vector = vectorWidth;
    named.chip = chipName;
    layout.distributed = buildNamedLayout(source, named);
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
      "mma-acc", "mma-a",    "mma-b",  "wgmma-acc",
      "wgmma-a", "mfma-acc", "blocked"};
  if (!isShared)
    distributedSources.push_back("attr");
  Applies table[] = {
      {warps, {"mma-acc", "mma-a", "mma-b", "mfma-acc"}},
      {bits, {"mma-a", "mma-b"}},
      {warpgroups, {"wgmma-acc", "wgmma-a"}},
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
    // A cell is a 16-byte chunk, the unit shared-layout swizzles permute.
    constexpr int64_t chunkBits = 128;
    int64_t elemsPerCell = 1;
    if (!elementCells && (shape.back() * elementBits) % chunkBits == 0)
      elemsPerCell = chunkBits / elementBits;
    int64_t cells = 1;
    for (int64_t s : shape)
      cells *= s;
    cells /= elemsPerCell;
    if (cells > kMaxCells)
      return fail(llvm::formatv("layout too large to show: {0} cells (at "
                                "most {1})",
                                cells, kMaxCells));
    grid =
        sharedGrid(layout.shared, shape, elementBits, elemsPerCell, sharedCell);
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
    grid = distributedGrid(l, h, colorBy);
  }

  if (outputFormat == OutputFormat::Svg)
    printSvgGrid(grid, os);
  else
    printTextGrid(grid, os);
  output->keep();
  return 0;
}
