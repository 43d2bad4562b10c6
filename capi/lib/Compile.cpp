//===- Compile.cpp - C API to extract compiled GPU kernels ------*- C++ -*-===//

#include "tile-c/Compile.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

/// Returns the first gpu.launch_func of `kernelName` in `module` (any launch
/// if the name is empty), or null.
static gpu::LaunchFuncOp findLaunch(ModuleOp module, StringRef kernelName) {
  gpu::LaunchFuncOp result;
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (!kernelName.empty() && launch.getKernelName() != kernelName)
      return WalkResult::advance();
    result = launch;
    return WalkResult::interrupt();
  });
  return result;
}

/// Returns the constant value of `value`, -1 if it is not a constant.
static int64_t getConstant(Value value) {
  APInt constant;
  if (value && matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return -1;
}

MlirLogicalResult tileModuleGetGPUBinary(MlirModule cModule,
                                         MlirStringRef cKernelName,
                                         const void **data, size_t *size) {
  if (data)
    *data = nullptr;
  if (size)
    *size = 0;
  if (mlirModuleIsNull(cModule))
    return wrap(failure());
  ModuleOp module = unwrap(cModule);
  if (!data || !size) {
    emitError(module.getLoc())
        << "tileModuleGetGPUBinary: NULL data or size pointer";
    return wrap(failure());
  }
  if (!cKernelName.data && cKernelName.length) {
    emitError(module.getLoc()) << "tileModuleGetGPUBinary: NULL kernel name";
    return wrap(failure());
  }
  StringRef kernelName = unwrap(cKernelName);

  gpu::BinaryOp binary;
  // The binary a launch of the kernel refers to.
  if (gpu::LaunchFuncOp launch = findLaunch(module, kernelName))
    binary = dyn_cast_or_null<gpu::BinaryOp>(
        SymbolTable::lookupSymbolIn(module, launch.getKernelModuleName()));
  // The binary named after the kernel, or the only one.
  if (!binary) {
    SmallVector<gpu::BinaryOp> binaries;
    module.walk([&](gpu::BinaryOp op) { binaries.push_back(op); });
    for (gpu::BinaryOp op : binaries)
      if (op.getSymName() == kernelName) {
        binary = op;
        break;
      }
    if (!binary && !binaries.empty() &&
        (binaries.size() == 1 || kernelName.empty()))
      binary = binaries.front();
  }
  if (!binary) {
    emitError(module.getLoc())
        << "no gpu.binary for kernel '" << kernelName << "'";
    return wrap(failure());
  }
  if (binary.getObjects().empty()) {
    emitError(binary.getLoc()) << "gpu.binary has no object";
    return wrap(failure());
  }
  auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
  if (!object) {
    emitError(binary.getLoc()) << "gpu.binary object is not a #gpu.object";
    return wrap(failure());
  }
  StringRef bytes = object.getObject().getValue();
  // A serializer that failed without failing its pass leaves nothing to load.
  if (bytes.empty()) {
    emitError(binary.getLoc())
        << "gpu.binary '" << binary.getSymName()
        << "' holds an empty object: compiling the kernel failed";
    return wrap(failure());
  }
  *data = bytes.data();
  *size = bytes.size();
  return wrap(success());
}

MlirLogicalResult tileModuleGetLaunchInfo(MlirModule cModule,
                                          MlirStringRef cKernelName,
                                          int64_t *sharedBytes,
                                          int64_t block[3]) {
  if (sharedBytes)
    *sharedBytes = -1;
  if (block)
    block[0] = block[1] = block[2] = -1;
  if (mlirModuleIsNull(cModule))
    return wrap(failure());
  ModuleOp module = unwrap(cModule);
  if (!sharedBytes || !block) {
    emitError(module.getLoc())
        << "tileModuleGetLaunchInfo: NULL shared-bytes or block pointer";
    return wrap(failure());
  }
  if (!cKernelName.data && cKernelName.length) {
    emitError(module.getLoc()) << "tileModuleGetLaunchInfo: NULL kernel name";
    return wrap(failure());
  }
  StringRef kernelName = unwrap(cKernelName);
  gpu::LaunchFuncOp launch = findLaunch(module, kernelName);
  if (!launch) {
    emitError(module.getLoc())
        << "no gpu.launch_func of kernel '" << kernelName << "'";
    return wrap(failure());
  }
  Value shared = launch.getDynamicSharedMemorySize();
  *sharedBytes = shared ? getConstant(shared) : 0;
  block[0] = getConstant(launch.getBlockSizeX());
  block[1] = getConstant(launch.getBlockSizeY());
  block[2] = getConstant(launch.getBlockSizeZ());
  return wrap(success());
}
