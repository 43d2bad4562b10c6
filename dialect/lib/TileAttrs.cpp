//===- TileAttrs.cpp - Tile dialect attributes ------------------*- C++ -*-===//

#include "tile/Dialect/TileAttrs.h"
#include "tile/Dialect/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Memory kinds
//===----------------------------------------------------------------------===//

bool mlir::tile::isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType>(type);
}

MemoryKind mlir::tile::getMemoryKind(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return MemoryKind::Global;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return MemoryKind::Global;
    case gpu::AddressSpace::Workgroup:
      return MemoryKind::Shared;
    case gpu::AddressSpace::Private:
      return MemoryKind::Local;
    default:
      return MemoryKind::Unknown;
    }
  }
  if (auto tileSpace = dyn_cast<MemorySpaceAttr>(space))
    return tileSpace.getValue() == MemorySpace::Fragment ? MemoryKind::Fragment
                                                         : MemoryKind::Local;
  if (auto intSpace = dyn_cast<IntegerAttr>(space)) {
    // NVVM numbering, as produced by upstream lowerings.
    switch (intSpace.getInt()) {
    case 0:
    case 1:
      return MemoryKind::Global;
    case 3:
      return MemoryKind::Shared;
    default:
      return MemoryKind::Unknown;
    }
  }
  return MemoryKind::Unknown;
}

StringRef mlir::tile::stringifyMemoryKind(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::Global:
    return "global";
  case MemoryKind::Shared:
    return "shared";
  case MemoryKind::Fragment:
    return "fragment";
  case MemoryKind::Local:
    return "local";
  case MemoryKind::Unknown:
    return "unknown";
  }
  llvm_unreachable("unknown memory kind");
}

Attribute mlir::tile::getMemorySpaceAttr(MLIRContext *ctx, MemoryKind kind) {
  switch (kind) {
  case MemoryKind::Global:
    return nullptr;
  case MemoryKind::Shared:
    return gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  case MemoryKind::Fragment:
    return MemorySpaceAttr::get(ctx, MemorySpace::Fragment);
  case MemoryKind::Local:
    return MemorySpaceAttr::get(ctx, MemorySpace::Local);
  case MemoryKind::Unknown:
    return nullptr;
  }
  llvm_unreachable("unknown memory kind");
}

/// The tile shape with every dimension rounded up to a power of two.
static SmallVector<int64_t> getPaddedShape(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> padded;
  for (int64_t size : shape)
    padded.push_back(size > 0 ? int64_t(llvm::PowerOf2Ceil(size)) : size);
  return padded;
}

//===----------------------------------------------------------------------===//
// LinearLayoutAttr
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kInDimNames[] = {
    LinearLayout::kRegister, LinearLayout::kLane, LinearLayout::kWarp};

LinearLayout LinearLayoutAttr::getLinearLayout() const {
  SmallVector<LinearLayout::InDim> dims;
  ArrayRef<int64_t> allBases[] = {getRegisterBases(), getLaneBases(),
                                  getWarpBases()};
  for (auto [name, bases] : llvm::zip_equal(kInDimNames, allBases)) {
    LinearLayout::InDim dim{name.str(), {}};
    for (int64_t b : bases)
      dim.bases.push_back(static_cast<uint64_t>(b));
    dims.push_back(std::move(dim));
  }
  return LinearLayout(std::move(dims), getShape());
}

LinearLayoutAttr LinearLayoutAttr::get(MLIRContext *context,
                                       const LinearLayout &layout) {
  auto bases = [&](StringRef name) {
    SmallVector<int64_t> result;
    for (uint64_t b : layout.getBases(name))
      result.push_back(static_cast<int64_t>(b));
    return result;
  };
  return get(context, layout.getOutShape(), bases(LinearLayout::kRegister),
             bases(LinearLayout::kLane), bases(LinearLayout::kWarp));
}

