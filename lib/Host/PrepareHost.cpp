//===- PrepareHost.cpp - Make kernel-launching functions callable from C --===//
//
// The host side of a compiled module: the functions the user wrote around
// their kernels (`func.func @gemm(%A, %B, %C)`), which compute the grid and
// launch. This pass makes them safe and cheap to call from C: empty grids
// are skipped, arguments are checked before anything is launched, errors go
// to the tile runtime's thread-local error state, and kernels are launched
// on the runtime's current stream without synchronizing.
//
//===----------------------------------------------------------------------===//

#include "tile/Host/Passes.h"

#include "HostArgumentChecks.h"

#include "tile/Dialect/ShapeSpec.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tile {
#define GEN_PASS_DEF_PREPAREHOST
#include "tile/Host/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {

/// The tile runtime's entry points for compiled host code
/// (runtime/include/tile_runtime.h).
constexpr StringLiteral kHostBegin = "tileRtHostBegin";
constexpr StringLiteral kHostArgError = "tileRtHostArgError";
constexpr StringLiteral kHostArgErrorValue = "tileRtHostArgErrorValue";
constexpr StringLiteral kHostFailed = "tileRtHostFailed";
constexpr StringLiteral kHostStream = "tileRtHostStream";
constexpr StringLiteral kHostEnd = "tileRtHostEnd";

/// Declares (once) the runtime function `name` in `module`.
func::FuncOp declareRuntimeFunction(ModuleOp module, StringRef name,
                                    TypeRange inputs, TypeRange results) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto func = func::FuncOp::create(builder, module.getLoc(), name,
                                   builder.getFunctionType(inputs, results));
  func.setPrivate();
  return func;
}

/// The place a host function reports an argument error or gets its name:
/// a NUL-terminated string constant.
class StringPool {
public:
  explicit StringPool(ModuleOp module) : module(module) {}

  Value get(OpBuilder &builder, Location loc, StringRef text) {
    auto &name = names[text];
    if (name.empty()) {
      name = ("__tile_host_str_" + Twine(names.size() - 1)).str();
      while (module.lookupSymbol(name))
        name += "_";
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(module.getBody());
      std::string data = text.str();
      data.push_back('\0');
      auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), data.size());
      LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                             LLVM::Linkage::Internal, name,
                             builder.getStringAttr(data));
    }
    return LLVM::AddressOfOp::create(
        builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), name);
  }

private:
  ModuleOp module;
  llvm::StringMap<std::string> names;
};

/// The fully dynamic strided type of `type`'s rank, element type and memory
/// space, if `type` has a strided layout with something static (a size, a
/// stride or the offset) that the host checks must read from the caller's
/// descriptor; a null type otherwise. Its descriptor has the same C ABI.
MemRefType dynamicArgumentType(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return {};
  if (llvm::all_of(type.getShape(), ShapedType::isDynamic) &&
      llvm::all_of(strides, ShapedType::isDynamic) &&
      ShapedType::isDynamic(offset))
    return {};
  int64_t rank = type.getRank();
  auto layout =
      StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic,
                             SmallVector<int64_t>(rank, ShapedType::kDynamic));
  return MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                         type.getElementType(), layout, type.getMemorySpace());
}

class PrepareHost : public tile::impl::PrepareHostBase<PrepareHost> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringPool strings(module);
    bool anyFailed = false;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      if (failed(verifyShapeAttrs(func))) {
        anyFailed = true;
        continue;
      }
      if (cInterface && func.isPublic())
        func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      UnitAttr::get(&getContext()));
      SmallVector<gpu::LaunchFuncOp> launches;
      func.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
      if (launches.empty())
        continue;
      for (gpu::LaunchFuncOp launch : launches)
        skipEmptyGrid(launch);
      if (runtime && failed(addRuntimeCalls(func, launches, strings)))
        anyFailed = true;
    }
    if (anyFailed)
      signalPassFailure();
  }

