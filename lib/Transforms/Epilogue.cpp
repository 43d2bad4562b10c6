//===- Epilogue.cpp - Tensor stores of accumulator tiles --------*- C++ -*-===//
//
// What makes a fragment -> global copy a tensor store, and whether a
// tile's epilogue can run one tile late (Epilogue.h).
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Utils.h"

#include "tile/Dialect/LinearLayout.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

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
  // A tile padded to powers of two: each register holds tile elements in
  // every thread or in none (the padded columns of an m64n144 accumulator).
  for (int64_t r = 0; r < layout.getRegistersPerThread(); ++r)
    if (!layout.isRegisterOutside(r, src.getShape()) &&
        (!layout.isRegisterInside(r, 0, rows) ||
         !layout.isRegisterInside(r, 1, cols)))
      return "a register of the fragment holds tile elements in some "
             "threads and padding in others";
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

/// Whether `value` is defined inside `op` (by one of its ops, or as an
/// argument of one of its blocks).
static bool isDefinedIn(Value value, Operation *op) {
  Operation *owner = value.getParentBlock()->getParentOp();
  if (Operation *def = value.getDefiningOp())
    return op->isAncestor(def);
  return owner && op->isAncestor(owner);
}

std::string mlir::tile::analyzeLateEpilogue(GemmOp gemm, LateEpilogue &r) {
  if (!gemm.getPartials())
    return "its gemm does not promote its partial sums one K block late";
  auto kLoop = gemm->getParentOfType<scf::ForOp>();
  auto ws = gemm->getParentOfType<WsOp>();
  if (!kLoop || !ws || !ws->isProperAncestor(kLoop))
    return "its gemm is not in a loop of a tile.ws region";
  for (Operation *p = kLoop->getParentOp(); p != ws; p = p->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(p);
        loop && loop->hasAttr(TileDialect::kTileLoopAttrName)) {
      r.tileLoop = loop;
      break;
    }
  if (!r.tileLoop)
    return "its gemm is not in a persistent kernel's tile loop";
  Operation *acc = getRootAlloc(gemm.getC());
  int64_t fills = 0;
  r.tileLoop.walk([&](FillOp fill) {
    if (getRootAlloc(fill.getTarget()) == acc) {
      r.fill = fill;
      ++fills;
    }
  });
  if (fills != 1 || r.fill.getTarget() != gemm.getC())
    return "its tile loop does not fill the gemm's accumulator once, whole";
  Block *body = r.fill->getBlock();
  for (Operation *p = body->getParentOp(); p != r.tileLoop;
       p = p->getParentOp())
    if (!isa<scf::IfOp>(p))
      return "the accumulator's fill is not in the tile loop's body";
  Operation *holder = body->findAncestorOpInBlock(*gemm);
  if (!holder || !r.fill->isBeforeInBlock(holder) || holder == kLoop ||
      !holder->isAncestor(kLoop))
    return "the accumulator's fill does not precede the op holding its K "
           "loop";
  for (Operation *op = holder->getNextNode(); op != body->getTerminator();
       op = op->getNextNode())
    r.ops.push_back(op);
  auto inEpilogue = [&](Operation *op) {
    return llvm::any_of(r.ops, [&](Operation *e) { return e->isAncestor(op); });
  };
  // The accumulator: filled, written by the gemms, read by the epilogue.
  std::string why;
  r.tileLoop.walk([&](Operation *op) {
    if (!why.empty() || op == r.fill || inEpilogue(op) ||
        isa<AllocOp, ViewLikeOpInterface>(op))
      return;
    auto other = dyn_cast<GemmOp>(op);
    bool touches = llvm::any_of(op->getOperands(), [&](Value v) {
      return isa<MemRefType>(v.getType()) && getRootAlloc(v) == acc;
    });
    if (!touches)
      return;
    if (!other || other.getC() != gemm.getC() || !other.getPartials() ||
        !holder->isAncestor(other) || !other->getParentOfType<scf::ForOp>() ||
        !holder->isProperAncestor(other->getParentOfType<scf::ForOp>()))
      why = "'" + op->getName().getStringRef().str() +
            "' touches the accumulator outside the gemms promoting late "
            "and the epilogue";
    else
      r.gemms.push_back(other);
  });
  if (!why.empty())
    return why;
  // One gemm a K loop: the epilogue runs once, after the first.
  for (GemmOp a : r.gemms)
    for (GemmOp b : r.gemms)
      if (a != b &&
          a->getParentOfType<scf::ForOp>() == b->getParentOfType<scf::ForOp>())
        return "two gemms into its accumulator share a K loop";
  if (Value value = r.fill.getValue();
      isDefinedIn(value, r.tileLoop) &&
      !(value.getDefiningOp() &&
        value.getDefiningOp()->hasTrait<OpTrait::ConstantLike>()))
    return "its accumulator's fill value is computed in the tile loop";
  bool readsAcc = false;
  llvm::SetVector<Value> carried;
  llvm::SmallPtrSet<Operation *, 4> others;
  for (Operation *op : r.ops) {
    if (op->hasAttr(TileDialect::kProxyFenceAttrName))
      return "its epilogue has a write that a proxy fence follows";
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (copy.getAsync() ||
          (copy.getScratch() && getTmaStoreBuffers(copy) <= 0))
        return "its epilogue has an asynchronous copy or one through scratch";
      // Its values are held beside the next tile's partial sums in flight:
      // a tile of 32-bit results spilled (a split-K kernel's f32 sums).
      if (isFragment(copy.getSource()) &&
          copy.getTargetType().getElementTypeBitWidth() > 16)
        return "its epilogue stores elements wider than 16 bits";
    } else if (!isa<ParallelOp, FillOp>(op) &&
               (op->getNumRegions() ||
                !(isMemoryEffectFree(op) || isa<memref::LoadOp>(op)))) {
      return "its epilogue has '" + op->getName().getStringRef().str() +
             "', which is not a tile copy, fill or parallel and writes "
             "memory or holds regions";
    }
    for (Operation *user : op->getUsers())
      if (!inEpilogue(user))
        return "a value of its epilogue is used after it";
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        if (isa<MemRefType>(v.getType())) {
          Operation *root = getRootAlloc(v);
          readsAcc |= root == acc;
          if (inEpilogue(v.getDefiningOp() ? v.getDefiningOp()
                                           : v.getParentBlock()->getParentOp()))
            continue;
          if (isDefinedIn(v, r.tileLoop))
            why = "its epilogue uses a memory view the tile's body makes";
          else if (root && root != acc && !others.count(root))
            others.insert(root);
          continue;
        }
        if (!isDefinedIn(v, r.tileLoop) || isDefinedIn(v, op))
          continue;
        Operation *def = v.getDefiningOp();
        if (def && inEpilogue(def))
          continue;
        if (!v.getType().isIntOrIndexOrFloat())
          why = "its epilogue uses a value of the tile's body that is not a "
                "scalar";
        else
          carried.insert(v);
      }
    });
    if (!why.empty())
      return why;
  }
  if (!readsAcc)
    return "nothing after its K loop reads the accumulator";
  // The epilogue's other tiles (fragments it fills, staging buffers) are
  // its own: the next tile's ops that now run first must not touch them.
  WalkResult shared =
      gemm->getParentOfType<KernelOp>().walk([&](Operation *op) {
        if (isa<AllocOp, ViewLikeOpInterface>(op) || inEpilogue(op))
          return WalkResult::advance();
        for (Value v : op->getOperands())
          if (isa<MemRefType>(v.getType()) && others.count(getRootAlloc(v)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
  if (shared.wasInterrupted())
    return "its epilogue uses a tile that other ops use too";
  r.carried = carried.takeVector();
  return "";
}
