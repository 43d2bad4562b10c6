//===- NVIDIATargetInfo.h - NVIDIA sm_80 / sm_90 targets --------*- C++ -*-===//
//
// The NVIDIA implementation of `TargetInfo`. sm_80-class chips use
// `mma.sync`, `ldmatrix` and `cp.async`; sm_90a adds tensor copies (TMA)
// completed on mbarriers, tensor stores, clusters, asynchronous `wgmma`
// and `setmaxnreg`. Each instruction family has its own file in this
// folder:
//
//   Barriers.cpp  block and named barriers, shuffles, register budgets,
//                 grid dependency control
//   CpAsync.cpp   the asynchronous copy engine (cp.async groups)
//   Tma.cpp       tensor maps, tensor copies and stores, mbarriers,
//                 clusters
//   LdMatrix.cpp  shared <-> register fragment loads and stores (ldmatrix,
//                 stmatrix)
//   NVIDIATargetInfo.cpp  the factory; which MMA family computes a gemm
//   MmaSync.cpp   mma.sync selection, operand layouts and emission
//   Wgmma.cpp     wgmma selection, descriptors and emission (the same
//                 four leaves)
//   AsyncMma.cpp  wgmma's wait, register need and promotion span
//   Layouts.cpp   shared-tile layouts for the MMA operands
//   Conversions.cpp  conversions LLVM has no types for (8-bit floats)
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TARGET_NVIDIA_NVIDIATARGETINFO_H
#define TILE_LIB_TARGET_NVIDIA_NVIDIATARGETINFO_H

#include "tile/Target/TargetInfo.h"

