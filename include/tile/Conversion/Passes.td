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

    A kernel with `tile.dependent_launch = true` starts with the target's
    wait for the kernel before (on NVIDIA: `griddepcontrol.wait`), before
    anything else, and ends with its signal that the next kernel may launch
    (`griddepcontrol.launch_dependents`); its `gpu.module` defines the i32
    global `__tile_dependent_launch`, by which the runtime knows to launch
    it as a programmatic dependent.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def AttachGPUTarget : Pass<"tile-attach-gpu-target", "ModuleOp"> {
  let summary = "Attach the serialization target of the module's #tile.target "
                "to its gpu.modules";
  let description = [{
    Reads the module's `#tile.target` and attaches the matching upstream
    serialization target to every `gpu.module` (`#nvvm.target` with the
    chip and its `+ptxNN` feature on NVIDIA; `#rocdl.target` with the chip
    and 64-lane waves on AMD CDNA), as `nvvm-attach-target` /
    `rocdl-attach-target` would with the same options, so that
    `gpu-module-to-binary` compiles for the chip every other pass assumed.
    With `vendor`, a chip of the other vendor is an error (tile-to-nvvm
    cannot compile for gfx942, nor tile-to-rocdl for sm_90a).
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::ROCDL::ROCDLDialect"];
  let options = [
    Option<"vendor", "vendor", "std::string", /*default=*/"\"\"",
           "The vendor the pipeline compiles for (nvidia or amd); empty "
           "accepts both">,
    Option<"optLevel", "opt-level", "int", /*default=*/"3",
           "LLVM optimization level of the device code">,
    ListOption<"linkLibs", "link", "std::string",
               "Bitcode files to link into the device code (e.g. libdevice)">
  ];
}

def ConvertGPUToROCDL : Pass<"tile-convert-gpu-to-rocdl", "ModuleOp"> {
  let summary = "Lower the gpu.modules of an AMD target to ROCDL for the "
                "module's chip";
  let description = [{
    Runs upstream's `convert-amdgpu-to-rocdl` and `convert-gpu-to-rocdl`
    on every `gpu.module` with the chipset the module's `#tile.target`
    names (MFMA instruction names and fp8 flavours depend on it). An f32
    `math.exp2` first becomes `rocdl.exp2` (`v_exp_f32`, about 1 ulp,
    denormal results flushed), so that a softmax needs no device library;
    other math ops follow upstream (device-library calls). A target that
    is not an AMD chip is an error.
  }];
  let dependentDialects = ["::mlir::ROCDL::ROCDLDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def ConvertExp2ToNVVM : Pass<"tile-convert-exp2-to-nvvm", "ModuleOp"> {
  let summary = "Lower the f32 math.exp2 of NVIDIA gpu.modules to "
                "ex2.approx.ftz";
  let description = [{
    Every f32 `math.exp2` in a `gpu.module` becomes the NVVM intrinsic
    `llvm.nvvm.ex2.approx.ftz.f32`: one `MUFU.EX2`, with at most 2 ulp of
    error where the result is a normal number, subnormal arguments read as
    zero and subnormal results (arguments below -126) flushed to zero. It
    is what Triton's `tl.math.exp2` and nvcc's `exp2f` under
    `--use_fast_math` emit, and the AMD pipeline's `v_exp_f32`. Upstream's
    conversion would call libdevice's `__nv_exp2f`: the same instruction
    without flushing, which ptxas surrounds with a compare, a scaling of the
    argument and a squaring of the result, four instructions where one
    does (a softmax computes one exponential per score). A softmax loses
    nothing it can represent: a flushed probability is below 2^-126 of the
    row's largest, which is 1. `tile-to-nvvm exact-exp2=true` leaves
    `math.exp2` to upstream.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
