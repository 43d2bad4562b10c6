//===- OpVerification.cpp - Shared checks of the tile op verifiers --------===//

#include "OpVerification.h"

#include "tile/Dialect/TileOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::detail {
InFlightDiagnostic emitMemoryKindError(Operation *op, StringRef what,
                                       MemRefType type, StringRef expected) {
  return op->emitOpError() << what << " must be in " << expected
                           << " memory, got "
                           << stringifyMemoryKind(getMemoryKind(type))
                           << " memory";
}

bool isFp8(Type type) { return isFloat8(type); }

/// Whether tiles (and the global operands they are copied from and to) may
/// hold elements of `type`: the types the lowering can size, store and
/// convert. Signless i8 to i64, f16, bf16, f32, f64 and the 8-bit floats
/// of `tile.gemm`; i1 (stored as one byte) only in register tiles when
/// `allowI1`. No `index` (no fixed bit width), no sub-byte, wider or
/// non-power-of-two types, no signed/unsigned integers (arith needs
/// signless ones), no tf32/f80/f128 (no NVPTX lowering).
bool isSupportedElementType(Type type, bool allowI1) {
  if (auto integer = dyn_cast<IntegerType>(type)) {
    if (!integer.isSignless())
      return false;
    unsigned width = integer.getWidth();
    return width == 8 || width == 16 || width == 32 || width == 64 ||
           (allowI1 && width == 1);
  }
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isFp8(type);
}

/// Emits an error unless `type`, the element type of `what`, is supported
/// (see isSupportedElementType).
LogicalResult verifyInKernel(Operation *op) {
  if (!op->getParentOfType<KernelOp>())
    return op->emitOpError("must be nested in a tile.kernel (it runs on the "
                           "threads of a block)");
  return success();
}

LogicalResult verifyElementType(Operation *op, StringRef what, Type type,
                                bool allowI1) {
  if (isSupportedElementType(type, allowI1))
    return success();
  if (!type.isIntOrFloat()) {
    InFlightDiagnostic diag =
        op->emitOpError("expects integer or floating-point elements, got ")
        << type;
    if (type.isIndex())
      diag << " (" << what << "): index has no fixed bit width; use i32 or i64";
    else
      diag << " (" << what << ")";
    return diag;
  }
  InFlightDiagnostic diag = op->emitOpError()
                            << what << " has element type " << type
                            << ", which tiles do not support: use i8, i16, "
                               "i32 or i64 (signless), f16, bf16, f32, f64, "
                               "or 8-bit floats (f8E4M3FN, f8E5M2 and their "
                               "FNUZ flavours)";
  if (type.isSignlessInteger(1))
    diag << " (i1 only in fragment and local tiles)";
  return diag;
}

/// Threads that cooperate on `op`: those of the enclosing tile.ws, else the
/// kernel's (at least 1).
int64_t getCooperatingThreadCount(Operation *op) {
  int64_t threads = 0;
  if (auto ws = op->getParentOfType<WsOp>())
    threads = ws.getNumThreads();
  else if (auto kernel = op->getParentOfType<KernelOp>())
    threads = kernel.getThreads();
  return std::max<int64_t>(threads, 1);
}

/// log2 of the element count of `shape` with every dimension padded to a
/// power of two (never overflows).
unsigned getPaddedElementBits(ArrayRef<int64_t> shape) {
  unsigned bits = 0;
  for (int64_t size : shape)
    bits +=
        llvm::Log2_64_Ceil(static_cast<uint64_t>(std::max<int64_t>(size, 1)));
  return bits;
}

/// Verifies that `layout` (if any) fits a tile of `type`.
LogicalResult verifyLayoutFor(Operation *op, LayoutAttrInterface layout,
                              ArrayRef<int64_t> shape, Type elementType,
                              std::optional<bool> distributed) {
  if (!layout)
    return success();
  if (distributed && layout.isDistributed() != *distributed)
    return op->emitOpError()
           << "expects a " << (*distributed ? "distributed" : "memory")
           << " layout, got " << layout;
  return layout.verifyShape(shape, elementType,
                            [&] { return op->emitOpError(); });
}

} // namespace mlir::tile::detail
