//===- NVVMPipeline.cpp - The one-shot tile-to-nvvm pipeline ----*- C++ -*-===//

#include "PipelineCommon.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Host/Passes.h"
#include "tile/Pipelines/Pipelines.h"
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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <atomic>
#include <cstdlib>
#include <memory>

using namespace mlir;
using namespace mlir::tile;

/// The CUDA toolkit: the option, else $CUDA_ROOT, $CUDA_PATH, $CUDA_HOME,
/// else /usr/local/cuda. `source` names where it came from ("" for the
/// default).
struct CudaToolkit {
  std::string path;
  std::string source;
};
static CudaToolkit findCudaToolkit(StringRef option) {
  if (!option.empty())
    return {option.str(), "the cuda-path option"};
  for (const char *var : {"CUDA_ROOT", "CUDA_PATH", "CUDA_HOME"})
    if (const char *value = std::getenv(var))
      if (*value)
        return {value, std::string("$") + var};
  return {"/usr/local/cuda", ""};
}

/// Whether `tool` is found where gpu-module-to-binary looks for it: the
/// toolkit's bin/ directory, then $PATH.
static bool findCudaTool(StringRef toolkit, StringRef tool) {
  if (!toolkit.empty()) {
    SmallString<128> path(toolkit);
    llvm::sys::path::append(path, "bin", tool);
    if (llvm::sys::fs::can_execute(path))
      return true;
  }
  return static_cast<bool>(llvm::sys::findProgramByName(tool));
}

void mlir::tile::pipelines::addTileLevelPasses(
    OpPassManager &pm, const TileLevelOptions &options) {
  AttachTargetOptions attach;
  attach.chip = options.chip;
  attach.features = options.features;
  attach.defaultChip = options.defaultChip;
  pm.addPass(createAttachTarget(attach));
  // A gemm's product handed to its consumer chunk by chunk, before the
  // resources count it (tile-fuse-consumer).
  FuseConsumerOptions fuse;
  fuse.emitRemarks = options.remarks;
  pm.addPass(createFuseConsumer(fuse));
  // The epilogue's scalars read from global memory before the main loop,
  // their latency hidden behind it (before persistent grids: then before
  // each tile's loop).
  HoistEpilogueLoadsOptions hoist;
  hoist.emitRemarks = options.remarks;
  pm.addPass(createHoistEpilogueLoads(hoist));
  // Resources against the target's limits, before anything unrolls or
  // multi-buffers (register tiles far beyond the register file, huge
  // tile.parallel loops); pipelining checks its own shared memory.
  pm.addPass(createCheckResources());
  pm.addPass(createCheckHandoffs()); // hand-written pipes, before unrolling
  // Small grids over long K loops: split-K (applied at once: the two
  // kernels it makes go through every pass below).
  SplitKOptions splitK;
  splitK.decide = options.splitK;
  splitK.emitRemarks = options.remarks;
  pm.addPass(createSplitK(splitK));
  // Decisions written on the kernels: the launch order (applied by
  // convert-tile-to-gpu), persistent grids (applied at once: pipelining and
  // warp specialization see the tile loop).
  LaunchOrderOptions launchOrder;
  launchOrder.emitRemarks = options.remarks;
  pm.addPass(createLaunchOrder(launchOrder));
  PersistentBlocksOptions persistent;
  persistent.decide = options.persistent;
  persistent.clusters = options.clusters;
  persistent.emitRemarks = options.remarks;
  pm.addPass(createPersistentBlocks(persistent));
  // The last, partial wave of a persistent grid split along K (applied at
  // once: the two kernels it makes go through every pass below).
  SplitTailOptions splitTail;
  splitTail.decide = options.splitTail;
  splitTail.splits = options.splitTailParts;
  splitTail.minIterations = options.splitTailMinIterations;
  splitTail.minShare = options.splitTailMinShare;
  splitTail.emitRemarks = options.remarks;
  pm.addPass(createSplitTail(splitTail));
  // Every kernel is made by now: launches that overlap the end of the
  // kernel before (applied by convert-tile-to-gpu and the runtime).
  DependentLaunchOptions dependentLaunch;
  dependentLaunch.decide = options.dependentLaunch;
  dependentLaunch.emitRemarks = options.remarks;
  pm.addPass(createDependentLaunch(dependentLaunch));
  if (options.fpContract)
    pm.addPass(createFpContract());
  // A loop's second gemm one iteration behind its first (FlashAttention's
  // P V behind the next Q K^T), before masks and pipelining see the loop.
  RotateLoopsOptions rotate;
  rotate.emitRemarks = options.remarks;
  pm.addPass(createRotateLoops(rotate));
  // Masks written on every iteration, dropped where whole tiles pass them.
  SpecializeMasksOptions masks;
  masks.emitRemarks = options.remarks;
  pm.addPass(createSpecializeMasks(masks));
  if (options.specializeBounds)
    pm.addPass(createSpecializeBounds());
  if (options.pipeline) {
    pm.addPass(createPipelinePlanning());
    pm.addPass(createInjectPipeline());
    pm.addPass(createRegisterPrefetch());
    // One-time copies into shared tiles handed off through pipes, so that
    // they become tensor copies of the producer warpgroup.
    HandOffCopiesOptions handOff;
    handOff.emitRemarks = options.remarks;
    pm.addPass(createHandOffCopies(handOff));
  }
  LayoutInferenceOptions layouts;
  layouts.emitRemarks = options.remarks;
  pm.addPass(createLayoutInference(layouts));
  // Tensor copies for the pipes on sm_90 (the swizzles are chosen now).
  if (options.pipeline) {
    SelectTmaOptions tma;
    tma.emitRemarks = options.remarks;
    pm.addPass(createSelectTma(tma));
  }
  if (options.pipeline) {
    WarpSpecializeOptions ws;
    ws.all = options.warpSpecialize;
    ws.emitRemarks = options.remarks;
    pm.addPass(createWarpSpecialize(ws));
  }
  // Again with the multi-buffered tiles and the layouts' padding.
  pm.addPass(createCheckResources());
  pm.addPass(createInsertBarriers());
  pm.addPass(createPlanPipes());
  if (options.pipeline)
    pm.addPass(createTrimRoleLoops());
  pm.addPass(createAllocateScratch());
  pm.addPass(createAllocateShared());
  pm.addPass(createLowerOps());
  // Slots of rings whose size is not a power of two, stepped through their
  // loops instead of divided.
  pm.addPass(createCarryRingPositions());
  // Loops the lowering marked: a gemm's K blocks two at a time.
  pm.addPass(createUnrollLoops());
  pm.addPass(createConvertTileToGPU());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  PrepareHostOptions host;
  host.runtime = options.hostRuntime;
  host.cInterface = options.cInterface;
  pm.addPass(createPrepareHost(host));
}