LogicalResult LinearLayoutAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> shape,
    ArrayRef<int64_t> registerBases, ArrayRef<int64_t> laneBases,
    ArrayRef<int64_t> warpBases) {
  if (shape.empty())
    return emitError() << "linear layout needs a non-empty shape";
  unsigned bits = 0;
  for (int64_t size : shape) {
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return emitError() << "linear layout shape entries must be powers of "
                            "two, got "
                         << size;
    bits += llvm::Log2_64(size);
  }
  if (bits > 62)
    return emitError() << "linear layout covers too many elements";
  for (ArrayRef<int64_t> bases : {registerBases, laneBases, warpBases})
    for (int64_t b : bases)
      if (b < 0 || static_cast<uint64_t>(b) >= (uint64_t(1) << bits))
        return emitError() << "linear layout basis vector is out of the "
                              "shape";
  if (laneBases.size() != 5 && laneBases.size() != 6)
    return emitError() << "linear layout needs 5 lane basis vectors (warps "
                          "of 32) or 6 (wavefronts of 64), got "
                       << laneBases.size();
  return success();
}

Attribute LinearLayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> shape;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(shape.emplace_back());
      }))
    return {};
  // Shapes must be valid before coordinates can be packed.
  for (int64_t size : shape)
    if (size <= 0 || !llvm::isPowerOf2_64(size)) {
      parser.emitError(parser.getCurrentLocation(),
                       "linear layout shape entries must be powers of two");
      return {};
    }
  LinearLayout packer({}, shape);
  SmallVector<int64_t> bases[3];
  for (auto [i, name] : llvm::enumerate(kInDimNames)) {
    if (parser.parseComma() || parser.parseKeyword(name) || parser.parseEqual())
      return {};
    auto parseBasis = [&]() -> ParseResult {
      SmallVector<int64_t> coord;
      SMLoc loc = parser.getCurrentLocation();
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
            return parser.parseInteger(coord.emplace_back());
          }))
        return failure();
      if (coord.size() != shape.size())
        return parser.emitError(loc, "expected a coordinate of rank ")
               << shape.size();
      for (auto [c, size] : llvm::zip_equal(coord, shape))
        if (c < 0 || c >= size)
          return parser.emitError(loc, "basis coordinate out of the shape");
      bases[i].push_back(static_cast<int64_t>(packer.packCoord(coord)));
      return success();
    };
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                       parseBasis))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<LinearLayoutAttr>(parser.getContext(), shape,
                                             bases[0], bases[1], bases[2]);
}

void LinearLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<";
  getLinearLayout().print(printer.getStream());
  printer << ">";
}

bool LinearLayoutAttr::isDistributed() const { return true; }

LogicalResult LinearLayoutAttr::verifyShape(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  SmallVector<int64_t> padded = getPaddedShape(shape);
  if (ArrayRef<int64_t>(padded) != getShape())
    return emitError() << "layout shape [" << getShape()
                       << "] does not match the tile shape [" << shape
                       << "] rounded up to powers of two";
  return success();
}

//===----------------------------------------------------------------------===//
// SharedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t swizzle, int64_t pad, int64_t unit) {
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "swizzle must be 0, 32, 64 or 128 bytes, got "
                       << swizzle;
  if (unit != 8 && unit != 16)
    return emitError() << "the swizzle unit must be 8 or 16 bytes, got "
                       << unit;
  if (unit != 16 && !swizzle)
    return emitError() << "a swizzle unit of " << unit
                       << " bytes needs a swizzle";
  if (pad < 0)
    return emitError() << "padding must be non-negative, got " << pad;
  // Far more than any GPU's shared memory: keeps sizes in range.
  if (pad > (int64_t{1} << 20))
    return emitError() << "padding of " << pad
                       << " bytes per row is more than 1 MiB";
  if (swizzle && pad)
    return emitError() << "a shared layout is either swizzled or padded";
  return success();
}

bool SharedLayoutAttr::isDistributed() const { return false; }

/// Bytes of one row (the last dimension) of a tile.
static int64_t getRowBytes(ArrayRef<int64_t> shape, int64_t elementBits) {
  return shape.back() * elementBits / 8;
}

