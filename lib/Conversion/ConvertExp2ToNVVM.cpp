//===- ConvertExp2ToNVVM.cpp - f32 exp2 to ex2.approx.ftz -------*- C++ -*-===//
//
// tile-convert-exp2-to-nvvm: the f32 math.exp2 of NVIDIA gpu.modules as the
// NVVM intrinsic llvm.nvvm.ex2.approx.ftz.f32 (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTEXP2TONVVM
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
struct ConvertExp2ToNVVMPass
    : public tile::impl::ConvertExp2ToNVVMBase<ConvertExp2ToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<math::Exp2Op> exp2s;
    getOperation().walk([&](gpu::GPUModuleOp kernels) {
      kernels.walk([&](math::Exp2Op exp2) {
        if (exp2.getType().isF32())
          exp2s.push_back(exp2);
      });
    });
    IRRewriter rewriter(&getContext());
    for (math::Exp2Op exp2 : exp2s) {
      rewriter.setInsertionPoint(exp2);
      auto call = LLVM::CallIntrinsicOp::create(
          rewriter, exp2.getLoc(), exp2.getType(),
          rewriter.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"),
          ValueRange{exp2.getOperand()});
      rewriter.replaceOp(exp2, call.getResults());
    }
  }
};
} // namespace
