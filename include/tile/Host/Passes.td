//===- Passes.td - Tile host passes ------------------------*- tablegen -*-===//
//
// The host side of a compiled module: what makes the functions that launch
// kernels callable from C (argument checks, runtime calls, C interfaces)
// and what writes the kernels' objects out.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_HOST_PASSES_TD
#define TILE_HOST_PASSES_TD

include "mlir/Pass/PassBase.td"

def EmitBinary : Pass<"tile-emit-binary", "ModuleOp"> {
  let summary = "Write the objects of gpu.binary ops to files";
  let description = [{
    Writes the object (cubin, PTX or fatbin; AMD code object or assembly)
    of every `gpu.binary` to `<prefix><binary name>.<ext>`, where `ext` is
    `cubin`, `ptx` or `fatbin` following the object's format, `hsaco` or
    `s` for `#rocdl.target` objects. The IR is left unchanged.
  }];
  let options = [
    Option<"prefix", "prefix", "std::string", /*default=*/"\"\"",
           "Path prefix of the written files">
  ];
}

def PrepareHost : Pass<"tile-prepare-host", "ModuleOp"> {
  let summary = "Make the host functions that launch kernels callable from C";
  let description = [{
    Runs on the host side of a module after `convert-tile-to-gpu`, before
    the host is lowered to LLVM. For every function with a body that
    launches kernels (`gpu.launch_func`):

    - launches whose grid (or cluster) has an empty dimension are skipped
      (the driver rejects a zero-sized grid);
    - with `runtime` (the default), the function calls the tile runtime's
      host entry points (`runtime/include/tile_runtime.h`): it starts with
      `tileRtHostBegin(name)`, checks its memref arguments (static sizes,
      strides and offset of the memref type against the caller's
      descriptor, where a dimension of at most one element may have any
      stride and an empty memref any offset; a non-empty memref with a null
      data pointer; a non-positive dynamic stride of a dimension of more
      than one element; dimensions that `tile.shape` argument attributes
      name alike but that differ, or that exceed their bound), reports each failed check with
      `tileRtHostArgError(name, message)` or `tileRtHostArgErrorValue(name,
      before, value, after)` and then returns without launching
      anything; it launches its kernels on `tileRtHostStream()`, the
      calling thread's current stream, without synchronizing, and ends with
      `tileRtHostEnd(stream)`, which synchronizes only when the runtime is
      in synchronous mode. Without `runtime`, launches stay synchronous
      `gpu.launch_func`s that any upstream `mgpu` runtime runs.

    To read the static parts of a memref argument's type from the
    descriptor, the function's memref arguments with a strided layout get
    the fully dynamic strided type of their rank (same descriptor, same C
    ABI); calls in the module cast to it, and the body sees the original
    type through a `memref.reinterpret_cast` after the checks.

    `tile.shape` on an argument is an array of one string per dimension:
    a symbol (`"K"`): every dimension named by the same symbol, in any
    argument, must have the same size; a symbol with an upper bound
    (`"N<=4096"`): the same, and the size must be at most the bound (for
    kernels written for sizes up to a limit); a size derived from a symbol
    (`"ceil(K/128)"`: the symbol's size divided by the number, rounded up;
    the symbol must name a dimension of the function's arguments); a
    decimal number: the dimension must have that size; `"?"`: no
    constraint.

    With `c-interface` (the default), public functions with a body get
    `llvm.emit_c_interface`, and `tile-export-c-interface` later gives their
    C interface the function's own name.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect"];
  let options = [
    Option<"runtime", "runtime", "bool", /*default=*/"true",
           "Call the tile runtime's host entry points: argument checks, "
           "errors, launches on its current stream">,
    Option<"cInterface", "c-interface", "bool", /*default=*/"true",
           "Give public functions a C interface (llvm.emit_c_interface)">
  ];
}

def ExportCInterface : Pass<"tile-export-c-interface", "ModuleOp"> {
  let summary = "Export the C interface of host functions under their own "
                "names";
  let description = [{
    Runs after `convert-func-to-llvm`. For every public `llvm.func @f` with
    a C interface wrapper `@_mlir_ciface_f` (from `llvm.emit_c_interface`),
    the original function, whose memref arguments are expanded into their
    descriptor fields, becomes the internal `_mlir_tile_expanded_f`, and a
    new `f` with the wrapper's signature forwards to the wrapper (which
    keeps its name: upstream's ExecutionEngine `invokePacked` looks for
    it). A C host (or the ExecutionEngine) then calls `f` with pointers to
    memref descriptor structs:
    `void gemm(memref2d *A, memref2d *B, memref2d *C)`. Private functions
    with a body (helpers of the host functions) get internal linkage, so
    that a shared library does not export them.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TILE_HOST_PASSES_TD
