//===- LoweringContext.cpp - Helpers shared by per-op lowerings -*- C++ -*-===//

#include "LoweringContext.h"

#include "tile/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// Bits of coordinate dimension `dim` in a flat index of `layout`.
static uint64_t fieldOf(const LinearLayout &layout, uint64_t flat,
                        unsigned dim) {
  return layout.unpackCoord(flat)[dim];
}

Value LoweringContext::pipeBase(Value pipe) {
  Value counter = pipeCounters.lookup(pipe);
  if (!counter)
    return idx(0);
  return memref::LoadOp::create(b, loc(), counter, ValueRange{idx(0)});
}

Value LoweringContext::tileLocal(Operation *op, Value value) {
  // The innermost persistent tile loop (`tile.tile_loop`) or region running
  // once a tile (localScopes) around `op`.
  Operation *scope = op->getParentOp();
  while (scope && scope != kernel && !localScopes.contains(scope) &&
         !(isa<scf::ForOp>(scope) &&
           scope->hasAttr(TileDialect::kTileLoopAttrName)))
    scope = scope->getParentOp();
  if (!scope || scope == kernel)
    return value;
  // One opaque copy per tile, made at the start of the loop's body (or of
  // the region running once a tile).
  Value &copy = tileLocals[{scope, value}];
  if (!copy) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&scope->getRegion(0).front());
    Location l = scope->getLoc();
    Value narrow = arith::IndexCastUIOp::create(b, l, b.getI32Type(), value);
    Value copied = target.emitOpaqueCopy(b, l, narrow);
    if (copied == narrow) {
      // The target has no such copies.
      narrow.getDefiningOp()->erase();
      copy = value;
    } else {
      copy = arith::IndexCastUIOp::create(b, l, b.getIndexType(), copied);
    }
  }
  return copy;
}

Value LoweringContext::sharedAddress(Value view) {
  auto place = view.getDefiningOp<memref::ViewOp>();
  if (!place || !place.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
    return nullptr;
  Value dynamic = arith::IndexCastUIOp::create(
      b, loc(), b.getI32Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc(),
                                                     place.getSource()));
  Value base = target.emitDynamicSharedAddress(b, loc(), dynamic);
  if (!base) {
    // The target names no such address: nothing left behind.
    Operation *extract = dynamic.getDefiningOp()->getOperand(0).getDefiningOp();
    dynamic.getDefiningOp()->erase();
    extract->erase();
    return nullptr;
  }
  return arith::AddIOp::create(
      b, loc(), arith::IndexCastUIOp::create(b, loc(), b.getIndexType(), base),
      place.getByteShift());
}

Value LoweringContext::threadId(Operation *op) {
  Value tid = tileLocal(op, tidValue);
  int64_t first = getFirstThread(op);
  if (first == 0)
    return tid;
  return arith::SubIOp::create(b, loc(), tid, idx(first));
}

Value LoweringContext::uniformWarpId(Operation *op) {
  if (!warpValue)
    return nullptr;
  return addConst(warpValue, -getFirstThread(op) / target.getWarpSize());
}

Value LoweringContext::uniformWarpgroupId(Operation *op) {
  if (!warpgroupValue)
    return nullptr;
  return addConst(warpgroupValue,
                  -getFirstThread(op) / target.getWarpgroupSize());
}

void LoweringContext::initUniformWarp() {
  // Warp-specialized kernels branch on a warp index that ptxas can tell is
  // the same in every lane: it then keeps the roles' loop counters and
  // wgmma descriptors in uniform registers. Warpgroups taking turns at a
  // gemm (`pingpong`) too: with the thread-index test their descriptors
  // were moved from ordinary registers before every wgmma (docs/perf.md
  // run 151). Not where consumer regions take tiles in turn: ptxas spilled
  // those kernels' accumulators (run 49), and they gained nothing (run 151).
  bool specialized = false, regionTurns = false;
  kernel->walk([&](WsOp ws) {
    specialized = true;
    regionTurns |= ws.getRegionTurn().has_value();
  });
  if (!specialized || regionTurns)
    return;
  Type i32 = b.getI32Type();
  Value warp = arith::IndexCastUIOp::create(
      b, loc(), i32,
      arith::DivUIOp::create(b, loc(), tidValue, idx(target.getWarpSize())));
  Value lane0 = arith::ConstantIntOp::create(b, loc(), 0, 32);
  Value width =
      arith::ConstantIntOp::create(b, loc(), target.getWarpSize(), 32);
  Value uniform = gpu::ShuffleOp::create(b, loc(), warp, lane0, width,
                                         gpu::ShuffleMode::IDX)
                      .getShuffleResult();
  warpValue = arith::IndexCastUIOp::create(b, loc(), b.getIndexType(), uniform);
  warpgroupValue = arith::DivUIOp::create(
      b, loc(), warpValue,
      idx(target.getWarpgroupSize() / target.getWarpSize()));
}

