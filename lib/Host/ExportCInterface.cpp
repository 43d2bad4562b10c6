//===- ExportCInterface.cpp - C interfaces under the functions' names -----===//
//
// convert-func-to-llvm gives a function marked llvm.emit_c_interface a
// wrapper `_mlir_ciface_f` that takes pointers to memref descriptors, next
// to `f` itself, whose memref arguments are expanded into five or more
// scalars each. A C host wants the former under the function's name: `f`
// becomes the internal `_mlir_tile_expanded_f`, and a new `f` forwards to
// the wrapper, which keeps its upstream name for the ExecutionEngine.
// Private functions with a body become internal (not exported). C has no
// portable 16-bit float argument type: the exported `f` takes f16 and bf16
// scalars as their bits (uint16_t in the C header) and bitcasts them.
//
//===----------------------------------------------------------------------===//

#include "tile/Host/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tile {
#define GEN_PASS_DEF_EXPORTCINTERFACE
#include "tile/Host/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

constexpr StringLiteral kWrapperPrefix = "_mlir_ciface_";
constexpr StringLiteral kExpandedPrefix = "_mlir_tile_expanded_";

/// Where the host function reports through the tile runtime (its
/// argument checks declare `tileRtHostBegin` and `tileRtHostArgError`) and
/// returns nothing: a null pointer where `exported` takes a memref
/// descriptor is such an error, before the wrapper reads the descriptor.
/// Leaves `builder` in the block that continues with valid pointers.
void checkDescriptorPointers(OpBuilder &builder, SymbolTable &symbols,
                             LLVM::LLVMFuncOp exported, StringRef name) {
  auto begin = symbols.lookup<LLVM::LLVMFuncOp>("tileRtHostBegin");
  auto argError = symbols.lookup<LLVM::LLVMFuncOp>("tileRtHostArgError");
  if (!begin || !argError ||
      !isa<LLVM::LLVMVoidType>(exported.getFunctionType().getReturnType()))
    return;
  Location loc = exported.getLoc();
  auto cString = [&](const Twine &global, const Twine &text) {
    std::string data = (text + Twine('\0')).str();
    return LLVM::createGlobalString(loc, builder, global.str(), data,
                                    LLVM::Linkage::Internal);
  };
  for (BlockArgument arg : exported.getArguments()) {
    if (!isa<LLVM::LLVMPointerType>(arg.getType()))
      continue;
    Block *current = builder.getInsertionBlock();
    Block *valid = current->splitBlock(builder.getInsertionPoint());
    Block *null = builder.createBlock(valid);
    builder.setInsertionPointToEnd(current);
    Value zero = LLVM::ZeroOp::create(builder, loc, arg.getType());
    Value isNull =
        LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq, arg, zero);
    LLVM::CondBrOp::create(builder, loc, isNull, null, valid);
    builder.setInsertionPointToStart(null);
    std::string prefix =
        ("__tile_null_" + name + "_" + Twine(arg.getArgNumber())).str();
    Value function = cString(prefix + "_function", name);
    Value message = cString(prefix + "_message",
                            "argument #" + Twine(arg.getArgNumber()) +
                                " is a null pointer, not a memref descriptor");
    LLVM::CallOp::create(builder, loc, begin, ValueRange{function});
    LLVM::CallOp::create(builder, loc, argError, ValueRange{function, message});
    LLVM::ReturnOp::create(builder, loc, ValueRange{});
    builder.setInsertionPointToStart(valid);
  }
}

class ExportCInterface
    : public tile::impl::ExportCInterfaceBase<ExportCInterface> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto wrapper : llvm::to_vector(module.getOps<LLVM::LLVMFuncOp>())) {
      StringRef wrapperName = wrapper.getSymName();
      if (!wrapperName.starts_with(kWrapperPrefix) || wrapper.isExternal())
        continue;
      std::string name = wrapperName.drop_front(kWrapperPrefix.size()).str();
      auto func = symbols.lookup<LLVM::LLVMFuncOp>(name);
      if (!func || func.isExternal() ||
          func.getLinkage() != LLVM::Linkage::External)
        continue;
      std::string expanded = (kExpandedPrefix + name).str();
      if (symbols.lookup(expanded)) {
        func.emitOpError("cannot export its C interface: '")
            << expanded << "' already exists";
        return signalPassFailure();
      }
      // Calls of the function (from the wrapper and elsewhere) follow it.
      if (failed(symbols.rename(func, expanded))) {
        func.emitOpError("cannot rename for its C interface");
        return signalPassFailure();
      }
      // `name` forwards to the wrapper, which keeps its upstream name: the
      // ExecutionEngine's invokePacked looks for `_mlir_ciface_<name>`.
      OpBuilder builder(wrapper);
      builder.setInsertionPointAfter(wrapper);
      LLVM::LLVMFunctionType wrapperType = wrapper.getFunctionType();
      auto asBits = [&](Type type) -> Type {
        return isa<Float16Type, BFloat16Type>(type) ? builder.getI16Type()
                                                    : type;
      };
      SmallVector<Type> params =
          llvm::map_to_vector(wrapperType.getParams(), asBits);
      Type result = asBits(wrapperType.getReturnType());
      auto exported = LLVM::LLVMFuncOp::create(
          builder, wrapper.getLoc(), name,
          LLVM::LLVMFunctionType::get(result, params, wrapperType.isVarArg()));
      Block *entry = exported.addEntryBlock(builder);
      builder.setInsertionPointToStart(entry);
      checkDescriptorPointers(builder, symbols, exported, name);
      SmallVector<Value> operands;
      for (auto [arg, type] :
           llvm::zip(entry->getArguments(), wrapperType.getParams()))
        operands.push_back(
            arg.getType() == type
                ? Value(arg)
                : LLVM::BitcastOp::create(builder, wrapper.getLoc(), type, arg)
                      .getResult());
      auto call =
          LLVM::CallOp::create(builder, wrapper.getLoc(), wrapper, operands);
      SmallVector<Value> results(call.getResults());
      if (!results.empty() && results[0].getType() != result)
        results[0] = LLVM::BitcastOp::create(builder, wrapper.getLoc(), result,
                                             results[0]);
      LLVM::ReturnOp::create(builder, wrapper.getLoc(), results);
      symbols.insert(exported);
      func.setLinkage(LLVM::Linkage::Internal);
    }
    // Private functions (helpers of the host functions) stay inside the
    // object: convert-func-to-llvm keeps only their visibility attribute,
    // which the LLVM translation does not turn into a linkage.
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func.isPrivate() && !func.isExternal() &&
          func.getLinkage() == LLVM::Linkage::External)
        func.setLinkage(LLVM::Linkage::Internal);
  }
};

} // namespace
