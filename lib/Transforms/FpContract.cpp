//===- FpContract.cpp - Fused multiply-adds in kernels ---------*- C++ -*-===//
//
// `tile-fp-contract`: floating-point `arith` ops inside tile kernels get the
// `contract` fast-math flag, which lets the backends fuse a multiply and an
// add into one fused multiply-add (nvcc's `--fmad=true` default). Other
// flags an op carries are kept; host code is not touched.
//
//===----------------------------------------------------------------------===//

#include "tile/Transforms/Passes.h"

#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tile {
#define GEN_PASS_DEF_FPCONTRACT
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct FpContractPass : public tile::impl::FpContractBase<FpContractPass> {
  void runOnOperation() override {
    getOperation().walk([](KernelOp kernel) {
      kernel.walk([](arith::ArithFastMathInterface op) {
        arith::FastMathFlagsAttr flags = op.getFastMathFlagsAttr();
        arith::FastMathFlags value =
            flags ? flags.getValue() : arith::FastMathFlags::none;
        if (bitEnumContainsAll(value, arith::FastMathFlags::contract))
          return;
        op->setAttr(
            op.getFastMathAttrName(),
            arith::FastMathFlagsAttr::get(
                op->getContext(), value | arith::FastMathFlags::contract));
      });
    });
  }
};
} // namespace
