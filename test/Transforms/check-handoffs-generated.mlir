// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=sm_80 -tile-pipeline-planning -tile-inject-pipeline -tile-check-handoffs -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=gfx942 -tile-pipeline-planning -tile-inject-pipeline -tile-check-handoffs -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-attach-target=chip=sm_90a -tile-pipeline-planning -tile-inject-pipeline -tile-layout-inference -tile-select-tma -tile-warp-specialize -tile-check-handoffs -verify-diagnostics | FileCheck %s --check-prefix=WS

// The hand-offs the compiler generates pass tile-check-handoffs with no
// diagnostic: software pipelining (the predicated loop, passes numbered from
// the pipe's base, loops sharing a pipe) and warp specialization (producer
// and consumer roles).

!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// CHECK-LABEL: func.func @gemm
// CHECK: tile.pipe.consume_wait {{.*}} in_flight(1)
// CHECK: tile.pipe.produce_commit
// WS-LABEL: func.func @gemm
// WS: tile.ws
// WS: tile.pipe.produce_commit
// WS: tile.ws
// WS: tile.pipe.consume_wait
func.func @gemm(%A: !g, %B: !g, %C: memref<?x?xf32>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.warp_specialize = true} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %As : !g to !sA
      tile.copy %B[%k0, %c0], %Bs : !g to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3}
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// A pipelined loop inside another loop: each pass numbers its hand-offs
// from the pipe's base and advances it.
// CHECK-LABEL: func.func @outer_loop
// CHECK: tile.pipe.base
// CHECK: tile.pipe.advance
// WS-LABEL: func.func @outer_loop
// WS: tile.pipe.base
// WS: tile.pipe.advance
func.func @outer_loop(%A: !g, %B: !g, %C: memref<?x?xf32>, %kt: index, %nt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.warp_specialize = true} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    scf.for %n = %c0 to %nt step %c1 {
      %zero = arith.constant 0.0 : f32
      tile.fill %acc, %zero : !fC
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c32 : index
        tile.copy %A[%n, %k0], %As : !g to !sA
        tile.copy %B[%k0, %n], %Bs : !g to !sB
        tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
      } {tile.num_stages = 4}
      tile.copy %acc, %C[%n, %c0] : !fC to memref<?x?xf32>
    }
  }
  return
}

// -----

!g = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// Two loops copying the same tile share its pipe: the second continues the
// hand-offs of the first.
// CHECK-LABEL: func.func @shared_pipe
// CHECK-COUNT-2: tile.pipe.advance
func.func @shared_pipe(%A: !g, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.warp_specialize = true} {
    %as = tile.alloc : !sA
    %af = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %as, %af : !sA to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %k0], %as : !g to !sA
      tile.copy %as, %af : !sA to memref<128x32xf16, #tile.mem<fragment>>
    } {tile.num_stages = 2 : i64}
  }
  return
}
