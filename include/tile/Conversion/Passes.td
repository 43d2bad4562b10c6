//===- Passes.td - Tile conversion passes ------------------*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToGPU : Pass<"convert-tile-to-gpu", "ModuleOp"> {
  let summary = "Outline lowered tile kernels into gpu.func and launch them";
  let description = [{
    Runs after `tile-lower-ops`. Each `tile.kernel` becomes a `gpu.func`
    (marked `gpu.kernel`, with its thread count as `known_block_size`) named
    after the kernel, in a `gpu.module` named `<kernel>_module`, and is
    replaced by a `gpu.launch_func` with the kernel's grid, its threads and
    its dynamic shared memory (`tile.shared_memory_bytes`).

    Kernel ABI: the kernel's parameters are the arguments of the enclosing
    function that the kernel uses, in argument order (memrefs as MLIR memref
    descriptors). Side-effect-free values computed from them above the
    kernel (constants, sizes, index arithmetic) are recomputed inside it; a
    kernel that uses any other value defined outside it is rejected.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def AttachGPUTarget : Pass<"tile-attach-gpu-target", "ModuleOp"> {
  let summary = "Attach the serialization target of the module's #tile.target "
                "to its gpu.modules";
  let description = [{
    Reads the module's `#tile.target` and attaches the matching upstream
    serialization target to every `gpu.module` (`#nvvm.target` with the
    chip and its `+ptxNN` feature on NVIDIA), as `nvvm-attach-target` would
    with the same options, so that `gpu-module-to-binary` compiles for the
    chip every other pass assumed. Chips without a code generator here are
    an error.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"optLevel", "opt-level", "int", /*default=*/"3",
           "LLVM optimization level of the device code">,
    ListOption<"linkLibs", "link", "std::string",
               "Bitcode files to link into the device code (e.g. libdevice)">
  ];
}

def EmitBinary : Pass<"tile-emit-binary", "ModuleOp"> {
  let summary = "Write the objects of gpu.binary ops to files";
  let description = [{
    Writes the object (cubin, PTX or fatbin) of every `gpu.binary` to
    `<prefix><binary name>.<ext>`, where `ext` is `cubin`, `ptx` or
    `fatbin` following the object's format. The IR is left unchanged.
  }];
  let options = [
    Option<"prefix", "prefix", "std::string", /*default=*/"\"\"",
           "Path prefix of the written files">
  ];
}

#endif // TILE_CONVERSION_PASSES_TD
