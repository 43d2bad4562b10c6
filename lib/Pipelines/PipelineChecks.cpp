//===- PipelineChecks.cpp - First and last passes of the pipelines -*- C++ -*-//
//
// The checks that open and close the one-shot pipelines (tile-to-nvvm,
// tile-to-rocdl): invalid options and input the pipeline cannot compile are
// reported before anything runs, and an error reported by any pass on the
// way fails the pipeline.
//
//===----------------------------------------------------------------------===//

#include "PipelineCommon.h"

#include "tile/Dialect/TileDialect.h"
#include "tile/Dialect/TileOps.h"
#include "tile/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::pipelines;

void ErrorWatch::start(MLIRContext *ctx) {
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

bool ErrorWatch::stop() {
  if (context)
    context->getDiagEngine().eraseHandler(handler);
  context = nullptr;
  return sawError && *sawError;
}

namespace {
/// The widest vector value a kernel op may produce: a thread's register file
/// (256 32-bit registers).
constexpr uint64_t kMaxKernelVectorBits = 256 * 32;

/// First pass of tile-to-nvvm and tile-to-rocdl: reports invalid options at
/// the module, then
/// rejects, at the op, input that verifies but that the rest of the
/// pipeline cannot compile, before any of it runs. Also makes an explicit
/// `#gpu.address_space<global>` the default memory space, which global
/// memory means anyway (the host lowering only knows the default one).
struct PipelinePreflightPass
    : public PassWrapper<PipelinePreflightPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PipelinePreflightPass)

  explicit PipelinePreflightPass(PreflightOptions options)
      : options(std::move(options)) {}
  PipelinePreflightPass(const PipelinePreflightPass &other)
      : PassWrapper(other), options(other.options) {}

  StringRef getArgument() const override { return "tile-pipeline-preflight"; }
  StringRef getDescription() const override {
    return "Check the options and input of tile-to-nvvm / tile-to-rocdl "
           "before compiling";
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
    // Targets and names first: nothing else means anything for a kernel of
    // the other vendor.
    StringRef source;
    TargetAttr target = getPipelineTarget(module, source);
    if (!succeeded(checkTargets(module, target, source)) |
        !succeeded(checkKernelNames(module, target)))
      return signalPassFailure();
    normalizeGlobalMemorySpace(module);
    if (!succeeded(checkInput(module)))
      signalPassFailure();
  }

  /// The chip and features tile-attach-target will give the module, with
  /// where the chip comes from; null where it will report an error itself
  /// (an unknown chip, a chip option the module's target contradicts).
  TargetAttr getPipelineTarget(ModuleOp module, StringRef &source) {
    auto existing =
        module->getAttrOfType<TargetAttr>(TileDialect::kTargetAttrName);
    StringRef chip = options.chip;
    StringRef features = options.features;
    if (!chip.empty()) {
      if (existing && existing.getChip() != chip)
        return {};
      source = "the chip option";
    } else if (existing) {
      chip = existing.getChip();
      if (features.empty())
        features = existing.getFeatures();
      source = "the module's #tile.target";
    } else {
      chip = options.defaultChip.empty() ? StringRef(kDefaultChip)
                                         : StringRef(options.defaultChip);
      source = "the pipeline's default chip";
    }
    auto ignore = [] { return InFlightDiagnostic(); };
    if (!lookupChip(chip) ||
        ::mlir::failed(TargetAttr::verify(ignore, chip, features)))
      return {};
    return TargetAttr::get(module.getContext(), chip, features);
  }

  /// The chip an NVVM op needs, where it needs more than sm_80 (the oldest
  /// chip the pipeline compiles for): what the op declares
  /// (`RequiresSMInterface`), else by its name, for the Hopper and
  /// Blackwell instructions LLVM cannot select on older chips.
  static std::optional<NVVM::NVVMCheckSMVersion>
  getRequiredChip(Operation *op) {
    if (auto declared = dyn_cast<NVVM::RequiresSMInterface>(op))
      return declared.getRequiredMinSMVersion();
    StringRef name = op->getName().getStringRef();
    if (name.starts_with("nvvm.wgmma.") || name == "nvvm.setmaxregister")
      return NVVM::NVVMCheckSMVersion(/*archAccelerated=*/true, 90);
    if (name.starts_with("nvvm.tcgen05.") ||
        name.starts_with("nvvm.clusterlaunchcontrol.") ||
        name == "nvvm.st.bulk")
      return NVVM::NVVMCheckSMVersion(/*archAccelerated=*/false, 100);
    static constexpr StringLiteral hopper[] = {
        "nvvm.cp.async.bulk.",
        "nvvm.cluster.",
        "nvvm.mapa",
        "nvvm.read.ptx.sreg.cluster",
        "nvvm.read.ptx.sreg.nclusterid",
        "nvvm.fence.mbarrier.init",
        "nvvm.fence.sc.cluster",
        "nvvm.fence.proxy.acquire",
        "nvvm.fence.proxy.release",
        "nvvm.mbarrier.arrive.expect_tx",
        "nvvm.mbarrier.arrive_drop.expect_tx",
        "nvvm.mbarrier.expect_tx",
        "nvvm.mbarrier.complete_tx",
        "nvvm.mbarrier.try_wait",
        "nvvm.elect.sync",
        "nvvm.stmatrix"};
    for (StringRef prefix : hopper)
      if (name.starts_with(prefix))
        return NVVM::NVVMCheckSMVersion(/*archAccelerated=*/false, 90);
    // Fences between the generic and the asynchronous proxies.
    if (auto fence = dyn_cast<NVVM::FenceProxyOp>(op);
        fence && fence.getKind() != NVVM::ProxyKind::alias)
      return NVVM::NVVMCheckSMVersion(/*archAccelerated=*/false, 90);
    return std::nullopt;
  }

  /// The PTX ISA version an NVVM op needs where it is more than sm_80's
  /// oldest (7.0) and its chip does not imply it: LLVM cannot select it
  /// under an older `+ptx` feature.
  static std::optional<int64_t> getRequiredPtx(Operation *op) {
    if (auto fence = dyn_cast<NVVM::FenceProxyOp>(op);
        fence && fence.getKind() == NVVM::ProxyKind::alias)
      return 75;
    return std::nullopt;
  }

  /// One target per module: the module's chip is the pipeline's vendor's
  /// (reported here, before the tile-level passes run for the wrong
  /// vendor), a kernel's own `#tile.target` names the module's chip (and
  /// PTX version, where it names one), and no op of the other vendor's
  /// dialects (nvvm, nvgpu / rocdl, amdgpu) is left for LLVM to reject.
  LogicalResult checkTargets(ModuleOp module, TargetAttr target,
                             StringRef source) {
    bool nvidia = options.vendor == "nvidia";
    StringRef vendorName = nvidia ? "NVIDIA" : "AMD";
    StringRef otherName = nvidia ? "AMD" : "NVIDIA";
    StringRef otherPipeline = nvidia ? "tile-to-rocdl" : "tile-to-nvvm";
    bool failed = false;
    if (target && target.getDescription()->isNVIDIA() != nvidia) {
      module.emitError("the target ")
          << target.getChip() << " is an " << otherName
          << " GPU: compile it with " << otherPipeline << ", not "
          << options.pipelineName;
      return failure();
    }
    module.walk([&](Operation *op) {
      auto kernel = dyn_cast<KernelOp>(op);
      auto own =
          kernel
              ? kernel->getAttrOfType<TargetAttr>(TileDialect::kTargetAttrName)
              : TargetAttr();
      if (own && own.getDescription()) {
        if (own.getDescription()->isNVIDIA() != nvidia) {
          kernel.emitOpError("@")
              << kernel.getSymName() << " targets " << own.getChip() << ", an "
              << otherName << " GPU, which " << options.pipelineName
              << " does not compile (it compiles for " << vendorName
              << " GPUs): compile this kernel with " << otherPipeline
              << ", in a module of its own";
          failed = true;
        } else if (target && own.getChip() != target.getChip()) {
          kernel.emitOpError("@")
              << kernel.getSymName() << " targets " << own.getChip() << ", but "
              << options.pipelineName << " compiles this module for "
              << target.getChip() << " (" << source
              << "): the kernels of a module are compiled for one chip; "
                 "remove the kernel's target or compile it in a module for "
              << own.getChip();
          failed = true;
        } else if (target && !own.getFeatures().empty() &&
                   own.getPtxVersion() != target.getPtxVersion()) {
          kernel.emitOpError("@")
              << kernel.getSymName() << " asks for PTX ISA +ptx"
              << own.getPtxVersion() << ", but " << options.pipelineName
              << " compiles this module with +ptx" << target.getPtxVersion()
              << ": remove the kernel's features or give the module the "
                 "same ones";
          failed = true;
        }
      }
      StringRef dialect = op->getName().getDialectNamespace();
      if (nvidia && target && dialect == "nvvm") {
        if (std::optional<NVVM::NVVMCheckSMVersion> needs = getRequiredChip(op);
            needs && !needs->isCompatibleWith(
                         NVVM::NVVMCheckSMVersion::getTargetSMVersionFromStr(
                             target.getChip()))) {
          op->emitOpError("needs sm_")
              << needs->smVersionList.front()
              << (needs->archAccelerated ? "a" : " or later") << ", but "
              << options.pipelineName << " compiles this module for "
              << target.getChip() << " (" << source << ")";
          failed = true;
        } else if (std::optional<int64_t> ptx = getRequiredPtx(op);
                   ptx && target.getPtxVersion() < *ptx) {
          op->emitOpError("needs PTX ISA +ptx")
              << *ptx << " or later, but " << options.pipelineName
              << " compiles this module with +ptx" << target.getPtxVersion()
              << " (" << source << ")";
          failed = true;
        }
      }
      bool foreign = nvidia ? (dialect == "rocdl" || dialect == "amdgpu")
                            : (dialect == "nvvm" || dialect == "nvgpu");
      if (foreign) {
        op->emitOpError("is an ")
            << otherName << " operation (the " << dialect << " dialect), which "
            << options.pipelineName << " cannot compile: it compiles for "
            << vendorName << " GPUs"
            << (target ? (" (" + target.getChip() + ")").str() : "");
        failed = true;
      }
    });
    return failure(failed);
  }

  /// Kernels are named by the user: two of the same name (in two host
  /// functions, say) would clash later under the names the pipeline derives
  /// from them (`<kernel>_module`, `<kernel>_tma`), which the user never
  /// wrote. Reported here, at the user's kernels.
  LogicalResult checkKernelNames(ModuleOp module, TargetAttr target) {
    bool failed = false;
    llvm::StringMap<KernelOp> kernels;
    SmallVector<KernelOp> ordered;
    module.walk([&](KernelOp kernel) {
      auto [it, inserted] = kernels.try_emplace(kernel.getSymName(), kernel);
      if (inserted) {
        ordered.push_back(kernel);
        return;
      }
      InFlightDiagnostic diag =
          kernel.emitOpError("name '")
          << kernel.getSymName()
          << "' is used by another tile.kernel: kernel names must be unique "
             "in the module (they name the compiled kernels)";
      diag.attachNote(it->second.getLoc())
          << "the other kernel named '" << kernel.getSymName() << "'";
      failed = true;
    });
    // Tensor-copy versions are made on chips with tensor copies only.
    bool tma = !target || createTargetInfo(target)->tensorCopies();
    // Names derived from a kernel's: its gpu.module (`<kernel>_module`)
    // and its tensor-copy version (`<kernel>_tma`, with its module).
    for (KernelOp kernel : ordered) {
      StringRef name = kernel.getSymName();
      // A kernel's name is a symbol of its own gpu.module; the gpu.modules
      // are symbols of the module.
      auto clash = [&](const std::string &derived, StringRef what) {
        bool isModule = StringRef(derived).ends_with("_module");
        Operation *other = nullptr;
        if (isModule)
          other = SymbolTable::lookupSymbolIn(module, derived);
        else if (auto it = kernels.find(derived); it != kernels.end())
          other = it->second;
        if (!other)
          return;
        InFlightDiagnostic diag = other->emitOpError("name '")
                                  << derived << "' is also the name "
                                  << options.pipelineName << " gives " << what
                                  << " tile.kernel @" << name
                                  << ": rename one of them";
        diag.attachNote(kernel.getLoc()) << "the kernel @" << name;
        failed = true;
      };
      std::string base = name.str();
      clash(base + "_module", "the gpu.module compiled from");
      if (!tma)
        continue;
      clash(base + "_tma", "the tensor-copy version of");
      clash(base + "_tma_module",
            "the gpu.module of the tensor-copy version of");
    }
    return failure(failed);
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
    // Nor a layout other than strided ones: the LLVM lowering of memrefs
    // needs strides (it failed without a location).
    auto isHostMemRef = [](Type type) {
      auto memref = dyn_cast<MemRefType>(type);
      return !memref || ((!memref.getMemorySpace() ||
                          isa<IntegerAttr>(memref.getMemorySpace())) &&
                         memref.isStrided());
    };
    module.walk([&](Operation *op) {
      if (isa<KernelOp>(op) || op->getParentOfType<KernelOp>())
        return;
      auto report = [&](Type type, const Twine &what) {
        InFlightDiagnostic diag = op->emitOpError()
                                  << what << " has type " << type;
        if (!cast<MemRefType>(type).isStrided())
          diag << ", whose layout is not strided, which "
               << options.pipelineName
               << " cannot compile: use an identity or strided<...> layout";
        else
          diag << ", a tile outside any tile.kernel, which "
               << options.pipelineName
               << " cannot compile: host code only handles global memrefs";
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
      // A vector value in a kernel lives in one thread's registers: one wider
      // than a thread's register file (256 32-bit registers on both vendors)
      // cannot be allocated, and LLVM's GPU code generation of such a value
      // runs for minutes before it spills.
      // The same for a kernel's parameters. Sizes saturate: a vector of
      // 2^62 elements overflowed the product.
      // The bits of a fixed vector of integers or floats (0 for other
      // types), and whether they overflowed 64 bits.
      auto vectorBits = [](Type type, bool &overflow) -> uint64_t {
        overflow = false;
        auto vector = dyn_cast<VectorType>(type);
        if (!vector || vector.isScalable() ||
            !vector.getElementType().isIntOrIndexOrFloat())
          return 0;
        unsigned elementBits =
            vector.getElementType().isIndex()
                ? 64
                : vector.getElementType().getIntOrFloatBitWidth();
        return llvm::SaturatingMultiply(uint64_t(vector.getNumElements()),
                                        uint64_t(elementBits), &overflow);
      };
      auto tooWide = [&](Type type) {
        bool overflow;
        uint64_t bits = vectorBits(type, overflow);
        return overflow || bits > kMaxKernelVectorBits;
      };
      auto explain = [&](InFlightDiagnostic diag, Type type) {
        bool overflow;
        uint64_t bits = vectorBits(type, overflow);
        diag << type << " (";
        if (overflow)
          diag << "more than 2^64";
        else
          diag << bits;
        diag << " bits) inside a kernel, more than a thread's "
             << kMaxKernelVectorBits / 32
             << " 32-bit registers can hold: split it into narrower vectors";
      };
      if (auto kernelFunc = dyn_cast<gpu::GPUFuncOp>(op)) {
        for (auto [i, type] : llvm::enumerate(kernelFunc.getArgumentTypes()))
          if (tooWide(type)) {
            explain(kernelFunc.emitOpError("argument #") << i << " is a ",
                    type);
            failed = true;
            return;
          }
      }
      if (op->getParentOfType<KernelOp>() ||
          op->getParentOfType<gpu::GPUFuncOp>()) {
        for (auto [i, type] : llvm::enumerate(op->getResultTypes())) {
          if (!tooWide(type))
            continue;
          explain(op->emitOpError("result #") << i << " is a ", type);
          failed = true;
          return;
        }
      }
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
            << "' is not supported by " << options.pipelineName
            << ": allocate tiles at the top "
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
              << " tile inside tile.parallel, which " << options.pipelineName
              << " does not lower: tile.parallel may access fragments and "
                 "global "
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

/// Last pass of tile-to-nvvm and tile-to-rocdl: fails the pipeline if an error
/// was emitted while it ran (see ErrorWatch).
struct PipelineErrorCheckPass
    : public PassWrapper<PipelineErrorCheckPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PipelineErrorCheckPass)

  explicit PipelineErrorCheckPass(std::shared_ptr<ErrorWatch> watch)
      : watch(std::move(watch)) {}
  PipelineErrorCheckPass(const PipelineErrorCheckPass &other)
      : PassWrapper(other), watch(other.watch) {}

  StringRef getArgument() const override { return "tile-pipeline-error-check"; }
  StringRef getDescription() const override {
    return "Fail tile-to-nvvm / tile-to-rocdl if an error was reported while "
           "it ran; "
           "otherwise leave an upstream module";
  }

  void runOnOperation() override {
    if (watch && watch->stop())
      return signalPassFailure();
    // Nothing after the pipeline needs the tile target (the gpu.binary ops
    // carry what it meant): without it, upstream tools (mlir-translate,
    // mlir-runner) read the result without the tile dialect.
    getOperation()->removeAttr("tile.target");
    // Nor the host functions' `tile.shape` (tile-prepare-host has checked
    // the arguments against it): LLVM's translation warns on it.
    getOperation()->walk([](FunctionOpInterface func) {
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        func.removeArgAttr(i,
                           StringAttr::get(func->getContext(), "tile.shape"));
    });
  }

  std::shared_ptr<ErrorWatch> watch;
};

} // namespace

std::unique_ptr<Pass>
mlir::tile::pipelines::createPreflightPass(PreflightOptions options) {
  return std::make_unique<PipelinePreflightPass>(std::move(options));
}

std::unique_ptr<Pass>
mlir::tile::pipelines::createErrorCheckPass(std::shared_ptr<ErrorWatch> watch) {
  return std::make_unique<PipelineErrorCheckPass>(std::move(watch));
}
