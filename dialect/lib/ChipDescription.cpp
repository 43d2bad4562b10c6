//===- ChipDescription.cpp - The table of supported chips -------*- C++ -*-===//
//
// The table is Chips.def, one line per chip.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/ChipDescription.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;

static const ChipDescription kChips[] = {
#define TILE_CHIP(NAME, VENDOR, ...) {NAME, Vendor::VENDOR, __VA_ARGS__},
#include "tile/Dialect/Chips.def"
};

const ChipDescription *mlir::tile::lookupChip(StringRef name) {
  for (const ChipDescription &chip : kChips)
    if (chip.name == name)
      return &chip;
  return nullptr;
}

ArrayRef<ChipDescription> mlir::tile::getSupportedChips() { return kChips; }

std::string mlir::tile::getSupportedChipList() {
  std::string list;
  for (const ChipDescription &chip : kChips) {
    if (!list.empty())
      list += ", ";
    list += chip.name.str();
  }
  return list;
}
