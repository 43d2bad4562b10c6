//===- CpAsync.cpp - NVIDIA asynchronous copies (cp.async) ------*- C++ -*-===//
//
// sm_80+ copies global -> shared without a round trip through registers:
// `cp.async` of 4, 8 or 16 bytes (the 16-byte form bypasses L1), grouped by
// `cp.async.commit_group` and awaited with `cp.async.wait_group N`, or
// tracked by a shared-memory barrier (`cp.async.mbarrier.arrive.noinc`)
// beside tensor copies.
//
//===----------------------------------------------------------------------===//

#include "NVIDIATargetInfo.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::nvidia;

void NVIDIATargetInfo::emitAsyncCopy(OpBuilder &b, Location loc, Value dst,
                                     Value dstIndex, Value src,
                                     ValueRange srcIndices, int64_t elements,
                                     int64_t elementBits, Value count) const {
  nvgpu::DeviceAsyncCopyOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), dst,
      ValueRange{dstIndex}, src, srcIndices, b.getIndexAttr(elements), count,
      elements * elementBits == 128 ? b.getUnitAttr() : UnitAttr());
}

void NVIDIATargetInfo::emitAsyncCommit(OpBuilder &b, Location loc) const {
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

void NVIDIATargetInfo::emitAsyncWait(OpBuilder &b, Location loc,
                                     int64_t pending) const {
  NVVM::CpAsyncWaitGroupOp::create(b, loc, static_cast<int32_t>(pending));
}

void NVIDIATargetInfo::emitAsyncCopyArrive(OpBuilder &b, Location loc,
                                           Value addr) const {
  NVVM::CpAsyncMBarrierArriveOp::create(b, loc, addr, /*noinc=*/true);
}