namespace mlir::tile::nvidia {

class NVIDIATargetInfo : public TargetInfo,
                         public AsyncCopyInfo,
                         public TensorCopyInfo,
                         public ClusterInfo,
                         public DependentLaunchInfo,
                         public AsyncMmaInfo,
                         public NamedBarrierInfo,
                         public RegisterBudgetInfo {
public:
  using TargetInfo::TargetInfo;

  // The abilities of the chip (sm_80: asynchronous copies and named
  // barriers; sm_90: tensor copies and clusters too; sm_90a: asynchronous
  // MMA and register budgets too).
  const AsyncCopyInfo *asyncCopies() const override {
    return chip->asyncCopy ? this : nullptr;
  }
  const TensorCopyInfo *tensorCopies() const override {
    return chip->tma ? this : nullptr;
  }
  const ClusterInfo *clusters() const override {
    return chip->tma ? this : nullptr;
  }
  // Grid dependency control (`griddepcontrol`) came with sm_90, as tensor
  // copies did.
  const DependentLaunchInfo *dependentLaunch() const override {
    return chip->tma ? this : nullptr;
  }
  const AsyncMmaInfo *asyncMma() const override {
    return chip->wgmma ? this : nullptr;
  }
  const NamedBarrierInfo *namedBarriers() const override {
    return chip->namedBarriers ? this : nullptr;
  }
  const RegisterBudgetInfo *registerBudgets() const override {
    return chip->setMaxNReg ? this : nullptr;
  }

  // NVIDIATargetInfo.cpp: which family computes a gemm.
  FailureOr<MmaAttr> selectMma(GemmOp op, int64_t numThreads) const override;
  LogicalResult verifyMma(GemmOp op, MmaAttr mma,
                          int64_t numThreads) const override;
  MmaLayouts getMmaLayouts(GemmOp op, MmaAttr mma) const override;
  LogicalResult emitGemm(OpBuilder &b, Location loc,
                         const GemmEmission &g) const override;
  bool isAsync(MmaAttr mma) const override;
  // AsyncMma.cpp
  void emitMmaWait(OpBuilder &b, Location loc, int64_t pending) const override;
  int64_t getInstructionRegisters(GemmOp gemm, MmaAttr mma) const override;
  int64_t getPromotionSpan(GemmOp gemm, MmaAttr mma) const override;
  MmaAttr narrowForPromotion(GemmOp gemm, MmaAttr mma) const override;

  // Barriers.cpp
  void emitBarrier(OpBuilder &b, Location loc,
                   BarrierScope scope) const override;
  void emitWarpSync(OpBuilder &b, Location loc) const override;
  Value emitOpaqueCopy(OpBuilder &b, Location loc, Value v) const override;
  Value emitDynamicSharedAddress(OpBuilder &b, Location loc,
                                 Value address) const override;
  void emitTurnWait(OpBuilder &b, Location loc, Value id,
                    int64_t numThreads) const override;
  void emitTurnPass(OpBuilder &b, Location loc, Value id,
                    int64_t numThreads) const override;
  void annotateKernelFunc(Operation *func, KernelOp kernel) const override;
  void emitDependentLaunchWait(OpBuilder &b, Location loc) const override;
  void emitDependentLaunchSignal(OpBuilder &b, Location loc) const override;
  int64_t getNumNamedBarriers() const override { return 15; }
  // CUTLASS's budget for one consumer warpgroup; a 64 x 256 f32 accumulator
  // slab takes 128 registers of the 168.
  int64_t getMaxConsumerBudget() const override { return 240; }
  int64_t getMinConsumerBudget() const override { return 168; }
  void emitRegisterBudget(OpBuilder &b, Location loc, int64_t registers,
                          int64_t entryRegisters) const override;

  // CpAsync.cpp
  void emitAsyncCopy(OpBuilder &b, Location loc, Value dst, Value dstIndex,
                     Value src, ValueRange srcIndices, int64_t elements,
                     int64_t elementBits, Value count) const override;
  void emitAsyncCommit(OpBuilder &b, Location loc) const override;
  void emitAsyncWait(OpBuilder &b, Location loc,
                     int64_t pending) const override;
  void emitAsyncCopyArrive(OpBuilder &b, Location loc,
                           Value addr) const override;

  // Tma.cpp
  int64_t getMaxBoxExtent() const override { return 256; }
  // Strides below 2^40 bytes; extents that i32 box coordinates reach.
  int64_t getMaxStrideBytes() const override { return int64_t(1) << 40; }
  int64_t getMaxTensorExtent() const override { return (int64_t(1) << 31) - 1; }
  void emitMbarrierInit(OpBuilder &b, Location loc, Value addr,
                        int64_t arrivals) const override;
  void emitMbarrierInitFence(OpBuilder &b, Location loc) const override;
  void emitMbarrierArrive(OpBuilder &b, Location loc,
                          Value addr) const override;
  void emitMbarrierArriveExpectTx(OpBuilder &b, Location loc, Value addr,
                                  int64_t bytes) const override;
  void emitMbarrierWait(OpBuilder &b, Location loc, Value addr,
                        Value parity) const override;
  Value emitTensorMap(OpBuilder &b, Location loc, Value tensor,
                      ArrayRef<int64_t> box,
                      int64_t swizzleBytes) const override;
  void emitTensorCopy(OpBuilder &b, Location loc, Value dst, Value map,
                      ValueRange coords, Value mbar,
                      Value multicastMask) const override;
  Value emitClusterRank(OpBuilder &b, Location loc) const override;
  void emitClusterBarrier(OpBuilder &b, Location loc) const override;
  void emitRemoteMbarrierArrive(OpBuilder &b, Location loc, Value addr,
                                Value rank) const override;
  void emitTensorStore(OpBuilder &b, Location loc, Value src, Value map,
                       ValueRange coords) const override;
  void emitTensorStoreCommit(OpBuilder &b, Location loc) const override;
  void emitTensorStoreWait(OpBuilder &b, Location loc, int64_t pending,
                           bool readOnly) const override;
  void emitAsyncProxyFence(OpBuilder &b, Location loc) const override;

  // Conversions.cpp
  FailureOr<Value> emitFloat8Truncate(OpBuilder &b, Location loc, Value x,
                                      FloatType type) const override;

  // LdMatrix.cpp
  LogicalResult emitSharedToRegisters(OpBuilder &b, Location loc,
                                      const SharedOperand &src,
                                      const RegisterOperand &dst,
                                      Value tid) const override;
  LogicalResult emitRegistersToShared(OpBuilder &b, Location loc,
                                      const LinearLayout &layout,
                                      ArrayRef<int64_t> firsts,
                                      function_ref<Value(int64_t)> value,
                                      function_ref<Value(Value, Value)> pointer,
                                      Value tid) const override;
};

// MmaSync.cpp
/// The mma.sync choice for `op` over `numThreads` threads; diagnoses a gemm
/// mma.sync cannot compute.
FailureOr<MmaAttr> selectMmaSync(GemmOp op, int64_t numThreads,
                                 StringRef chipName, int64_t warpSize);
/// Diagnoses an mma.sync choice the gemm or the thread count does not allow.
LogicalResult verifyMmaSync(GemmOp op, MmaAttr mma, int64_t numThreads,
                            StringRef chipName, int64_t warpSize);
/// The operand and accumulator layouts of an mma.sync choice.
MmaLayouts getMmaSyncLayouts(GemmOp op, MmaAttr mma);
/// Emits a verified mma.sync choice: x4 ldmatrix loads of shared operands,
/// one m16n8k* per warp tile and k step.
LogicalResult emitMmaSync(OpBuilder &b, Location loc, const GemmEmission &g,
                          int64_t warpSize);

// Wgmma.cpp
/// K of the wgmma instruction for `op`'s inputs (16, or 32 for 8-bit).
int64_t getWgmmaInstrK(GemmOp op);
/// The wgmma choice for `op` over `numThreads` threads, or null where wgmma
/// cannot compute it (the caller then picks mma.sync).
MmaAttr trySelectWgmma(GemmOp op, int64_t numThreads, int64_t warpSize,
                       int64_t warpgroupSize);
/// Diagnoses a wgmma choice the gemm or the thread count does not allow.
LogicalResult verifyWgmma(GemmOp op, MmaAttr mma, int64_t numThreads,
                          int64_t warpSize, int64_t warpgroupSize);
/// The accumulator layout of a wgmma choice (A and B come from shared
/// memory).
MmaLayouts getWgmmaLayouts(GemmOp op, MmaAttr mma);
/// Emits a verified wgmma choice: descriptors for the swizzled shared
/// operands, one m64nNk16 per 64-row slab and k step, completed before
/// returning.
LogicalResult emitWgmma(OpBuilder &b, Location loc, const GemmEmission &g,
                        int64_t warpgroupSize);

} // namespace mlir::tile::nvidia

#endif // TILE_LIB_TARGET_NVIDIA_NVIDIATARGETINFO_H
