//===- Barriers.cpp - NVIDIA barriers and register budgets ------*- C++ -*-===//
//
// Block-wide barriers are `bar.sync 0` (through `gpu.barrier`); barriers
// over a warp-aligned subset of the block, such as the warpgroups of a
// `tile.ws` region, use one of the 15 other hardware barriers with the
// participating thread count (`bar.sync id, N`). Register budgets are
// `setmaxnreg` (sm_90a), an increase or a decrease from the count every
// warp starts with (TargetInfo::getEntryRegisters). A kernel launched as a
// programmatic dependent (sm_90) waits for the kernel before at its entry
// and lets the next launch at its end (`griddepcontrol`).
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

void NVIDIATargetInfo::emitBarrier(OpBuilder &b, Location loc,
                                   BarrierScope scope) const {
  if (scope.isBlock()) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  assert(scope.id > 0 && scope.id < 16 && scope.numThreads % 32 == 0 &&
         "named barriers are 1..15 over whole warps");
  Value id = arith::ConstantIntOp::create(b, loc, scope.id, 32);
  Value count = arith::ConstantIntOp::create(b, loc, scope.numThreads, 32);
  NVVM::BarrierOp::create(b, loc, TypeRange{}, id, count,
                          NVVM::BarrierReductionAttr(), Value());
}

// Turns: `bar.sync id, n` waits for the previous warpgroup's
// `bar.arrive id, n` (n counts both warpgroups' threads).
void NVIDIATargetInfo::emitTurnWait(OpBuilder &b, Location loc, Value id,
                                    int64_t numThreads) const {
  Value count = arith::ConstantIntOp::create(b, loc, numThreads, 32);
  NVVM::BarrierOp::create(b, loc, TypeRange{}, id, count,
                          NVVM::BarrierReductionAttr(), Value());
}

void NVIDIATargetInfo::emitTurnPass(OpBuilder &b, Location loc, Value id,
                                    int64_t numThreads) const {
  Value count = arith::ConstantIntOp::create(b, loc, numThreads, 32);
  NVVM::BarrierArriveOp::create(b, loc, id, count);
}

void NVIDIATargetInfo::emitWarpSync(OpBuilder &b, Location loc) const {
  NVVM::SyncWarpOp::create(b, loc,
                           arith::ConstantIntOp::create(b, loc, -1, 32));
}

Value NVIDIATargetInfo::emitOpaqueCopy(OpBuilder &b, Location loc,
                                       Value v) const {
  // A move with side effects: LLVM neither merges it nor hoists it, nor
  // what is computed from it, out of the loop it is in.
  return LLVM::InlineAsmOp::create(
             b, loc, v.getType(), ValueRange{v}, "mov.b32 $0, $1;", "=r,r",
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             ArrayAttr())
      .getResult(0);
}

Value NVIDIATargetInfo::emitDynamicSharedAddress(OpBuilder &b, Location loc,
                                                 Value address) const {
  // Only chips with tensor copies name their dynamic shared memory.
  if (!tensorCopies())
    return {};
  // The symbol in the instruction itself, which ptxas treats as a constant.
  // `address` is an operand the text does not read: it keeps the memory's
  // declaration alive. Side effects keep LLVM from hoisting or merging the
  // move.
  return LLVM::InlineAsmOp::create(
             b, loc, b.getI32Type(), ValueRange{address},
             ("mov.u32 $0, " + kDynamicSharedSymbol + ";").str(), "=r,r",
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             ArrayAttr())
      .getResult(0);
}

void NVIDIATargetInfo::emitRegisterBudget(OpBuilder &b, Location loc,
                                          int64_t registers,
                                          int64_t entryRegisters) const {
  // Every warp starts with the entry count; a budget above it is an
  // increase, one below a decrease (verifyKernel checked that the
  // increases fit in what the decreases free).
  if (registers == entryRegisters)
    return;
  NVVM::SetMaxRegisterOp::create(b, loc, static_cast<int32_t>(registers),
                                 registers > entryRegisters
                                     ? NVVM::SetMaxRegisterAction::increase
                                     : NVVM::SetMaxRegisterAction::decrease);
}

void NVIDIATargetInfo::annotateKernelFunc(Operation *func,
                                          KernelOp kernel) const {
  // `.minnctapersm N` makes ptxas allocate the registers of N blocks at
  // launch (getEntryRegisters). Register budgets are relative to that
  // count, so a kernel with budgets needs it even for one block: without
  // it ptxas allocates what the code uses when that is less (109
  // registers for FlashAttention with D = 64) and drops every
  // `setmaxnreg` ("unable to determine register count at entry").
  auto blocks = kernel->getAttrOfType<IntegerAttr>(
      TileDialect::kBlocksPerMultiprocessorAttrName);
  int64_t count = blocks ? blocks.getInt() : 1;
  // (Budgets are `tile.ws ... registers(N)` before tile-lower-ops, and
  // the `setmaxnreg` they lowered to after.)
  WalkResult found = kernel->walk([](Operation *op) {
    auto ws = dyn_cast<WsOp>(op);
    if ((ws && ws.getRegisters()) || isa<NVVM::SetMaxRegisterOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  bool budgets = chip->setMaxNReg && found.wasInterrupted();
  if (count > 1 || budgets)
    func->setAttr(
        NVVM::NVVMDialect::getMinctasmAttrName(),
        IntegerAttr::get(IntegerType::get(func->getContext(), 32), count));
}

void NVIDIATargetInfo::emitDependentLaunchWait(OpBuilder &b,
                                               Location loc) const {
  // Returns once the kernel before has completed and flushed its memory (at
  // once where the launch was not programmatic).
  NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
}

void NVIDIATargetInfo::emitDependentLaunchSignal(OpBuilder &b,
                                                 Location loc) const {
  NVVM::GriddepcontrolOp::create(b, loc,
                                 NVVM::GridDepActionKind::launch_dependents);
}
