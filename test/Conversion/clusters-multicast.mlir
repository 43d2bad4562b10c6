// RUN: rm -rf %t && mkdir -p %t
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa clusters=true" --tile-emit-binary="prefix=%t/" -o %t/host.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_kernel_tma_module.ptx
// RUN: FileCheck %s --check-prefix=HOST < %t/host.mlir
// RUN: tile-opt %examples/gemm.mlir --tile-to-nvvm="chip=sm_90a format=isa" -o - | FileCheck %s --check-prefix=DEFAULT

// Clusters of two blocks (tile-to-nvvm clusters=true, or tile.cluster = 2
// on the kernel): the example's B panel (the copy that follows the grid
// column alone) is loaded half by each block of a cluster and multicast to
// both; the releases of its slots arrive on both blocks' barriers, which
// count the consumer warps of both (2 x 8); the blocks synchronize as a
// cluster after initializing the barriers and before exiting; the host
// launches clusters of 2.

// PTX-LABEL: .entry gemm_kernel_tma(
// PTX: mov.b32 [[FULL:%r[0-9]+]], 2;
// PTX-NEXT: mbarrier.init.shared.b64 {{.*}}, [[FULL]];
// PTX-NEXT: mov.b32 [[EMPTY:%r[0-9]+]], 16;
// PTX-NEXT: mbarrier.init.shared.b64 {{.*}}, [[EMPTY]];
// PTX: fence.mbarrier_init.release.cluster;
// PTX: mov.u32 {{.*}}, %cluster_ctarank;
// PTX-NEXT: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// The block's row of its pair: rank within the cluster.
// PTX: %cluster_ctaid.x
// A: this block's own 128 rows.
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// B: panels rank and rank + 2 of four, to both blocks (mask 0b11).
// PTX: mov.b16 [[MASK:%rs[0-9]+]], 3;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster {{.*}}, [[MASK]];
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster {{.*}}, [[MASK]];
// A release: this block's barrier, then the other block's.
// PTX: mapa.shared::cluster.u64 [[REMOTE:%rd[0-9]+]], [[LOCAL:%rd[0-9]+]],
// PTX: mbarrier.arrive.shared.b64 {{.*}}, [[[LOCAL]]];
// PTX: mbarrier.arrive.shared::cluster.b64 _, [[[REMOTE]]]
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: ret;

// HOST: gpu.launch_func {{.*}} @gemm_kernel_tma_module::@gemm_kernel_tma clusters in

// By default no kernel runs in clusters.
// DEFAULT-NOT: clusters in
// DEFAULT-NOT: multicast