int64_t LoweringContext::numThreads(Operation *op) {
  return getNumThreads(op, kernel);
}

BarrierScope LoweringContext::barrierScope(Operation *op) {
  auto ws = op->getParentOfType<WsOp>();
  if (!ws)
    return {};
  return {static_cast<int64_t>(ws.getBarrier().value_or(0)),
          ws.getNumThreads()};
}

SmallVector<Value>
LoweringContext::threadCoords(const LinearLayout &layout, Value tid,
                              SmallVectorImpl<uint64_t> &masks) {
  unsigned rank = layout.getOutRank();
  SmallVector<Value> coords(rank, idx(0));
  masks.assign(rank, 0);
  // Thread bit i of the flat thread id is lane bit i (i < lane bits), then
  // warp bits.
  SmallVector<uint64_t> threadBases;
  llvm::append_range(threadBases, layout.getBases(LinearLayout::kLane));
  llvm::append_range(threadBases, layout.getBases(LinearLayout::kWarp));
  for (unsigned d = 0; d < rank; ++d) {
    Value coord;
    for (auto [bit, basis] : llvm::enumerate(threadBases)) {
      uint64_t field = fieldOf(layout, basis, d);
      if (!field)
        continue;
      masks[d] |= field;
      Value set = andConst(shrConst(tid, bit), 1);
      Value term = mul(set, idx(field));
      coord = coord ? arith::XOrIOp::create(b, loc(), coord, term) : term;
    }
    if (coord)
      coords[d] = coord;
  }
  return coords;
}

SmallVector<Value> LoweringContext::elementCoords(const LinearLayout &layout,
                                                  int64_t reg,
                                                  ArrayRef<Value> tcoords,
                                                  ArrayRef<uint64_t> masks) {
  uint64_t flat = layout.applyFlat({{LinearLayout::kRegister, reg}});
  SmallVector<Value> coords;
  for (unsigned d = 0; d < layout.getOutRank(); ++d) {
    uint64_t field = fieldOf(layout, flat, d);
    if (field == 0)
      coords.push_back(tcoords[d]);
    else if ((field & masks[d]) == 0)
      coords.push_back(arith::OrIOp::create(b, loc(), tcoords[d], idx(field)));
    else
      coords.push_back(arith::XOrIOp::create(b, loc(), tcoords[d], idx(field)));
  }
  return coords;
}

Value LoweringContext::canonicalHolder(const LinearLayout &layout, Value tid) {
  int64_t mask = 0;
  unsigned bit = 0;
  for (StringRef name : {LinearLayout::kLane, LinearLayout::kWarp})
    for (uint64_t basis : layout.getBases(name)) {
      if (basis == 0)
        mask |= int64_t(1) << bit;
      ++bit;
    }
  if (!mask)
    return nullptr;
  return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                               andConst(tid, mask), idx(0));
}

Value LoweringContext::convert(Value v, Type to) {
  Type from = v.getType();
  if (getElementTypeOrSelf(from) == getElementTypeOrSelf(to))
    return v;
  Location l = loc();
  auto fromF = dyn_cast<FloatType>(getElementTypeOrSelf(from));
  auto toF = dyn_cast<FloatType>(getElementTypeOrSelf(to));
  if (auto vec = dyn_cast<VectorType>(from))
    to = VectorType::get(vec.getShape(), to);
  if (fromF && toF)
    return fromF.getWidth() > toF.getWidth()
               ? arith::TruncFOp::create(b, l, to, v).getResult()
               : arith::ExtFOp::create(b, l, to, v).getResult();
  if (fromF)
    return arith::FPToSIOp::create(b, l, to, v);
  if (toF)
    return arith::SIToFPOp::create(b, l, to, v);
  unsigned fw = getElementTypeOrSelf(from).getIntOrFloatBitWidth();
  unsigned tw = getElementTypeOrSelf(to).getIntOrFloatBitWidth();
  return fw > tw ? arith::TruncIOp::create(b, l, to, v).getResult()
                 : arith::ExtSIOp::create(b, l, to, v).getResult();
}

