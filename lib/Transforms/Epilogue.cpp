//===- Epilogue.cpp - Tensor stores of accumulator tiles --------*- C++ -*-===//
//
// What makes a fragment -> global copy a tensor store (Epilogue.h).
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Utils.h"

#include "tile/Dialect/LinearLayout.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tile;

std::string mlir::tile::whyNotTmaStore(CopyOp copy, int64_t panelBytes) {
  MemRefType src = copy.getSourceType(), dst = copy.getTargetType();
  if (getMemoryKind(src) != MemoryKind::Fragment ||
      getMemoryKind(dst) != MemoryKind::Global || copy.getAsync())
    return "not a copy of a fragment into a global tensor";
  auto alloc = copy.getSource().getDefiningOp<AllocOp>();
  if (!alloc || src.getRank() != 2 || !src.hasStaticShape())
    return "the fragment is not a whole 2-D tile";
  if (dst.getRank() < 2 || dst.getRank() > 5 ||
      copy.getTargetOffsets().size() != static_cast<size_t>(dst.getRank()))
    return "tensor stores here write 2-D tiles of tensors of rank 2 to 5";
  Type elt = dst.getElementType();
  if (!elt.isF16() && !elt.isBF16() && !elt.isF32())
    return "tensor stores here write f16, bf16 or f32 tensors";
  int64_t bytes = elt.getIntOrFloatBitWidth() / 8;
  if (panelBytes != 32 && panelBytes != 64 && panelBytes != 128)
    return "panels have rows of 32, 64 or 128 bytes";
  int64_t panelCols = panelBytes / bytes;
  int64_t rows = src.getShape()[0], cols = src.getShape()[1];
  if (rows > 256 || cols % panelCols != 0 || cols / panelCols > 64)
    return ("the tile is not whole panels (at most 64) of at most 256 rows x " +
            Twine(panelBytes) + " bytes")
        .str();
  auto layoutAttr = dyn_cast_or_null<LinearLayoutAttr>(alloc.getLayoutAttr());
  if (!layoutAttr)
    return "the fragment has no layout";
  const LinearLayout &layout = layoutAttr.getLinearLayout();
  if (!layout.isDistributed() || layout.getReplication() != 1)
    return "threads of the fragment's layout hold copies of elements";
  for (StringRef dim : {LinearLayout::kLane, LinearLayout::kWarp})
    if (layout.hasInDim(dim))
      for (uint64_t basis : layout.getBases(dim))
        if (layout.unpackCoord(basis)[1] >= panelCols)
          return "the fragment's threads hold columns of different panels";
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(dst.getStridesAndOffset(strides, offset)))
    return "the tensor's layout is not strided";
  if (!ShapedType::isDynamic(strides.back()) && strides.back() != 1)
    return "the tensor's innermost stride is not 1";
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    if (!ShapedType::isDynamic(stride) && !spansWholeUnits(stride, bytes, 16))
      return "the tensor's rows are not 16-byte multiples apart";
  if (!ShapedType::isDynamic(offset) && !spansWholeUnits(offset, bytes, 16))
    return "the tensor's offset is not a multiple of 16 bytes";
  return "";
}

int64_t mlir::tile::getTmaStoreStagingBytes(CopyOp copy, int64_t buffers,
                                            int64_t panelBytes) {
  return copy.getSourceType().getShape()[0] * panelBytes * buffers;
}

int64_t mlir::tile::getTmaStoreBuffers(CopyOp copy) {
  auto attr = copy->getAttrOfType<IntegerAttr>(kTmaStoreAttrName);
  return attr ? std::max<int64_t>(attr.getInt(), 0) : 0;
}

/// Whether no run of the code around `a` and `b` executes both: they lie in
/// different regions of the scf.if closest around both.
static bool areExclusive(Operation *a, Operation *b) {
  Operation *common = a->getParentOp();
  while (common && !common->isProperAncestor(b))
    common = common->getParentOp();
  if (!isa_and_nonnull<scf::IfOp>(common))
    return false;
  auto regionIn = [&](Operation *op) {
    while (op->getParentOp() != common)
      op = op->getParentOp();
    return op->getParentRegion();
  };
  return regionIn(a) != regionIn(b);
}

bool mlir::tile::tmaStagingsMayShare(CopyOp a, CopyOp b) {
  auto kernel = a->getParentOfType<KernelOp>();
  if (!kernel || kernel != b->getParentOfType<KernelOp>())
    return false;
  if (auto turns =
          kernel->getAttrOfType<BoolAttr>(TileDialect::kAlternateTilesAttrName);
      turns && turns.getValue())
    return false;
  return a->getParentOfType<WsOp>() == b->getParentOfType<WsOp>() &&
         areExclusive(a, b);
}

SmallVector<SmallVector<CopyOp>>
mlir::tile::groupTmaStagings(ArrayRef<CopyOp> stores,
                             llvm::function_ref<int64_t(CopyOp)> bytes) {
  SmallVector<CopyOp> sorted(stores);
  llvm::stable_sort(sorted,
                    [&](CopyOp x, CopyOp y) { return bytes(x) > bytes(y); });
  SmallVector<SmallVector<CopyOp>> groups;
  for (CopyOp store : sorted) {
    auto *group = llvm::find_if(groups, [&](ArrayRef<CopyOp> members) {
      return llvm::all_of(members, [&](CopyOp member) {
        return tmaStagingsMayShare(member, store);
      });
    });
    if (group == groups.end())
      groups.push_back({store});
    else
      group->push_back(store);
  }
  return groups;
}

bool mlir::tile::storesRowsByWarpgroup(CopyOp copy, int64_t groups,
                                       int64_t warpgroupSize) {
  auto alloc = copy.getSource().getDefiningOp<AllocOp>();
  auto attr = alloc ? dyn_cast_or_null<LinearLayoutAttr>(alloc.getLayoutAttr())
                    : LinearLayoutAttr();
  if (groups < 2 || !attr || copy.getSourceType().getRank() != 2)
    return false;
  const LinearLayout &layout = attr.getLinearLayout();
  if (!layout.hasInDim(LinearLayout::kLane))
    return false;
  int64_t rows = copy.getSourceType().getShape()[0];
  int64_t slab = rows / groups;
  int64_t lanes = layout.getInDimSize(LinearLayout::kLane);
  int64_t warps = layout.hasInDim(LinearLayout::kWarp)
                      ? layout.getInDimSize(LinearLayout::kWarp)
                      : 1;
  if (rows % groups != 0 || slab % 8 != 0 || warpgroupSize % lanes != 0 ||
      lanes * warps != groups * warpgroupSize)
    return false;
  // Rows are linear in the inputs: a thread's rows are those of its lane
  // and warp bits xor those of the registers, so checking every thread with
  // every register is exact.
  for (int64_t t = 0; t < lanes * warps; ++t)
    for (int64_t r = 0; r < layout.getRegistersPerThread(); ++r) {
      SmallVector<std::pair<StringRef, int64_t>> in = {
          {LinearLayout::kRegister, r}, {LinearLayout::kLane, t % lanes}};
      if (layout.hasInDim(LinearLayout::kWarp))
        in.push_back({LinearLayout::kWarp, t / lanes});
      if (layout.apply(in)[0] / slab != t / warpgroupSize)
        return false;
    }
  return true;
}
