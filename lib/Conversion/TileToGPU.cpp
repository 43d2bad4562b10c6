//===- TileToGPU.cpp - Outline tile kernels into gpu.func -------*- C++ -*-===//

#include "tile/Conversion/Passes.h"

#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"
#include "tile/Transforms/LaunchOrder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Collects, in dependence order, the side-effect-free ops above `kernel`
/// that its body needs, and the values they (or the body) use that become
/// kernel parameters: arguments of the enclosing function, and pointers the
/// host computed before the launch (e.g. tensor maps for TMA copies).
/// Fails on any other value defined outside the kernel.
LogicalResult collectCaptures(KernelOp kernel,
                              llvm::SetVector<Operation *> &sunk,
                              llvm::SetVector<BlockArgument> &args,
                              llvm::SetVector<Value> &hostValues) {
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(kernel.getBody(), above);
  // The grid operands are evaluated on the host and are not captured.
  SmallVector<Value> worklist(above.begin(), above.end());
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
      if (!func || arg.getOwner() != &func.getFunctionBody().front())
        return kernel.emitOpError("uses a block argument defined outside "
                                  "the kernel that is not an argument of the "
                                  "enclosing function");
      args.insert(arg);
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (isa<LLVM::LLVMPointerType>(value.getType()) &&
        def->getBlock() == kernel->getBlock()) {
      hostValues.insert(value);
      continue;
    }
    // Device memory the host allocated for the kernel (a split-K workspace).
    if (isa<gpu::AllocOp>(def)) {
      hostValues.insert(value);
      continue;
    }
    if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
      return kernel.emitOpError("uses a value computed outside the kernel by "
                                "an op with side effects: ")
             << def->getName();
    if (sunk.contains(def))
      continue;
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
    sunk.insert(def);
  }
  // Keep the original order so that definitions precede uses: the values
  // come from the kernel's block and the blocks enclosing it, where ops of
  // outer blocks precede the region holding the kernel.
  auto depth = [](Operation *op) {
    unsigned d = 0;
    for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
      ++d;
    return d;
  };
  SmallVector<Operation *> ordered(sunk.begin(), sunk.end());
  llvm::sort(ordered, [&](Operation *a, Operation *b) {
    unsigned da = depth(a), db = depth(b);
    if (da != db)
      return da < db;
    return a->isBeforeInBlock(b);
  });
  sunk.clear();
  sunk.insert(ordered.begin(), ordered.end());
  return success();
}

/// The global a kernel's module defines when the kernel is launched as a
/// programmatic dependent (`tile.dependent_launch`): the runtime looks it
/// up when it loads the kernel and launches such kernels with the launch
/// attribute (TILE_MGPU_DEPENDENT_LAUNCH_SYMBOL in
/// runtime/include/tile_mgpu.h).
constexpr StringLiteral kDependentLaunchSymbol = "__tile_dependent_launch";

/// The grid dependency control of a kernel launched as a programmatic
/// dependent, or null.
const DependentLaunchInfo *getDependentLaunch(KernelOp kernel,
                                              const TargetInfo *target) {
  auto asked =
      kernel->getAttrOfType<BoolAttr>(TileDialect::kDependentLaunchAttrName);
  if (!asked || !asked.getValue() || !target)
    return nullptr;
  return target->dependentLaunch();
}

