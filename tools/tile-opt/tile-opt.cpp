//===- tile-opt.cpp - Tile optimizer driver ---------------------*- C++ -*-===//
//
// mlir-opt for the tile dialect: registers the tile dialect and passes, and
// the upstream dialects, passes and conversions the tile pipeline lowers to.
//
// Unlike the stock driver, tile-opt fails (exit code 1, no output file)
// whenever an error was reported, even by a pass that did not signal
// failure or by a parser that returned a module, except under
// -verify-diagnostics, where expected errors are the point. It verifies the
// parsed input in a first pass rather than in the parser, so that it can
// reject first what upstream verifiers crash on.
//
//===----------------------------------------------------------------------===//

#include "InputChecks.h"
#include "tile-c/Version.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/TileDialect.h"
#include "tile/Host/Passes.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Pipelines/Registration.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Conversion/AMDGPUToROCDL/AMDGPUToROCDL.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <atomic>
#include <cstdio>
#include <memory>

// Registers only the upstream conversions the tile pipelines need (registering
// all of them would link every conversion library).
#define GEN_PASS_REGISTRATION_ARITHTOLLVMCONVERSIONPASS
#define GEN_PASS_REGISTRATION_CONVERTAMDGPUTOROCDLPASS
#define GEN_PASS_REGISTRATION_CONVERTCONTROLFLOWTOLLVMPASS
#define GEN_PASS_REGISTRATION_CONVERTFUNCTOLLVMPASS
#define GEN_PASS_REGISTRATION_CONVERTGPUOPSTONVVMOPS
#define GEN_PASS_REGISTRATION_CONVERTGPUOPSTOROCDLOPS
#define GEN_PASS_REGISTRATION_CONVERTINDEXTOLLVMPASS
#define GEN_PASS_REGISTRATION_CONVERTMATHTOLLVMPASS
#define GEN_PASS_REGISTRATION_CONVERTNVGPUTONVVMPASS
#define GEN_PASS_REGISTRATION_CONVERTNVVMTOLLVMPASS
#define GEN_PASS_REGISTRATION_CONVERTVECTORTOLLVMPASS
#define GEN_PASS_REGISTRATION_CONVERTVECTORTOSCF
#define GEN_PASS_REGISTRATION_FINALIZEMEMREFTOLLVMCONVERSIONPASS
#define GEN_PASS_REGISTRATION_GPUTOLLVMCONVERSIONPASS
#define GEN_PASS_REGISTRATION_RECONCILEUNREALIZEDCASTSPASS
#define GEN_PASS_REGISTRATION_SCFTOCONTROLFLOWPASS
namespace mlir {
#include "mlir/Conversion/Passes.h.inc"
} // namespace mlir

static void registerUpstreamConversionPasses() {
  mlir::registerArithToLLVMConversionPass();
  mlir::registerConvertAMDGPUToROCDLPass();
  mlir::registerConvertControlFlowToLLVMPass();
  mlir::registerConvertFuncToLLVMPass();
  mlir::registerConvertGpuOpsToNVVMOps();
  mlir::registerConvertGpuOpsToROCDLOps();
  mlir::registerConvertIndexToLLVMPass();
  mlir::registerConvertMathToLLVMPass();
  mlir::registerConvertNVGPUToNVVMPass();
  mlir::registerConvertNVVMToLLVMPass();
  mlir::registerConvertVectorToLLVMPass();
  mlir::registerConvertVectorToSCF();
  mlir::registerFinalizeMemRefToLLVMConversionPass();
  mlir::registerGpuToLLVMConversionPass();
  mlir::registerReconcileUnrealizedCastsPass();
  mlir::registerSCFToControlFlowPass();
}

#if defined(__SANITIZE_ADDRESS__)
/// Sanitizer builds (TILE_ENABLE_SANITIZERS): LLVM's headers poison the
/// memory of bump allocators when compiled with AddressSanitizer, which the
/// uninstrumented LLVM and MLIR libraries then touch without unpoisoning
/// (false use-after-poison reports): ignore manual poisoning. LLVM and MLIR
/// also keep process-lifetime allocations that LeakSanitizer would report.
/// ASAN_OPTIONS, when set, takes precedence.
extern "C" const char *__asan_default_options() {
  return "detect_leaks=0:allow_user_poisoning=0";
}
#endif

