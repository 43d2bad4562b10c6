//===- EmitBinary.cpp - Write gpu.binary objects to files -------*- C++ -*-===//

#include "tile/Host/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::tile {
#define GEN_PASS_DEF_EMITBINARY
#include "tile/Host/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
struct EmitBinaryPass : public tile::impl::EmitBinaryBase<EmitBinaryPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        // AMD objects (#rocdl.target) are code objects and GCN assembly.
        bool amd = isa<ROCDL::ROCDLTargetAttr>(object.getTarget());
        StringRef ext = amd ? "hsaco" : "cubin";
        if (object.getFormat() == gpu::CompilationTarget::Assembly)
          ext = amd ? "s" : "ptx";
        else if (object.getFormat() == gpu::CompilationTarget::Fatbin)
          ext = "fatbin";
        else if (object.getFormat() == gpu::CompilationTarget::Offload)
          ext = "bc";
        std::string path = (prefix + binary.getSymName() + "." + ext).str();
        std::string error;
        auto file = openOutputFile(path, &error);
        if (!file) {
          binary.emitError() << "cannot write '" << path << "': " << error;
          return signalPassFailure();
        }
        file->os() << object.getObject().getValue();
        file->keep();
      }
    });
  }
};
} // namespace