/// Emits the entry of a kernel launched as a programmatic dependent (the
/// wait, before any of its other code) and marks its module for the
/// runtime.
LogicalResult emitDependentLaunch(KernelOp kernel, gpu::GPUModuleOp gpuModule,
                                  const TargetInfo *target, OpBuilder &b) {
  auto asked =
      kernel->getAttrOfType<BoolAttr>(TileDialect::kDependentLaunchAttrName);
  if (!asked || !asked.getValue())
    return success();
  const DependentLaunchInfo *info = getDependentLaunch(kernel, target);
  if (!info)
    return kernel.emitOpError("tile.dependent_launch = true needs a chip "
                              "with grid dependency control");
  Location loc = kernel.getLoc();
  info->emitDependentLaunchWait(b, loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(gpuModule.getBody());
  LLVM::GlobalOp::create(b, loc, b.getI32Type(), /*isConstant=*/true,
                         LLVM::Linkage::External, kDependentLaunchSymbol,
                         b.getI32IntegerAttr(1), /*alignment=*/4,
                         /*addrSpace=*/1);
  return success();
}

/// On chips whose tensor copies and wgmma descriptors address shared memory
/// absolutely (sm_90), the tiles' alignment must hold for the real address.
/// LLVM prints `gpu.dynamic_shared_memory` as a 16-byte aligned static
/// object; an external, zero-sized, 1024-byte aligned declaration is the
/// real dynamic shared memory, so the kernel uses that instead.
LogicalResult useExternSharedMemory(KernelOp kernel, gpu::GPUModuleOp gpuModule,
                                    gpu::GPUFuncOp func) {
  if (!getTargetInfo(kernel)->tensorCopies())
    return success();
  SmallVector<gpu::DynamicSharedMemoryOp> uses;
  func.walk([&](gpu::DynamicSharedMemoryOp op) { uses.push_back(op); });
  if (uses.empty())
    return success();
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(ctx);
  Location loc = kernel.getLoc();
  Attribute space =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto globalType =
      MemRefType::get({0}, b.getI8Type(), MemRefLayoutAttrInterface(), space);
  StringRef name = kDynamicSharedSymbol;
  if (!gpuModule.lookupSymbol(name)) {
    b.setInsertionPointToStart(gpuModule.getBody());
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("public"),
                             globalType, Attribute(), /*constant=*/false,
                             b.getI64IntegerAttr(1024));
  }
  for (gpu::DynamicSharedMemoryOp op : uses) {
    b.setInsertionPoint(op);
    Value global = memref::GetGlobalOp::create(b, loc, globalType, name);
    Value cast = memref::CastOp::create(b, loc, op.getType(), global);
    op.replaceAllUsesWith(cast);
    op.erase();
  }
  return success();
}

/// Applies `tile.launch_group = G` (G > 1) of a kernel with a grid of at
/// least two dimensions: the body's uses of the block indices x and y
/// become the grid position, in the grouped order, of the block the
/// hardware runs (y * gx + x)-th. The extents are the kernel's own grid
/// operands (captured like any value from above), not the device's grid
/// queries, which AMD implements in its device library.
void applyGroupedOrder(KernelOp kernel) {
  auto group =
      kernel->getAttrOfType<IntegerAttr>(TileDialect::kLaunchGroupAttrName);
  if (!group || group.getInt() <= 1 || kernel.getGridRank() < 2)
    return;
  Block &body = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Location loc = kernel.getLoc();
  SmallVector<OpFoldResult> grid = kernel.getMixedGrid();
  Value x = kernel.getBlockIndex(0), y = kernel.getBlockIndex(1);
  Value gx = getValueOrCreateConstantIndexOp(b, loc, grid[0]);
  Value gy = getValueOrCreateConstantIndexOp(b, loc, grid[1]);
  auto linearY = arith::MulIOp::create(b, loc, y, gx);
  Value linear = arith::AddIOp::create(b, loc, linearY, x);
  auto [column, row] =
      emitGroupedPosition(b, loc, linear, gx, gy, group.getInt());
  x.replaceAllUsesExcept(column, linear.getDefiningOp());
  y.replaceAllUsesExcept(row, linearY);
  kernel->removeAttr(TileDialect::kLaunchGroupAttrName);
}

