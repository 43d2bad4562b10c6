//===- ConvertGPUToROCDL.cpp - gpu.modules to ROCDL for the chip -*- C++ -*-//
//
// The kernel half of tile-to-rocdl: upstream's AMDGPU and GPU-to-ROCDL
// conversions, run on each gpu.module with the chipset of the module's
// #tile.target, which the pipeline only knows once tile-attach-target ran.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "tile/Dialect/TileOps.h"

#include "mlir/Conversion/AMDGPUToROCDL/AMDGPUToROCDL.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTGPUTOROCDL
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct ConvertGPUToROCDLPass
    : public tile::impl::ConvertGPUToROCDLBase<ConvertGPUToROCDLPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto kernelModules = module.getOps<gpu::GPUModuleOp>();
    if (kernelModules.empty())
      return;
    TargetAttr target = getTargetAttr(module);
    const ChipDescription *chip = target.getDescription();
    if (!chip || !chip->isAMD()) {
      (*kernelModules.begin()).emitOpError("is compiled for ")
          << target.getChip()
          << ", not an AMD chip: tile-convert-gpu-to-rocdl lowers kernels "
             "for gfx90a and gfx942";
      return signalPassFailure();
    }
    // Kernels already lowered for NVIDIA (`nvvm.kernel` makes the
    // translation give them PTX's calling convention, on which the AMDGPU
    // backend aborts).
    for (gpu::GPUModuleOp kernels : kernelModules) {
      WalkResult nvvm = kernels.walk([&](Operation *op) {
        for (NamedAttribute attr : op->getDiscardableAttrs()) {
          if (!attr.getName().strref().starts_with("nvvm."))
            continue;
          op->emitOpError("carries '")
              << attr.getName().strref()
              << "': it was lowered for NVIDIA GPUs, and the target is "
              << target.getChip();
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (nvvm.wasInterrupted())
        return signalPassFailure();
    }
    // Tile memory spaces (#tile.mem<fragment>, <local>) have no address
    // space: tile-lower-ops turns such tiles into registers before this
    // conversion, which would otherwise fail without a location.
    for (gpu::GPUModuleOp kernels : kernelModules) {
      WalkResult tileSpace = kernels.walk<WalkOrder::PreOrder>([&](Operation
                                                                       *op) {
        auto isTileSpace = [](Type type) {
          auto memref = dyn_cast<BaseMemRefType>(type);
          return memref && memref.getMemorySpace() &&
                 isa<TileDialect>(memref.getMemorySpace().getDialect());
        };
        SmallVector<Type> types(op->getOperandTypes());
        llvm::append_range(types, op->getResultTypes());
        for (Region &region : op->getRegions())
          for (Block &block : region)
            llvm::append_range(types, block.getArgumentTypes());
        for (Type type : types) {
          if (!isTileSpace(type))
            continue;
          op->emitOpError("uses ")
              << type
              << ": tile memory spaces are lowered by tile-lower-ops (a tile "
                 "lives in a tile.kernel); a gpu kernel takes global or "
                 "workgroup memory";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (tileSpace.wasInterrupted())
        return signalPassFailure();
    }
    // f32 exp2 (the softmax's) straight to v_exp_f32: the ROCDL conversion
    // would call the device library (__ocml_exp2_f32), which needs ROCm.
    SmallVector<math::Exp2Op> exp2s;
    module.walk([&](gpu::GPUModuleOp kernels) {
      kernels.walk([&](math::Exp2Op exp2) {
        if (exp2.getType().isF32())
          exp2s.push_back(exp2);
      });
    });
    for (math::Exp2Op exp2 : exp2s) {
      OpBuilder b(exp2);
      Value v = ROCDL::ROCDLExp2::create(b, exp2.getLoc(), exp2.getType(),
                                         exp2.getOperand());
      exp2.replaceAllUsesWith(v);
      exp2.erase();
    }
    std::string chipset = target.getChip().str();
    OpPassManager pm(ModuleOp::getOperationName());
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
    ConvertAMDGPUToROCDLPassOptions amdgpu;
    amdgpu.chipset = chipset;
    kernels.addPass(createConvertAMDGPUToROCDLPass(amdgpu));
    ConvertGpuOpsToROCDLOpsOptions rocdl;
    rocdl.chipset = chipset;
    rocdl.runtime = gpu::amd::Runtime::HIP;
    kernels.addPass(createConvertGpuOpsToROCDLOps(rocdl));
    kernels.addPass(createCanonicalizerPass());
    kernels.addPass(createCSEPass());
    kernels.addPass(createReconcileUnrealizedCastsPass());
    if (failed(runPipeline(pm, module)))
      signalPassFailure();
  }
};
} // namespace
