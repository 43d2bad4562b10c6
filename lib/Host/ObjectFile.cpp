//===- ObjectFile.cpp - Compile a module's host code to an object file ----===//

#include "tile/Host/Host.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
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
      triple, llvm::sys::getHostCPUName(), "", targetOptions, llvm::Reloc::PIC_,
      std::nullopt, level));
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

  // Compiled into memory first: a write that fails (a full disk,
  // /dev/full) is then an error return, never LLVM's fatal "IO failure" of
  // a stream destroyed with an error, and nothing is written if code
  // generation fails.
  SmallString<0> buffer;
  {
    llvm::raw_svector_ostream memory(buffer);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, memory, nullptr,
                                     llvm::CodeGenFileType::ObjectFile))
      return module.emitError("the host target cannot emit object files");
    codegen.run(*llvmModule);
  }
  std::error_code ec;
  llvm::raw_fd_ostream output(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return module.emitError("cannot open '") << path << "': " << ec.message();
  output << buffer;
  output.close();
  if (!output.has_error())
    return success();
  ec = output.error();
  output.clear_error();
  // A partial object is removed; a device or other special file is not.
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(path, status, /*follow=*/false) &&
      llvm::sys::fs::is_regular_file(status))
    llvm::sys::fs::remove(path);
  return module.emitError("cannot write '") << path << "': " << ec.message();
}
