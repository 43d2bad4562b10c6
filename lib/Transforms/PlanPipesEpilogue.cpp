//===- PlanPipesEpilogue.cpp - Epilogues one tile late ----------*- C++ -*-===//
//
// Part of tile-plan-pipes: once a gemm's promotion is deferred (`partials`,
// PlanPipesDeferred.cpp), its first K block's MMAs leave the accumulator
// alone, so the previous tile's epilogue can run while they do. Where the
// kernel asks for it (`tile.epilogue_late = true`) the pass checks that the
// persistent tile loop around the gemm allows it (analyzeLateEpilogue) and
// marks the gemm `tile.epilogue_late`; tile-lower-ops moves the epilogue
// (Lowering/LateEpilogue.cpp).
//
//===----------------------------------------------------------------------===//

#include "PlanPipes.h"

#include "tile/Transforms/Epilogue.h"

using namespace mlir;
using namespace mlir::tile;

void plan_pipes::planLateEpilogues(KernelOp kernel) {
  // Not a default: the example's per-tensor and row-wise kernels measured
  // slower with it (docs/perf.md runs 204-206). A version of the kernel
  // in which no gemm promotes one K block late (e.g. without tensor copies)
  // has nothing to ask for.
  auto asked = kernel->getAttrOfType<BoolAttr>(kEpilogueLateAttrName);
  if (!asked || !asked.getValue())
    return;
  SmallVector<GemmOp> candidates;
  kernel.walk([&](GemmOp gemm) {
    if (gemm.getPartials() && gemm.getMmaGroupsInFlight().value_or(0))
      candidates.push_back(gemm);
  });
  Builder b(kernel.getContext());
  for (GemmOp gemm : candidates) {
    LateEpilogue r;
    std::string why = analyzeLateEpilogue(gemm, r);
    // The kernel's versions the compiler made (a last wave's split tiles)
    // may not allow it where the kernel as written does: said, not fatal.
    if (!why.empty()) {
      gemm.emitWarning("tile.epilogue_late ignored for this gemm: ") << why;
      continue;
    }
    gemm->setAttr(kEpilogueLateAttrName, b.getUnitAttr());
  }
}