LogicalResult outline(KernelOp kernel, ModuleOp module) {
  applyGroupedOrder(kernel);
  llvm::SetVector<Operation *> sunk;
  llvm::SetVector<BlockArgument> argSet;
  llvm::SetVector<Value> hostValues;
  if (failed(collectCaptures(kernel, sunk, argSet, hostValues)))
    return failure();
  for (Operation *op : sunk)
    if (!op->getBlock()->findAncestorOpInBlock(*kernel))
      return kernel.emitOpError("uses a value computed in another block");
  SmallVector<BlockArgument> sortedArgs(argSet.begin(), argSet.end());
  llvm::sort(sortedArgs, [](BlockArgument a, BlockArgument b) {
    return a.getArgNumber() < b.getArgNumber();
  });
  // Function arguments first, then host values in program order.
  SmallVector<Value> args(sortedArgs.begin(), sortedArgs.end());
  SmallVector<Value> host(hostValues.begin(), hostValues.end());
  // Outer blocks' values (allocations) first, then program order.
  auto depth = [](Value value) {
    unsigned d = 0;
    for (Operation *p = value.getDefiningOp(); p; p = p->getParentOp())
      ++d;
    return d;
  };
  llvm::stable_sort(host, [&](Value a, Value b) {
    Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
    if (da->getBlock() == db->getBlock())
      return da->isBeforeInBlock(db);
    return depth(a) < depth(b);
  });
  args.append(host.begin(), host.end());

  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(ctx);
  Location loc = kernel.getLoc();
  std::string moduleName = (kernel.getSymName() + "_module").str();
  if (module.lookupSymbol(moduleName))
    return kernel.emitOpError("kernel name '")
           << kernel.getSymName() << "' is used by another kernel";

  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, moduleName);
  b.setInsertionPointToStart(gpuModule.getBody());
  SmallVector<Type> argTypes;
  for (Value arg : args)
    argTypes.push_back(arg.getType());
  auto func = gpu::GPUFuncOp::create(b, loc, kernel.getSymName(),
                                     b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(kernel.getThreads()), 1, 1}));
  std::unique_ptr<TargetInfo> target =
      getTargetAttr(kernel) ? getTargetInfo(kernel) : nullptr;
  if (target)
    target->annotateKernelFunc(func, kernel);

  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  if (failed(emitDependentLaunch(kernel, gpuModule, target.get(), b)))
    return failure();
  IRMapping mapping;
  for (auto [arg, param] : llvm::zip_equal(args, entry.getArguments()))
    mapping.map(arg, param);
  static constexpr gpu::Dimension dims[] = {
      gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z};
  for (auto [i, blockIndex] : llvm::enumerate(kernel.getBody().getArguments()))
    mapping.map(blockIndex, gpu::BlockIdOp::create(b, loc, dims[i]));
  for (Operation *op : sunk)
    b.clone(*op, mapping);
  for (Operation &op : kernel.getBody().front().without_terminator())
    b.clone(op, mapping);
  // The next kernel may launch once every block is done: signalled at the
  // start, its blocks would wait on the multiprocessors this kernel's last
  // blocks leave while those finish, which measured slower (docs/perf.md
  // run 176).
  if (const DependentLaunchInfo *info =
          getDependentLaunch(kernel, target.get()))
    info->emitDependentLaunchSignal(b, loc);
  gpu::ReturnOp::create(b, loc);
  if (failed(useExternSharedMemory(kernel, gpuModule, func)))
    return failure();
  // Launch it.
  b.setInsertionPoint(kernel);
  auto one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> grid;
  for (OpFoldResult extent : kernel.getMixedGrid())
    grid.push_back(getValueOrCreateConstantIndexOp(b, loc, extent));
  while (grid.size() < 3)
    grid.push_back(one);
  Value threads = arith::ConstantIndexOp::create(b, loc, kernel.getThreads());
  int64_t sharedBytes = 0;
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(
          TileDialect::kSharedMemoryBytesAttrName))
    sharedBytes = attr.getInt();
  Value smem = arith::ConstantIntOp::create(b, loc, sharedBytes, 32);
  SmallVector<Value> operands(args.begin(), args.end());
  // Clusters of blocks along x (`tile.cluster`, made by
  // tile-persistent-blocks, whose grids are whole clusters).
  std::optional<gpu::KernelDim3> clusters;
  if (auto cluster =
          kernel->getAttrOfType<IntegerAttr>(TileDialect::kClusterAttrName);
      cluster && cluster.getInt() > 1) {
    if (kernel.getGridRank() != 1)
      return kernel.emitOpError("tile.cluster = ")
             << cluster.getInt()
             << " needs the one-dimensional grid of a persistent kernel "
                "(tile-persistent-blocks)";
    Value size = arith::ConstantIndexOp::create(b, loc, cluster.getInt());
    clusters = gpu::KernelDim3{size, one, one};
  }
  gpu::LaunchFuncOp::create(b, loc, func, {grid[0], grid[1], grid[2]},
                            {threads, one, one}, smem, operands,
                            /*asyncTokenType=*/Type(),
                            /*asyncDependencies=*/ValueRange(), clusters);
  kernel.erase();
  return success();
}

struct ConvertTileToGPUPass
    : public tile::impl::ConvertTileToGPUBase<ConvertTileToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels;
    module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    if (kernels.empty())
      return;
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    for (KernelOp kernel : kernels) {
      // Every tile op but the kernel's terminator must be lowered: the
      // hand-off, barrier and async ops too, which verify only inside a
      // tile.kernel, not inside the gpu.func it becomes.
      Operation *unlowered = nullptr;
      kernel.getBody().walk([&](Operation *op) {
        if (isa<TileDialect>(op->getDialect()) &&
            !(isa<YieldOp>(op) && op->getParentOp() == kernel)) {
          unlowered = op;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (unlowered) {
        InFlightDiagnostic diag = kernel.emitOpError(
            "still contains tile ops: run tile-lower-ops before "
            "convert-tile-to-gpu");
        diag.attachNote(unlowered->getLoc())
            << "'" << unlowered->getName() << "' is not lowered";
        return signalPassFailure();
      }
      if (failed(outline(kernel, module)))
        return signalPassFailure();
    }
  }
};

} // namespace
