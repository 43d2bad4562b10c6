//===- PipelineCommon.h - What the one-shot pipelines share -----*- C++ -*-===//
//
// What tile-to-nvvm (NVVMPipeline.cpp) and tile-to-rocdl (ROCDLPipeline.cpp)
// share: the checks that open and close them and the tile-level passes
// both run before the vendor's lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_PIPELINES_PIPELINECOMMON_H
#define TILE_LIB_PIPELINES_PIPELINECOMMON_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <atomic>
#include <memory>
#include <string>

namespace mlir::tile::pipelines {

/// Whether an error was emitted while the pipeline ran, whatever the pass
/// that emitted it returned: upstream passes such as gpu-module-to-binary
/// report some failures (a serializer that cannot find its tools) without
/// failing. The first pass of the pipeline starts watching the context's
/// diagnostics, the last one stops and fails the pipeline if any error was
/// seen, so that tile-opt and C API hosts (mlirPassManagerRunOnOp) see the
/// failure.
struct ErrorWatch {
  /// Shared with the handler, which may outlive the pipeline when a pass
  /// fails before the last one runs (it then only sets this flag).
  std::shared_ptr<std::atomic<bool>> sawError;
  MLIRContext *context = nullptr;
  DiagnosticEngine::HandlerID handler = 0;

  void start(MLIRContext *ctx);
  /// Stops watching; returns whether an error was seen.
  bool stop();
};

/// What a pipeline builder found out about its options, checked when the
/// pipeline starts.
struct PreflightOptions {
  /// The pipeline's name, for diagnostics.
  std::string pipelineName = "tile-to-nvvm";
  /// The vendor it compiles for ("nvidia" or "amd"), and its target options
  /// as tile-attach-target will read them: every kernel's own `#tile.target`
  /// and every vendor dialect op is checked against them.
  std::string vendor = "nvidia";
  std::string chip, features, defaultChip;
  /// Errors about the options (format, toolkit, optimization level).
  SmallVector<std::string> optionErrors;
  bool specializeBounds = true;
  std::shared_ptr<ErrorWatch> watch;
};

/// First pass: reports invalid options at the module, then rejects, at the
/// op, input that verifies but that the rest of the pipeline cannot
/// compile, before any of it runs. Also makes an explicit
/// `#gpu.address_space<global>` the default memory space.
std::unique_ptr<Pass> createPreflightPass(PreflightOptions options);

/// Last pass: fails the pipeline if an error was emitted while it ran (see
/// ErrorWatch); otherwise drops the module's `tile.target`.
std::unique_ptr<Pass> createErrorCheckPass(std::shared_ptr<ErrorWatch> watch);

/// The tile-level options both pipelines share.
struct TileLevelOptions {
  std::string chip, features;
  /// The chip of a module that names none (empty: tile-attach-target's).
  std::string defaultChip;
  bool pipeline = true;
  bool warpSpecialize = false;
  bool persistent = true;
  bool splitK = true;
  bool splitTail = true;
  int64_t splitTailParts = 8;
  int64_t splitTailMinIterations = 32;
  int64_t splitTailMinShare = 16;
  bool clusters = false;
  bool dependentLaunch = true;
  bool specializeBounds = true;
  bool hostRuntime = true;
  bool cInterface = true;
  bool fpContract = true;
  /// The decision passes' remarks=true.
  bool remarks = false;
};

/// From tile-attach-target to tile-prepare-host: the target, resource
/// checks, interior loop versions, software pipelining, layouts, per-thread
/// code, outlining into gpu.modules and the host side's launches.
void addTileLevelPasses(OpPassManager &pm, const TileLevelOptions &options);

} // namespace mlir::tile::pipelines

#endif // TILE_LIB_PIPELINES_PIPELINECOMMON_H
