//===- tile-consumer.cpp - Use the installed tile-mlir package --*- C++ -*-===//
//
// Parses a small tile kernel with the tile dialect from the installed
// libraries, runs tile-check-resources on it and prints the result.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileDialect.h"
#include "tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

static constexpr const char *kKernel = R"mlir(
func.func @copy(%src: memref<?x?xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel @copy_kernel blocks(%bx) in [%c1] threads(128) {
    %tile = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %src[%bx, %bx], %tile
        : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect, mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);
  // Loading the tile dialect loads the dialects it depends on (arith, gpu,
  // memref, scf) as well.
  context.loadAllAvailableDialects();

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kKernel, &context);
  if (!module) {
    llvm::errs() << "failed to parse the kernel\n";
    return 1;
  }

  mlir::PassManager pm(&context);
  pm.addPass(mlir::tile::createCheckResources());
  if (mlir::failed(pm.run(*module))) {
    llvm::errs() << "tile-check-resources failed\n";
    return 1;
  }
  module->print(llvm::outs());
  return 0;
}
