//===- TileToGPU.cpp - Outline tile kernels into gpu.func -------*- C++ -*-===//

#include "tile/Conversion/Passes.h"

#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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
/// that its body needs, and the function arguments they (or the body) use.
/// Fails on any other value defined outside the kernel.
LogicalResult collectCaptures(KernelOp kernel,
                              llvm::SetVector<Operation *> &sunk,
                              llvm::SetVector<BlockArgument> &args) {
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
  // Keep the original order so that definitions precede uses.
  SmallVector<Operation *> ordered(sunk.begin(), sunk.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  sunk.clear();
  sunk.insert(ordered.begin(), ordered.end());
  return success();
}

LogicalResult outline(KernelOp kernel, ModuleOp module) {
  llvm::SetVector<Operation *> sunk;
  llvm::SetVector<BlockArgument> argSet;
  if (failed(collectCaptures(kernel, sunk, argSet)))
    return failure();
  for (Operation *op : sunk)
    if (op->getBlock() != kernel->getBlock())
      return kernel.emitOpError("uses a value computed in another block");
  SmallVector<BlockArgument> args(argSet.begin(), argSet.end());
  llvm::sort(args, [](BlockArgument a, BlockArgument b) {
    return a.getArgNumber() < b.getArgNumber();
  });

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
  for (BlockArgument arg : args)
    argTypes.push_back(arg.getType());
  auto func = gpu::GPUFuncOp::create(b, loc, kernel.getSymName(),
                                     b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(kernel.getThreads()), 1, 1}));

  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
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
  gpu::ReturnOp::create(b, loc);

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
  gpu::LaunchFuncOp::create(b, loc, func, {grid[0], grid[1], grid[2]},
                            {threads, one, one}, smem, operands);
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
      bool lowered = true;
      kernel.walk([&](Operation *op) {
        if (isa<AllocOp, CopyOp, GemmOp, FillOp, ParallelOp, ReduceOp, WsOp>(
                op))
          lowered = false;
      });
      if (!lowered) {
        kernel.emitOpError("still contains tile ops: run tile-lower-ops "
                           "before convert-tile-to-gpu");
        return signalPassFailure();
      }
      if (failed(outline(kernel, module)))
        return signalPassFailure();
    }
  }
};

} // namespace
