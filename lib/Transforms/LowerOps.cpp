//===- LowerOps.cpp - Lower tile ops to per-thread code ---------*- C++ -*-===//
//
// After layout inference every fragment and tile.parallel has a distributed
// layout and every shared tile a memory layout. This pass rewrites the
// block-cooperative tile ops of each kernel into what one thread executes:
// address arithmetic over thread ids, vector loads and stores, nvgpu.ldmatrix
// and nvgpu.mma.sync, shuffles and barriers. The kernel op itself stays; the
// conversion to gpu outlines it afterwards.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"
#include "tile/Transforms/Pipelining.h"
#include "tile/Transforms/Resources.h"
#include "tile/Transforms/Utils.h"

#include "tile/Dialect/LinearLayout.h"
#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tile {
#define GEN_PASS_DEF_LOWEROPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

//===----------------------------------------------------------------------===//
// Lowered buffers
//===----------------------------------------------------------------------===//

/// A shared tile lowered to a flat view of dynamic shared memory.
struct SharedTile {
  Value view;              // memref<N x elt, workgroup>
  MemRefType type;         // the tile's logical type
  SharedLayoutAttr layout; // swizzle or padding
  int64_t elementBits;
};

/// A fragment lowered to a per-thread register array.
struct RegTile {
  Value regs; // memref<R x elt>
  MemRefType type;
  LinearLayout layout;
};

/// A shared operand resolved through memref.subview: the root tile, and the
/// element offset of the view's origin in the root's row-major order.
struct SharedRef {
  SharedTile *tile;
  Value origin;
  ArrayRef<int64_t> shape; // the view's shape
};

/// Bits of coordinate dimension `dim` in a flat index of `layout`.
static uint64_t fieldOf(const LinearLayout &layout, uint64_t flat,
                        unsigned dim) {
  return layout.unpackCoord(flat)[dim];
}

/// The length of the runs of registers of `layout` holding consecutive,
/// aligned elements of the last dimension: the leading registers step
/// through the last coordinate (1, 2, 4, ...), and no other register, lane
/// or warp bit moves the last coordinate by less than the run. Every run
/// then starts at a multiple of its length.
static int64_t contiguousRegisters(const LinearLayout &layout) {
  auto lastCoord = [&](uint64_t basis) {
    return layout.unpackCoord(basis).back();
  };
  ArrayRef<uint64_t> regs = layout.getBases(LinearLayout::kRegister);
  int64_t run = 1;
  unsigned runBits = 0;
  for (uint64_t basis : regs) {
    SmallVector<int64_t> c = layout.unpackCoord(basis);
    bool next =
        c.back() == run && llvm::all_of(ArrayRef<int64_t>(c).drop_back(),
                                        [](int64_t x) { return x == 0; });
    if (!next)
      break;
    run *= 2;
    ++runBits;
  }
  auto shrink = [&](uint64_t basis) {
    while (run > 1 && (lastCoord(basis) & (run - 1)) != 0)
      run /= 2;
  };
  for (uint64_t basis : regs.drop_front(runBits))
    shrink(basis);
  for (StringRef dim : {LinearLayout::kLane, LinearLayout::kWarp})
    for (uint64_t basis : layout.getBases(dim))
      shrink(basis);
  return run;
}

//===----------------------------------------------------------------------===//
// KernelLowering
//===----------------------------------------------------------------------===//

class KernelLowering {
public:
  explicit KernelLowering(KernelOp kernel)
      : kernel(kernel), b(kernel.getContext()) {}
  LogicalResult run();

private:
  // Setup.
  LogicalResult checkLayouts();
  void allocateScratch();
  LogicalResult lowerAllocs();

  // Per-op lowering.
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerFill(FillOp op);
  LogicalResult lowerCopy(CopyOp op);
  LogicalResult lowerGemm(GemmOp op);
  Value mmaSyncBF16(Value a, Value b, Value c);
  /// The registers first..first+N-1 of a fragment as a vector of `type`
  /// (N elements).
  Value loadRegisters(const RegTile &tile, int64_t first, VectorType type);
  /// Loads the per-(tile, k step) atoms of a gemm operand held in a
  /// fragment with the mma.sync operand layout `expected`.
  LogicalResult loadRegisterOperand(GemmOp op, Value operand,
                                    const LinearLayout &expected,
                                    StringRef name, VectorType atomType,
                                    SmallVectorImpl<SmallVector<Value>> &frags);
  LogicalResult lowerParallel(ParallelOp op);
  LogicalResult lowerReduce(ReduceOp op);
  LogicalResult lowerWs(WsOp op);
  void insertBarriers();

  // Copies.
  LogicalResult copyGlobalShared(CopyOp op, bool toShared);
  LogicalResult copyFragmentMemory(CopyOp op);
  LogicalResult copyFragmentFragment(CopyOp op);
  LogicalResult copySharedShared(CopyOp op);
  /// True when rows of the global memref (extents `dims`) and the last
  /// offset are multiples of `vec` elements (null when vec is 1).
  Value alignedRows(ArrayRef<Value> dims, ValueRange offsets, int64_t vec);
  /// True when the region `shape` at `offsets` lies within `dims` (the shape
  /// covers the trailing dimensions).
  Value regionInBounds(ArrayRef<Value> dims, ValueRange offsets,
                       ArrayRef<int64_t> shape);
  /// Shared -> fragment copies whose layout is the ldmatrix pattern (16-bit
  /// elements; register bit 0 and the lanes within 8x8 matrices, other bits
  /// moving whole matrices) as nvgpu.ldmatrix; fails (emitting nothing)
  /// otherwise.
  LogicalResult loadWithLdMatrix(CopyOp op, RegTile &tile,
                                 const SharedRef &ref);

  // Helpers.
  Location loc() { return currentLoc; }
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc(), v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc(), x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc(), x, y); }
  Value addConst(Value x, int64_t c) { return c == 0 ? x : add(x, idx(c)); }
  Value andConst(Value x, int64_t c) {
    return arith::AndIOp::create(b, loc(), x, idx(c));
  }
  Value shrConst(Value x, int64_t c) {
    return c == 0 ? x : arith::ShRUIOp::create(b, loc(), x, idx(c));
  }
  Value ult(Value x, Value y) {
    return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, x, y);
  }
  Value andBool(Value x, Value y) {
    if (!x)
      return y;
    return arith::AndIOp::create(b, loc(), x, y);
  }
  Value convert(Value v, Type to);
  Value zeroOf(Type type);
  /// memref[indices] converted to `to` where `valid` holds (always when
  /// null), else zero.
  Value loadOrZero(Value valid, Value memref, ValueRange indices, Type to);
  Value threadId(Operation *op);
  /// Per-dimension coordinates contributed by the thread bits of `layout`,
  /// and the mask of bits they can set in each dimension.
  SmallVector<Value> threadCoords(const LinearLayout &layout, Value tid,
                                  SmallVectorImpl<uint64_t> &masks);
  /// Coordinates of register `reg` for a thread whose thread part is
  /// `tcoords`.
  SmallVector<Value> elementCoords(const LinearLayout &layout, int64_t reg,
                                   ArrayRef<Value> tcoords,
                                   ArrayRef<uint64_t> masks);
  /// Condition true for the one thread of each group of replicas (null if
  /// the layout has no replication).
  Value canonicalHolder(const LinearLayout &layout, Value tid);
  /// Element index in a shared tile's flat view of logical `coords` of the
  /// view `ref` (coords over ref.shape).
  Value sharedIndex(const SharedRef &ref, ArrayRef<Value> coords);
  FailureOr<SharedRef> resolveShared(Value value, Operation *user);
  RegTile *getRegTile(Value value, Operation *user);

  KernelOp kernel;
  OpBuilder b;
  Location currentLoc = UnknownLoc::get(kernel.getContext());
  Value tidValue;
  DenseMap<Value, SharedTile> shared;
  DenseMap<Value, RegTile> frags;
  DenseMap<Operation *, Value> scratch;
  int64_t sharedBytes = 0;
};

LogicalResult KernelLowering::checkLayouts() {
  WalkResult result = kernel.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      MemoryKind kind = getMemoryKind(alloc.getType());
      if ((kind == MemoryKind::Fragment &&
           !isa_and_nonnull<LinearLayoutAttr>(alloc.getLayoutAttr())) ||
          (kind == MemoryKind::Shared &&
           !isa_and_nonnull<SharedLayoutAttr>(alloc.getLayoutAttr()))) {
        alloc.emitOpError("has no layout: run tile-layout-inference before "
                          "tile-lower-ops");
        return WalkResult::interrupt();
      }
    }
    if (auto loop = dyn_cast<ParallelOp>(op))
      if (!isa_and_nonnull<LinearLayoutAttr>(loop.getLayoutAttr())) {
        loop.emitOpError("has no layout: run tile-layout-inference before "
                         "tile-lower-ops");
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Whether a reduce needs to combine partial results across warps.
static bool reducesAcrossWarps(ReduceOp op, const LinearLayout &src) {
  unsigned dim = op.getDim();
  for (uint64_t basis : src.getBases(LinearLayout::kWarp)) {
    SmallVector<int64_t> coord = src.unpackCoord(basis);
    bool onlyDim = coord[dim] != 0;
    for (auto [d, c] : llvm::enumerate(coord))
      onlyDim &= d == dim || c == 0;
    if (onlyDim)
      return true;
  }
  return false;
}

void KernelLowering::allocateScratch() {
  // Scratch shared memory for fragment-to-fragment conversions and
  // cross-warp reductions, allocated like any other shared tile.
  Block &body = kernel.getBody().front();
  MLIRContext *ctx = kernel.getContext();
  Attribute space = getMemorySpaceAttr(ctx, MemoryKind::Shared);
  auto makeScratch = [&](Operation *op, ArrayRef<int64_t> shape,
                         Type elementType) {
    b.setInsertionPointToStart(&body);
    auto type =
        MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(), space);
    auto alloc = AllocOp::create(b, op->getLoc(), type);
    alloc.setLayoutAttr(SharedLayoutAttr::get(ctx, 0, 0));
    alloc.setAlignmentAttr(b.getI64IntegerAttr(16));
    scratch[op] = alloc.getResult();
  };
  kernel.walk([&](Operation *op) {
    if (auto copy = dyn_cast<CopyOp>(op)) {
      auto src = copy.getSource().getDefiningOp<AllocOp>();
      auto dst = copy.getTarget().getDefiningOp<AllocOp>();
      if (src && dst && getMemoryKind(src.getType()) == MemoryKind::Fragment &&
          getMemoryKind(dst.getType()) == MemoryKind::Fragment &&
          src.getLayoutAttr() != dst.getLayoutAttr())
        makeScratch(op, src.getType().getShape(),
                    src.getType().getElementType());
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      auto src = reduce.getSource().getDefiningOp<AllocOp>();
      if (!src)
        return;
      auto layout = dyn_cast_or_null<LinearLayoutAttr>(src.getLayoutAttr());
      if (!layout || !reducesAcrossWarps(reduce, layout.getLinearLayout()))
        return;
      // One partial per thread and target register.
      LinearLayout dst = layout.getLinearLayout().projectOut(reduce.getDim());
      int64_t threads = getNumThreads(reduce, kernel);
      makeScratch(op, {threads * dst.getRegistersPerThread()},
                  src.getType().getElementType());
    }
  });
}