Value LoweringContext::zeroOf(Type type) {
  return arith::ConstantOp::create(b, loc(), type, b.getZeroAttr(type));
}

Value LoweringContext::loadOrPad(Value valid, Value memref, ValueRange indices,
                                 Type to, TypedAttr padding) {
  if (!valid)
    return convert(memref::LoadOp::create(b, loc(), memref, indices), to);
  auto branch = scf::IfOp::create(b, loc(), TypeRange{to}, valid, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  Value v = memref::LoadOp::create(b, loc(), memref, indices);
  scf::YieldOp::create(b, loc(), convert(v, to));
  b.setInsertionPointToStart(branch.elseBlock());
  scf::YieldOp::create(
      b, loc(),
      padding ? arith::ConstantOp::create(b, loc(), padding).getResult()
              : zeroOf(to));
  return branch.getResult(0);
}

SmallVector<Value> LoweringContext::globalCoords(ValueRange offsets,
                                                 ArrayRef<Value> tileCoords) {
  SmallVector<Value> coords(offsets.begin(), offsets.end());
  if (coords.empty())
    return SmallVector<Value>(tileCoords);
  unsigned lead = coords.size() - tileCoords.size();
  for (auto [i, c] : llvm::enumerate(tileCoords))
    coords[lead + i] = arith::AddIOp::create(b, loc(), coords[lead + i], c);
  return coords;
}

Value LoweringContext::alignedRows(Value global, ArrayRef<Value> dims,
                                   ValueRange offsets, int64_t vec) {
  if (vec <= 1)
    return nullptr;
  auto isMultiple = [&](Value v, int64_t n) {
    Value zero = idx(0);
    Value rem = arith::RemUIOp::create(b, loc(), v, idx(n));
    return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, rem, zero);
  };
  Value aligned = isMultiple(dims.back(), vec);
  if (!offsets.empty())
    aligned = andBool(aligned, isMultiple(offsets.back(), vec));
  // Row-major memrefs have offset 0: the aligned pointer is the data's.
  int64_t bytes =
      vec * cast<MemRefType>(global.getType()).getElementTypeBitWidth() / 8;
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc(), global);
  return andBool(aligned, isMultiple(base, std::max<int64_t>(bytes, 1)));
}

Value LoweringContext::regionInBounds(ArrayRef<Value> dims, ValueRange offsets,
                                      ArrayRef<int64_t> shape) {
  Value inBounds;
  unsigned lead = dims.size() - shape.size();
  for (unsigned d = 0; d < dims.size(); ++d) {
    Value start = offsets.empty() ? idx(0) : offsets[d];
    int64_t extent = d < lead ? 1 : shape[d - lead];
    inBounds = andBool(
        inBounds, arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule,
                                        addConst(start, extent), dims[d]));
  }
  return inBounds;
}

FailureOr<SharedRef> LoweringContext::resolveShared(Value value,
                                                    Operation *user) {
  if (auto it = shared.find(value); it != shared.end())
    return SharedRef{&it->second, idx(0), it->second.type.getShape()};
  auto view = value.getDefiningOp<memref::SubViewOp>();
  if (view) {
    auto it = shared.find(view.getSource());
    if (it != shared.end()) {
      // Only selections of whole trailing matrices (e.g. one stage of a
      // multi-versioned buffer) keep the swizzle pattern of the root.
      ArrayRef<int64_t> rootShape = it->second.type.getShape();
      auto viewType = cast<MemRefType>(view.getType());
      unsigned dropped = rootShape.size() - viewType.getRank();
      bool ok = llvm::all_of(view.getStaticStrides(),
                             [](int64_t s) { return s == 1; });
      ArrayRef<int64_t> sizes = view.getStaticSizes();
      for (unsigned d = 0; d < rootShape.size(); ++d) {
        bool leading = d < dropped;
        ok &= leading ? sizes[d] == 1 : sizes[d] == rootShape[d];
        if (!leading)
          ok &= view.getStaticOffsets()[d] == 0;
      }
      if (ok) {
        SmallVector<OpFoldResult> offsets = view.getMixedOffsets();
        Value origin = idx(0);
        int64_t stride = 1;
        for (int d = rootShape.size() - 1; d >= 0; --d) {
          if (d < static_cast<int>(dropped)) {
            Value off = getValueOrCreateConstantIndexOp(b, loc(), offsets[d]);
            origin = add(origin, mul(off, idx(stride)));
          }
          stride *= rootShape[d];
        }
        return SharedRef{&it->second, origin, viewType.getShape()};
      }
    }
  }
  return user->emitOpError("unsupported shared operand: expected a shared "
                           "tile or a memref.subview selecting whole trailing "
                           "matrices of one");
}

