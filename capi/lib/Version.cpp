//===- Version.cpp - tile-mlir version ------------------------------------===//

#include "tile-c/Version.h"

#include "llvm/Config/llvm-config.h"

const char *tileGetVersion(void) { return TILE_MLIR_VERSION; }

const char *tileGetLLVMVersion(void) { return LLVM_VERSION_STRING; }
