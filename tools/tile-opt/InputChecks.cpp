//===- InputChecks.cpp - Checks tile-opt runs before MLIR sees input ------===//

#include "InputChecks.h"

#include "tile/Dialect/ParserGuards.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

using namespace llvm;

namespace tile_opt {

bool reportParserHazards(const MemoryBuffer &buffer, raw_ostream &os) {
  return mlir::tile::findParserHazards(
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

namespace {
struct VerifyInputPass
    : public mlir::PassWrapper<VerifyInputPass, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifyInputPass)
  StringRef getArgument() const override { return "tile-opt-verify-input"; }
  StringRef getDescription() const override {
    return "Verify the parsed input, first rejecting what upstream verifiers "
           "crash on";
  }
  void runOnOperation() override {
    if (failed(mlir::tile::verifyGuarded(getOperation())))
      return signalPassFailure();
    // Nothing changed: the pass manager need not verify again.
    markAllAnalysesPreserved();
  }
};

struct VerifyRoundtripPass
    : public mlir::PassWrapper<VerifyRoundtripPass, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifyRoundtripPass)
  StringRef getArgument() const override { return "tile-opt-verify-roundtrip"; }
  StringRef getDescription() const override {
    return "Check that the IR prints and parses back to the same IR";
  }
  void runOnOperation() override {
    mlir::Operation *op = getOperation();
    for (bool bytecode : {false, true})
      if (failed(roundtrip(op, bytecode)))
        return signalPassFailure();
    markAllAnalysesPreserved();
  }

  static std::string printGeneric(mlir::Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os,
              mlir::OpPrintingFlags().printGenericOpForm().enableDebugInfo());
    return text;
  }

  /// What MlirOptMain's doVerifyRoundTrip does, in a fresh context (so that
  /// resource handles are not renamed).
  static mlir::LogicalResult roundtrip(mlir::Operation *op, bool bytecode) {
    StringRef kind = bytecode ? "bytecode" : "textual";
    mlir::MLIRContext context(op->getContext()->getDialectRegistry(),
                              mlir::MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(
        op->getContext()->allowsUnregisteredDialects());
    std::string buffer;
    if (bytecode) {
      llvm::raw_string_ostream os(buffer);
      if (failed(mlir::writeBytecodeToFile(op, os)))
        return op->emitOpError("failed to write bytecode, cannot verify "
                               "round-trip");
    } else {
      buffer = printGeneric(op);
    }
    mlir::FallbackAsmResourceMap fallbackResources;
    mlir::ParserConfig config(&context, /*verifyAfterParse=*/true,
                              &fallbackResources);
    mlir::OwningOpRef<mlir::Operation *> parsed =
        mlir::parseSourceString<mlir::Operation *>(buffer, config);
    if (!parsed)
      return op->emitOpError("failed to parse ")
             << kind << " content back, cannot verify round-trip";
    std::string reference = printGeneric(op);
    std::string result = printGeneric(parsed.get());
    if (reference != result)
      return op->emitOpError()
             << kind
             << " round-trip: the module parsed back differs from the "
                "reference:\n<<<<<<reference\n"
             << reference << "\n=====\n"
             << result << "\n>>>>>>parsed back\n";
    return mlir::success();
  }
};

/// Calls `onError` for each error diagnostic in the context of each dialect
/// loaded (every dialect: no required dialect).
class RecordErrorsExtension : public mlir::DialectExtensionBase {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RecordErrorsExtension)
  explicit RecordErrorsExtension(void (*onError)())
      : DialectExtensionBase(/*dialectNames=*/{}), onError(onError) {}

  void apply(mlir::MLIRContext *context,
             MutableArrayRef<mlir::Dialect *> dialects) const override {
    // The builtin dialect loads when the context is made, before the handler
    // that would stop the diagnostics; the others load while parsing. One
    // handler per loaded dialect: a few per context, all alike.
    if (llvm::all_of(dialects, [](mlir::Dialect *dialect) {
          return isa<mlir::BuiltinDialect>(dialect);
        }))
      return;
    void (*callback)() = onError;
    context->getDiagEngine().registerHandler([callback](mlir::Diagnostic &d) {
      if (d.getSeverity() == mlir::DiagnosticSeverity::Error)
        callback();
      // Passed on to the handler that prints.
      return mlir::failure();
    });
  }

  std::unique_ptr<DialectExtensionBase> clone() const override {
    return std::make_unique<RecordErrorsExtension>(*this);
  }

private:
  void (*onError)();
};
} // namespace

std::unique_ptr<mlir::Pass> createVerifyInputPass() {
  return std::make_unique<VerifyInputPass>();
}

std::unique_ptr<mlir::Pass> createVerifyRoundtripPass() {
  return std::make_unique<VerifyRoundtripPass>();
}

void recordParseErrors(mlir::DialectRegistry &registry, void (*onError)()) {
  registry.addExtension(mlir::TypeID::get<RecordErrorsExtension>(),
                        std::make_unique<RecordErrorsExtension>(onError));
}

} // namespace tile_opt