namespace {
/// Index arithmetic on values, emitted at the context's builder.
struct ValueArith {
  using V = Value;
  IndexBuilder ib;
  V idx(int64_t v) const { return ib.idx(v); }
  V add(V x, V y) const { return ib.add(x, y); }
  V mul(V x, int64_t c) const { return ib.mul(x, idx(c)); }
  V divConst(V x, int64_t c) const { return ib.divConst(x, c); }
  V andConst(V x, int64_t c) const { return ib.andConst(x, c); }
  V shrConst(V x, int64_t c) const { return ib.shrConst(x, c); }
  V shlConst(V x, int64_t c) const {
    return arith::ShLIOp::create(ib.b, ib.loc, x, idx(c));
  }
  V xorV(V x, V y) const { return ib.xorV(x, y); }
};
/// The same arithmetic on integers known at compile time.
struct ConstArith {
  using V = int64_t;
  V idx(int64_t v) const { return v; }
  V add(V x, V y) const { return x + y; }
  V mul(V x, int64_t c) const { return x * c; }
  V divConst(V x, int64_t c) const { return x / c; }
  V andConst(V x, int64_t c) const { return x & c; }
  V shrConst(V x, int64_t c) const { return x >> c; }
  V shlConst(V x, int64_t c) const { return x << c; }
  V xorV(V x, V y) const { return x ^ y; }
};
} // namespace

/// The element index of `coords` in the view `ref` whose origin is
/// `origin`, in the arithmetic `a` (emitted or evaluated).
template <typename Arith>
static typename Arith::V sharedIndexIn(const Arith &a, const SharedRef &ref,
                                       ArrayRef<typename Arith::V> coords,
                                       typename Arith::V origin) {
  using V = typename Arith::V;
  SharedTile &tile = *ref.tile;
  ArrayRef<int64_t> rootShape = tile.type.getShape();
  int64_t eltBytes = std::max<int64_t>(tile.elementBits / 8, 1);
  int64_t rowElems = rootShape.back() + tile.layout.getPad() / eltBytes;
  // Element offset within the view before the swizzle, with padded rows, or
  // with rows wider than the swizzle split into column panels (each panel
  // holds all rows of a matrix, `panelElems` elements wide).
  int64_t panelElems = tile.layout.getSwizzle() / eltBytes;
  bool panels = panelElems > 0 && rootShape.back() > panelElems;
  V linear = coords.back();
  int64_t stride = rowElems;
  if (panels) {
    int64_t rows = coords.size() > 1 ? ref.shape[coords.size() - 2] : 1;
    V col = coords.back();
    // (One op a statement, whatever the argument order: design.md 9.)
    V panel = a.mul(a.divConst(col, panelElems), rows * panelElems);
    linear = a.add(a.andConst(col, panelElems - 1), panel);
    stride = panelElems;
  }
  for (int d = coords.size() - 2; d >= 0; --d) {
    linear = a.add(linear, a.mul(coords[d], stride));
    stride = (panels && d == static_cast<int>(coords.size()) - 2)
                 ? rowElems * ref.shape[d]
                 : stride * ref.shape[d];
  }
  // The origin counts unpadded elements of whole leading matrices.
  if (tile.layout.getPad() != 0)
    origin = a.mul(a.divConst(origin, rootShape.back()), rowElems);
  int64_t unit = tile.layout.getUnit();
  auto swizzle = [&](V elements) -> V {
    int64_t bytes = tile.layout.getSwizzle();
    if (!bytes)
      return elements;
    V byteOffset = a.mul(elements, eltBytes);
    V row = a.andConst(a.shrConst(byteOffset, 7), bytes / unit - 1);
    V flip = a.shlConst(row, llvm::Log2_64(unit));
    return a.divConst(a.xorV(byteOffset, flip), eltBytes);
  };
  // The swizzle permutes chunks within spans of 128 x swizzle / unit bytes:
  // when every matrix of the root is a whole number of spans, it commutes
  // with the (matrix-aligned) origin, so the swizzled offset within the
  // matrix does not depend on the version and can be hoisted out of loops.
  int64_t matrixBytes = tile.layout.getSizeInBytes(
      rootShape.take_back(std::min<size_t>(2, rootShape.size())),
      tile.elementBits);
  int64_t span = 128 * tile.layout.getSwizzle() / unit;
  if (!span || matrixBytes % span == 0)
    return a.add(swizzle(linear), origin);
  return swizzle(a.add(linear, origin));
}