void mlir::tile::buildTileToNVVMPipeline(
    OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
  // The target every later pass reads; then, at tile level: interior loop
  // versions, software pipelining, then layouts (which extend over the
  // version dimension pipelining adds), then per-thread code.
  //
  // Options are checked first: errors are reported at the module before
  // anything runs (chip and features by tile-attach-target).
  pipelines::PreflightOptions preflight;
  preflight.vendor = "nvidia";
  preflight.chip = options.chip;
  preflight.features = options.features;
  preflight.specializeBounds = options.specializeBounds;
  preflight.watch = std::make_shared<pipelines::ErrorWatch>();
  StringRef format = options.format;
  std::optional<bool> needsPtxas =
      llvm::StringSwitch<std::optional<bool>>(format)
          .Cases({"bin", "binary"}, true)
          .Cases({"fatbin", "fatbinary"}, true)
          .Cases({"isa", "assembly"}, false)
          .Cases({"llvm", "offloading"}, false)
          .Default(std::nullopt);
  bool needsFatbinary = format == "fatbin" || format == "fatbinary";
  if (!needsPtxas)
    preflight.optionErrors.push_back(
        ("unknown format '" + format +
         "' for tile-to-nvvm: expected bin (cubin), isa (PTX) or fatbin")
            .str());
  if (options.optLevel < 0 || options.optLevel > 3)
    preflight.optionErrors.push_back("opt-level must be from 0 to 3, got " +
                                     std::to_string(options.optLevel));
  CudaToolkit cuda = findCudaToolkit(options.cudaPath);
  std::string toolkit = cuda.path;
  if (!llvm::sys::fs::is_directory(toolkit)) {
    if (!cuda.source.empty()) {
      preflight.optionErrors.push_back("the CUDA toolkit '" + toolkit +
                                       "' (from " + cuda.source +
                                       ") does not exist or is not a "
                                       "directory");
    } else if (needsPtxas.value_or(false) && !findCudaTool("", "ptxas")) {
      preflight.optionErrors.push_back(
          ("format=" + format +
           " needs ptxas from a CUDA toolkit, but none was found (no "
           "cuda-path option, $CUDA_ROOT, $CUDA_PATH or $CUDA_HOME, no "
           "/usr/local/cuda, no ptxas on PATH): set cuda-path or use "
           "format=isa")
              .str());
    }
    // No toolkit: PTX needs none (and no libdevice is linked).
    toolkit.clear();
  } else {
    SmallString<128> libdevicePath(toolkit);
    llvm::sys::path::append(libdevicePath, "nvvm", "libdevice",
                            "libdevice.10.bc");
    if (!llvm::sys::fs::is_regular_file(libdevicePath))
      preflight.optionErrors.push_back(
          "the CUDA toolkit '" + toolkit + "'" +
          (cuda.source.empty() ? "" : " (from " + cuda.source + ")") +
          " has no nvvm/libdevice/libdevice.10.bc");
    for (StringRef tool : {StringRef("ptxas"), StringRef("fatbinary")}) {
      bool needed =
          tool == "ptxas" ? needsPtxas.value_or(false) : needsFatbinary;
      if (needed && !findCudaTool(toolkit, tool))
        preflight.optionErrors.push_back(("format=" + format + " needs " +
                                          tool + ", which is neither in " +
                                          toolkit + "/bin nor on PATH")
                                             .str());
    }
  }
  std::shared_ptr<pipelines::ErrorWatch> watch = preflight.watch;
  pm.addPass(pipelines::createPreflightPass(std::move(preflight)));

  pipelines::TileLevelOptions tileLevel;
  tileLevel.chip = options.chip;
  tileLevel.features = options.features;
  tileLevel.pipeline = options.pipeline;
  tileLevel.warpSpecialize = options.warpSpecialize;
  tileLevel.persistent = options.persistent;
  tileLevel.splitK = options.splitK;
  tileLevel.splitTail = options.splitTail;
  tileLevel.splitTailParts = options.splitTailParts;
  tileLevel.splitTailMinIterations = options.splitTailMinIterations;
  tileLevel.splitTailMinShare = options.splitTailMinShare;
  tileLevel.clusters = options.clusters;
  tileLevel.dependentLaunch = options.dependentLaunch;
  tileLevel.specializeBounds = options.specializeBounds;
  tileLevel.hostRuntime = options.hostRuntime;
  tileLevel.cInterface = options.cInterface;
  tileLevel.fpContract = options.fpContract;
  tileLevel.remarks = options.remarks;
  pipelines::addTileLevelPasses(pm, tileLevel);

  // NVGPU/NVVM and host lowering, as upstream's gpu-lower-to-nvvm-pipeline,
  // with the toolkit (for libdevice and ptxas) made explicit.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  AttachGPUTargetOptions target;
  target.vendor = "nvidia";
  target.optLevel = options.optLevel;
  if (!toolkit.empty()) {
    SmallString<128> libdevice(toolkit);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(libdevice))
      target.linkLibs.push_back(libdevice.str().str());
  }
  pm.addPass(createAttachGPUTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  if (!options.exactExp2)
    pm.addPass(createConvertExp2ToNVVM());
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
  if (options.cInterface)
    pm.addPass(createExportCInterface());
  pm.addPass(pipelines::createErrorCheckPass(watch));
}

void mlir::tile::registerTilePipelines() {
  PassPipelineRegistration<TileToNVVMPipelineOptions>(
      "tile-to-nvvm",
      "Compile tile kernels to a gpu.binary for NVIDIA GPUs (layout "
      "inference, tile op lowering, outlining, NVVM lowering, serialization)",
      buildTileToNVVMPipeline);
  PassPipelineRegistration<TileToROCDLPipelineOptions>(
      "tile-to-rocdl",
      "Compile tile kernels to a gpu.binary for AMD CDNA GPUs (layout "
      "inference, tile op lowering, outlining, ROCDL lowering, code objects)",
      buildTileToROCDLPipeline);
}