/// Set when any error diagnostic is reported while parsing or passes run.
static std::atomic<bool> sawError{false};
static void recordError() { sawError = true; }

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect, mlir::affine::AffineDialect,
                  mlir::amdgpu::AMDGPUDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::index::IndexDialect,
                  mlir::LLVM::LLVMDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::nvgpu::NVGPUDialect,
                  mlir::NVVM::NVVMDialect, mlir::ROCDL::ROCDLDialect,
                  mlir::scf::SCFDialect, mlir::vector::VectorDialect>();

  mlir::tile::registerTileLoweringInterfaces(registry);

  // Tile passes.
  mlir::tile::registerTilePasses();
  mlir::tile::registerTileConversionPasses();
  mlir::tile::registerTileHostPasses();
  mlir::tile::registerTilePipelines();

  // Upstream passes the tile pipelines use.
  mlir::registerTransformsPasses();
  mlir::registerGPUPasses();
  mlir::gpu::registerGPUToNVVMPipeline();
  registerUpstreamConversionPasses();

  // A diagnostic shows the source line; the op in generic form (up to a
  // whole kernel) only with --mlir-print-op-on-diagnostic.
  mlir::registerMLIRContextCLOptions();
  auto &options = llvm::cl::getRegisteredOptions();
  if (auto *printOp = static_cast<llvm::cl::opt<bool> *>(
          options.lookup("mlir-print-op-on-diagnostic")))
    printOp->setInitialValue(false);

  // --version names tile-mlir's version after LLVM's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tile-mlir version " << TILE_MLIR_VERSION << "\n";
  });

  // What MlirOptMain(argc, argv, ...) does, with diagnostic handlers that
  // record errors installed on each context while it parses and before its
  // passes run, and the input checks.
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "tile-mlir optimizer driver\n", registry);
  llvm::InitLLVM y(argc, argv);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  auto base = std::make_shared<mlir::MlirOptMainConfig>(config);
  bool recordErrors = !config.shouldVerifyDiagnostics();
  // The parser reports some lexer errors and goes on (tile_opt::
  // recordParseErrors): record errors from the start.
  if (recordErrors)
    tile_opt::recordParseErrors(registry, recordError);
  // Verify in the first pass (and round-trip after it), not in the parser.
  bool verifyInput = config.shouldVerifyOnParsing();
  bool verifyRoundtrip = config.shouldVerifyRoundtrip();
  config.verifyOnParsing(false).verifyRoundtrip(false);
  config.setPassPipelineSetupFn([=](mlir::PassManager &pm) {
    // Called first, before the handler that prints: returning failure
    // passes the diagnostic on.
    if (recordErrors)
      pm.getContext()->getDiagEngine().registerHandler(
          [](mlir::Diagnostic &diag) {
            if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
              recordError();
            return mlir::failure();
          });
    if (verifyInput)
      pm.addPass(tile_opt::createVerifyInputPass());
    if (verifyRoundtrip)
      pm.addPass(tile_opt::createVerifyRoundtripPass());
    // When passes run, reject first what upstream patterns crash on.
    mlir::PassManager probe(pm.getContext(), pm.getOpAnchorName(),
                            mlir::OpPassManager::Nesting::Implicit);
    if (mlir::failed(base->setupPassPipeline(probe)))
      return mlir::failure();
    if (probe.size() != 0)
      pm.addPass(tile_opt::createCheckDimIndicesPass());
    return base->setupPassPipeline(pm);
  });

  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  auto file = mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  // Reject first what the MLIR parser crashes on.
  if (tile_opt::reportParserHazards(*file, llvm::errs()))
    return 1;
  auto output = mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  // A pass reported an error without failing: fail too, and keep no output.
  if (sawError)
    return 1;
  output->keep();
  return 0;
}
