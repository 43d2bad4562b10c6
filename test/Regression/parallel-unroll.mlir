// A tile.parallel over 2^31 points made tile-lower-ops unroll its body
// 2^24 times per thread (a hang, or out of memory; issue 10), whichever
// passes ran. Its verifier now bounds the iterations one thread executes.
//
// RUN: not timeout 120 tile-opt %s --tile-layout-inference --tile-lower-ops -o /dev/null 2>&1 | FileCheck %s
// RUN: not timeout 120 tile-opt %s --tile-attach-target=chip=sm_90a --tile-pipeline-planning --tile-inject-pipeline --tile-layout-inference --tile-lower-ops --convert-tile-to-gpu -o /dev/null 2>&1 | FileCheck %s
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
