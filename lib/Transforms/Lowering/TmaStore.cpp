//===- TmaStore.cpp - Accumulator tiles out through tensor stores -*- C++ -*-=//
//
// Lowering of a fragment -> global `tile.copy` marked `tile.tma_store = N`
// (Epilogue.h). The tile leaves in column panels of rows x 128 bytes, each
// through one of N staging buffers (a shared tile swizzled as the tensor
// map reads it, one panel per buffer):
//
//   thread 0: waits until buffer 0 is no longer read by an earlier store
//   barrier over the copy's threads
//   for each panel p:
//     every thread writes its elements of p into buffer p mod N (16-bit
//       values of 8x8-block fragments four blocks a store, through the
//       target's emitRegistersToShared: stmatrix)
//     every thread: fence.proxy.async (its writes, to the copy engine)
//     thread 0 (not at the last panel): waits until the store that last
//               read buffer p + 1 mod N is done
//               (cp.async.bulk.wait_group.read max(N - 2, 0))
//     barrier over the copy's threads
//     thread 0: tensor store of buffer p mod N, commit
//
// The wait before each barrier makes the next panel's buffer free before
// anyone writes it: the next panel writes another buffer while the store of
// this one reads it. The last panel does not wait: the stores of a tile
// drain while a persistent kernel's next tile runs its main loop, and the
// next copy starts with a wait for its first buffer and a barrier (for all
// stores with one buffer or a number of panels that is not a multiple of
// the buffers, or whose staging lies over another store's: tile-allocate-
// shared places those of stores that never run together in one place). With one
// buffer every later panel waits too (the store of the panel before still reads
// it). Where the buffers hold every panel (no more panels than buffers:
// the FP8 examples' two 128-byte panels), the first wait covers all
// earlier stores, every panel is written, then one fence and one barrier,
// and thread 0 issues all the panels' stores. At the end of the kernel,
// thread 0 waits for its stores.
//
// In a tile.ws region with `store_barrier` (tile-insert-barriers), each
// warpgroup does all of this for its own slab of rows on its own barrier,
// its first thread storing the slab of each panel (a tensor map of the
// slab's rows): a warpgroup whose main loop ends first stores its rows while
// the others' MMAs still run.
//
//===----------------------------------------------------------------------===//

#include "LoweringContext.h"

#include "tile/Transforms/Epilogue.h"
#include "tile/Transforms/Resources.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// Whether the staging buffers of tensor store `op` overlap those of
/// another tensor store of the kernel.
static bool overlapsOtherStaging(LoweringContext &ctx, CopyOp op,
                                 Value staging) {
  auto bytesOf = [](Value tile) -> std::optional<std::pair<int64_t, int64_t>> {
    auto alloc = tile.getDefiningOp<AllocOp>();
    if (!alloc || !alloc.getOffset())
      return std::nullopt;
    int64_t begin = static_cast<int64_t>(*alloc.getOffset());
    return std::make_pair(begin, begin + getSharedTileSizeInBytes(alloc));
  };
  auto mine = bytesOf(staging);
  return llvm::any_of(ctx.storeStaging, [&](auto entry) {
    if (entry.first == op.getOperation() || entry.second == staging)
      return false;
    auto other = bytesOf(entry.second);
    return !mine || !other ||
           (other->first < mine->second && mine->first < other->second);
  });
}

/// Registers of `layout` that hold consecutive columns of a row, starting
/// at every multiple of the result (at most `limit`).
static int64_t columnRun(const LinearLayout &layout, int64_t limit) {
  int64_t run = 1;
  for (uint64_t basis : layout.getBases(LinearLayout::kRegister)) {
    SmallVector<int64_t> c = layout.unpackCoord(basis);
    if (run >= limit || c[0] != 0 || c[1] != run)
      break;
    run *= 2;
  }
  return run;
}