LogicalResult SharedLayoutAttr::verifyShape(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.empty())
    return emitError() << "a shared layout needs a tile of rank >= 1";
  if (!elementType || !elementType.isIntOrFloat())
    return success();
  int64_t bits = elementType.getIntOrFloatBitWidth();
  if (int64_t pad = getPad()) {
    if ((pad * 8) % bits != 0)
      return emitError() << "padding of " << pad
                         << " bytes is not a multiple of the element size";
  }
  if (int64_t swizzle = getSwizzle()) {
    if (bits < 8)
      return emitError() << "swizzled tiles need elements of at least 8 bits";
    int64_t rowBytes = getRowBytes(shape, bits);
    if (rowBytes % 16 != 0)
      return emitError() << "a swizzled tile needs rows that are a multiple "
                            "of 16 bytes, got "
                         << rowBytes;
    if (rowBytes > swizzle && rowBytes % swizzle != 0)
      return emitError() << "rows wider than the " << swizzle
                         << "-byte swizzle must be whole " << swizzle
                         << "-byte panels, got " << rowBytes << " bytes";
    int64_t tileBytes =
        rowBytes * (shape.size() > 1 ? shape[shape.size() - 2] : 1);
    if (tileBytes % swizzle != 0)
      return emitError() << "a " << swizzle
                         << "-byte swizzled tile needs a size that is a "
                            "multiple of "
                         << swizzle << " bytes, got " << tileBytes;
  }
  return success();
}

int64_t SharedLayoutAttr::getSizeInBytes(ArrayRef<int64_t> shape,
                                         int64_t elementBits) const {
  int64_t rowBytes = getRowBytes(shape, elementBits) + getPad();
  int64_t rows = 1;
  for (int64_t size : shape.drop_back())
    rows *= size;
  return rows * rowBytes;
}

int64_t SharedLayoutAttr::getByteOffset(ArrayRef<int64_t> coord,
                                        ArrayRef<int64_t> shape,
                                        int64_t elementBits) const {
  int64_t rowBytes = getRowBytes(shape, elementBits) + getPad();
  int64_t row = 0;
  for (auto [c, size] : llvm::zip_equal(coord.drop_back(), shape.drop_back()))
    row = row * size + c;
  int64_t colByte = coord.back() * elementBits / 8;
  int64_t offset = row * rowBytes + colByte;
  int64_t swizzle = getSwizzle();
  if (swizzle && rowBytes > swizzle) {
    // Column panels of `swizzle` bytes, each holding all rows of a matrix.
    int64_t rows = shape.size() > 1 ? shape[shape.size() - 2] : 1;
    int64_t matrix = row / rows, r = row % rows;
    offset = matrix * rows * rowBytes + (colByte / swizzle) * rows * swizzle +
             r * swizzle + colByte % swizzle;
  }
  if (swizzle) {
    int64_t unit = getUnit();
    int64_t mask = swizzle / unit - 1;
    offset ^= ((offset >> 7) & mask) * unit;
  }
  return offset;
}

std::optional<LinearLayout>
SharedLayoutAttr::getLinearLayout(ArrayRef<int64_t> shape,
                                  int64_t elementBits) const {
  if (getPad() != 0)
    return std::nullopt;
  for (int64_t size : shape)
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return std::nullopt;
  return LinearLayout::swizzled(shape, elementBits, getSwizzle(), getUnit());
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

/// The PTX version of a `+ptxNN` feature list, 0 if none, -1 if malformed.
static int64_t parsePtxFeature(StringRef features, std::string &bad) {
  int64_t version = 0;
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    StringRef trimmed = part.trim();
    int64_t v = 0;
    if (!trimmed.consume_front("+ptx") || trimmed.getAsInteger(10, v)) {
      bad = part.trim().str();
      return -1;
    }
    version = v;
  }
  return version;
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip, StringRef features) {
  const ChipDescription *desc = lookupChip(chip);
  if (!desc)
    return emitError() << "unknown or unsupported chip '" << chip
                       << "'; supported chips: " << getSupportedChipList();
  std::string bad;
  int64_t ptx = parsePtxFeature(features, bad);
  if (ptx < 0)
    return emitError() << "unsupported target feature '" << bad
                       << "': expected '+ptxNN' (the PTX ISA version)";
  if (ptx && !desc->isNVIDIA())
    return emitError() << "'+ptx" << ptx << "' is an NVIDIA feature but "
                       << chip << " is an AMD chip";
  if (ptx && (ptx < desc->minPtx || ptx > kMaxPtxVersion))
    return emitError() << chip << " needs a PTX ISA version from "
                       << desc->minPtx << " to " << kMaxPtxVersion
                       << ", got '+ptx" << ptx << "'";
  return success();
}

const ChipDescription *TargetAttr::getDescription() const {
  return lookupChip(getChip());
}

