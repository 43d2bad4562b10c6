// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-register-prefetch -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops | FileCheck %s --check-prefix=TMA
// RUN: tile-opt %s -split-input-file -tile-pipeline-planning -tile-inject-pipeline -tile-register-prefetch -tile-layout-inference -tile-insert-barriers | FileCheck %s --check-prefix=DECIDE

// wgmma reads its shared operands through the async proxy: the threads'
// own writes to them (ordinary stores, cp.async) are followed by a proxy
// fence before the barrier that publishes them. Tensor copies write through
// the async proxy and need none. Where the fences go is tile-insert-barriers'
// decision, written as `tile.proxy_fence` on the writes and on the
// copy-engine waits (DECIDE); tile-lower-ops emits them.

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// Registers stored into the shared tiles (register prefetching), each
// copy's stores followed by a fence, then the barrier and the MMAs.
// DECIDE-LABEL: func.func @prefetched
// DECIDE: tile.copy %{{.*}}, %{{.*}} {tile.proxy_fence} : memref<128x64xf16, #tile.mem<fragment>> to memref<128x64xf16, #gpu.address_space<workgroup>>
// DECIDE-NEXT: tile.copy %{{.*}}, %{{.*}} {tile.proxy_fence} : memref<64x128xf16, #tile.mem<fragment>> to memref<64x128xf16, #gpu.address_space<workgroup>>
// DECIDE-NEXT: tile.barrier
// CHECK-LABEL: func.func @prefetched
// CHECK: scf.for
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<8192xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<8192xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: vector.store {{.*}}workgroup
// CHECK: nvvm.wgmma.fence.aligned
func.func @prefetched(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 1 : i64, tile.register_prefetch = true}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// A pipeline of cp.async copies: the fence follows the hand-off's wait.
// With tensor copies (TMA) there is none before the MMAs (the epilogue's
// tensor store has its own).
// DECIDE-LABEL: func.func @pipelined
// DECIDE: tile.pipe.consume_wait %{{.*}} in_flight({{[0-9]}}) {tile.proxy_fence} : <3>
// DECIDE: tile.async_wait 0 {tile.proxy_fence}
// CHECK-LABEL: func.func @pipelined
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// TMA-LABEL: func.func @pipelined
// TMA: tile.kernel @k_tma
// TMA-NOT: nvvm.fence.proxy
// TMA: nvvm.wgmma.fence.aligned
func.func @pipelined(%A: !g, %B: !g, %C: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %B[%k0, %c0], %bs : !g to !sB
      tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// A fill is an ordinary write too.
// DECIDE-LABEL: func.func @zero_filled
// DECIDE: tile.fill %{{.*}}, %{{.*}} {tile.proxy_fence} :
// DECIDE-NEXT: tile.fill %{{.*}}, %{{.*}} {tile.proxy_fence} :
// CHECK-LABEL: func.func @zero_filled
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.wgmma.fence.aligned
func.func @zero_filled(%C: !g) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %as = tile.alloc : !sA
    %bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    tile.fill %as, %zero : !sA
    tile.fill %bs, %zero : !sB
    tile.gemm %as, %bs, %acc : !sA, !sB, !fC
    tile.copy %acc, %C[%c0, %c0] : !fC to !g
  }
  return
}
