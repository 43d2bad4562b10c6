//===- Pipelines.cpp - One-shot tile pipelines ------------------*- C++ -*-===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
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

namespace {

/// Whether an error was emitted while the pipeline ran, whatever the pass
/// that emitted it returned: upstream passes such as gpu-module-to-binary
/// report some failures (a serializer that cannot find its tools) without
/// failing. The first pass of the pipeline starts watching the context's
/// diagnostics, the last one stops and fails the pipeline if any error was
/// seen, so that tile-opt and C API hosts (mlirPassManagerRunOnOp) see the
/// failure.
struct ErrorWatch {
  /// Shared with the handler, which may outlive the pipeline when a pass
  /// fails before the last one runs (it then only sets this flag).
  std::shared_ptr<std::atomic<bool>> sawError;
  MLIRContext *context = nullptr;
  DiagnosticEngine::HandlerID handler = 0;

  void start(MLIRContext *ctx) {
    stop();
    auto flag = std::make_shared<std::atomic<bool>>(false);
    sawError = flag;
    context = ctx;
    handler = ctx->getDiagEngine().registerHandler([flag](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        *flag = true;
      return failure(); // Not handled: the other handlers report it.
    });
  }
  /// Stops watching; returns whether an error was seen.
  bool stop() {
    if (context)
      context->getDiagEngine().eraseHandler(handler);
    context = nullptr;
    return sawError && *sawError;
  }
};

/// What buildTileToNVVMPipeline found out about its options, checked when
/// the pipeline starts.
struct PreflightOptions {
  /// Errors about the options (format, toolkit, optimization level).
  SmallVector<std::string> optionErrors;
  bool specializeBounds = true;
  std::shared_ptr<ErrorWatch> watch;
};

/// First pass of tile-to-nvvm: reports invalid options at the module, then
/// rejects, at the op, input that verifies but that the rest of the
/// pipeline cannot compile, before any of it runs. Also makes an explicit
/// `#gpu.address_space<global>` the default memory space, which global
/// memory means anyway (the host lowering only knows the default one).
struct TileToNVVMPreflightPass
    : public PassWrapper<TileToNVVMPreflightPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileToNVVMPreflightPass)

  explicit TileToNVVMPreflightPass(PreflightOptions options)
      : options(std::move(options)) {}
  TileToNVVMPreflightPass(const TileToNVVMPreflightPass &other)
      : PassWrapper(other), options(other.options) {}

  StringRef getArgument() const override { return "tile-to-nvvm-preflight"; }
  StringRef getDescription() const override {
    return "Check the options and input of tile-to-nvvm before compiling";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (options.watch)
      options.watch->start(&getContext());
    bool failed = false;
    for (const std::string &error : options.optionErrors) {
      module.emitError() << error;
      failed = true;
    }
    if (failed)
      return signalPassFailure();
    normalizeGlobalMemorySpace(module);
    if (!succeeded(checkInput(module)))
      signalPassFailure();
  }

  static void normalizeGlobalMemorySpace(ModuleOp module) {
    AttrTypeReplacer replacer;
    replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
      auto space =
          dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
      if (!space || space.getValue() != gpu::AddressSpace::Global)
        return std::nullopt;
      return MemRefType::get(type.getShape(), type.getElementType(),
                             type.getLayout(), Attribute());
    });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }

  LogicalResult checkInput(ModuleOp module) {
    bool failed = false;
    // Outside kernels, memrefs live in global memory: the host lowering has
    // no address space for tiles (it failed without a location).
    auto isHostMemRef = [](Type type) {
      auto memref = dyn_cast<MemRefType>(type);
      return !memref || !memref.getMemorySpace() ||
             isa<IntegerAttr>(memref.getMemorySpace());
    };
    module.walk([&](Operation *op) {
      if (isa<KernelOp>(op) || op->getParentOfType<KernelOp>())
        return;
      auto report = [&](Type type, const Twine &what) {
        op->emitOpError() << what << " has type " << type
                          << ", a tile outside any tile.kernel, which "
                             "tile-to-nvvm cannot compile: host code only "
                             "handles global memrefs";
        failed = true;
      };
      if (auto func = dyn_cast<FunctionOpInterface>(op)) {
        for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
          if (!isHostMemRef(type))
            return report(type, "argument #" + Twine(i));
        for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
          if (!isHostMemRef(type))
            return report(type, "result #" + Twine(i));
        return;
      }
      for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
        if (!isHostMemRef(type))
          return report(type, "result #" + Twine(i));
    });
    if (failed)
      return failure();
    module.walk([&](Operation *op) {
      // A constant memref.dim index outside the memref's rank: upstream
      // canonicalization (run by this pipeline) crashes on it.
      if (auto dim = dyn_cast<memref::DimOp>(op)) {
        std::optional<int64_t> index = dim.getConstantIndex();
        auto type = dyn_cast<MemRefType>(dim.getSource().getType());
        if (index && type && (*index < 0 || *index >= type.getRank())) {
          dim.emitOpError("index ") << *index << " is out of range for a rank-"
                                    << type.getRank() << " memref";
          failed = true;
        }
        return;
      }
      // Tiles are lowered as allocations of the whole kernel.
      if (auto alloc = dyn_cast<AllocOp>(op)) {
        Operation *parent = alloc->getParentOp();
        if (isa_and_nonnull<KernelOp>(parent))
          return;
        alloc.emitOpError("inside '")
            << (parent ? parent->getName().getStringRef() : "")
            << "' is not supported by tile-to-nvvm: allocate tiles at the top "
               "level of the tile.kernel (a tile lives until the kernel ends "
               "wherever it is allocated)";
        failed = true;
        return;
      }
      // tile.parallel bodies are lowered for fragment and global accesses.
      if (isa<memref::LoadOp, memref::StoreOp>(op) &&
          op->getParentOfType<ParallelOp>()) {
        bool isLoad = isa<memref::LoadOp>(op);
        auto type = cast<MemRefType>(op->getOperand(isLoad ? 0 : 1).getType());
        MemoryKind kind = getMemoryKind(type);
        if (kind == MemoryKind::Shared || kind == MemoryKind::Local) {
          op->emitOpError()
              << (isLoad ? "reads" : "writes") << " a "
              << stringifyMemoryKind(kind)
              << " tile inside tile.parallel, which tile-to-nvvm does not "
                 "lower: tile.parallel may access fragments and global "
                 "memory; copy the tile to a fragment first";
          failed = true;
        }
        return;
      }
      // User schedules count the ops of the loop body as written; versioning
      // a nested loop puts a bounds test in this body.
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        if (!options.specializeBounds ||
            (!loop->hasAttr(TileDialect::kStageAttrName) &&
             !loop->hasAttr(TileDialect::kOrderAttrName)))
          return;
        scf::ForOp nested;
        loop.getBody()->walk([&](scf::ForOp inner) {
          WalkResult copies = inner.getBody()->walk([](CopyOp copy) {
            return copy.getSourceOffsets().empty() &&
                           copy.getTargetOffsets().empty()
                       ? WalkResult::advance()
                       : WalkResult::interrupt();
          });
          if (copies.wasInterrupted()) {
            nested = inner;
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        });
        if (!nested)
          return;
        InFlightDiagnostic diag =
            loop.emitError()
            << "the user-given '" << TileDialect::kStageAttrName << "' / '"
            << TileDialect::kOrderAttrName
            << "' of this loop cannot be kept: tile-specialize-bounds adds "
               "a bounds test to its body before a nested loop that copies "
               "at offsets; remove the schedule or compile with "
               "specialize-bounds=false";
        diag.attachNote(nested.getLoc()) << "nested loop";
        failed = true;
      }
    });
    return failure(failed);
  }

  PreflightOptions options;
};

