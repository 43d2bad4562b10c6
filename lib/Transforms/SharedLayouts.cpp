//===- SharedLayouts.cpp - Physical layouts of shared tiles ------*- C++
//-*-===//
//
// The last level of tile-layout-inference: every shared tile without a
// layout gets one, the layout its gemm operand reads need (the target's
// choice) or row-major, and the alignment that layout requires.
//
//===----------------------------------------------------------------------===//

#include "SharedLayouts.h"

#include "tile/Dialect/TileOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tile;

/// The gemms reading `value` (or a view of it) as their A or B operand.
static void collectGemmUses(Value value, SmallVectorImpl<SharedGemmUse> &uses) {
  for (Operation *user : value.getUsers()) {
    if (auto gemm = dyn_cast<GemmOp>(user)) {
      if (gemm.getA() == value)
        uses.push_back({gemm, /*isA=*/true});
      if (gemm.getB() == value)
        uses.push_back({gemm, /*isA=*/false});
    }
    if (auto view = dyn_cast<memref::SubViewOp>(user))
      collectGemmUses(view.getResult(), uses);
  }
}

void mlir::tile::assignSharedLayouts(KernelOp kernel, const TargetInfo &target,
                                     bool emitRemarks) {
  MLIRContext *ctx = kernel.getContext();
  Builder b(ctx);
  kernel.walk([&](AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (getMemoryKind(type) != MemoryKind::Shared)
      return;
    auto layout = dyn_cast_or_null<SharedLayoutAttr>(alloc.getLayoutAttr());
    if (!layout) {
      layout = SharedLayoutAttr::get(ctx, 0, 0);
      SmallVector<SharedGemmUse> uses;
      collectGemmUses(alloc.getResult(), uses);
      // Gemm operands get the layout the target's shared -> register reads
      // and the copies filling them need.
      if (!uses.empty() && type.getElementTypeBitWidth() >= 8) {
        SharedLayoutChoice choice = target.chooseGemmOperandLayout(type, uses);
        layout = choice.layout;
        if (emitRemarks && !choice.reason.empty())
          alloc.emitRemark()
              << "shared layout " << layout << ": " << choice.reason;
      }
      alloc.setLayoutAttr(layout);
    }
    int64_t alignment = std::max<int64_t>(alloc.getAlignment().value_or(0),
                                          layout.getRequiredAlignment());
    alloc.setAlignmentAttr(b.getI64IntegerAttr(alignment));
  });
}