LogicalResult KernelLowering::lowerAllocs() {
  Block &body = kernel.getBody().front();
  b.setInsertionPointToStart(&body);
  currentLoc = kernel.getLoc();
  MLIRContext *ctx = kernel.getContext();
  tidValue = gpu::ThreadIdOp::create(b, loc(), gpu::Dimension::x);
  Attribute sharedSpace = getMemorySpaceAttr(ctx, MemoryKind::Shared);
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), sharedSpace);
  Value dynamicShared;

  SmallVector<AllocOp> allocs;
  kernel.walk([&](AllocOp alloc) { allocs.push_back(alloc); });
  int64_t offset = 0;
  for (AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    currentLoc = alloc.getLoc();
    if (alloc->getParentOp() != kernel)
      return alloc.emitOpError("must be at the top level of its tile.kernel "
                               "to be lowered");
    switch (getMemoryKind(type)) {
    case MemoryKind::Shared: {
      if (!dynamicShared)
        dynamicShared = gpu::DynamicSharedMemoryOp::create(b, loc(), bytesType);
      auto layout = cast<SharedLayoutAttr>(alloc.getLayoutAttr());
      offset = llvm::alignTo(offset, getSharedAlignment(alloc));
      int64_t bytes = getSharedTileSizeInBytes(alloc);
      int64_t bits = type.getElementTypeBitWidth();
      auto viewType = MemRefType::get({bytes * 8 / bits}, type.getElementType(),
                                      MemRefLayoutAttrInterface(), sharedSpace);
      Value view = memref::ViewOp::create(b, loc(), viewType, dynamicShared,
                                          idx(offset), ValueRange());
      shared[alloc.getResult()] = {view, type, layout, bits};
      offset += bytes;
      break;
    }
    case MemoryKind::Fragment: {
      LinearLayout layout =
          cast<LinearLayoutAttr>(alloc.getLayoutAttr()).getLinearLayout();
      auto regType = MemRefType::get({layout.getRegistersPerThread()},
                                     type.getElementType());
      Value regs = memref::AllocaOp::create(b, loc(), regType);
      frags[alloc.getResult()] = {regs, type, layout};
      break;
    }
    case MemoryKind::Local:
      return alloc.emitOpError("local tiles are not supported by the "
                               "lowering yet");
    default:
      return alloc.emitOpError("unexpected memory space");
    }
  }
  sharedBytes = offset;
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value KernelLowering::threadId(Operation *op) {
  int64_t first = getFirstThread(op);
  if (first == 0)
    return tidValue;
  return arith::SubIOp::create(b, loc(), tidValue, idx(first));
}