/// Last pass of tile-to-nvvm: fails the pipeline if an error was emitted
/// while it ran (see ErrorWatch).
struct TileToNVVMErrorCheckPass
    : public PassWrapper<TileToNVVMErrorCheckPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileToNVVMErrorCheckPass)

  explicit TileToNVVMErrorCheckPass(std::shared_ptr<ErrorWatch> watch)
      : watch(std::move(watch)) {}
  TileToNVVMErrorCheckPass(const TileToNVVMErrorCheckPass &other)
      : PassWrapper(other), watch(other.watch) {}

  StringRef getArgument() const override { return "tile-to-nvvm-error-check"; }
  StringRef getDescription() const override {
    return "Fail tile-to-nvvm if an error was reported while it ran; "
           "otherwise leave an upstream module";
  }

  void runOnOperation() override {
    if (watch && watch->stop())
      return signalPassFailure();
    // Nothing after the pipeline needs the tile target (the gpu.binary ops
    // carry what it meant): without it, upstream tools (mlir-translate,
    // mlir-runner) read the result without the tile dialect.
    getOperation()->removeAttr("tile.target");
  }

  std::shared_ptr<ErrorWatch> watch;
};

} // namespace

void mlir::tile::buildTileToNVVMPipeline(
    OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
  // The target every later pass reads; then, at tile level: interior loop
  // versions, software pipelining, then layouts (which extend over the
  // version dimension pipelining adds), then per-thread code.
  //
  // Options are checked first: errors are reported at the module before
  // anything runs (chip and features by tile-attach-target).
  PreflightOptions preflight;
  preflight.specializeBounds = options.specializeBounds;
  preflight.watch = std::make_shared<ErrorWatch>();
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
  std::shared_ptr<ErrorWatch> watch = preflight.watch;
  pm.addPass(std::make_unique<TileToNVVMPreflightPass>(std::move(preflight)));

  AttachTargetOptions attach;
  attach.chip = options.chip;
  attach.features = options.features;
  pm.addPass(createAttachTarget(attach));
  // Resources against the target's limits, before anything unrolls or
  // multi-buffers (register tiles far beyond the register file, huge
  // tile.parallel loops); pipelining checks its own shared memory.
  pm.addPass(createCheckResources());
  if (options.specializeBounds)
    pm.addPass(createSpecializeBounds());
  if (options.pipeline) {
    pm.addPass(createPipelinePlanning());
    pm.addPass(createInjectPipeline());
  }
  pm.addPass(createLayoutInference());
  // Tensor copies for the pipes on sm_90 (the swizzles are chosen now).
  if (options.pipeline)
    pm.addPass(createSelectTma());
  if (options.pipeline) {
    WarpSpecializeOptions ws;
    ws.all = options.warpSpecialize;
    pm.addPass(createWarpSpecialize(ws));
  }
  // Again with the multi-buffered tiles and the layouts' padding.
  pm.addPass(createCheckResources());
  pm.addPass(createLowerOps());
  pm.addPass(createConvertTileToGPU());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  PrepareHostOptions host;
  host.runtime = options.hostRuntime;
  host.cInterface = options.cInterface;
  pm.addPass(createPrepareHost(host));

  // NVGPU/NVVM and host lowering, as upstream's gpu-lower-to-nvvm-pipeline,
  // with the toolkit (for libdevice and ptxas) made explicit.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  AttachGPUTargetOptions target;
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
  pm.addPass(std::make_unique<TileToNVVMErrorCheckPass>(watch));
}

void mlir::tile::registerTilePipelines() {
  PassPipelineRegistration<TileToNVVMPipelineOptions>(
      "tile-to-nvvm",
      "Compile tile kernels to a gpu.binary for NVIDIA GPUs (layout "
      "inference, tile op lowering, outlining, NVVM lowering, serialization)",
      buildTileToNVVMPipeline);
}