LogicalResult mlir::tile::lowering::lowerTmaStore(LoweringContext &ctx,
                                                  CopyOp op) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc();
  RegisterOperand *frag = ctx.getRegTile(op.getSource(), op);
  if (!frag)
    return failure();
  Value staging = ctx.storeStaging.lookup(op);
  if (!staging)
    return op.emitOpError("has no staging buffers for its tensor store: run "
                          "tile-allocate-scratch before tile-lower-ops");
  SharedTile &stage = ctx.shared[staging];
  MemRefType cType = op.getTargetType();
  Type elt = cType.getElementType();
  int64_t bytes = elt.getIntOrFloatBitWidth() / 8;
  int64_t rows = frag->type.getShape()[0], cols = frag->type.getShape()[1];
  int64_t panelBytes = getTmaStorePanelBytes(op);
  int64_t panelCols = panelBytes / bytes;
  int64_t panels = cols / panelCols;
  int64_t buffers = stage.type.getShape()[1] / panelCols;
  const LinearLayout &layout = frag->layout;

  // A region with `store_barrier`: each warpgroup stores its own slab of
  // rows, synchronizing with barrier `store_barrier + its index`, and its
  // first thread issues the slab's tensor stores and waits for them.
  auto ws = op->getParentOfType<WsOp>();
  std::optional<uint64_t> storeBarrier =
      ws ? ws.getStoreBarrier() : std::nullopt;
  int64_t warpgroups = storeBarrier ? ws.getWarpgroups().size() : 1;
  int64_t groupThreads = storeBarrier ? ws.getNumThreads() / warpgroups : 0;
  if (storeBarrier && !ctx.namedBarriers)
    return op.emitOpError("is stored per warpgroup (store_barrier), but ")
           << ctx.target.getChipName() << " has no barriers for subsets of "
           << "the block";
  if (storeBarrier && !storesRowsByWarpgroup(op, warpgroups, groupThreads))
    return op.emitOpError("cannot be stored by each warpgroup of its region "
                          "apart (store_barrier): a warpgroup's threads hold "
                          "rows outside its slab of ")
           << rows / warpgroups << " rows";
  int64_t slabRows = rows / warpgroups;
  Value map =
      getTensorMap(ctx, op.getTarget(), slabRows, panelCols, panelBytes);
  int64_t rank = cType.getRank();

  Value tid = ctx.threadId(op);
  Value group, leader = tid;
  if (storeBarrier) {
    group = arith::DivUIOp::create(b, loc, tid, ctx.idx(groupThreads));
    leader = arith::RemUIOp::create(b, loc, tid, ctx.idx(groupThreads));
  }
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, leader,
                                      ctx.idx(0));
  auto onFirst = [&](function_ref<void()> body) {
    auto guard = scf::IfOp::create(b, loc, first, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(guard.thenBlock());
    body();
  };
  // Before the barrier of panel p: the store that last read the buffer of
  // panel p + 1, p + 1 - N, must be done, with the stores up to p - 1
  // issued: at most N - 2 may still read.
  auto waitForReads = [&](int64_t pending) {
    onFirst(
        [&] { ctx.tensorCopies->emitTensorStoreWait(b, loc, pending, true); });
  };
  // Before the first panel: the buffer it writes was last read by a store
  // of the copy before (the previous tile of a persistent kernel), which
  // did not wait for it at its last panel. With the panels a multiple of
  // the buffers, that store is the N-th most recent; otherwise, or where
  // another store's buffers lie over these, all.
  auto i32 = [&](Value v) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
  };
  auto sync = [&] {
    if (!storeBarrier)
      return ctx.barrier(op);
    // A bar.sync of the warpgroup's threads on its own barrier.
    ctx.namedBarriers->emitTurnWait(
        b, loc, i32(ctx.add(group, ctx.idx(*storeBarrier))), groupThreads);
  };
  // Where the buffers hold the whole tile, every panel is written before
  // one fence and one barrier, and the stores follow: no buffer is reused
  // within the copy, so no panel waits for another's store.
  bool whole = panels <= buffers;
  waitForReads(whole || buffers == 1 || panels % buffers != 0 ||
                       overlapsOtherStaging(ctx, op, staging)
                   ? 0
                   : buffers - 1);
  sync();

  // The registers of each panel: the threads' columns lie inside one panel
  // (whyNotTmaStore), so a register's panel is that of thread 0's element.
  // Registers of a tile padded to powers of two (columns past an m64n144
  // instruction's) hold nothing to store.
  int64_t vec = columnRun(layout, 16 / bytes);
  SmallVector<SmallVector<int64_t>> byPanel(panels);
  for (int64_t r = 0; r < layout.getRegistersPerThread(); r += vec) {
    if (layout.isRegisterOutside(r, frag->type.getShape()))
      continue;
    SmallVector<int64_t> c = layout.apply({{LinearLayout::kRegister, r}});
    if (c[0] >= rows || c[1] >= cols)
      return op.emitOpError("is stored through tensor stores, but register ")
             << r << " of its fragment holds elements both inside and "
             << "outside the tile in different threads";
    byPanel[c[1] / panelCols].push_back(r);
  }
  SmallVector<uint64_t> masks;
  SmallVector<Value> tcoords = ctx.threadCoords(layout, tid, masks);
  SharedRef ref{&stage, ctx.idx(0), stage.type.getShape()};
  auto vecType = VectorType::get({vec}, elt);
  ValueRange offsets = op.getTargetOffsets();
  // A register's place in the staging buffers, in either arithmetic.
  auto place = [&](auto row, auto col, int64_t buffer, auto &&andConst,
                   auto &&addConst) {
    return std::make_pair(
        row, addConst(andConst(col, panelCols - 1), buffer * panelCols));
  };
  // Each register's index in every thread, known here: registers whose
  // indices differ by one constant in every thread share the arithmetic of
  // the first of them (a handful of values for the whole tile, rather than
  // one per register held across a persistent kernel's main loop), and the
  // others add their constant, which the store takes as an immediate.
  int64_t lanes = layout.getInDimSize(LinearLayout::kLane);
  int64_t threads = lanes * (layout.hasInDim(LinearLayout::kWarp)
                                 ? layout.getInDimSize(LinearLayout::kWarp)
                                 : 1);
  SmallVector<std::pair<int64_t, int64_t>> entries; // (panel, register)
  SmallVector<SmallVector<int64_t>> table;
  for (int64_t p = 0; p < panels; ++p) {
    for (int64_t r : byPanel[p]) {
      entries.push_back({p, r});
      SmallVector<int64_t> &row = table.emplace_back();
      for (int64_t t = 0; t < threads; ++t) {
        SmallVector<std::pair<StringRef, int64_t>> in = {
            {LinearLayout::kRegister, r}, {LinearLayout::kLane, t % lanes}};
        if (layout.hasInDim(LinearLayout::kWarp))
          in.push_back({LinearLayout::kWarp, t / lanes});
        SmallVector<int64_t> c = layout.apply(in);
        auto [sr, sc] = place(
            c[0], c[1], p % buffers, [](int64_t x, int64_t m) { return x & m; },
            [](int64_t x, int64_t k) { return x + k; });
        row.push_back(LoweringContext::sharedIndexAt(ref, {sr, sc}));
      }
    }
  }
  SmallVector<std::pair<unsigned, int64_t>> groups =
      groupByConstantOffset(table);
  SmallVector<Value> indices(entries.size());
  unsigned entry = 0;
  // Matrix stores (stmatrix) where 8 consecutive registers of a panel are
  // four 8x8 blocks and rows of 8 elements stay contiguous in the buffers.
  SmallVector<SmallVector<int64_t>> matrixFirsts(panels);
  bool matrices =
      bytes == 2 && vec == 2 && panelCols % 8 == 0 &&
      layout.getRegistersPerThread() % 8 == 0 &&
      (!stage.layout ||
       (stage.layout.getPad() == 0 &&
        (stage.layout.getSwizzle() == 0 || stage.layout.getUnit() == 16)));
  for (int64_t p = 0; matrices && p < panels; ++p)
    for (int64_t r : byPanel[p]) {
      if (r % 8 != 0)
        continue;
      SmallVector<int64_t> c = layout.apply({{LinearLayout::kRegister, r + 7}});
      if (c[1] / panelCols != p)
        matrices = false;
      matrixFirsts[p].push_back(r);
    }
  auto storeMatrices = [&](int64_t p, int64_t buffer) -> LogicalResult {
    return ctx.target.emitRegistersToShared(
        b, loc, layout, matrixFirsts[p],
        [&](int64_t r) {
          return ctx.convert(
              memref::LoadOp::create(b, loc, frag->regs, ctx.idx(r)), elt);
        },
        [&](Value row, Value col) {
          auto [sr, sc] = place(
              row, col, buffer,
              [&](Value x, int64_t m) { return ctx.andConst(x, m); },
              [&](Value x, int64_t k) { return ctx.add(x, ctx.idx(k)); });
          return ctx.sharedPointer(stage.view, ctx.sharedIndex(ref, {sr, sc}));
        },
        tid);
  };
  // Thread 0's tensor store of panel p from its buffer.
  auto storePanel = [&](int64_t p, int64_t buffer) {
    Value at = ctx.idx(buffer * rows * panelCols), row = offsets[rank - 2];
    if (storeBarrier) {
      Value slab = arith::MulIOp::create(b, loc, group, ctx.idx(slabRows));
      at = ctx.add(at, arith::MulIOp::create(b, loc, slab, ctx.idx(panelCols)));
      row = ctx.add(row, slab);
    }
    Value src = ctx.sharedPointer(stage.view, at);
    SmallVector<Value> box = {
        i32(ctx.add(offsets[rank - 1], ctx.idx(p * panelCols))), i32(row)};
    for (int64_t d = rank - 3; d >= 0; --d)
      box.push_back(i32(offsets[d]));
    ctx.tensorCopies->emitTensorStore(b, loc, src, map, box);
    ctx.tensorCopies->emitTensorStoreCommit(b, loc);
  };
  for (int64_t p = 0; p < panels; ++p) {
    int64_t buffer = p % buffers;
    // One buffer: the last panel's store reads it until thread 0 has waited.
    if (buffers == 1 && p > 0) {
      waitForReads(0);
      sync();
    }
    // The target takes all panels or none (it decides by the layout alone,
    // before emitting anything).
    if (matrices && failed(storeMatrices(p, buffer)))
      matrices = false;
    for (int64_t r : matrices ? ArrayRef<int64_t>() : byPanel[p]) {
      auto [rep, offset] = groups[entry];
      Value index;
      if (rep == entry) {
        SmallVector<Value> coords =
            ctx.elementCoords(layout, r, tcoords, masks);
        auto [sr, sc] = place(
            coords[0], coords[1], buffer,
            [&](Value x, int64_t m) { return ctx.andConst(x, m); },
            [&](Value x, int64_t k) { return ctx.add(x, ctx.idx(k)); });
        index = ctx.sharedIndex(ref, {sr, sc});
      } else {
        index = ctx.add(indices[rep], ctx.idx(offset));
      }
      indices[entry++] = index;
      SmallVector<Value> elems;
      for (int64_t e = 0; e < vec; ++e)
        elems.push_back(ctx.convert(
            memref::LoadOp::create(b, loc, frag->regs, ctx.idx(r + e)), elt));
      Value value = vector::FromElementsOp::create(b, loc, vecType, elems);
      ctx.accessSharedVector(ref, index, vecType, value);
    }
    if (whole && p + 1 < panels)
      continue;
    ctx.target.emitAsyncProxyFence(b, loc);
    // The last panel has no next one to make room for: the next copy waits
    // for its first buffer, typically after a tile's main loop.
    if (p + 1 < panels)
      waitForReads(std::max<int64_t>(buffers - 2, 0));
    sync();
    onFirst([&] {
      for (int64_t q = whole ? 0 : p; q <= p; ++q)
        storePanel(q, q % buffers);
    });
  }
  ctx.tensorStores = true;
  return success();
}
