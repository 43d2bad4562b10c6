// Barriers inside tile.ws synchronize only the region's warps: PTX named
// barriers with the region's thread count, on sm_80 and sm_90a.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_90a format=isa" --tile-emit-binary="prefix=%t/sm90a_" -o /dev/null
// RUN: FileCheck %s < %t/sm90a_k_module.ptx
// RUN: tile-opt %s --tile-to-nvvm="chip=sm_80 format=isa" --tile-emit-binary="prefix=%t/sm80_" -o /dev/null
// RUN: FileCheck %s < %t/sm80_k_module.ptx

// CHECK: .entry k(
// CHECK-NOT: bar.sync 0
// CHECK-NOT: barrier.sync 0
// CHECK-DAG: {{bar.sync|barrier.sync.aligned}} 1, 128;
// CHECK-DAG: {{bar.sync|barrier.sync.aligned}} 2, 256;
// CHECK-DAG: shfl.sync.bfly

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
!fR = memref<64xf32, #tile.mem<fragment>>
func.func @f(%in: memref<?x?xf16>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %m = tile.alloc : !fR
    // Warpgroup 0: a shared write (its barriers over 128 threads).
    tile.ws [0] {
      tile.copy %in[%c0, %c0], %s : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    }
    // Warpgroups 1 and 2: a user barrier and a cross-warp reduction over
    // their 256 threads.
    tile.ws [1, 2] {
      tile.barrier
      tile.copy %in[%c0, %c0], %as : memref<?x?xf16> to !sA
      tile.copy %in[%c0, %c0], %bs : memref<?x?xf16> to !sB
      tile.gemm %as, %bs, %acc clear_accum : !sA, !sB, !fC
      tile.reduce <max> %acc, %m dim 1 clear : !fC to !fR
      tile.copy %m, %out[%c0] : !fR to memref<?xf32>
    }
  }
  return
}