Value LoweringContext::sharedIndex(const SharedRef &ref,
                                   ArrayRef<Value> coords) {
  return sharedIndexIn(ValueArith{ib()}, ref, coords, ref.origin);
}

int64_t LoweringContext::sharedIndexAt(const SharedRef &ref,
                                       ArrayRef<int64_t> coords) {
  return sharedIndexIn(ConstArith{}, ref, coords, int64_t{0});
}

bool LoweringContext::splitsVectors(const SharedRef &ref, int64_t vecElems) {
  SharedLayoutAttr layout = ref.tile->layout;
  return layout.getSwizzle() &&
         vecElems * ref.tile->elementBits / 8 > layout.getUnit();
}

Value LoweringContext::sharedVectorElement(const SharedRef &ref, Value index,
                                           int64_t e, int64_t vecElems) {
  int64_t half = vecElems / 2;
  if (!splitsVectors(ref, vecElems) || e < half)
    return addConst(index, e);
  Value other = arith::XOrIOp::create(b, loc(), index, idx(half));
  return addConst(other, e - half);
}

Value LoweringContext::swappedHalves(const SharedRef &ref, int64_t vecElems,
                                     Value chunk, Value tid, int64_t threads,
                                     Value index) {
  if (!splitsVectors(ref, vecElems))
    return Value();
  SharedLayoutAttr layout = ref.tile->layout;
  ArrayRef<int64_t> shape = ref.shape;
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  ArrayRef<int64_t> matrix = shape.take_back(std::min<size_t>(2, shape.size()));
  int64_t rows = matrix.size() > 1 ? matrix[0] : 1;
  int64_t matrixBytes = rows * matrix.back() * ref.tile->elementBits / 8;
  int64_t period = 128 * layout.getSwizzle() / layout.getUnit();
  // The unit bit of chunk c's first byte, over the chunk index bits.
  auto flips = [&](int64_t c) {
    int64_t element = (c * vecElems) % (rows * matrix.back());
    SmallVector<int64_t> coord = {element / matrix.back(),
                                  element % matrix.back()};
    if (matrix.size() == 1)
      coord.erase(coord.begin());
    int64_t offset = layout.getByteOffset(coord, matrix, ref.tile->elementBits);
    return (offset & layout.getUnit()) != 0;
  };
  SmallVector<int64_t> bits;
  // Whole swizzle periods per matrix: the flip does not depend on which
  // matrix of the view a chunk is in.
  bool linear = llvm::isPowerOf2_64(numel) && llvm::isPowerOf2_64(rows) &&
                llvm::isPowerOf2_64(matrix.back()) &&
                (matrixBytes % period == 0 || numel == rows * matrix.back());
  for (int64_t j = 0; linear && (int64_t(1) << j) * vecElems < numel; ++j)
    if (flips(int64_t(1) << j))
      bits.push_back(j);
  Value flip;
  if (linear && bits.size() == 1) {
    int64_t bit = bits.front();
    Value source = threads % (int64_t(2) << bit) == 0 ? tid : chunk;
    flip = andConst(shrConst(source, bit), 1);
  } else {
    flip = andConst(index, vecElems / 2);
  }
  return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne, flip,
                               idx(0));
}

