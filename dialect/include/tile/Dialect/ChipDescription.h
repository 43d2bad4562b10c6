//===- ChipDescription.h - What the compiler knows of each chip -*- C++ -*-===//
//
// The data half of the target model: for every supported chip, its vendor,
// thread geometry, on-chip resources and instruction-set capabilities, one
// line per chip in Chips.def. The `#tile.target` attribute names a chip of
// this table; passes read these facts through it (layout inference the warp
// size, planning and `tile-check-resources` the shared memory and
// registers). Instruction selection, the other half, lives in
// `lib/Target/<vendor>/`.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_CHIPDESCRIPTION_H
#define TILE_DIALECT_CHIPDESCRIPTION_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tile {

enum class Vendor { NVIDIA, AMD };

struct ChipDescription {
  llvm::StringLiteral name;
  Vendor vendor;
  /// Compute capability times 10 (80, 86, 90) on NVIDIA; the gfx number
  /// (0x90a, 0x942) on AMD.
  int64_t version;
  /// Threads of a warp (NVIDIA) or wavefront (AMD).
  int64_t warpSize;
  /// Threads of a warpgroup (the unit of `wgmma`, `setmaxnreg` and
  /// `tile.ws`); 0 where the chip has none.
  int64_t warpgroupSize;
  int64_t maxThreadsPerBlock;
  /// Shared memory (LDS) one block can use, in bytes.
  int64_t maxSharedMemoryPerBlock;
  /// 32-bit registers one thread can use, and the block's register file.
  int64_t maxRegistersPerThread;
  int64_t registersPerBlock;
  /// Threads and shared memory (bytes, what the blocks' own use is taken
  /// from) of one multiprocessor (compute unit on AMD), for occupancy.
  int64_t maxThreadsPerMultiprocessor;
  int64_t sharedMemoryPerMultiprocessor;
  /// Multiprocessors (compute units) of the part this name most often
  /// means (H100 SXM and H200 for sm_90a, A100 for sm_80, MI300X for
  /// gfx942): the default size of a persistent grid, which is correct at
  /// any size.
  int64_t multiprocessors;
  /// Minimum PTX ISA version (NVIDIA; 0 on AMD) and the default.
  int64_t minPtx, defaultPtx;
  /// Capabilities.
  bool asyncCopy;  // cp.async (sm_80+)
  bool tma;        // bulk tensor copies and mbarrier tx counts (sm_90+)
  bool wgmma;      // warpgroup MMA (sm_90a)
  bool setMaxNReg; // per-warpgroup register budgets (sm_90a)
  bool namedBarriers;
  bool fp8Mma; // matrix instructions on 8-bit floats (sm_89+, gfx942)

  bool isNVIDIA() const { return vendor == Vendor::NVIDIA; }
  bool isAMD() const { return vendor == Vendor::AMD; }
};

/// The chip named `name`, or null.
const ChipDescription *lookupChip(llvm::StringRef name);

/// Every supported chip, in table order.
llvm::ArrayRef<ChipDescription> getSupportedChips();

/// "sm_80, sm_86, ..." for diagnostics.
std::string getSupportedChipList();

/// The chip of modules that name none.
constexpr llvm::StringLiteral kDefaultChip = "sm_90a";

/// Highest PTX ISA version the code generator here emits.
constexpr int64_t kMaxPtxVersion = 90;

} // namespace mlir::tile

#endif // TILE_DIALECT_CHIPDESCRIPTION_H
