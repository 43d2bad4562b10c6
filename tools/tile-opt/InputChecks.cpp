//===- InputChecks.cpp - Checks tile-opt runs before MLIR sees input ------===//

#include "InputChecks.h"

#include "tile/Dialect/ParserGuards.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

using namespace llvm;

namespace tile_opt {

bool reportUnparsableDenseArrays(const MemoryBuffer &buffer, raw_ostream &os) {
  return mlir::tile::findUnparsableDenseArrays(
      buffer.getBuffer(),
      [&](unsigned line, unsigned column, StringRef message) {
        os << buffer.getBufferIdentifier() << ":" << line << ":" << column
           << ": error: " << message << "\n";
      });
}

namespace {
struct CheckDimIndicesPass
    : public mlir::PassWrapper<CheckDimIndicesPass, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckDimIndicesPass)
  StringRef getArgument() const override {
    return "tile-opt-check-dim-indices";
  }
  StringRef getDescription() const override {
    return "Reject memref.dim ops with a constant index out of range";
  }
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](mlir::memref::DimOp dim) {
      std::optional<int64_t> index = dim.getConstantIndex();
      auto type = dyn_cast<mlir::MemRefType>(dim.getSource().getType());
      if (index && type && (*index < 0 || *index >= type.getRank())) {
        dim.emitOpError("index ") << *index << " is out of range for a rank-"
                                  << type.getRank() << " memref";
        failed = true;
      }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<mlir::Pass> createCheckDimIndicesPass() {
  return std::make_unique<CheckDimIndicesPass>();
}

} // namespace tile_opt
