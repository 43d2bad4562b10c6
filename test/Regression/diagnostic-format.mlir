// Errors as users see them (issue 32): tile-opt and tile-compile print
// `file:line:col: error:`, the source line and a caret, without the op in
// generic form (tile-opt prints it with --mlir-print-op-on-diagnostic);
// tile-compile names the failing stage.
//
// RUN: not tile-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not tile-opt %s -split-input-file --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: split-file %s %t
// RUN: not tile-compile %t/verify.mlir -o %t/v.so 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not tile-compile %t/pipeline.mlir -o %t/p.so 2>&1 | FileCheck %s --check-prefix=PIPELINE

// OPT: diagnostic-format.mlir:[[# @LINE + 7]]:3: error: 'tile.kernel' op expects whole warps: 100 threads is not a multiple of 32
// OPT-NEXT: {{^}}  tile.kernel @k blocks(%b) in [1] threads(100) {
// OPT-NEXT: {{^}}  ^
// OPT-NOT: see current operation
// DUMP: note: see current operation:
//--- verify.mlir
func.func @threads() {
  tile.kernel @k blocks(%b) in [1] threads(100) {
  }
  return
}
// VERIFY: verify.mlir:2:3: error: 'tile.kernel' op expects whole warps: 100 threads is not a multiple of 32
// VERIFY-NEXT: {{^}}  tile.kernel @k blocks(%b) in [1] threads(100) {
// VERIFY-NEXT: {{^}}  ^
// VERIFY-NEXT: tile-compile: error: '{{.*}}verify.mlir' is not valid: parsing and verifying it failed (see above)

// -----

//--- pipeline.mlir
func.func @fragment_index(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%b) in [1] threads(128) {
    %t = tile.alloc : memref<1000xf32, #tile.mem<fragment>>
    tile.copy %x[%c0], %t : memref<?xf32> to memref<1000xf32, #tile.mem<fragment>>
    tile.parallel (%i) in [1024] {
      %v = memref.load %t[%i] : memref<1000xf32, #tile.mem<fragment>>
      memref.store %v, %t[%i] : memref<1000xf32, #tile.mem<fragment>>
    }
  }
  return
}
// PIPELINE: pipeline.mlir:7:12: error: 'memref.load' op unsupported fragment access in tile.parallel
// PIPELINE-NEXT: {{^}}      %v = memref.load %t[%i] : memref<1000xf32, #tile.mem<fragment>>
// PIPELINE-NEXT: {{^}}           ^
// PIPELINE: tile-compile: error: the tile-to-nvvm pipeline failed on '{{.*}}pipeline.mlir' (see above)
