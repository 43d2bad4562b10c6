//===- Host.h - Host code generation for compiled modules -------*- C++ -*-===//
//
// What a C program needs to call the functions of a module compiled by
// tile-to-nvvm: a C header declaring them, and the module's host code as a
// native object file (which embeds the GPU binaries and calls the mgpu
// runtime ABI, runtime/include/tile_runtime.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_HOST_HOST_H
#define TILE_HOST_HOST_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tile::host {

/// Writes a C header declaring the public functions with a body of
/// `module`, which must still be at the func/memref level (before
/// tile-to-nvvm). Each is declared under its own name with the C interface
/// tile-export-c-interface gives it: memref arguments become pointers to
/// `tile_memref_<rank>d` descriptor structs, index becomes int64_t, iN
/// intN_t, f32 float, f64 double, f16 and bf16 uint16_t (their bits:
/// tileRtFloatToHalf, tileRtFloatToBF16). `guard` names the include guard.
/// Emits an error at the function and fails for a signature C cannot
/// express (memref or multiple results, unranked memrefs).
LogicalResult emitCHeader(ModuleOp module, StringRef guard,
                          llvm::raw_ostream &os);

/// Writes a JSON table of the public functions with a body of `module`
/// (still at the func/memref level), for callers that do not parse MLIR
/// (python/tile_mlir):
///   {"version": 1, "functions": [{"name": "gemm", "result": null,
///     "args": [{"name": "A", "kind": "memref", "element": "bf16",
///               "shape": [null, 64], "dims": ["M", "K"]},
///              {"name": "alpha", "kind": "scalar", "type": "f32"}]}]}
/// `shape` holds the static sizes (null where dynamic), `dims` the
/// argument's `tile.shape` names when it has them (and `bounds` their upper
/// bounds, null where none, when one has a bound: "N<=4096"), `element` and
/// `type` the MLIR spelling of the type. Argument names are the C header's.
/// Emits an error at the function and fails for a signature the table cannot
/// describe (several results, unranked memrefs).
LogicalResult emitSignatures(ModuleOp module, llvm::raw_ostream &os);

/// Translates a lowered module (LLVM dialect and gpu.binary ops) to LLVM IR
/// and compiles it for the host (position-independent code, LLVM
/// optimization level `optLevel`, 0 to 3) into an ELF object file at `path`.
/// Emits an error at the module and fails on any problem.
LogicalResult emitObjectFile(ModuleOp module, StringRef path, int optLevel);

} // namespace mlir::tile::host

#endif // TILE_HOST_HOST_H
