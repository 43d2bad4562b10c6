//===- Pipelines.cpp - One-shot tile pipelines ------------------*- C++ -*-===//

#include "tile/Conversion/Passes.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tile;

/// The CUDA toolkit: the option, else $CUDA_ROOT, $CUDA_PATH, $CUDA_HOME,
/// else /usr/local/cuda.
static std::string findCudaToolkit(StringRef option) {
  if (!option.empty())
    return option.str();
  for (const char *var : {"CUDA_ROOT", "CUDA_PATH", "CUDA_HOME"})
    if (const char *value = std::getenv(var))
      if (*value)
        return value;
  return "/usr/local/cuda";
}

void mlir::tile::buildTileToNVVMPipeline(
    OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
  // The target every later pass reads; then, at tile level: interior loop
  // versions, software pipelining, then layouts (which extend over the
  // version dimension pipelining adds), then per-thread code.
  AttachTargetOptions attach;
  attach.chip = options.chip;
  attach.features = options.features;
  pm.addPass(createAttachTarget(attach));
  if (options.specializeBounds)
    pm.addPass(createSpecializeBounds());
  if (options.pipeline) {
    pm.addPass(createPipelinePlanning());
    pm.addPass(createInjectPipeline());
  }
  pm.addPass(createLayoutInference());
  pm.addPass(createLowerOps());
  pm.addPass(createConvertTileToGPU());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // NVGPU/NVVM and host lowering, as upstream's gpu-lower-to-nvvm-pipeline,
  // with the toolkit (for libdevice and ptxas) made explicit.
  std::string toolkit = findCudaToolkit(options.cudaPath);
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  AttachGPUTargetOptions target;
  target.optLevel = options.optLevel;
  SmallString<128> libdevice(toolkit);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  if (llvm::sys::fs::exists(libdevice))
    target.linkLibs.push_back(libdevice.str().str());
  pm.addPass(createAttachGPUTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::tile::registerTilePipelines() {
  PassPipelineRegistration<TileToNVVMPipelineOptions>(
      "tile-to-nvvm",
      "Compile tile kernels to a gpu.binary for NVIDIA GPUs (layout "
      "inference, tile op lowering, outlining, NVVM lowering, serialization)",
      buildTileToNVVMPipeline);
}
