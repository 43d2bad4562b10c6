//===- Registration.h - What tile lowering needs registered -----*- C++ -*-===//

#ifndef TILE_PIPELINES_REGISTRATION_H
#define TILE_PIPELINES_REGISTRATION_H

namespace mlir {
class DialectRegistry;
namespace tile {

/// Registers what the tile pipelines need beyond the dialects themselves to
/// serialize kernels: the NVVM (and ROCDL) targets, the translations to LLVM
/// IR, and the convert-to-LLVM interfaces of the dialects lowered kernels
/// use. Shared by tile-opt and the C API so that both compile alike.
void registerTileLoweringInterfaces(DialectRegistry &registry);

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_REGISTRATION_H
