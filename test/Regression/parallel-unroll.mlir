// A tile.parallel over 2^31 points made tile-lower-ops unroll its body
// 2^24 times per thread (a hang, or out of memory; issue 10), whichever
// passes ran. Its verifier now bounds the iterations one thread executes.
//
// RUN: not timeout 120 tile-opt %s --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops -o /dev/null 2>&1 | FileCheck %s
// RUN: not timeout 120 tile-opt %s --tile-attach-target=chip=sm_90a --tile-pipeline-planning --tile-inject-pipeline --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops --convert-tile-to-gpu -o /dev/null 2>&1 | FileCheck %s
// CHECK: parallel-unroll.mlir:[[@LINE+3]]:5: error: 'tile.parallel' op unrolls 4194304 iterations per thread (its iteration space padded to powers of two, over 512 threads), more than the limit of 2048; split the loop or use smaller tiles
func.func @parallel(%A: memref<?x?xi8>) {
  tile.kernel @parallel blocks(%bx) in [1] threads(512) {
    tile.parallel (%i, %j) in [65536, 32768] {
      %x = memref.load %A[%i, %j] : memref<?x?xi8>
      memref.store %x, %A[%j, %i] : memref<?x?xi8>
    }
  }
  return
}

// Tiles far beyond any chip are rejected by the tile.alloc verifier for
// the same reason (a fragment's accesses are unrolled per element a thread
// holds; copies into a shared tile per chunk): a 2^32-element fragment hung
// tile-lower-ops without tile-check-resources.
// RUN: not timeout 120 tile-opt %s -split-input-file --tile-pipeline-planning --tile-inject-pipeline --tile-layout-inference --tile-insert-barriers --tile-plan-pipes --tile-allocate-scratch --tile-allocate-shared --tile-lower-ops -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILES
// TILES: error: 'tile.alloc' op a fragment of 4294967296 elements (padded to powers of two) over 64 threads holds 67108864 per thread, more than the limit of 2048, far beyond any register file
// TILES: error: 'tile.alloc' op a shared tile of 8388608 bytes is larger than the limit of 1048576 bytes (1 MiB, beyond any chip's shared memory)

// -----

func.func @fragment(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @huge blocks(%bx) in [1] threads(64) {
    %f = tile.alloc : memref<65536x65536xf32, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %f : memref<?x?xf32> to memref<65536x65536xf32, #tile.mem<fragment>>
  }
  return
}

// -----

func.func @shared(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(32) {
    %s = tile.alloc : memref<2048x1024xf32, #gpu.address_space<workgroup>>
    tile.copy %A[%c0, %c0], %s : memref<?x?xf32> to memref<2048x1024xf32, #gpu.address_space<workgroup>>
  }
  return
}
