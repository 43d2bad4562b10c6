//===- ROCDLPipeline.cpp - The one-shot tile-to-rocdl pipeline --*- C++ -*-===//
//
// tile IR to a gpu.binary for AMD CDNA (gfx90a, gfx942): the tile-level
// passes tile-to-nvvm runs (with the AMD target: wave64 layouts, MFMA,
// multi-buffered LDS and barriers), then the upstream AMDGPU / ROCDL
// lowering and gpu-module-to-binary. `format=isa` needs nothing installed;
// `format=bin` links the code object with `<rocm-path>/llvm/bin/ld.lld`,
// where upstream's serializer looks for it (LLVM 22's lld: an older one
// rejects the code object version).
//
//===----------------------------------------------------------------------===//

#include "PipelineCommon.h"

#include "tile/Conversion/Passes.h"
#include "tile/Host/Passes.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tile;

/// The ROCm folder: the option, else $ROCM_PATH, else /opt/rocm; `source`
/// names where it came from.
static std::pair<std::string, std::string> findRocm(StringRef option) {
  if (!option.empty())
    return {option.str(), "the rocm-path option"};
  if (const char *value = std::getenv("ROCM_PATH"))
    if (*value)
      return {value, "$ROCM_PATH"};
  return {"/opt/rocm", "the default"};
}

void mlir::tile::buildTileToROCDLPipeline(
    OpPassManager &pm, const TileToROCDLPipelineOptions &options) {
  pipelines::PreflightOptions preflight;
  preflight.pipelineName = "tile-to-rocdl";
  preflight.vendor = "amd";
  preflight.chip = options.chip;
  preflight.defaultChip = "gfx942";
  preflight.specializeBounds = options.specializeBounds;
  preflight.watch = std::make_shared<pipelines::ErrorWatch>();
  StringRef format = options.format;
  std::optional<bool> needsLinker =
      llvm::StringSwitch<std::optional<bool>>(format)
          .Cases({"bin", "binary"}, true)
          .Cases({"isa", "assembly"}, false)
          .Cases({"llvm", "offloading"}, false)
          .Default(std::nullopt);
  if (!needsLinker)
    preflight.optionErrors.push_back(
        ("unknown format '" + format +
         "' for tile-to-rocdl: expected bin (code object), isa (assembly) "
         "or llvm")
            .str());
  if (options.optLevel < 0 || options.optLevel > 3)
    preflight.optionErrors.push_back("opt-level must be from 0 to 3, got " +
                                     std::to_string(options.optLevel));
  auto [rocm, source] = findRocm(options.rocmPath);
  if (needsLinker.value_or(false)) {
    SmallString<128> lld(rocm);
    llvm::sys::path::append(lld, "llvm", "bin", "ld.lld");
    if (!llvm::sys::fs::can_execute(lld))
      preflight.optionErrors.push_back(
          "format=" + format.str() + " links the code object with " +
          lld.str().str() + " (ROCm folder from " + source +
          "), which does not exist: point rocm-path or $ROCM_PATH at a "
          "folder whose llvm/bin/ld.lld is LLVM 22's ld.lld (Debian's "
          "lld-22), or use format=isa");
  }
  std::shared_ptr<pipelines::ErrorWatch> watch = preflight.watch;
  pm.addPass(pipelines::createPreflightPass(std::move(preflight)));

  pipelines::TileLevelOptions tileLevel;
  tileLevel.chip = options.chip;
  tileLevel.defaultChip = "gfx942";
  tileLevel.pipeline = options.pipeline;
  tileLevel.specializeBounds = options.specializeBounds;
  tileLevel.hostRuntime = options.hostRuntime;
  tileLevel.cInterface = options.cInterface;
  tileLevel.fpContract = options.fpContract;
  tileLevel.remarks = options.remarks;
  pipelines::addTileLevelPasses(pm, tileLevel);

  // Host lowering as in tile-to-nvvm; the kernels through AMDGPU / ROCDL
  // for the target's chipset.
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  AttachGPUTargetOptions target;
  target.vendor = "amd";
  target.optLevel = options.optLevel;
  pm.addPass(createAttachGPUTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createConvertGPUToROCDL());

  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = rocm;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.cInterface)
    pm.addPass(createExportCInterface());
  pm.addPass(pipelines::createErrorCheckPass(watch));
}
