//===- Host.h - Host code generation for compiled modules -------*- C++ -*-===//
//
// What a C program needs to call the functions of a module compiled by
// tile-to-nvvm: a C header declaring them, and the module's host code as a
// native object file (which embeds the GPU binaries and calls the mgpu
// runtime ABI, runtime/include/tile_runtime.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_HOST_HOST_H
#define TILE_TARGET_HOST_HOST_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tile::host {

/// Writes a C header declaring the public functions with a body of
/// `module`, which must still be at the func/memref level (before
/// tile-to-nvvm). Each is declared under its own name with the C interface
/// tile-export-c-interface gives it: memref arguments become pointers to
/// `tile_memref_<rank>d` descriptor structs, index becomes int64_t, iN
/// intN_t, f32 float, f64 double. `guard` names the include guard. Emits an
/// error at the function and fails for a signature C cannot express (16-bit
/// float scalars, memref or multiple results, unranked memrefs).
LogicalResult emitCHeader(ModuleOp module, StringRef guard,
                          llvm::raw_ostream &os);

/// Translates a lowered module (LLVM dialect and gpu.binary ops) to LLVM IR
/// and compiles it for the host (position-independent code, LLVM
/// optimization level `optLevel`, 0 to 3) into an ELF object file at `path`.
/// Emits an error at the module and fails on any problem.
LogicalResult emitObjectFile(ModuleOp module, StringRef path, int optLevel);

} // namespace mlir::tile::host

#endif // TILE_TARGET_HOST_HOST_H