private:
  /// `tile.shape`: one string per dimension of a ranked memref argument.
  LogicalResult verifyShapeAttrs(func::FuncOp func) {
    // The names of the function's dimensions (what "ceil(K/128)" divides).
    llvm::StringSet<> names;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (auto array = func.getArgAttrOfType<ArrayAttr>(i, "tile.shape"))
        for (Attribute entry : array) {
          std::string error;
          auto text = dyn_cast<StringAttr>(entry);
          std::optional<tile::ShapeEntry> parsed =
              text ? tile::parseShapeEntry(text.getValue(), error)
                   : std::nullopt;
          if (parsed && parsed->kind == tile::ShapeEntry::Kind::Name)
            names.insert(parsed->name);
        }
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      Attribute attr = func.getArgAttr(i, "tile.shape");
      if (!attr)
        continue;
      auto type = dyn_cast<MemRefType>(func.getArgument(i).getType());
      auto array = dyn_cast<ArrayAttr>(attr);
      if (!type || !array ||
          array.size() != static_cast<size_t>(type.getRank()) ||
          !llvm::all_of(array, [](Attribute a) { return isa<StringAttr>(a); }))
        return func.emitOpError("argument #")
               << i
               << ": 'tile.shape' must be an array of one string per "
                  "dimension of a ranked memref";
      for (auto [dim, entry] : llvm::enumerate(array)) {
        std::string error;
        std::optional<tile::ShapeEntry> parsed =
            tile::parseShapeEntry(cast<StringAttr>(entry).getValue(), error);
        if (!parsed)
          return func.emitOpError("argument #")
                 << i << ": 'tile.shape' dimension " << dim << " " << error;
        if (parsed->kind == tile::ShapeEntry::Kind::Size &&
            !type.isDynamicDim(dim) && type.getDimSize(dim) != parsed->size)
          return func.emitOpError("argument #")
                 << i << ": 'tile.shape' dimension " << dim << " is "
                 << parsed->size << " but the type's is "
                 << type.getDimSize(dim);
        if (parsed->kind == tile::ShapeEntry::Kind::Quotient &&
            !names.contains(parsed->name))
          return func.emitOpError("argument #")
                 << i << ": 'tile.shape' dimension " << dim
                 << " is derived from '" << parsed->name
                 << "', which names no dimension of the function's arguments";
        if (parsed->bound && !type.isDynamicDim(dim) &&
            type.getDimSize(dim) > *parsed->bound)
          return func.emitOpError("argument #")
                 << i << ": 'tile.shape' dimension " << dim << " is at most "
                 << *parsed->bound << " but the type's is "
                 << type.getDimSize(dim);
      }
    }
    return success();
  }

  /// Wraps `launch` in an scf.if that skips it when a grid or cluster
  /// dimension is not positive.
  void skipEmptyGrid(gpu::LaunchFuncOp launch) {
    if (launch.getAsyncToken())
      return; // its token is used: the launch must stay in place
    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    SmallVector<Value> dims = {launch.getGridSizeX(), launch.getGridSizeY(),
                               launch.getGridSizeZ()};
    if (launch.hasClusterSize())
      dims.append({launch.getClusterSizeX(), launch.getClusterSizeY(),
                   launch.getClusterSizeZ()});
    Value nonEmpty;
    for (Value dim : dims) {
      APInt constant;
      if (matchPattern(dim, m_ConstantInt(&constant)) &&
          constant.isStrictlyPositive())
        continue;
      Value zero = arith::ConstantOp::create(
          builder, loc, builder.getZeroAttr(dim.getType()));
      Value positive = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::sgt, dim, zero);
      nonEmpty = nonEmpty
                     ? arith::AndIOp::create(builder, loc, nonEmpty, positive)
                     : positive;
    }
    if (!nonEmpty)
      return;
    auto ifOp = scf::IfOp::create(builder, loc, nonEmpty,
                                  /*withElseRegion=*/false);
    launch->moveBefore(ifOp.thenBlock()->getTerminator());
  }

  /// Puts the device allocations of `func` (a workspace of tile-split-k:
  /// `gpu.alloc async` / `gpu.dealloc async` on a stream of their own,
  /// `gpu.wait`ed for) in order on the runtime's stream `token` instead, so
  /// that they neither synchronize nor race with the launches around them.
  static void useRuntimeStream(func::FuncOp func, Value token) {
    SmallVector<gpu::WaitOp> waits;
    func.walk([&](gpu::WaitOp wait) { waits.push_back(wait); });
    auto onlyMemory = [](gpu::WaitOp wait) {
      if (Value result = wait.getAsyncToken())
        return wait.getAsyncDependencies().empty() &&
               llvm::all_of(result.getUsers(), [](Operation *user) {
                 return isa<gpu::AllocOp, gpu::DeallocOp>(user);
               });
      return llvm::all_of(wait.getAsyncDependencies(), [](Value dep) {
        return isa_and_present<gpu::AllocOp, gpu::DeallocOp>(
            dep.getDefiningOp());
      });
    };
    SmallVector<gpu::WaitOp> syncs, starts;
    for (gpu::WaitOp wait : waits)
      if (onlyMemory(wait))
        (wait.getAsyncToken() ? starts : syncs).push_back(wait);
    for (gpu::WaitOp wait : syncs)
      wait.erase();
    for (gpu::WaitOp wait : starts) {
      wait.getAsyncToken().replaceAllUsesWith(token);
      wait.erase();
    }
  }

  LogicalResult addRuntimeCalls(func::FuncOp func,
                                ArrayRef<gpu::LaunchFuncOp> launches,
                                StringPool &strings) {
    if (!func.getBody().hasOneBlock())
      return func.emitOpError(
          "launches kernels from more than one block; the host runtime "
          "calls need a single-block function (use structured control flow)");
    for (gpu::LaunchFuncOp launch : launches)
      if (launch.getAsyncObject() || launch.getAsyncToken())
        return launch.emitOpError(
            "is asynchronous; tile-prepare-host launches on the tile "
            "runtime's stream itself (use runtime=false to keep it)");

    auto module = func->getParentOfType<ModuleOp>();
    SmallVector<MemRefType> original;
    if (failed(relaxArgumentTypes(func, module, original)))
      return failure();
    MLIRContext *ctx = &getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = IntegerType::get(ctx, 32);
    auto begin = declareRuntimeFunction(module, kHostBegin, {ptr}, {});
    auto argError =
        declareRuntimeFunction(module, kHostArgError, {ptr, ptr}, {});
    auto argErrorValue =
        declareRuntimeFunction(module, kHostArgErrorValue,
                               {ptr, ptr, IntegerType::get(ctx, 64), ptr}, {});
    auto hostFailed = declareRuntimeFunction(module, kHostFailed, {}, {i32});
    auto hostStream = declareRuntimeFunction(module, kHostStream, {}, {ptr});
    auto end = declareRuntimeFunction(module, kHostEnd, {ptr}, {});

    Block &body = func.getBody().front();
    Location loc = func.getLoc();
    OpBuilder builder = OpBuilder::atBlockBegin(&body);
    Value name = strings.get(builder, loc, func.getSymName());
    func::CallOp::create(builder, loc, begin, ValueRange{name});

    // The argument checks, each reporting its own error.
    auto report = [&](Value bad, const Twine &before, Value value,
                      const Twine &after) {
      auto ifOp = scf::IfOp::create(builder, loc, bad,
                                    /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      if (!value) {
        Value text = strings.get(builder, loc, (before + after).str());
        func::CallOp::create(builder, loc, argError, ValueRange{name, text});
        return;
      }
      Value first = strings.get(builder, loc, before.str());
      Value number = arith::IndexCastOp::create(
          builder, loc, IntegerType::get(ctx, 64), value);
      Value last = strings.get(builder, loc, after.str());
      func::CallOp::create(builder, loc, argErrorValue,
                           ValueRange{name, first, number, last});
    };
    tile::host::checkArguments(func, original, builder, report);

    // Everything after the checks runs only if they all passed.
    Value failed = func::CallOp::create(builder, loc, hostFailed, ValueRange{})
                       .getResult(0);
    Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
    Value ok = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                     failed, zero);
    Operation *terminator = body.getTerminator();
    auto results = func.getResultTypes();
    auto guardIf = scf::IfOp::create(builder, loc, results, ok,
                                     /*withElseRegion=*/true);
    Block *thenBlock = guardIf.thenBlock();
    Block *elseBlock = guardIf.elseBlock();
    // Move the rest of the function into the then-branch.
    auto rest = llvm::make_range(std::next(Block::iterator(guardIf)),
                                 Block::iterator(terminator));
    for (Operation &op : llvm::make_early_inc_range(rest)) {
      if (thenBlock->mightHaveTerminator())
        op.moveBefore(thenBlock->getTerminator());
      else
        op.moveBefore(thenBlock, thenBlock->end());
    }
    {
      OpBuilder::InsertionGuard guard(builder);
      if (thenBlock->mightHaveTerminator())
        thenBlock->getTerminator()->erase();
      builder.setInsertionPointToEnd(thenBlock);
      scf::YieldOp::create(builder, loc, terminator->getOperands());
      if (elseBlock->mightHaveTerminator())
        elseBlock->getTerminator()->erase();
      builder.setInsertionPointToEnd(elseBlock);
      SmallVector<Value> poison;
      for (Type type : results)
        poison.push_back(ub::PoisonOp::create(builder, loc, type));
      scf::YieldOp::create(builder, loc, poison);
    }
    terminator->setOperands(guardIf.getResults());
    castArguments(func, guardIf, original);

    // Launch on the runtime's stream; the call ends with tileRtHostEnd.
    builder.setInsertionPoint(guardIf);
    Value stream = func::CallOp::create(builder, loc, hostStream, ValueRange{})
                       .getResult(0);
    // gpu-to-llvm launches an async launch_func on the stream its token
    // stands for (an !llvm.ptr after conversion), and waits for nothing.
    Type tokenType = gpu::AsyncTokenType::get(ctx);
    Value token =
        UnrealizedConversionCastOp::create(builder, loc, tokenType, stream)
            .getResult(0);
    for (gpu::LaunchFuncOp launch : launches) {
      OpBuilder at(launch);
      // Pointers the host made for the kernel (tensor maps) are null when
      // making them failed, which the runtime has reported: skip the launch.
      Value allMade;
      for (Value operand : launch.getKernelOperands()) {
        if (!isa<LLVM::LLVMPointerType>(operand.getType()))
          continue;
        Value null = LLVM::ZeroOp::create(at, loc, operand.getType());
        Value made = LLVM::ICmpOp::create(at, loc, LLVM::ICmpPredicate::ne,
                                          operand, null);
        allMade =
            allMade ? arith::AndIOp::create(at, loc, allMade, made).getResult()
                    : made;
      }
      if (allMade) {
        auto guard = scf::IfOp::create(at, loc, allMade, false);
        at.setInsertionPointToStart(guard.thenBlock());
      }
      std::optional<gpu::KernelDim3> cluster;
      if (launch.hasClusterSize())
        cluster = launch.getClusterSizeOperandValues();
      gpu::LaunchFuncOp::create(
          at, launch.getLoc(), launch.getKernelAttr(),
          launch.getGridSizeOperandValues(), launch.getBlockSizeOperandValues(),
          launch.getDynamicSharedMemorySize(), launch.getKernelOperands(),
          tokenType, ValueRange{token}, cluster);
      launch.erase();
    }
    useRuntimeStream(func, token);
    builder.setInsertionPoint(terminator);
    func::CallOp::create(builder, loc, end, ValueRange{stream});
    return success();
  }

  /// Gives the memref arguments of `func` with static sizes, strides or
  /// offset their fully dynamic type (dynamicArgumentType), so that the
  /// checks read the caller's descriptor rather than folding to the type's
  /// constants; `original` gets each argument's type before (null where
  /// unchanged). Calls of `func` in the module cast their operands.
  LogicalResult relaxArgumentTypes(func::FuncOp func, ModuleOp module,
                                   SmallVectorImpl<MemRefType> &original) {
    SmallVector<Type> inputs(func.getArgumentTypes());
    original.assign(inputs.size(), MemRefType());
    for (size_t index = 0; index < inputs.size(); ++index)
      if (auto type = dyn_cast<MemRefType>(inputs[index]))
        if (MemRefType relaxed = dynamicArgumentType(type)) {
          original[index] = type;
          inputs[index] = relaxed;
        }
    if (llvm::all_of(original, [](MemRefType t) { return !t; }))
      return success();
    SmallVector<func::CallOp> calls;
    if (auto uses = SymbolTable::getSymbolUses(func, module)) {
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (!call)
          return use.getUser()->emitOpError("uses host function '")
                 << func.getSymName()
                 << "' other than by func.call; tile-prepare-host changes "
                    "its memref argument types to check them";
        calls.push_back(call);
      }
    }
    for (func::CallOp call : calls) {
      OpBuilder builder(call);
      for (auto [index, type] : llvm::enumerate(inputs))
        if (original[index])
          call->setOperand(index,
                           memref::CastOp::create(builder, call.getLoc(), type,
                                                  call.getOperand(index)));
    }
    for (auto [arg, type] : llvm::zip(func.getArguments(), inputs))
      arg.setType(type);
    func.setType(
        FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
    return success();
  }

  /// After the checks, in the branch that runs when they passed: the
  /// arguments relaxArgumentTypes changed get back their type, a
  /// memref.reinterpret_cast with the type's static sizes, strides and
  /// offset (which the checks compared with the descriptor's) and the
  /// descriptor's dynamic ones.
  void castArguments(func::FuncOp func, scf::IfOp guardIf,
                     ArrayRef<MemRefType> original) {
    OpBuilder builder = OpBuilder::atBlockBegin(guardIf.thenBlock());
    Location loc = func.getLoc();
    for (auto [arg, type] : llvm::zip(func.getArguments(), original)) {
      if (!type)
        continue;
      SmallVector<int64_t> strides;
      int64_t offset;
      (void)type.getStridesAndOffset(strides, offset);
      auto metadata =
          memref::ExtractStridedMetadataOp::create(builder, loc, arg);
      auto mixed = [&](int64_t constant, Value value) -> OpFoldResult {
        if (ShapedType::isDynamic(constant))
          return value;
        return builder.getIndexAttr(constant);
      };
      SmallVector<OpFoldResult> sizeList, strideList;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        sizeList.push_back(mixed(type.getDimSize(d), metadata.getSizes()[d]));
        strideList.push_back(mixed(strides[d], metadata.getStrides()[d]));
      }
      auto typed = memref::ReinterpretCastOp::create(
          builder, loc, type, arg, mixed(offset, metadata.getOffset()),
          sizeList, strideList);
      Operation *readers[] = {metadata.getOperation(), typed.getOperation()};
      arg.replaceUsesWithIf(typed.getResult(), [&](OpOperand &use) {
        Operation *user = use.getOwner();
        return !llvm::is_contained(readers, user) &&
               guardIf->isProperAncestor(user);
      });
    }
  }
};

} // namespace