int64_t TargetAttr::getPtxVersion() const {
  const ChipDescription *desc = getDescription();
  if (!desc || !desc->isNVIDIA())
    return 0;
  std::string bad;
  int64_t ptx = parsePtxFeature(getFeatures(), bad);
  return ptx > 0 ? ptx : desc->defaultPtx;
}

//===----------------------------------------------------------------------===//
// MmaAttr
//===----------------------------------------------------------------------===//

LogicalResult MmaAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              MmaKind kind, ArrayRef<int64_t> shape,
                              ArrayRef<int64_t> warps) {
  if (shape.size() != 3)
    return emitError() << "expects an instruction shape [M, N, K], got "
                       << shape.size() << " sizes";
  if (warps.size() != 2)
    return emitError() << "expects warps = [warpsM, warpsN], got "
                       << warps.size() << " sizes";
  // N may also be a multiple of 8 (wgmma's m64nNk shapes, N up to 256).
  for (auto [i, s] : llvm::enumerate(shape))
    if (s <= 0 || (!llvm::isPowerOf2_64(s) && (i != 1 || s % 8 != 0)))
      return emitError() << "instruction sizes must be positive powers of "
                            "two (N also a multiple of 8), got ["
                         << shape << "]";
  for (int64_t w : warps)
    if (w <= 0 || !llvm::isPowerOf2_64(w) || w > 1024)
      return emitError() << "warp counts must be powers of two from 1 to "
                            "1024";
  return success();
}

TargetAttr mlir::tile::getTargetAttr(Operation *op) {
  for (Operation *cursor = op; cursor; cursor = cursor->getParentOp())
    if (auto target = cursor->getAttrOfType<TargetAttr>("tile.target"))
      return target;
  // The default target is a tile attribute even where nothing loaded the
  // tile dialect yet (e.g. a module with no tile ops).
  op->getContext()->getOrLoadDialect<TileDialect>();
  return TargetAttr::get(op->getContext(), kDefaultChip, "");
}

//===----------------------------------------------------------------------===//
// PipePlanAttr
//===----------------------------------------------------------------------===//

// <full = F, empty = E[, engine_threads = T][, per_thread][, deferred]
//  [, cluster]>
Attribute PipePlanAttr::parse(AsmParser &parser, Type) {
  int64_t full = 0, empty = 0, engineThreads = 0;
  bool perThread = false, deferred = false, cluster = false;
  if (parser.parseLess() || parser.parseKeyword("full") ||
      parser.parseEqual() || parser.parseInteger(full) || parser.parseComma() ||
      parser.parseKeyword("empty") || parser.parseEqual() ||
      parser.parseInteger(empty))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    bool *flag = llvm::StringSwitch<bool *>(keyword)
                     .Case("per_thread", &perThread)
                     .Case("deferred", &deferred)
                     .Case("cluster", &cluster)
                     .Default(nullptr);
    if (flag) {
      *flag = true;
    } else if (keyword == "engine_threads") {
      if (parser.parseEqual() || parser.parseInteger(engineThreads))
        return {};
    } else {
      parser.emitError(loc, "expected engine_threads, per_thread, deferred "
                            "or cluster, got '")
          << keyword << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PipePlanAttr>(parser.getContext(), full, empty,
                                         engineThreads, perThread, deferred,
                                         cluster);
}

void PipePlanAttr::print(AsmPrinter &printer) const {
  printer << "<full = " << getFull() << ", empty = " << getEmpty();
  if (getEngineThreads())
    printer << ", engine_threads = " << getEngineThreads();
  if (getPerThread())
    printer << ", per_thread";
  if (getDeferred())
    printer << ", deferred";
  if (getCluster())
    printer << ", cluster";
  printer << ">";
}

LogicalResult PipePlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t full, int64_t empty,
                                   int64_t engineThreads, bool perThread,
                                   bool deferred, bool cluster) {
  if (full < 1 || empty < 1)
    return emitError() << "expects at least one arrival per hand-off and per "
                          "release, got full = "
                       << full << " and empty = " << empty;
  if (engineThreads < 0 || engineThreads >= full)
    return emitError() << "expects engine_threads in [0, full), counting "
                          "beside at least one tensor copy; got "
                       << engineThreads << " of " << full;
  return success();
}
