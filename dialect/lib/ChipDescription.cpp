//===- ChipDescription.cpp - The table of supported chips -------*- C++ -*-===//

#include "tile/Dialect/ChipDescription.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;

// Shared memory per block: 163 KiB on sm_80/sm_87, 99 KiB on sm_86/sm_89,
// 227 KiB on sm_90 (the opt-in maxima); 64 KiB of LDS on CDNA2/3. Per
// multiprocessor: 1 KiB more on NVIDIA (each resident block reserves 1 KiB
// of it); 2048 threads (1536 on sm_86/sm_89), 32 wavefronts of 64 on CDNA.
// Multiprocessors: A100, RTX A6000-class, Orin, RTX 4090, H100 SXM / H200,
// MI250X (one die), MI300X.
static const ChipDescription kChips[] = {
    // name, vendor, version, warp, warpgroup, threads, smem, regs/thread,
    // regs/block, threads/SM, smem/SM, SMs, min ptx, default ptx, async
    // copy, tma, wgmma, setmaxnreg, named barriers
    {"sm_80", Vendor::NVIDIA, 80, 32, 128, 1024, 166912, 255, 65536, 2048,
     167936, 108, 70, 80, true, false, false, false, true},
    {"sm_86", Vendor::NVIDIA, 86, 32, 128, 1024, 101376, 255, 65536, 1536,
     102400, 84, 71, 80, true, false, false, false, true},
    {"sm_87", Vendor::NVIDIA, 87, 32, 128, 1024, 166912, 255, 65536, 2048,
     167936, 16, 74, 80, true, false, false, false, true},
    {"sm_89", Vendor::NVIDIA, 89, 32, 128, 1024, 101376, 255, 65536, 1536,
     102400, 128, 78, 80, true, false, false, false, true},
    {"sm_90", Vendor::NVIDIA, 90, 32, 128, 1024, 232448, 255, 65536, 2048,
     233472, 132, 78, 80, true, true, false, false, true},
    {"sm_90a", Vendor::NVIDIA, 90, 32, 128, 1024, 232448, 255, 65536, 2048,
     233472, 132, 80, 80, true, true, true, true, true},
    {"gfx90a", Vendor::AMD, 0x90a, 64, 0, 1024, 65536, 512, 131072, 2048, 65536,
     110, 0, 0, false, false, false, false, false},
    {"gfx942", Vendor::AMD, 0x942, 64, 0, 1024, 65536, 512, 131072, 2048, 65536,
     304, 0, 0, false, false, false, false, false},
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
