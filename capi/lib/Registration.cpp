//===- Registration.cpp - C API registration helpers ------------*- C++ -*-===//

#include "tile-c/Registration.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

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

  // What the tile-to-nvvm pipeline needs to serialize kernels: the NVVM
  // target, translations to LLVM IR, and the conversion interfaces.
  mlir::DialectRegistry &cpp = *unwrap(registry);
  cpp.insert<mlir::cf::ControlFlowDialect, mlir::index::IndexDialect>();
  mlir::registerBuiltinDialectTranslation(cpp);
  mlir::registerLLVMDialectTranslation(cpp);
  mlir::registerGPUDialectTranslation(cpp);
  mlir::registerNVVMDialectTranslation(cpp);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(cpp);
  mlir::registerConvertNVVMToLLVMInterface(cpp);
  mlir::NVVM::registerConvertGpuToNVVMInterface(cpp);
  mlir::arith::registerConvertArithToLLVMInterface(cpp);
  mlir::cf::registerConvertControlFlowToLLVMInterface(cpp);
  mlir::registerConvertFuncToLLVMInterface(cpp);
  mlir::index::registerConvertIndexToLLVMInterface(cpp);
  mlir::registerConvertMathToLLVMInterface(cpp);
  mlir::registerConvertMemRefToLLVMInterface(cpp);
  mlir::ub::registerConvertUBToLLVMInterface(cpp);
  mlir::vector::registerConvertVectorToLLVMInterface(cpp);
}

void tileRegisterAllPasses(void) {
  mlirRegisterTilePasses();
  mlirRegisterTileConversionPasses();
  tileRegisterPipelines();
  mlirRegisterTransformsPasses();
  mlirRegisterGPUPasses();
}
