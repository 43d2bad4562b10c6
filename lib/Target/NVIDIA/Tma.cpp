//===- Tma.cpp - NVIDIA tensor copies and transaction barriers --*- C++ -*-===//
//
// sm_90's bulk tensor copies (TMA: `cp.async.bulk.tensor`) and the shared
// memory barriers that count their completion in bytes (`mbarrier` with
// transaction counts). Barriers and destinations are `!llvm.ptr<3>`
// (shared::cta); the copy instruction addresses shared::cluster, which
// contains the block's own shared memory, so its destination is cast there.
// Tensor maps are made by the host (`nvgpu.tma.create.descriptor`, which
// calls the runtime's `mgpuTensorMapEncodeTiledMemref`) and reach the kernel
// as a pointer to a device copy.
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

static Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

void NVIDIATargetInfo::emitMbarrierInit(OpBuilder &b, Location loc, Value addr,
                                        int64_t arrivals) const {
  NVVM::MBarrierInitOp::create(b, loc, addr, i32Const(b, loc, arrivals),
                               Value());
}

void NVIDIATargetInfo::emitMbarrierInitFence(OpBuilder &b, Location loc) const {
  NVVM::FenceMbarrierInitOp::create(b, loc);
}

void NVIDIATargetInfo::emitMbarrierArrive(OpBuilder &b, Location loc,
                                          Value addr) const {
  NVVM::MBarrierArriveOp::create(b, loc, Type(), addr, Value());
}

void NVIDIATargetInfo::emitMbarrierArriveExpectTx(OpBuilder &b, Location loc,
                                                  Value addr,
                                                  int64_t bytes) const {
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, Type(), addr, i32Const(b, loc, bytes), NVVM::MemScopeKind::CTA,
      /*relaxed=*/false, /*predicate=*/Value());
}

void NVIDIATargetInfo::emitMbarrierWait(OpBuilder &b, Location loc, Value addr,
                                        Value parity) const {
  // The op loops on `mbarrier.try_wait.parity` until the phase completes;
  // 0 ticks leaves the suspend time to the hardware.
  NVVM::MBarrierTryWaitParityOp::create(b, loc, addr, parity,
                                        i32Const(b, loc, 0));
}

static LLVM::LLVMPointerType sharedClusterPointer(OpBuilder &b) {
  return LLVM::LLVMPointerType::get(
      b.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
}

void NVIDIATargetInfo::emitTensorCopy(OpBuilder &b, Location loc, Value dst,
                                      Value map, ValueRange coords, Value mbar,
                                      Value multicastMask) const {
  Value dstCluster =
      LLVM::AddrSpaceCastOp::create(b, loc, sharedClusterPointer(b), dst);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, dstCluster, map, coords, mbar, /*im2colOffsets=*/ValueRange(),
      multicastMask, /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
      /*isCTAOnly=*/false,
      /*group=*/NVVM::CTAGroupKindAttr(), /*predicate=*/Value());
}

Value NVIDIATargetInfo::emitClusterRank(OpBuilder &b, Location loc) const {
  return NVVM::ClusterId::create(b, loc, b.getI32Type());
}

void NVIDIATargetInfo::emitClusterBarrier(OpBuilder &b, Location loc) const {
  // barrier.cluster.arrive (release) and barrier.cluster.wait (acquire).
  NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/UnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/UnitAttr());
}

void NVIDIATargetInfo::emitRemoteMbarrierArrive(OpBuilder &b, Location loc,
                                                Value addr, Value rank) const {
  // mapa: the address of the same barrier in the block of `rank`;
  // mbarrier.arrive.shared::cluster with the default release at CTA scope,
  // as CUTLASS's cluster barriers do: what the arrival orders is the
  // arriving warps' reads of the slot (done: their MMAs completed), and a
  // release at cluster scope costs a cluster-wide fence on every arrival.
  Value remote =
      NVVM::MapaOp::create(b, loc, sharedClusterPointer(b), addr, rank);
  NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(),
                                 NVVM::MemScopeKind::CTA,
                                 /*relaxed=*/false);
}

void NVIDIATargetInfo::emitTensorStore(OpBuilder &b, Location loc, Value src,
                                       Value map, ValueRange coords) const {
  NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
      b, loc, map, src, coords, /*l2CacheHint=*/Value(),
      NVVM::TMAStoreModeAttr::get(b.getContext(), NVVM::TMAStoreMode::TILE),
      /*predicate=*/Value());
}

void NVIDIATargetInfo::emitTensorStoreCommit(OpBuilder &b, Location loc) const {
  NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
}

void NVIDIATargetInfo::emitTensorStoreWait(OpBuilder &b, Location loc,
                                           int64_t pending,
                                           bool readOnly) const {
  NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(pending),
                                       readOnly ? b.getUnitAttr() : UnitAttr());
}

void NVIDIATargetInfo::emitAsyncProxyFence(OpBuilder &b, Location loc) const {
  NVVM::FenceProxyOp::create(
      b, loc,
      NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

Value NVIDIATargetInfo::emitTensorMap(OpBuilder &b, Location loc, Value tensor,
                                      ArrayRef<int64_t> box,
                                      int64_t swizzleBytes) const {
  MLIRContext *ctx = b.getContext();
  auto type = cast<MemRefType>(tensor.getType());
  Type element = type.getElementType();
  if (!element.isF16() && !element.isBF16() && !element.isF32()) {
    // The map's data type follows the element type, and nvgpu's lowering
    // names only unsigned integers and f16, bf16, f32, f64 (8-bit floats
    // and signless integers come out as bf16): the map describes unsigned
    // integers of the element's width, which move the same bits.
    type = MemRefType::get(
        type.getShape(),
        b.getIntegerType(element.getIntOrFloatBitWidth(), /*isSigned=*/false),
        type.getLayout(), type.getMemorySpace());
    tensor =
        UnrealizedConversionCastOp::create(b, loc, type, tensor).getResult(0);
  }
  auto shared = MemRefType::get(
      box, type.getElementType(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  nvgpu::TensorMapSwizzleKind swizzle =
      swizzleBytes == 128  ? nvgpu::TensorMapSwizzleKind::SWIZZLE_128B
      : swizzleBytes == 64 ? nvgpu::TensorMapSwizzleKind::SWIZZLE_64B
      : swizzleBytes == 32 ? nvgpu::TensorMapSwizzleKind::SWIZZLE_32B
                           : nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE;
  auto mapType = nvgpu::TensorMapDescriptorType::get(
      ctx, shared, swizzle, nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  auto unranked =
      UnrankedMemRefType::get(type.getElementType(), type.getMemorySpace());
  Value cast = memref::CastOp::create(b, loc, unranked, tensor);
  SmallVector<Value> dims;
  for (int64_t d : box)
    dims.push_back(arith::ConstantIndexOp::create(b, loc, d));
  Value map = nvgpu::TmaCreateDescriptorOp::create(b, loc, mapType, cast, dims);
  return UnrealizedConversionCastOp::create(
             b, loc, LLVM::LLVMPointerType::get(ctx), map)
      .getResult(0);
}
