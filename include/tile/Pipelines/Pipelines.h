//===- Pipelines.h - The one-shot tile pipelines ----------------*- C++ -*-===//
//
// tile-to-nvvm and tile-to-rocdl: from tile IR to a module whose kernels are
// gpu.binary objects and whose host functions are LLVM, callable from C.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tile {

/// Options both vendor pipelines have (what the tile-level passes and the
/// host side do), under the same names and defaults.
template <typename Derived>
struct TilePipelineOptions : public PassPipelineOptions<Derived> {
  ::mlir::detail::PassOptions::Option<bool> pipeline{
      *this, "pipeline",
      llvm::cl::desc("Software-pipeline loops marked with tile.num_stages "
                     "(multi-buffered shared memory)"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> fpContract{
      *this, "fp-contract",
      llvm::cl::desc("Let kernels' multiplies and adds fuse into fused "
                     "multiply-adds (tile-fp-contract), like nvcc's "
                     "--fmad=true"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> specializeBounds{
      *this, "specialize-bounds",
      llvm::cl::desc("Version loops so that interior tiles are copied "
                     "without bounds checks (tile-specialize-bounds)"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> hostRuntime{
      *this, "host-runtime",
      llvm::cl::desc("Host functions call the tile runtime (argument checks, "
                     "errors, launches on its current stream; "
                     "tile-prepare-host runtime=true); false keeps "
                     "synchronous launches any mgpu runtime runs"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Public host functions take pointers to memref "
                     "descriptors under their own names "
                     "(tile-export-c-interface)"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Every decision pass reports what it decided and why "
                     "as remarks (their remarks=true: tensor copies, warp "
                     "specialization, launch order, persistent grids, "
                     "layouts)"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<int> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level"),
      llvm::cl::init(3)};
};

/// Options of the one-shot tile-to-nvvm pipeline.
struct TileToNVVMPipelineOptions
    : public TilePipelineOptions<TileToNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU (sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a); "
                     "default: the module's #tile.target, else sm_90a"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA version (e.g. +ptx80); default: the chip's"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Object format: bin (cubin), isa (PTX) or fatbin"),
      llvm::cl::init("bin")};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit (libdevice, ptxas); default: $CUDA_ROOT, "
                     "$CUDA_PATH, $CUDA_HOME or /usr/local/cuda"),
      llvm::cl::init("")};
  PassOptions::Option<bool> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("Give pipelined loops with tensor copies a producer "
                     "warpgroup where tile-warp-specialize finds it pays "
                     "(false: only in kernels marked "
                     "tile.warp_specialize = true)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> persistent{
      *this, "persistent",
      llvm::cl::desc("Run the kernels tile-persistent-blocks picks on a "
                     "persistent grid (false: only kernels with "
                     "tile.persistent > 0)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> splitK{
      *this, "split-k",
      llvm::cl::desc("Split the K loop of the kernels tile-split-k picks "
                     "where the grid leaves multiprocessors idle (false: "
                     "only kernels with tile.split_k > 1)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> splitTail{
      *this, "split-tail",
      llvm::cl::desc("Split the K loops of the last, partial wave of the "
                     "persistent kernels tile-split-tail picks (false: only "
                     "kernels with tile.split_tail > 1)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> splitTailParts{
      *this, "split-tail-parts",
      llvm::cl::desc("The most parts tile-split-tail writes on the kernels "
                     "it picks"),
      llvm::cl::init(8)};
  PassOptions::Option<int64_t> splitTailMinIterations{
      *this, "split-tail-min-iterations",
      llvm::cl::desc("The least K iterations a split of the last wave must "
                     "save to be picked at run time"),
      llvm::cl::init(32)};
  PassOptions::Option<int64_t> splitTailMinShare{
      *this, "split-tail-min-share",
      llvm::cl::desc("A split of the last wave must save at least 1/N of "
                     "the K iterations a block runs in all to be picked at "
                     "run time (0: no such bound)"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> clusters{
      *this, "clusters",
      llvm::cl::desc("Run persistent kernels whose blocks share operand "
                     "panels in clusters of two blocks that load the shared "
                     "panel once (false, the default: only kernels with "
                     "tile.cluster = 2)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> dependentLaunch{
      *this, "dependent-launch",
      llvm::cl::desc("Launch kernels as programmatic dependents of the "
                     "kernel before them in the stream, so that their launch "
                     "overlaps its end (false: only kernels with "
                     "tile.dependent_launch = true)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> exactExp2{
      *this, "exact-exp2",
      llvm::cl::desc("Keep subnormal results of f32 math.exp2 (libdevice's "
                     "exp2f; false, the default: ex2.approx.ftz, one "
                     "instruction, tile-convert-exp2-to-nvvm)"),
      llvm::cl::init(false)};
};

/// Builds the pipeline from tile IR to a gpu.binary: layout inference, tile
/// op lowering, outlining, and the upstream NVVM lowering and serialization.
void buildTileToNVVMPipeline(OpPassManager &pm,
                             const TileToNVVMPipelineOptions &options);

/// Options of the one-shot tile-to-rocdl pipeline (AMD CDNA).
struct TileToROCDLPipelineOptions
    : public TilePipelineOptions<TileToROCDLPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU (gfx90a, gfx942); default: the module's "
                     "#tile.target, else gfx942"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Object format: bin (code object, linked with ld.lld), "
                     "isa (assembly) or llvm (offloading bitcode)"),
      llvm::cl::init("bin")};
  PassOptions::Option<std::string> rocmPath{
      *this, "rocm-path",
      llvm::cl::desc("ROCm folder: format=bin links with its llvm/bin/ld.lld "
                     "(LLVM 22's lld); default: $ROCM_PATH, else /opt/rocm"),
      llvm::cl::init("")};
};

/// Builds the pipeline from tile IR to a gpu.binary for AMD CDNA: the same
/// tile-level passes as tile-to-nvvm, then the upstream AMDGPU / ROCDL
/// lowering and serialization to a code object.
void buildTileToROCDLPipeline(OpPassManager &pm,
                              const TileToROCDLPipelineOptions &options);

/// Registers `tile-to-nvvm` and `tile-to-rocdl`.
void registerTilePipelines();

} // namespace mlir::tile

#endif // TILE_PIPELINES_PIPELINES_H
