//===- ObjectFile.cpp - Compile a module's host code to an object file ----===//

#include "tile/Target/Host/Host.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>

using namespace mlir;

LogicalResult mlir::tile::host::emitObjectFile(ModuleOp module, StringRef path,
                                               int optLevel) {
  if (optLevel < 0 || optLevel > 3)
    return module.emitError("host opt-level must be from 0 to 3, got ")
           << optLevel;
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "tile_host");
  if (!llvmModule)
    return module.emitError("cannot translate the module to LLVM IR (is it "
                            "lowered to the LLVM dialect, e.g. by "
                            "tile-to-nvvm?)");

  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return module.emitError("no code generator for the host (")
           << triple.str() << "): " << error;
  llvm::TargetOptions targetOptions;
  auto level = static_cast<llvm::CodeGenOptLevel>(optLevel);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), "", targetOptions,
      llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine)
    return module.emitError("cannot create a target machine for ")
           << triple.str();
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());

  if (optLevel > 0) {
    auto optimize = makeOptimizingTransformer(optLevel, 0, machine.get());
    if (llvm::Error err = optimize(llvmModule.get()))
      return module.emitError("optimizing the host code failed: ")
             << llvm::toString(std::move(err));
  }

  std::error_code ec;
  auto output = std::make_unique<llvm::ToolOutputFile>(path, ec,
                                                       llvm::sys::fs::OF_None);
  if (ec)
    return module.emitError("cannot open '") << path << "': " << ec.message();
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, output->os(), nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return module.emitError("the host target cannot emit object files");
  codegen.run(*llvmModule);
  output->os().flush();
  if (output->os().has_error())
    return module.emitError("cannot write '") << path << "'";
  output->keep();
  return success();
}
