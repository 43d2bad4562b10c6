//===- Registration.cpp - C API registration helpers ------------*- C++ -*-===//

#include "tile-c/Registration.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "tile/Pipelines/Registration.h"

#include "mlir-c/Dialect/AMDGPU.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/NVGPU.h"
#include "mlir-c/Dialect/NVVM.h"
#include "mlir-c/Dialect/ROCDL.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Vector.h"
#include "mlir-c/Transforms.h"
#include "tile-c/Dialect.h"
#include "tile-c/Passes.h"

void tileRegisterAllDialects(MlirDialectRegistry registry) {
  if (mlirDialectRegistryIsNull(registry))
    return;
  const MlirDialectHandle handles[] = {
      mlirGetDialectHandle__tile__(),  mlirGetDialectHandle__func__(),
      mlirGetDialectHandle__arith__(), mlirGetDialectHandle__memref__(),
      mlirGetDialectHandle__scf__(),   mlirGetDialectHandle__gpu__(),
      mlirGetDialectHandle__nvgpu__(), mlirGetDialectHandle__nvvm__(),
      mlirGetDialectHandle__llvm__(),  mlirGetDialectHandle__vector__(),
      mlirGetDialectHandle__math__(),  mlirGetDialectHandle__amdgpu__(),
      mlirGetDialectHandle__rocdl__(),
  };
  for (MlirDialectHandle handle : handles)
    mlirDialectHandleInsertDialect(handle, registry);

  mlir::tile::registerTileLoweringInterfaces(*unwrap(registry));
}

void tileRegisterAllPasses(void) {
  mlirRegisterTilePasses();
  mlirRegisterTileConversionPasses();
  mlirRegisterTileHostPasses();
  tileRegisterPipelines();
  mlirRegisterTransformsPasses();
  mlirRegisterGPUPasses();
}