SmallVector<Value>
KernelLowering::threadCoords(const LinearLayout &layout, Value tid,
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

SmallVector<Value> KernelLowering::elementCoords(const LinearLayout &layout,
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

Value KernelLowering::canonicalHolder(const LinearLayout &layout, Value tid) {
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

Value KernelLowering::convert(Value v, Type to) {
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

Value KernelLowering::zeroOf(Type type) {
  return arith::ConstantOp::create(b, loc(), type, b.getZeroAttr(type));
}

Value KernelLowering::loadOrZero(Value valid, Value memref, ValueRange indices,
                                 Type to) {
  if (!valid)
    return convert(memref::LoadOp::create(b, loc(), memref, indices), to);
  auto branch = scf::IfOp::create(b, loc(), TypeRange{to}, valid, true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(branch.thenBlock());
  Value v = memref::LoadOp::create(b, loc(), memref, indices);
  scf::YieldOp::create(b, loc(), convert(v, to));
  b.setInsertionPointToStart(branch.elseBlock());
  scf::YieldOp::create(b, loc(), zeroOf(to));
  return branch.getResult(0);
}

FailureOr<SharedRef> KernelLowering::resolveShared(Value value,
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

Value KernelLowering::sharedIndex(const SharedRef &ref,
                                  ArrayRef<Value> coords) {
  SharedTile &tile = *ref.tile;
  ArrayRef<int64_t> rootShape = tile.type.getShape();
  int64_t eltBytes = std::max<int64_t>(tile.elementBits / 8, 1);
  int64_t rowElems = rootShape.back() + tile.layout.getPad() / eltBytes;
  // Element offset within the view before the swizzle, with padded rows, or
  // with rows wider than the swizzle split into column panels (each panel
  // holds all rows of a matrix, `panelElems` elements wide).
  int64_t panelElems = tile.layout.getSwizzle() / eltBytes;
  bool panels = panelElems > 0 && rootShape.back() > panelElems;
  Value linear = coords.back();
  int64_t stride = rowElems;
  if (panels) {
    int64_t rows = coords.size() > 1 ? ref.shape[coords.size() - 2] : 1;
    Value col = coords.back();
    linear = add(andConst(col, panelElems - 1),
                 mul(arith::DivUIOp::create(b, loc(), col, idx(panelElems)),
                     idx(rows * panelElems)));
    stride = panelElems;
  }
  for (int d = coords.size() - 2; d >= 0; --d) {
    linear = add(linear, mul(coords[d], idx(stride)));
    stride = (panels && d == static_cast<int>(coords.size()) - 2)
                 ? rowElems * ref.shape[d]
                 : stride * ref.shape[d];
  }
  // The origin counts unpadded elements of whole leading matrices.
  Value origin = ref.origin;
  if (tile.layout.getPad() != 0)
    origin =
        mul(arith::DivUIOp::create(b, loc(), origin, idx(rootShape.back())),
            idx(rowElems));
  auto swizzle = [&](Value elements) -> Value {
    int64_t bytes = tile.layout.getSwizzle();
    if (!bytes)
      return elements;
    Value byteOffset = mul(elements, idx(eltBytes));
    Value row = andConst(shrConst(byteOffset, 7), bytes / 16 - 1);
    Value flip = arith::ShLIOp::create(b, loc(), row, idx(4));
    return arith::DivUIOp::create(
        b, loc(), arith::XOrIOp::create(b, loc(), byteOffset, flip),
        idx(eltBytes));
  };
  // The swizzle permutes 16-byte chunks within spans of 8 x swizzle bytes:
  // when every matrix of the root is a whole number of spans, it commutes
  // with the (matrix-aligned) origin, so the swizzled offset within the
  // matrix does not depend on the version and can be hoisted out of loops.
  int64_t matrixBytes = tile.layout.getSizeInBytes(
      rootShape.take_back(std::min<size_t>(2, rootShape.size())),
      tile.elementBits);
  int64_t span = 8 * tile.layout.getSwizzle();
  if (!span || matrixBytes % span == 0)
    return add(swizzle(linear), origin);
  return swizzle(add(linear, origin));
}

RegTile *KernelLowering::getRegTile(Value value, Operation *user) {
  auto it = frags.find(value);
  if (it == frags.end()) {
    user->emitOpError("unsupported fragment operand: expected a tile.alloc "
                      "result");
    return nullptr;
  }
  return &it->second;
}

//===----------------------------------------------------------------------===//
// tile.fill
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerFill(FillOp op) {
  Value target = op.getTarget();
  if (frags.count(target)) {
    RegTile &tile = frags[target];
    for (int64_t r = 0; r < tile.layout.getRegistersPerThread(); ++r)
      memref::StoreOp::create(b, loc(), op.getValue(), tile.regs, idx(r));
    return success();
  }
  FailureOr<SharedRef> ref = resolveShared(target, op);
  if (failed(ref))
    return failure();
  // Each thread stores every `threads`-th element.
  int64_t threads = getNumThreads(op, kernel);
  ArrayRef<int64_t> shape = ref->shape;
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  Value tid = threadId(op);
  auto loop = scf::ForOp::create(b, loc(), tid, idx(numel), idx(threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  SmallVector<Value> coords(shape.size());
  for (int d = shape.size() - 1; d >= 0; --d) {
    coords[d] = arith::RemUIOp::create(b, loc(), e, idx(shape[d]));
    e = arith::DivUIOp::create(b, loc(), e, idx(shape[d]));
  }
  memref::StoreOp::create(b, loc(), op.getValue(), ref->tile->view,
                          sharedIndex(*ref, coords));
  return success();
}

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

/// The global region of a copy: its memref, offsets and the rank of the
/// tile (aligned to the trailing dimensions).
struct GlobalRegion {
  Value memref;
  ValueRange offsets;
};

LogicalResult KernelLowering::lowerCopy(CopyOp op) {
  MemoryKind src = getMemoryKind(op.getSourceType());
  MemoryKind dst = getMemoryKind(op.getTargetType());
  if (src == MemoryKind::Fragment && dst == MemoryKind::Fragment)
    return copyFragmentFragment(op);
  if (src == MemoryKind::Fragment || dst == MemoryKind::Fragment)
    return copyFragmentMemory(op);
  if (src == MemoryKind::Global && dst == MemoryKind::Shared)
    return copyGlobalShared(op, /*toShared=*/true);
  if (src == MemoryKind::Shared && dst == MemoryKind::Global)
    return copyGlobalShared(op, /*toShared=*/false);
  if (src == MemoryKind::Shared && dst == MemoryKind::Shared)
    return copySharedShared(op);
  return op.emitOpError("copies from ")
         << stringifyMemoryKind(src) << " to " << stringifyMemoryKind(dst)
         << " memory are not supported by the lowering yet";
}

/// Global coordinates of a tile element: the region offsets plus the tile
/// coordinates aligned to the trailing dimensions.
static SmallVector<Value> globalCoords(OpBuilder &b, Location loc,
                                       ValueRange offsets,
                                       ArrayRef<Value> tileCoords) {
  SmallVector<Value> coords(offsets.begin(), offsets.end());
  if (coords.empty())
    return SmallVector<Value>(tileCoords);
  unsigned lead = coords.size() - tileCoords.size();
  for (auto [i, c] : llvm::enumerate(tileCoords))
    coords[lead + i] = arith::AddIOp::create(b, loc, coords[lead + i], c);
  return coords;
}

Value KernelLowering::alignedRows(ArrayRef<Value> dims, ValueRange offsets,
                                  int64_t vec) {
  if (vec <= 1)
    return nullptr;
  auto isMultiple = [&](Value v) {
    return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                 arith::RemUIOp::create(b, loc(), v, idx(vec)),
                                 idx(0));
  };
  Value aligned = isMultiple(dims.back());
  if (!offsets.empty())
    aligned = andBool(aligned, isMultiple(offsets.back()));
  return aligned;
}

Value KernelLowering::regionInBounds(ArrayRef<Value> dims, ValueRange offsets,
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

LogicalResult KernelLowering::copyGlobalShared(CopyOp op, bool toShared) {
  Value global = toShared ? op.getSource() : op.getTarget();
  Value sharedValue = toShared ? op.getTarget() : op.getSource();
  ValueRange offsets = toShared ? op.getSourceOffsets() : op.getTargetOffsets();
  FailureOr<SharedRef> ref = resolveShared(sharedValue, op);
  if (failed(ref))
    return failure();
  auto globalType = cast<MemRefType>(global.getType());
  if (!globalType.getLayout().isIdentity())
    return op.emitOpError("expects a row-major global memref");
  ArrayRef<int64_t> shape = ref->shape;
  Type sharedElt = ref->tile->type.getElementType();
  Type globalElt = globalType.getElementType();
  int64_t maxBits = std::max<int64_t>(ref->tile->elementBits,
                                      globalType.getElementTypeBitWidth());
  // Elements per vector: 16 bytes of the wider type, dividing the last dim.
  int64_t vec = std::max<int64_t>(1, 128 / maxBits);
  while (vec > 1 && shape.back() % vec != 0)
    vec /= 2;
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  int64_t chunks = numel / vec;
  int64_t chunksPerRow = shape.back() / vec;
  int64_t threads = getNumThreads(op, kernel);
  Value tid = threadId(op);
  unsigned grank = globalType.getRank();

  // Global extents (for masking) and whether vector accesses are aligned:
  // the row length and the last offset must be multiples of the vector.
  SmallVector<Value> dims;
  for (unsigned d = 0; d < grank; ++d)
    dims.push_back(memref::DimOp::create(b, loc(), global, d));
  Value aligned = alignedRows(dims, offsets, vec);

  int64_t iters = llvm::divideCeil(chunks, threads);
  // Small copies are unrolled (each thread moves a few chunks).
  bool unroll = iters <= 16;
  auto sharedVecType = VectorType::get({vec}, sharedElt);
  auto globalVecType = VectorType::get({vec}, globalElt);
  int64_t globalAlign = vec * globalType.getElementTypeBitWidth() / 8;
  int64_t sharedAlign = vec * ref->tile->elementBits / 8;
  // `unmasked`: the whole region is known to be in bounds and aligned.
  auto emitChunk = [&](Value chunk, bool unmasked) -> LogicalResult {
    // Tile coordinates of the chunk's first element.
    SmallVector<Value> tcoords(shape.size());
    Value rest = chunk;
    tcoords.back() = mul(
        arith::RemUIOp::create(b, loc(), rest, idx(chunksPerRow)), idx(vec));
    rest = arith::DivUIOp::create(b, loc(), rest, idx(chunksPerRow));
    for (int d = shape.size() - 2; d >= 0; --d) {
      tcoords[d] = arith::RemUIOp::create(b, loc(), rest, idx(shape[d]));
      rest = arith::DivUIOp::create(b, loc(), rest, idx(shape[d]));
    }
    SmallVector<Value> gcoords = globalCoords(b, loc(), offsets, tcoords);
    Value smemIndex = sharedIndex(*ref, tcoords);
    // One 16-byte vector between global and shared memory, through
    // registers.
    auto emitVectorMove = [&]() {
      if (toShared) {
        Value v = vector::LoadOp::create(b, loc(), globalVecType, global,
                                         gcoords, /*nontemporal=*/false,
                                         llvm::MaybeAlign(globalAlign));
        vector::StoreOp::create(b, loc(), convert(v, sharedElt),
                                ref->tile->view, ValueRange{smemIndex},
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(sharedAlign));
      } else {
        Value v = vector::LoadOp::create(
            b, loc(), sharedVecType, ref->tile->view, ValueRange{smemIndex},
            /*nontemporal=*/false, llvm::MaybeAlign(sharedAlign));
        vector::StoreOp::create(b, loc(), convert(v, globalElt), global,
                                gcoords, /*nontemporal=*/false,
                                llvm::MaybeAlign(globalAlign));
      }
    };
    // One cp.async of up to 16 bytes reading `count` elements (all when
    // null) from `coords`.
    auto emitAsyncCopy = [&](ValueRange coords, Value count) {
      nvgpu::DeviceAsyncCopyOp::create(
          b, loc(), nvgpu::DeviceAsyncTokenType::get(b.getContext()),
          ref->tile->view, ValueRange{smemIndex}, global, coords,
          b.getIndexAttr(vec), count,
          vec * ref->tile->elementBits == 128 ? b.getUnitAttr() : UnitAttr());
    };
    if (unmasked) {
      if (op.getAsync())
        emitAsyncCopy(gcoords, /*count=*/Value());
      else
        emitVectorMove();
      return success();
    }
    // In bounds in every dimension but the last; the last is checked per
    // element (or for the whole vector).
    Value rowIn;
    for (unsigned d = 0; d + 1 < grank; ++d)
      rowIn = andBool(rowIn, ult(gcoords[d], dims[d]));
    Value last = gcoords.back();
    Value vecIn = andBool(
        rowIn, arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule,
                                     addConst(last, vec), dims.back()));

    auto emitScalar = [&]() {
      for (int64_t e = 0; e < vec; ++e) {
        SmallVector<Value> gc(gcoords);
        gc.back() = addConst(last, e);
        Value in = andBool(rowIn, ult(gc.back(), dims.back()));
        Value sIdx = addConst(smemIndex, e);
        if (toShared) {
          memref::StoreOp::create(b, loc(),
                                  loadOrZero(in, global, gc, sharedElt),
                                  ref->tile->view, sIdx);
        } else {
          auto branch = scf::IfOp::create(b, loc(), in, false);
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(branch.thenBlock());
          Value v = memref::LoadOp::create(b, loc(), ref->tile->view, sIdx);
          memref::StoreOp::create(b, loc(), convert(v, globalElt), global, gc);
        }
      }
    };
    if (vec == 1) {
      emitScalar();
      return success();
    }
    if (op.getAsync() && sharedElt != globalElt)
      return op.emitOpError("asynchronous copies cannot convert element "
                            "types");
    if (op.getAsync()) {
      // cp.async of 16 bytes (or less), reading only the in-bounds elements
      // and zero-filling the rest; fully out-of-bounds chunks read nothing
      // (from a clamped, valid address).
      auto fast = scf::IfOp::create(b, loc(), aligned, true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(fast.thenBlock());
      Value rowOk =
          rowIn ? rowIn
                : arith::ConstantIntOp::create(b, loc(), 1, 1).getResult();
      Value colOk = ult(last, dims.back());
      Value inBounds = andBool(rowOk, colOk);
      Value remaining = arith::SubIOp::create(
          b, loc(), arith::MaxUIOp::create(b, loc(), dims.back(), last), last);
      Value count = arith::MinUIOp::create(b, loc(), remaining, idx(vec));
      count = arith::SelectOp::create(b, loc(), inBounds, count, idx(0));
      SmallVector<Value> safe;
      for (Value c : gcoords)
        safe.push_back(arith::SelectOp::create(b, loc(), inBounds, c, idx(0)));
      emitAsyncCopy(safe, count);
      b.setInsertionPointToStart(fast.elseBlock());
      emitScalar();
      return success();
    }
    auto fast = scf::IfOp::create(b, loc(), andBool(aligned, vecIn), true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(fast.thenBlock());
      emitVectorMove();
      b.setInsertionPointToStart(fast.elseBlock());
      emitScalar();
    }
    return success();
  };
  auto emitAll = [&](bool unmasked) -> LogicalResult {
    for (int64_t i = 0; i < (unroll ? iters : 1); ++i) {
      OpBuilder::InsertionGuard guard(b);
      Value chunk;
      if (unroll) {
        chunk = addConst(tid, i * threads);
      } else {
        auto loop = scf::ForOp::create(b, loc(), idx(0), idx(iters), idx(1));
        b.setInsertionPointToStart(loop.getBody());
        chunk = add(tid, mul(loop.getInductionVar(), idx(threads)));
      }
      if (chunks % threads != 0 && (!unroll || (i + 1) * threads > chunks)) {
        auto inRange = scf::IfOp::create(b, loc(), ult(chunk, idx(chunks)),
                                         /*withElseRegion=*/false);
        b.setInsertionPointToStart(inRange.thenBlock());
      }
      if (failed(emitChunk(chunk, unmasked)))
        return failure();
    }
    return success();
  };
  if (vec == 1)
    return emitAll(/*unmasked=*/false);
  // `in_bounds` copies (interior versions of loops) need no test at all.
  if (op.getInBounds())
    return emitAll(/*unmasked=*/true);
  // Residue handling: one uniform test whether the whole region is in
  // bounds and aligned; interior tiles then move unmasked 16-byte vectors
  // and only edge tiles pay for per-chunk masking.
  Value tileIn = andBool(aligned, regionInBounds(dims, offsets, shape));
  auto split = scf::IfOp::create(b, loc(), tileIn, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(split.thenBlock());
    if (failed(emitAll(/*unmasked=*/true)))
      return failure();
    b.setInsertionPointToStart(split.elseBlock());
    if (failed(emitAll(/*unmasked=*/false)))
      return failure();
  }
  return success();
}

LogicalResult KernelLowering::copySharedShared(CopyOp op) {
  FailureOr<SharedRef> src = resolveShared(op.getSource(), op);
  FailureOr<SharedRef> dst = resolveShared(op.getTarget(), op);
  if (failed(src) || failed(dst))
    return failure();
  ArrayRef<int64_t> shape = src->shape;
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  int64_t threads = getNumThreads(op, kernel);
  auto loop =
      scf::ForOp::create(b, loc(), threadId(op), idx(numel), idx(threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  SmallVector<Value> coords(shape.size());
  for (int d = shape.size() - 1; d >= 0; --d) {
    coords[d] = arith::RemUIOp::create(b, loc(), e, idx(shape[d]));
    e = arith::DivUIOp::create(b, loc(), e, idx(shape[d]));
  }
  Value v = memref::LoadOp::create(b, loc(), src->tile->view,
                                   sharedIndex(*src, coords));
  memref::StoreOp::create(b, loc(),
                          convert(v, dst->tile->type.getElementType()),
                          dst->tile->view, sharedIndex(*dst, coords));
  return success();
}

LogicalResult KernelLowering::loadWithLdMatrix(CopyOp op, RegTile &tile,
                                               const SharedRef &ref) {
  // ldmatrix gives lane l the elements (l / 4, 2 * (l % 4) + {0, 1}) of an
  // 8x8 matrix of 16-bit elements whose rows lanes 8m..8m+7 address. A
  // fragment layout matches if register bit 0 and the lane bits are that
  // pattern and its other register and warp bits move by whole 8x8 blocks.
  const LinearLayout &layout = tile.layout;
  if (layout.getOutRank() != 2 || tile.type.getElementTypeBitWidth() != 16 ||
      tile.type.getElementType() != ref.tile->type.getElementType() ||
      getPaddedShape(tile.type.getShape()) !=
          ArrayRef<int64_t>(tile.type.getShape()) ||
      layout.getInDimBits(LinearLayout::kLane) != 5)
    return failure();
  int64_t cols = layout.getOutShape()[1];
  auto flat = [&](int64_t row, int64_t col) {
    return static_cast<uint64_t>(row * cols + col);
  };
  ArrayRef<uint64_t> regs = layout.getBases(LinearLayout::kRegister);
  SmallVector<uint64_t> lanePattern{flat(0, 2), flat(0, 4), flat(1, 0),
                                    flat(2, 0), flat(4, 0)};
  if (regs.empty() || regs[0] != flat(0, 1) ||
      ArrayRef<uint64_t>(lanePattern) != layout.getBases(LinearLayout::kLane))
    return failure();
  auto blockAligned = [&](uint64_t basis) {
    SmallVector<int64_t> c = layout.unpackCoord(basis);
    return c[0] % 8 == 0 && c[1] % 8 == 0;
  };
  if (!llvm::all_of(regs.drop_front(), blockAligned) ||
      !llvm::all_of(layout.getBases(LinearLayout::kWarp), blockAligned))
    return failure();

  // Warp part of the coordinates (lanes are inside the 8x8 matrices).
  Value tid = threadId(op);
  Value lane = andConst(tid, 31);
  SmallVector<Value> warpCoords(2, idx(0));
  for (auto [bit, basis] :
       llvm::enumerate(layout.getBases(LinearLayout::kWarp))) {
    SmallVector<int64_t> c = layout.unpackCoord(basis);
    Value set = andConst(shrConst(tid, 5 + bit), 1);
    for (unsigned d = 0; d < 2; ++d)
      if (c[d])
        warpCoords[d] =
            arith::XOrIOp::create(b, loc(), warpCoords[d], mul(set, idx(c[d])));
  }
  int64_t numMatrices = layout.getRegistersPerThread() / 2;
  int64_t perLoad = std::min<int64_t>(4, numMatrices);
  Value laneRow = andConst(lane, 7);
  Value laneMatrix = shrConst(lane, 3);
  Type elt = tile.type.getElementType();
  for (int64_t first = 0; first < numMatrices; first += perLoad) {
    // Lane l addresses row l % 8 of matrix first + l / 8 (lanes past the
    // last matrix of an x1/x2 load repeat valid addresses).
    Value rowOrigin = idx(0), colOrigin = idx(0);
    for (int64_t m = 0; m < perLoad; ++m) {
      SmallVector<int64_t> origin = layout.unpackCoord(
          layout.applyFlat({{LinearLayout::kRegister, 2 * (first + m)}}));
      Value isM = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                        laneMatrix, idx(m % perLoad));
      rowOrigin =
          arith::SelectOp::create(b, loc(), isM, idx(origin[0]), rowOrigin);
      colOrigin =
          arith::SelectOp::create(b, loc(), isM, idx(origin[1]), colOrigin);
    }
    Value row =
        add(arith::XOrIOp::create(b, loc(), rowOrigin, warpCoords[0]), laneRow);
    Value col = arith::XOrIOp::create(b, loc(), colOrigin, warpCoords[1]);
    Value index = sharedIndex(ref, {row, col});
    auto type = VectorType::get({perLoad, 2}, elt);
    Value loaded = nvgpu::LdMatrixOp::create(
        b, loc(), type, ref.tile->view, ValueRange{index}, /*transpose=*/false,
        static_cast<int32_t>(perLoad));
    for (int64_t m = 0; m < perLoad; ++m)
      for (int64_t e = 0; e < 2; ++e) {
        Value v = vector::ExtractOp::create(b, loc(), loaded,
                                            ArrayRef<int64_t>{m, e});
        memref::StoreOp::create(b, loc(), v, tile.regs,
                                idx(2 * (first + m) + e));
      }
  }
  return success();
}

LogicalResult KernelLowering::copyFragmentMemory(CopyOp op) {
  bool fromFragment = getMemoryKind(op.getSourceType()) == MemoryKind::Fragment;
  Value fragValue = fromFragment ? op.getSource() : op.getTarget();
  Value other = fromFragment ? op.getTarget() : op.getSource();
  ValueRange offsets =
      fromFragment ? op.getTargetOffsets() : op.getSourceOffsets();
  RegTile *tile = getRegTile(fragValue, op);
  if (!tile)
    return failure();
  MemoryKind otherKind = getMemoryKind(cast<MemRefType>(other.getType()));
  Type fragElt = tile->type.getElementType();
  Type otherElt = cast<MemRefType>(other.getType()).getElementType();
  ArrayRef<int64_t> shape = tile->type.getShape();
  Value tid = threadId(op);
  SmallVector<uint64_t> masks;
  SmallVector<Value> tcoords = threadCoords(tile->layout, tid, masks);
  // Replicas write once; every holder reads.
  Value writer = fromFragment ? canonicalHolder(tile->layout, tid) : Value();

  std::optional<SharedRef> ref;
  SmallVector<Value> dims;
  if (otherKind == MemoryKind::Shared) {
    FailureOr<SharedRef> r = resolveShared(other, op);
    if (failed(r))
      return failure();
    ref = *r;
  } else if (otherKind == MemoryKind::Global) {
    for (int64_t d = 0; d < cast<MemRefType>(other.getType()).getRank(); ++d)
      dims.push_back(memref::DimOp::create(b, loc(), other, d));
  } else {
    return op.emitOpError("copies between fragments and ")
           << stringifyMemoryKind(otherKind)
           << " memory are not supported by the lowering yet";
  }
  SmallVector<int64_t> padded = getPaddedShape(shape);
  if (ref && !fromFragment && succeeded(loadWithLdMatrix(op, *tile, *ref)))
    return success();

  // Interior tiles of global memory: runs of registers holding consecutive
  // elements of a row move as one unmasked vector (up to 16 bytes), after
  // one uniform test that the whole tile is in bounds and aligned.
  auto otherType = cast<MemRefType>(other.getType());
  int64_t vec = std::min<int64_t>(
      contiguousRegisters(tile->layout),
      std::max<int64_t>(1, 128 / otherType.getElementTypeBitWidth()));
  auto emitVectors = [&]() {
    auto vecType = VectorType::get({vec}, otherElt);
    int64_t align = vec * otherType.getElementTypeBitWidth() / 8;
    for (int64_t r = 0; r < tile->layout.getRegistersPerThread(); r += vec) {
      SmallVector<Value> coords =
          elementCoords(tile->layout, r, tcoords, masks);
      SmallVector<Value> memCoords = globalCoords(b, loc(), offsets, coords);
      if (fromFragment) {
        SmallVector<Value> elems;
        for (int64_t e = 0; e < vec; ++e)
          elems.push_back(
              convert(memref::LoadOp::create(b, loc(), tile->regs, idx(r + e)),
                      otherElt));
        Value v = vector::FromElementsOp::create(b, loc(), vecType, elems);
        OpBuilder::InsertionGuard g(b);
        if (writer) {
          auto branch = scf::IfOp::create(b, loc(), writer, false);
          b.setInsertionPointToStart(branch.thenBlock());
        }
        vector::StoreOp::create(b, loc(), v, other, memCoords,
                                /*nontemporal=*/false, llvm::MaybeAlign(align));
      } else {
        Value v = vector::LoadOp::create(b, loc(), vecType, other, memCoords,
                                         /*nontemporal=*/false,
                                         llvm::MaybeAlign(align));
        for (int64_t e = 0; e < vec; ++e) {
          Value x =
              vector::ExtractOp::create(b, loc(), v, ArrayRef<int64_t>{e});
          memref::StoreOp::create(b, loc(), convert(x, fragElt), tile->regs,
                                  idx(r + e));
        }
      }
    }
  };
  auto emitElements = [&]() {
    for (int64_t r = 0; r < tile->layout.getRegistersPerThread(); ++r) {
      SmallVector<Value> coords =
          elementCoords(tile->layout, r, tcoords, masks);
      // Elements of the padded layout beyond the tile, and (for global
      // memory) beyond the tensor.
      Value valid = writer;
      for (unsigned d = 0; d < shape.size(); ++d)
        if (padded[d] != shape[d])
          valid = andBool(valid, ult(coords[d], idx(shape[d])));
      SmallVector<Value> memCoords;
      if (ref) {
        memCoords.push_back(sharedIndex(*ref, coords));
      } else {
        memCoords = globalCoords(b, loc(), offsets, coords);
        for (auto [c, dim] : llvm::zip_equal(memCoords, dims))
          valid = andBool(valid, ult(c, dim));
      }
      Value memref = ref ? ref->tile->view : other;
      if (fromFragment) {
        auto emitStore = [&]() {
          Value v = memref::LoadOp::create(b, loc(), tile->regs, idx(r));
          memref::StoreOp::create(b, loc(), convert(v, otherElt), memref,
                                  memCoords);
        };
        if (!valid) {
          emitStore();
          continue;
        }
        auto branch = scf::IfOp::create(b, loc(), valid, false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(branch.thenBlock());
        emitStore();
      } else {
        memref::StoreOp::create(b, loc(),
                                loadOrZero(valid, memref, memCoords, fragElt),
                                tile->regs, idx(r));
      }
    }
  };
  if (ref || vec < 2 || padded != SmallVector<int64_t>(shape) ||
      !otherType.getLayout().isIdentity()) {
    emitElements();
    return success();
  }
  if (op.getInBounds()) {
    emitVectors();
    return success();
  }
  Value interior = andBool(alignedRows(dims, offsets, vec),
                           regionInBounds(dims, offsets, shape));
  auto split = scf::IfOp::create(b, loc(), interior, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(split.thenBlock());
  emitVectors();
  b.setInsertionPointToStart(split.elseBlock());
  emitElements();
  return success();
}

LogicalResult KernelLowering::copyFragmentFragment(CopyOp op) {
  RegTile *src = getRegTile(op.getSource(), op);
  RegTile *dst = getRegTile(op.getTarget(), op);
  if (!src || !dst)
    return failure();
  Type dstElt = dst->type.getElementType();
  if (src->layout == dst->layout) {
    for (int64_t r = 0; r < src->layout.getRegistersPerThread(); ++r) {
      Value v = memref::LoadOp::create(b, loc(), src->regs, idx(r));
      memref::StoreOp::create(b, loc(), convert(v, dstElt), dst->regs, idx(r));
    }
    return success();
  }
  // Different layouts: through shared memory (row-major scratch tile).
  Value scratchTile = scratch.lookup(op);
  if (!scratchTile)
    return op.emitOpError("no scratch buffer for a layout conversion");
  SharedRef ref{&shared[scratchTile], idx(0), src->type.getShape()};
  Value tid = threadId(op);
  ArrayRef<int64_t> shape = src->type.getShape();
  SmallVector<int64_t> padded = getPaddedShape(shape);
  auto visit = [&](RegTile *tile, bool store) {
    SmallVector<uint64_t> masks;
    SmallVector<Value> tcoords = threadCoords(tile->layout, tid, masks);
    for (int64_t r = 0; r < tile->layout.getRegistersPerThread(); ++r) {
      SmallVector<Value> coords =
          elementCoords(tile->layout, r, tcoords, masks);
      Value valid;
      for (unsigned d = 0; d < shape.size(); ++d)
        if (padded[d] != shape[d])
          valid = andBool(valid, ult(coords[d], idx(shape[d])));
      OpBuilder::InsertionGuard g(b);
      if (valid) {
        auto branch = scf::IfOp::create(b, loc(), valid, false);
        b.setInsertionPointToStart(branch.thenBlock());
      }
      Value sIdx = sharedIndex(ref, coords);
      if (store) {
        Value v = memref::LoadOp::create(b, loc(), tile->regs, idx(r));
        memref::StoreOp::create(b, loc(), v, ref.tile->view, sIdx);
      } else {
        Value v = memref::LoadOp::create(b, loc(), ref.tile->view, sIdx);
        memref::StoreOp::create(b, loc(), convert(v, dstElt), tile->regs,
                                idx(r));
      }
    }
  };
  gpu::BarrierOp::create(b, loc());
  visit(src, /*store=*/true);
  gpu::BarrierOp::create(b, loc());
  visit(dst, /*store=*/false);
  gpu::BarrierOp::create(b, loc());
  return success();
}

//===----------------------------------------------------------------------===//
// tile.gemm
//===----------------------------------------------------------------------===//

Value KernelLowering::loadRegisters(const RegTile &tile, int64_t first,
                                    VectorType type) {
  SmallVector<Value> elems;
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    elems.push_back(
        memref::LoadOp::create(b, loc(), tile.regs, idx(first + i)));
  return vector::FromElementsOp::create(b, loc(), type, elems);
}

LogicalResult KernelLowering::loadRegisterOperand(
    GemmOp op, Value operand, const LinearLayout &expected, StringRef name,
    VectorType atomType, SmallVectorImpl<SmallVector<Value>> &frags) {
  RegTile *tile = getRegTile(operand, op);
  if (!tile)
    return failure();
  if (tile->layout != expected)
    return op.emitOpError("the ")
           << name << " fragment's layout is not the mma.sync " << name
           << " operand layout of this gemm";
  // Operand layouts hold an atom's registers contiguously, k steps next,
  // then the m (A) or n (B) tiles.
  int64_t atomRegs = atomType.getNumElements();
  int64_t kSteps = frags.front().size();
  int64_t kBits = llvm::Log2_64(kSteps);
  int64_t atomBits = llvm::Log2_64(atomRegs);
  for (auto [tileIndex, row] : llvm::enumerate(frags))
    for (int64_t ks = 0; ks < kSteps; ++ks)
      row[ks] = loadRegisters(
          *tile, (ks << atomBits) | (int64_t(tileIndex) << (atomBits + kBits)),
          atomType);
  return success();
}

Value KernelLowering::mmaSyncBF16(Value a, Value bv, Value c) {
  // nvgpu.mma.sync cannot lower bf16 operands (MLIR 22): use nvvm.mma.sync
  // on the packed 32-bit registers directly.
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto pack = [&](Value vec, int64_t rows) {
    SmallVector<Value> regs;
    for (int64_t r = 0; r < rows; ++r) {
      Value row =
          vector::ExtractOp::create(b, loc(), vec, ArrayRef<int64_t>{r});
      Value word =
          vector::BitCastOp::create(b, loc(), VectorType::get({1}, i32), row);
      regs.push_back(
          vector::ExtractOp::create(b, loc(), word, ArrayRef<int64_t>{0}));
    }
    return regs;
  };
  SmallVector<Value> aRegs = pack(a, 4), bRegs = pack(bv, 2), cRegs;
  for (int64_t i = 0; i < 4; ++i)
    cRegs.push_back(vector::ExtractOp::create(b, loc(), c,
                                              ArrayRef<int64_t>{i / 2, i % 2}));
  auto resultType = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
  auto mma = NVVM::MmaOp::create(
      b, loc(), resultType, aRegs, bRegs, cRegs, ArrayRef<int64_t>{16, 8, 16},
      std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> out;
  for (int64_t i = 0; i < 4; ++i)
    out.push_back(
        LLVM::ExtractValueOp::create(b, loc(), mma, ArrayRef<int64_t>{i}));
  return vector::FromElementsOp::create(b, loc(), VectorType::get({2, 2}, f32),
                                        out);
}

LogicalResult KernelLowering::lowerGemm(GemmOp op) {
  if (failed(verifyMmaSyncShape(op)))
    return failure();
  auto aType = cast<MemRefType>(op.getA().getType());
  auto cType = cast<MemRefType>(op.getC().getType());
  Type inElt = aType.getElementType();
  Type accElt = cType.getElementType();
  if (!inElt.isF16() && !inElt.isBF16())
    return op.emitOpError("the mma.sync lowering supports f16 and bf16 "
                          "inputs, got ")
           << inElt;
  if (!accElt.isF32() && !accElt.isF16())
    return op.emitOpError("the mma.sync lowering supports f32 and f16 "
                          "accumulators, got ")
           << accElt;
  int64_t threads = getNumThreads(op, kernel);
  FailureOr<WarpPartition> warps = partitionWarps(op, threads / 32);
  if (failed(warps))
    return failure();
  RegTile *c = getRegTile(op.getC(), op);
  if (!c)
    return failure();
  if (c->layout != getMmaAccumulatorLayout(op, *warps))
    return op.emitOpError("the accumulator's layout is not the mma.sync "
                          "accumulator layout of this gemm");
  int64_t m = op.getM(), n = op.getN(), k = op.getK();
  int64_t tm = m / warps->warpsM, tn = n / warps->warpsN;
  int64_t mTiles = tm / 16, nTiles = tn / 8, kSteps = k / 16;

  Value tid = threadId(op);
  Value lane = andConst(tid, 31);
  Value warp = shrConst(tid, 5);
  Value warpN = arith::RemUIOp::create(b, loc(), warp, idx(warps->warpsN));
  Value warpM = arith::DivUIOp::create(b, loc(), warp, idx(warps->warpsN));
  Value mBase = mul(warpM, idx(tm));
  Value nBase = mul(warpN, idx(tn));
  Value laneRow = andConst(lane, 7);    // row within an 8x8 matrix
  Value laneMat = shrConst(lane, 3);    // which of the 4 matrices
  Value matLow = andConst(laneMat, 1);  // matrix index bit 0
  Value matHigh = shrConst(laneMat, 1); // matrix index bit 1
  Value eight = idx(8);

  // Shared coordinates lane l addresses in an x4 ldmatrix of the 16 x 16
  // block at (rowBase, colBase): row l % 8 of matrix l / 8, whose bit 0
  // (matLow) moves it 8 rows down and bit 1 (matHigh) 8 columns right, or
  // the other way round when !rowsAlongLow (transposed operands).
  auto x4Coords = [&](Value rowBase, Value colBase,
                      bool rowsAlongLow) -> SmallVector<Value> {
    Value row =
        add(add(rowBase, laneRow), mul(rowsAlongLow ? matLow : matHigh, eight));
    Value col = add(colBase, mul(rowsAlongLow ? matHigh : matLow, eight));
    return {row, col};
  };
  auto aVecType = VectorType::get({4, 2}, inElt);
  auto bVecType = VectorType::get({2, 2}, inElt);
  auto cVecType = VectorType::get({2, 2}, accElt);

  // Operand A fragments, per (m tile, k step): vector<4x2>.
  SmallVector<SmallVector<Value>> aFrags(mTiles, SmallVector<Value>(kSteps));
  if (getMemoryKind(aType) == MemoryKind::Fragment) {
    if (failed(loadRegisterOperand(op, op.getA(),
                                   getMmaOperandALayout(op, *warps), "A",
                                   aVecType, aFrags)))
      return failure();
  } else {
    FailureOr<SharedRef> a = resolveShared(op.getA(), op);
    if (failed(a))
      return failure();
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t ks = 0; ks < kSteps; ++ks) {
        // Matrix j of the x4 load: rows +8 for j odd, columns +8 for j >= 2.
        Value mm = add(mBase, idx(mi * 16));
        Value kk = idx(ks * 16);
        Value index = sharedIndex(
            *a, op.getTransposeA() ? x4Coords(kk, mm, /*rowsAlongLow=*/false)
                                   : x4Coords(mm, kk, /*rowsAlongLow=*/true));
        aFrags[mi][ks] = nvgpu::LdMatrixOp::create(
            b, loc(), aVecType, a->tile->view, ValueRange{index},
            op.getTransposeA(), /*numTiles=*/4);
      }
  }

  // Operand B fragments, per (n tile, k step): vector<2x2>.
  SmallVector<SmallVector<Value>> bFrags(nTiles, SmallVector<Value>(kSteps));
  auto bType = cast<MemRefType>(op.getB().getType());
  if (getMemoryKind(bType) == MemoryKind::Fragment) {
    if (failed(loadRegisterOperand(op, op.getB(),
                                   getMmaOperandBLayout(op, *warps), "B",
                                   bVecType, bFrags)))
      return failure();
  } else {
    FailureOr<SharedRef> bs = resolveShared(op.getB(), op);
    if (failed(bs))
      return failure();
    // x4 loads cover two n tiles (or one, x2, when nTiles is odd).
    for (int64_t ni = 0; ni < nTiles; ni += 2) {
      int64_t tiles = ni + 1 < nTiles ? 4 : 2;
      for (int64_t ks = 0; ks < kSteps; ++ks) {
        // Matrix j: k half = j & 1, n tile = j >> 1.
        Value nn = add(nBase, idx(ni * 8));
        Value kk = idx(ks * 16);
        Value index = sharedIndex(
            *bs, op.getTransposeB() ? x4Coords(nn, kk, /*rowsAlongLow=*/false)
                                    : x4Coords(kk, nn, /*rowsAlongLow=*/true));
        auto type = VectorType::get({tiles, 2}, inElt);
        Value loaded = nvgpu::LdMatrixOp::create(b, loc(), type, bs->tile->view,
                                                 ValueRange{index},
                                                 !op.getTransposeB(), tiles);
        for (int64_t t = 0; t < tiles / 2; ++t) {
          Value r0 = vector::ExtractOp::create(b, loc(), loaded,
                                               ArrayRef<int64_t>{2 * t});
          Value r1 = vector::ExtractOp::create(b, loc(), loaded,
                                               ArrayRef<int64_t>{2 * t + 1});
          Value pair = vector::FromElementsOp::create(
              b, loc(), bVecType,
              ValueRange{
                  vector::ExtractOp::create(b, loc(), r0, ArrayRef<int64_t>{0}),
                  vector::ExtractOp::create(b, loc(), r0, ArrayRef<int64_t>{1}),
                  vector::ExtractOp::create(b, loc(), r1, ArrayRef<int64_t>{0}),
                  vector::ExtractOp::create(b, loc(), r1,
                                            ArrayRef<int64_t>{1})});
          bFrags[ni + t][ks] = pair;
        }
      }
    }
  }

  // Accumulate: registers of atom (mi, ni) are base + {0..3}. The k steps
  // are the outer loop so that consecutive mma.sync ops are independent
  // (each accumulator's chain is spread over a whole k step).
  int64_t nBits = llvm::Log2_64(nTiles);
  auto baseOf = [&](int64_t mi, int64_t ni) {
    return (ni << 2) | (mi << (2 + nBits));
  };
  SmallVector<SmallVector<Value>> accs(mTiles, SmallVector<Value>(nTiles));
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      accs[mi][ni] = op.getClearAccum()
                         ? zeroOf(cVecType)
                         : loadRegisters(*c, baseOf(mi, ni), cVecType);
  for (int64_t ks = 0; ks < kSteps; ++ks)
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t ni = 0; ni < nTiles; ++ni) {
        Value &acc = accs[mi][ni];
        acc = inElt.isBF16()
                  ? mmaSyncBF16(aFrags[mi][ks], bFrags[ni][ks], acc)
                  : nvgpu::MmaSyncOp::create(b, loc(), aFrags[mi][ks],
                                             bFrags[ni][ks], acc,
                                             ArrayRef<int64_t>{16, 8, 16})
                        .getResult();
      }
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ni = 0; ni < nTiles; ++ni)
      for (int64_t i = 0; i < 4; ++i) {
        Value e = vector::ExtractOp::create(b, loc(), accs[mi][ni],
                                            ArrayRef<int64_t>{i / 2, i % 2});
        memref::StoreOp::create(b, loc(), e, c->regs, idx(baseOf(mi, ni) + i));
      }
  return success();
}

//===----------------------------------------------------------------------===//
// tile.parallel
//===----------------------------------------------------------------------===//

namespace {
/// Solves `target` = XOR of a subset of `bases`; returns the subset as a bit
/// mask over `bases`, or none.
std::optional<uint64_t> solveGF2(ArrayRef<uint64_t> bases, uint64_t target) {
  // Gaussian elimination keeping track of combinations.
  SmallVector<std::pair<uint64_t, uint64_t>> rows; // (vector, combination)
  for (auto [i, basis] : llvm::enumerate(bases)) {
    uint64_t v = basis;
    uint64_t comb = uint64_t(1) << i;
    for (auto &[rv, rc] : rows)
      if ((v ^ rv) < v) {
        v ^= rv;
        comb ^= rc;
      }
    if (v) {
      rows.push_back({v, comb});
      llvm::sort(rows, [](auto &x, auto &y) { return x.first > y.first; });
    }
  }
  uint64_t comb = 0;
  for (auto &[rv, rc] : rows)
    if ((target ^ rv) < target) {
      target ^= rv;
      comb ^= rc;
    }
  if (target)
    return std::nullopt;
  return comb;
}
} // namespace

LogicalResult KernelLowering::lowerParallel(ParallelOp op) {
  LinearLayout layout =
      op.getLayoutAttr()
          ? cast<LinearLayoutAttr>(op.getLayoutAttr()).getLinearLayout()
          : LinearLayout();
  ArrayRef<int64_t> extents = op.getExtents();
  unsigned rank = extents.size();
  SmallVector<int64_t> padded = getPaddedShape(extents);
  Value tid = threadId(op);
  SmallVector<uint64_t> masks;
  SmallVector<Value> tcoords = threadCoords(layout, tid, masks);
  SmallVector<uint64_t> loopThread;
  llvm::append_range(loopThread, layout.getBases(LinearLayout::kLane));
  llvm::append_range(loopThread, layout.getBases(LinearLayout::kWarp));

  // For every fragment access, the register index of the accessed element:
  // a static part per loop register plus, when the fragment's thread bases
  // differ from the loop's, a per-thread part.
  struct AccessPlan {
    RegTile *tile;
    SmallVector<unsigned> loopDims;
    Value threadPart; // null if none
  };
  DenseMap<Operation *, AccessPlan> plans;
  auto project = [&](uint64_t flat, ArrayRef<unsigned> loopDims,
                     const LinearLayout &fragLayout) {
    SmallVector<int64_t> coord = layout.unpackCoord(flat);
    SmallVector<int64_t> kept;
    for (unsigned d : loopDims)
      kept.push_back(coord[d]);
    return fragLayout.packCoord(kept);
  };
  WalkResult walk = op.getBody().walk([&](Operation *inner) {
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(inner)) {
      memref = load.getMemRef();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<memref::StoreOp>(inner)) {
      memref = store.getMemRef();
      indices = store.getIndices();
    } else {
      return WalkResult::advance();
    }
    auto type = cast<MemRefType>(memref.getType());
    if (getMemoryKind(type) != MemoryKind::Fragment)
      return WalkResult::advance();
    RegTile *tile = getRegTile(memref, inner);
    if (!tile)
      return WalkResult::interrupt();
    AccessPlan plan{tile, {}, nullptr};
    for (Value index : indices) {
      auto arg = dyn_cast<BlockArgument>(index);
      if (!arg || arg.getOwner() != &op.getBody().front()) {
        inner->emitOpError("unsupported fragment access in tile.parallel");
        return WalkResult::interrupt();
      }
      plan.loopDims.push_back(arg.getArgNumber());
    }
    // Per-thread part: for each thread bit, the register combination that
    // makes up for the difference of thread bases.
    ArrayRef<uint64_t> fragRegs =
        tile->layout.getBases(LinearLayout::kRegister);
    SmallVector<uint64_t> fragThread;
    llvm::append_range(fragThread, tile->layout.getBases(LinearLayout::kLane));
    llvm::append_range(fragThread, tile->layout.getBases(LinearLayout::kWarp));
    if (fragThread.size() != loopThread.size()) {
      inner->emitOpError("accesses a fragment distributed over a different "
                         "number of threads than the tile.parallel");
      return WalkResult::interrupt();
    }
    Value threadPart;
    for (auto [bit, lb] : llvm::enumerate(loopThread)) {
      uint64_t diff =
          project(lb, plan.loopDims, tile->layout) ^ fragThread[bit];
      if (!diff)
        continue;
      std::optional<uint64_t> comb = solveGF2(fragRegs, diff);
      if (!comb) {
        inner->emitOpError("accesses a fragment element that the executing "
                           "thread does not hold; layouts are inconsistent");
        return WalkResult::interrupt();
      }
      Value set = andConst(shrConst(tid, bit), 1);
      Value term = mul(set, idx(*comb));
      threadPart =
          threadPart ? arith::XOrIOp::create(b, loc(), threadPart, term) : term;
    }
    plan.threadPart = threadPart;
    plans[inner] = plan;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  Block &body = op.getBody().front();
  for (int64_t r = 0; r < layout.getRegistersPerThread(); ++r) {
    SmallVector<Value> coords = elementCoords(layout, r, tcoords, masks);
    Value valid;
    for (unsigned d = 0; d < rank; ++d)
      if (padded[d] != extents[d])
        valid = andBool(valid, ult(coords[d], idx(extents[d])));
    OpBuilder::InsertionGuard g(b);
    if (valid) {
      auto branch = scf::IfOp::create(b, loc(), valid, false);
      b.setInsertionPointToStart(branch.thenBlock());
    }
    IRMapping mapping;
    for (unsigned d = 0; d < rank; ++d)
      mapping.map(body.getArgument(d), coords[d]);
    uint64_t loopFlat = layout.applyFlat({{LinearLayout::kRegister, r}});
    for (Operation &inner : body.without_terminator()) {
      // Rewrite fragment accesses; clone everything else.
      auto rewrite = [&](Operation *o) -> Operation * {
        auto it = plans.find(o);
        if (it == plans.end())
          return nullptr;
        AccessPlan &plan = it->second;
        uint64_t target = project(loopFlat, plan.loopDims, plan.tile->layout);
        std::optional<uint64_t> comb = solveGF2(
            plan.tile->layout.getBases(LinearLayout::kRegister), target);
        Value index = idx(comb.value_or(0));
        if (plan.threadPart)
          index = arith::XOrIOp::create(b, loc(), index, plan.threadPart);
        if (auto load = dyn_cast<memref::LoadOp>(o))
          return memref::LoadOp::create(b, loc(), plan.tile->regs, index);
        auto store = cast<memref::StoreOp>(o);
        return memref::StoreOp::create(
            b, loc(), mapping.lookupOrDefault(store.getValueToStore()),
            plan.tile->regs, index);
      };
      if (Operation *replaced = rewrite(&inner)) {
        mapping.map(inner.getResults(), replaced->getResults());
        continue;
      }
      Operation *clone = b.clone(inner, mapping);
      // Nested regions of the clone may contain accesses too.
      SmallVector<Operation *> nested;
      clone->walk([&](Operation *n) {
        if (n != clone)
          nested.push_back(n);
      });
      if (!nested.empty() && llvm::any_of(nested, [&](Operation *n) {
            return isa<memref::LoadOp, memref::StoreOp>(n) &&
                   getMemoryKind(cast<MemRefType>(
                       n->getOperand(isa<memref::LoadOp>(n) ? 0 : 1)
                           .getType())) == MemoryKind::Fragment;
          }))
        return inner.emitOpError("fragment accesses inside nested regions of "
                                 "a tile.parallel are not supported by the "
                                 "lowering yet");
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

static Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                     Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::AbsSum:
    return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                   : arith::AddIOp::create(b, loc, x, y).getResult();
  case ReduceKind::Max:
  case ReduceKind::AbsMax:
    return isFloat ? arith::MaxNumFOp::create(b, loc, x, y).getResult()
                   : arith::MaxSIOp::create(b, loc, x, y).getResult();
  case ReduceKind::Min:
    return isFloat ? arith::MinNumFOp::create(b, loc, x, y).getResult()
                   : arith::MinSIOp::create(b, loc, x, y).getResult();
  }
  llvm_unreachable("unknown reduction");
}

LogicalResult KernelLowering::lowerReduce(ReduceOp op) {
  RegTile *src = getRegTile(op.getSource(), op);
  RegTile *dst = getRegTile(op.getTarget(), op);
  if (!src || !dst)
    return failure();
  unsigned dim = op.getDim();
  LinearLayout projected = src->layout.projectOut(dim);
  // The target may keep the reduced dimension with size 1.
  if (dst->layout.getBases(LinearLayout::kRegister) !=
          projected.getBases(LinearLayout::kRegister) ||
      dst->layout.getBases(LinearLayout::kLane) !=
          projected.getBases(LinearLayout::kLane) ||
      dst->layout.getBases(LinearLayout::kWarp) !=
          projected.getBases(LinearLayout::kWarp))
    return op.emitOpError("the target's layout is not the source layout "
                          "without the reduced dimension");
  Type elt = src->type.getElementType();
  ReduceKind kind = op.getKind();
  bool abs = kind == ReduceKind::AbsSum || kind == ReduceKind::AbsMax;
  auto loadSrc = [&](int64_t r) -> Value {
    Value v = memref::LoadOp::create(b, loc(), src->regs, idx(r));
    if (abs)
      v = isa<FloatType>(elt) ? math::AbsFOp::create(b, loc(), v).getResult()
                              : math::AbsIOp::create(b, loc(), v).getResult();
    return v;
  };
  // 1. In-thread: source registers grouped by target register.
  ArrayRef<uint64_t> dstRegs = dst->layout.getBases(LinearLayout::kRegister);
  int64_t numDst = dst->layout.getRegistersPerThread();
  SmallVector<Value> partial(numDst);
  unsigned low = 0;
  for (unsigned d = dim + 1; d < src->layout.getOutRank(); ++d)
    low += llvm::Log2_64(src->layout.getOutShape()[d]);
  unsigned width = llvm::Log2_64(src->layout.getOutShape()[dim]);
  auto drop = [&](uint64_t flat) {
    return (flat & ((uint64_t(1) << low) - 1)) |
           ((flat >> (low + width)) << low);
  };
  for (int64_t r = 0; r < src->layout.getRegistersPerThread(); ++r) {
    uint64_t flat = src->layout.applyFlat({{LinearLayout::kRegister, r}});
    std::optional<uint64_t> target = solveGF2(dstRegs, drop(flat));
    if (!target)
      return op.emitOpError("inconsistent reduction layouts");
    Value v = loadSrc(r);
    Value &slot = partial[*target];
    slot = slot ? combine(b, loc(), kind, slot, v) : v;
  }
  // 2. Across lanes: butterfly over the lane bits that move along `dim`.
  ArrayRef<uint64_t> laneBases = src->layout.getBases(LinearLayout::kLane);
  int64_t laneCount = int64_t(1) << laneBases.size();
  for (auto [bit, basis] : llvm::enumerate(laneBases)) {
    if (basis == 0 || drop(basis) != 0)
      continue;
    for (Value &v : partial) {
      Value offset = arith::ConstantIntOp::create(b, loc(), 1 << bit, 32);
      Value widthV = arith::ConstantIntOp::create(b, loc(), laneCount, 32);
      auto shuffle = gpu::ShuffleOp::create(b, loc(), v, offset, widthV,
                                            gpu::ShuffleMode::XOR);
      v = combine(b, loc(), kind, v, shuffle.getShuffleResult());
    }
  }
  // 3. Across warps through shared memory.
  SmallVector<int64_t> warpBits;
  for (auto [bit, basis] :
       llvm::enumerate(src->layout.getBases(LinearLayout::kWarp)))
    if (basis != 0 && drop(basis) == 0)
      warpBits.push_back(bit);
  if (!warpBits.empty()) {
    Value scratchTile = scratch.lookup(op);
    if (!scratchTile)
      return op.emitOpError("no scratch buffer for a cross-warp reduction");
    SharedTile &sc = shared[scratchTile];
    Value tid = threadId(op);
    Value laneBits = idx(llvm::Log2_64(laneCount));
    Value warp = arith::ShRUIOp::create(b, loc(), tid, laneBits);
    Value lane = andConst(tid, laneCount - 1);
    gpu::BarrierOp::create(b, loc());
    for (int64_t r = 0; r < numDst; ++r)
      memref::StoreOp::create(b, loc(), partial[r], sc.view,
                              addConst(mul(tid, idx(numDst)), r));
    gpu::BarrierOp::create(b, loc());
    for (int64_t r = 0; r < numDst; ++r) {
      Value acc = partial[r];
      for (int64_t combo = 1; combo < (int64_t(1) << warpBits.size());
           ++combo) {
        int64_t delta = 0;
        for (auto [i, bit] : llvm::enumerate(warpBits))
          if ((combo >> i) & 1)
            delta |= int64_t(1) << bit;
        Value otherWarp = arith::XOrIOp::create(b, loc(), warp, idx(delta));
        Value otherTid = add(mul(otherWarp, idx(laneCount)), lane);
        Value v = memref::LoadOp::create(
            b, loc(), sc.view, addConst(mul(otherTid, idx(numDst)), r));
        acc = combine(b, loc(), kind, acc, v);
      }
      partial[r] = acc;
    }
    gpu::BarrierOp::create(b, loc());
  }
  // 4. Combine with the target unless it is cleared.
  for (int64_t r = 0; r < numDst; ++r) {
    Value v = partial[r];
    if (!op.getClear()) {
      Value old = memref::LoadOp::create(b, loc(), dst->regs, idx(r));
      v = combine(b, loc(), kind, old, v);
    }
    memref::StoreOp::create(b, loc(), v, dst->regs, idx(r));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// tile.ws
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerWs(WsOp op) {
  ArrayRef<int64_t> groups = op.getWarpgroups();
  for (auto [i, g] : llvm::enumerate(groups))
    if (g != groups.front() + static_cast<int64_t>(i))
      return op.emitOpError("the lowering supports only consecutive "
                            "warpgroups");
  Value lo = idx(128 * groups.front());
  Value hi = idx(128 * (groups.back() + 1));
  Value aboveLow =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::uge, tidValue, lo);
  Value belowHigh = ult(tidValue, hi);
  Value inGroup = andBool(aboveLow, belowHigh);
  auto branch = scf::IfOp::create(b, loc(), inGroup, false);
  Block *then = branch.thenBlock();
  // Move the body (already lowered) into the branch.
  Block &body = op.getBody().front();
  then->getOperations().splice(then->begin(), body.getOperations(),
                               body.begin(), std::prev(body.end()));
  if (std::optional<int64_t> regs = op.getRegisters()) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(then);
    NVVM::SetMaxRegisterOp::create(b, loc(), static_cast<int32_t>(*regs),
                                   *regs >= 128
                                       ? NVVM::SetMaxRegisterAction::increase
                                       : NVVM::SetMaxRegisterAction::decrease);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

/// Whether `op` (a remaining tile op or an already-lowered op) writes shared
/// memory.
static bool writesShared(Operation *op) {
  if (auto copy = dyn_cast<CopyOp>(op))
    return getMemoryKind(copy.getTargetType()) == MemoryKind::Shared;
  if (auto fill = dyn_cast<FillOp>(op))
    return getMemoryKind(cast<MemRefType>(fill.getTarget().getType())) ==
           MemoryKind::Shared;
  return false;
}

/// Whether a barrier (or an async wait, which ends with one) executes right
/// before `op` with only side-effect-free ops in between, looking through the
/// start of enclosing scf.if regions.
static bool precededByBarrier(Operation *op) {
  Operation *cursor = op;
  while (cursor) {
    Operation *prev = cursor->getPrevNode();
    while (prev && isMemoryEffectFree(prev) && prev->getNumRegions() == 0)
      prev = prev->getPrevNode();
    if (prev)
      return isa<gpu::BarrierOp, AsyncWaitOp>(prev);
    cursor = cursor->getParentOp();
    if (!isa_and_nonnull<scf::IfOp>(cursor))
      return false;
  }
  return false;
}

/// Synchronous copies from global to shared memory use the asynchronous
/// copy engine too (no round trip through registers): each run of
/// consecutive such copies becomes async copies followed by one commit and a
/// wait for everything, which keeps their synchronous semantics. Kernels
/// that already count async groups (pipelined loops) are left alone.
static void useAsyncCopyEngine(KernelOp kernel) {
  bool counted = false;
  kernel.walk([&](AsyncCommitOp) { counted = true; });
  if (counted)
    return;
  auto qualifies = [&](Operation *op) {
    auto copy = dyn_cast_or_null<CopyOp>(op);
    return copy && !copy.getAsync() &&
           getMemoryKind(copy.getSourceType()) == MemoryKind::Global &&
           getMemoryKind(copy.getTargetType()) == MemoryKind::Shared &&
           copy.getSourceType().getElementType() ==
               copy.getTargetType().getElementType() &&
           getRootAlloc(copy.getTarget());
  };
  SmallVector<Operation *> runEnds;
  kernel.walk([&](Operation *op) {
    if (!qualifies(op))
      return;
    cast<CopyOp>(op).setAsync(true);
    if (!qualifies(op->getNextNode()))
      runEnds.push_back(op);
  });
  OpBuilder b(kernel.getContext());
  for (Operation *op : runEnds) {
    b.setInsertionPointAfter(op);
    AsyncCommitOp::create(b, op->getLoc());
    AsyncWaitOp::create(b, op->getLoc(), 0);
  }
}

void KernelLowering::insertBarriers() {
  // Block-cooperative semantics: a tile op that writes shared memory must
  // not overwrite data other threads still read (barrier before) and its
  // results must be visible to the next op (barrier after; asynchronous
  // copies become visible at their tile.async_wait instead). Consecutive
  // writers share barriers. Placed before lowering, so ops are still tile
  // ops.
  auto isAsync = [](Operation *op) {
    auto copy = dyn_cast<CopyOp>(op);
    return copy && copy.getAsync();
  };
  SmallVector<Operation *> writers;
  kernel.walk([&](Operation *op) {
    if (writesShared(op))
      writers.push_back(op);
  });
  for (Operation *op : writers) {
    Operation *prev = op->getPrevNode();
    if ((!prev || !(isa<gpu::BarrierOp>(prev) || writesShared(prev))) &&
        !precededByBarrier(op)) {
      b.setInsertionPoint(op);
      gpu::BarrierOp::create(b, op->getLoc());
    }
    if (isAsync(op))
      continue;
    Operation *next = op->getNextNode();
    if (!next || !writesShared(next) || isAsync(next)) {
      b.setInsertionPointAfter(op);
      gpu::BarrierOp::create(b, op->getLoc());
    }
  }
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerOp(Operation *op) {
  b.setInsertionPoint(op);
  currentLoc = op->getLoc();
  LogicalResult result =
      TypeSwitch<Operation *, LogicalResult>(op)
          .Case<FillOp>([&](auto o) { return lowerFill(o); })
          .Case<CopyOp>([&](auto o) { return lowerCopy(o); })
          .Case<GemmOp>([&](auto o) { return lowerGemm(o); })
          .Case<ParallelOp>([&](auto o) { return lowerParallel(o); })
          .Case<ReduceOp>([&](auto o) { return lowerReduce(o); })
          .Case<WsOp>([&](auto o) { return lowerWs(o); })
          .Case<AsyncCommitOp>([&](auto) {
            NVVM::CpAsyncCommitGroupOp::create(b, loc());
            return success();
          })
          .Case<AsyncWaitOp>([&](auto o) {
            NVVM::CpAsyncWaitGroupOp::create(
                b, loc(), static_cast<int32_t>(o.getPending()));
            gpu::BarrierOp::create(b, loc());
            return success();
          })
          .Default([](Operation *) { return success(); });
  if (failed(result))
    return failure();
  if (isa<FillOp, CopyOp, GemmOp, ParallelOp, ReduceOp, WsOp, AsyncCommitOp,
          AsyncWaitOp>(op))
    op->erase();
  return success();
}

/// Ops whose lowering synchronizes the executing threads with a block-wide
/// barrier: inside tile.ws only some threads would reach it (a hang), so they
/// are diagnosed there until warpgroup-scoped (named) barriers are lowered.
static LogicalResult checkBarriersOutsideWs(KernelOp kernel) {
  WalkResult result = kernel.walk([&](Operation *op) {
    if (!op->getParentOfType<WsOp>())
      return WalkResult::advance();
    bool syncs = writesShared(op) || isa<AsyncWaitOp>(op);
    if (auto copy = dyn_cast<CopyOp>(op))
      syncs |= getMemoryKind(copy.getSourceType()) == MemoryKind::Fragment &&
               getMemoryKind(copy.getTargetType()) == MemoryKind::Fragment &&
               copy.getSource().getDefiningOp<AllocOp>() &&
               copy.getTarget().getDefiningOp<AllocOp>() &&
               copy.getSource().getDefiningOp<AllocOp>().getLayoutAttr() !=
                   copy.getTarget().getDefiningOp<AllocOp>().getLayoutAttr();
    if (auto reduce = dyn_cast<ReduceOp>(op))
      if (auto src = reduce.getSource().getDefiningOp<AllocOp>())
        if (auto layout =
                dyn_cast_or_null<LinearLayoutAttr>(src.getLayoutAttr()))
          syncs |= reducesAcrossWarps(reduce, layout.getLinearLayout());
    if (!syncs)
      return WalkResult::advance();
    op->emitOpError("needs a barrier among the threads of its tile.ws "
                    "region; warpgroup-scoped barriers are not supported by "
                    "the lowering yet");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult KernelLowering::run() {
  if (failed(checkLayouts()) || failed(checkBarriersOutsideWs(kernel)))
    return failure();
  if (kernel.getThreads() % 32 != 0)
    return kernel.emitOpError("expects whole warps");
  allocateScratch();
  useAsyncCopyEngine(kernel);
  insertBarriers();
  if (failed(lowerAllocs()))
    return failure();
  // Lower innermost ops first (tile.ws bodies before the tile.ws), in
  // program order otherwise.
  SmallVector<Operation *> ops;
  kernel.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (isa<FillOp, CopyOp, GemmOp, ParallelOp, ReduceOp, WsOp, AsyncCommitOp,
            AsyncWaitOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops)
    if (failed(lowerOp(op)))
      return failure();
  // Views of tiles (e.g. versions of multi-buffered tiles) are now unused.
  SmallVector<memref::SubViewOp> views;
  kernel.walk([&](memref::SubViewOp view) {
    if (getRootAlloc(view.getResult()))
      views.push_back(view);
  });
  for (memref::SubViewOp view : llvm::reverse(views)) {
    if (!view->use_empty())
      return view.emitOpError("view of a tile is still used after lowering");
    view->erase();
  }
  // Allocations are now unused.
  SmallVector<AllocOp> allocs;
  kernel.walk([&](AllocOp alloc) { allocs.push_back(alloc); });
  for (AllocOp alloc : allocs) {
    if (!alloc->use_empty())
      return alloc.emitOpError("is still used after lowering");
    alloc->erase();
  }
  kernel->setAttr(TileDialect::kSharedMemoryBytesAttrName,
                  b.getI64IntegerAttr(sharedBytes));
  return success();
}

struct LowerOpsPass : public tile::impl::LowerOpsBase<LowerOpsPass> {
  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels)
      if (failed(KernelLowering(kernel).run()))
        return signalPassFailure();
  }
};

} // namespace