Value LoweringContext::accessSharedVector(const SharedRef &ref, Value index,
                                          VectorType type, Value value,
                                          Value swapped) {
  int64_t vecElems = type.getNumElements();
  int64_t bytes = vecElems * ref.tile->elementBits / 8;
  Value view = ref.tile->view;
  if (!splitsVectors(ref, vecElems)) {
    if (!value)
      return vector::LoadOp::create(b, loc(), type, view, ValueRange{index},
                                    /*nontemporal=*/false,
                                    llvm::MaybeAlign(bytes));
    vector::StoreOp::create(b, loc(), value, view, ValueRange{index},
                            /*nontemporal=*/false, llvm::MaybeAlign(bytes));
    return value;
  }
  assert(bytes == 2 * ref.tile->layout.getUnit() && "two swizzle units");
  int64_t half = vecElems / 2;
  Value low = andConst(index, half);
  if (!swapped)
    swapped =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne, low, idx(0));
  Value at = arith::SubIOp::create(b, loc(), index, low);
  SmallVector<int64_t> mask;
  for (int64_t e = 0; e < vecElems; ++e)
    mask.push_back((e + half) % vecElems);
  auto exchange = [&](Value v) -> Value {
    Value other = vector::ShuffleOp::create(b, loc(), v, v, mask);
    return arith::SelectOp::create(b, loc(), swapped, other, v);
  };
  if (!value)
    return exchange(vector::LoadOp::create(b, loc(), type, view, ValueRange{at},
                                           /*nontemporal=*/false,
                                           llvm::MaybeAlign(bytes)));
  vector::StoreOp::create(b, loc(), exchange(value), view, ValueRange{at},
                          /*nontemporal=*/false, llvm::MaybeAlign(bytes));
  return value;
}

SharedOperand LoweringContext::toOperand(const SharedRef &ref) {
  SharedOperand operand;
  operand.view = ref.tile->view;
  operand.elementType = ref.tile->type.getElementType();
  operand.elementBits = ref.tile->elementBits;
  operand.shape.assign(ref.shape.begin(), ref.shape.end());
  operand.index = [this, ref](OpBuilder &, Location,
                              ArrayRef<Value> coords) -> Value {
    return sharedIndex(ref, coords);
  };
  operand.swizzleBytes = ref.tile->layout.getSwizzle();
  operand.swizzleUnit = ref.tile->layout.getUnit();
  operand.padBytes = ref.tile->layout.getPad();
  operand.origin = ref.origin;
  return operand;
}

Value LoweringContext::sharedPointer(Value view, Value index) {
  auto type = cast<MemRefType>(view.getType());
  int64_t bytes = std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc(), view);
  address = add(address, mul(index, idx(bytes)));
  Value i64 = arith::IndexCastOp::create(b, loc(), b.getI64Type(), address);
  // Shared memory is address space 3 for NVPTX and AMDGPU alike.
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::IntToPtrOp::create(b, loc(), ptrType, i64);
}

RegisterOperand *LoweringContext::getRegTile(Value value, Operation *user) {
  auto it = frags.find(value);
  if (it == frags.end()) {
    user->emitOpError("unsupported fragment operand: expected a tile.alloc "
                      "result");
    return nullptr;
  }
  return &it->second;
}

SmallVector<std::pair<unsigned, int64_t>>
mlir::tile::lowering::groupByConstantOffset(
    ArrayRef<SmallVector<int64_t>> table) {
  SmallVector<std::pair<unsigned, int64_t>> groups;
  SmallVector<unsigned> representatives;
  for (auto [i, row] : llvm::enumerate(table)) {
    std::pair<unsigned, int64_t> group = {i, 0};
    for (unsigned q : representatives) {
      const SmallVector<int64_t> &base = table[q];
      if (base.size() != row.size() || row.empty())
        continue;
      int64_t offset = row[0] - base[0];
      if (llvm::all_of(llvm::seq<size_t>(0, row.size()),
                       [&](size_t t) { return row[t] - base[t] == offset; })) {
        group = {q, offset};
        break;
      }
    }
    if (group.first == i)
      representatives.push_back(i);
    groups.push_back(group);
  }
  return groups;
}
