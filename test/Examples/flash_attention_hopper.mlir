// The Hopper FlashAttention example (128-key blocks, written as the plain
// example is): it parses and round-trips; on sm_90a tile-rotate-loops
// rotates its key loop, which the kernel then runs as decided. In the
// consumer loop, Q K^T of block kb (descriptors: shared A and B) is
// committed and left in flight, P V of block kb - 1 (A from registers) is
// committed and waits for Q K^T only (wait_group 1), the softmax's
// exponentials follow while P V runs, and the wait for P V (wait_group 0)
// comes before the slot's release. ptxas takes it without spills.
//
// RUN: tile-opt %examples/flash_attention_hopper.mlir | tile-opt | FileCheck %s --check-prefix=PARSE
// RUN: tile-opt %examples/flash_attention_hopper.mlir --tile-attach-target="chip=sm_90a" --tile-rotate-loops | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %examples/flash_attention_hopper.mlir --tile-to-nvvm="chip=sm_90a format=isa" \
// RUN:   -tile-emit-binary="prefix=%t/" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/flash_attention_fwd_kernel_tma_module.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/flash_attention_fwd_kernel_tma_module.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// PARSE-LABEL: func.func @flash_attention_fwd(
// PARSE:         scf.for
// PARSE:         } {tile.num_stages = 2 : i64}

// The rotated loop: block 0's keys and the last block's values copied
// first, block 0's stage A, then the loop from block 1 with the gemms in
// flight and the wait before P and O are written, then the last P V.
// CHECK-LABEL: func.func @flash_attention_fwd(
// CHECK:         arith.cmpi slt
// CHECK:         tile.copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %[[EDGEK:.*]] :
// CHECK:         tile.copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %[[EDGEV:.*]] :
// CHECK-NEXT:    scf.if
// CHECK:           tile.gemm %[[Q:.*]], %[[EDGEK]], %[[S:.*]] transpose_b clear_accum policy <full_row> :
// CHECK:         scf.for
// CHECK:           tile.gemm %[[Q]], %{{.*}}, %[[S]] transpose_b clear_accum policy <full_row> {mma_groups_in_flight = 1 : i64}
// CHECK-NEXT:      tile.gemm %[[P:.*]], %{{.*}}, %[[O:.*]] policy <full_row> {mma_groups_in_flight = 1 : i64}
// CHECK:           tile.reduce <max> %[[S]]
// CHECK:           tile.reduce <sum> %[[S]]
// CHECK:           tile.mma_wait 0
// CHECK-NEXT:      tile.parallel
// CHECK:             memref.store %{{.*}}, %[[P]]
// CHECK:         } {tile.num_stages = 2 : i64, tile.rotate = true}
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      tile.gemm %[[P]], %[[EDGEV]], %[[O]] policy <full_row> :

// PTX-LABEL: .entry flash_attention_fwd_kernel_tma(
// Block 0 before the loop: its Q K^T completes.
// PTX:       wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PTX:       wgmma.commit_group.sync.aligned;
// PTX-NEXT:  wgmma.wait_group.sync.aligned 0;
// The loop: Q K^T left in flight.
// PTX:       mbarrier.try_wait.parity.shared.b64
// PTX:       wgmma.fence.sync.aligned;
// PTX:       wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p,
// PTX:       wgmma.commit_group.sync.aligned;
// PTX-NEXT:  wgmma.wait_group.sync.aligned 1;
// P V, its A operand from registers; its wait completes Q K^T only.
// PTX:       wgmma.fence.sync.aligned;
// PTX:       wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p,
// PTX:       wgmma.commit_group.sync.aligned;
// PTX-NEXT:  wgmma.wait_group.sync.aligned 1;
// The softmax while P V runs, then the wait for P V before the release.
// PTX-NOT:   wgmma.wait_group
// PTX:       ex2.approx.ftz.f32
// PTX-NOT:   mbarrier.arrive.shared
// PTX:       wgmma.wait_group.sync.aligned 0;
// PTX:       mbarrier.arrive.shared.b64

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
