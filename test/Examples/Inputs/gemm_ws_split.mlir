// A hand-written warp-specialized GEMM for sm_90a, C = A * B, with two
// consumer regions that split the rows of the block's tile:
//
//   A: M x K, B: K x N, C: M x N, all f16 (row-major); f32 accumulation.
//
// Each block of 384 threads (three warpgroups) computes a 256 x 128 tile of
// C, stepping K by 64 through a pipe of 4 slots. A slot holds a 256 x 64
// tile of A as two 128-row halves (a 2 x 128 x 64 shared tile) and a
// 64 x 128 tile of B:
//
//   tile.ws [0] registers(40)    the producer: its first thread waits for
//                                a free slot (produce_acquire) and issues
//                                the slot's three tensor copies (TMA);
//   tile.ws [1] registers(232)   consumer 1: rows 0..127 of the tile, its
//                                own 128 x 128 accumulator, from the first
//                                half of A and all of B (wgmma over its 4
//                                warps, two 64-row slabs);
//   tile.ws [2] registers(232)   consumer 2: rows 128..255, from the second
//                                half of A and the same B.
//
// Both consumers wait for every hand-off of the one pipe and both release
// it: the slot is free once all 8 consumer warps have released it (its
// empty barrier counts the warps of both regions). setmaxnreg moves
// registers from the producer to the consumers: a block of 384 threads
// starts with 168 per thread, and 40 x 128 + 2 x 232 x 128 = 168 x 384.
//
// Tensor copies need 16-byte aligned tensors whose rows are multiples of 16
// bytes (K and N multiples of 8 here). The host function tests that (as
// tile-select-tma's version test does) and otherwise launches a simple
// kernel (copies through the copy engine, no pipeline), so every M, N and K
// works; edges need no care (copies read zeros outside the tensors and
// drop writes outside them). The signature and `tile.shape` annotations
// are examples/gemm.mlir's, so that tile-gemm-bench checks and times it.
//
// GPU check: here, build the bundle (tile-gemm-bench, the runtime) and add
// this library to it:
//
//   scripts/gpu-bundle.sh
//   mkdir -p build-gpu/aot/ws-split
//   ./build/bin/tile-compile test/Examples/Inputs/gemm_ws_split.mlir \
//       -o build-gpu/aot/ws-split/libgemm.so \
//       --header build-gpu/aot/ws-split/gemm.h \
//       --chip sm_90a --format bin --runtime-dir build/lib
//
// then on the GPU machine (device tool: carry ["build-gpu"]):
//
//   cd build-gpu && export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$PWD &&
//   ./tile-gemm-bench --check --library=aot/ws-split/libgemm.so \
//       --dtype=f16 \
//       --shapes=256x128x64,1024x1024x1024,1000x520x200,4096x4096x4096 &&
//   ./tile-gemm-bench --library=aot/ws-split/libgemm.so --dtype=f16
//
// (4095x4097x1023 or --offset=1 check the fall-back kernel instead.)
// test/Conversion/ptxas-ws.mlir assembles its kernels for sm_90a.

!gA = memref<?x?xf16>
!gB = memref<?x?xf16>
!gC = memref<?x?xf16>
!sA = memref<4x2x128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<4x64x128xf16, #gpu.address_space<workgroup>>
!vA = memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!vB = memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// Whether tensor copies can read `t`: a 16-byte aligned first element, rows
// 16-byte multiples apart and at least as long as a row, unit inner stride,
// extents a tensor map describes.
func.func private @tma_ok(%t: !gA) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c2p31 = arith.constant 2147483648 : index
  %c2p40 = arith.constant 1099511627776 : index
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %t
      : !gA -> memref<f16>, index, index, index, index, index
  %ptr = memref.extract_aligned_pointer_as_index %t : !gA -> index
  %offsetBytes = arith.muli %offset, %c2 : index
  %first = arith.addi %ptr, %offsetBytes : index
  %firstRem = arith.remui %first, %c16 : index
  %aligned = arith.cmpi eq, %firstRem, %c0 : index
  %rowBytes = arith.muli %strides#0, %c2 : index
  %rowRem = arith.remui %rowBytes, %c16 : index
  %rowsAligned = arith.cmpi eq, %rowRem, %c0 : index
  %unit = arith.cmpi eq, %strides#1, %c1 : index
  %apart = arith.cmpi sge, %strides#0, %sizes#1 : index
  %rowsFit = arith.cmpi slt, %rowBytes, %c2p40 : index
  %rows1 = arith.cmpi sge, %sizes#0, %c1 : index
  %rows2 = arith.cmpi slt, %sizes#0, %c2p31 : index
  %cols1 = arith.cmpi sge, %sizes#1, %c1 : index
  %cols2 = arith.cmpi slt, %sizes#1, %c2p31 : index
  %t0 = arith.andi %aligned, %rowsAligned : i1
  %t1 = arith.andi %t0, %unit : i1
  %t2 = arith.andi %t1, %apart : i1
  %t3 = arith.andi %t2, %rowsFit : i1
  %t4 = arith.andi %t3, %rows1 : i1
  %t5 = arith.andi %t4, %rows2 : i1
  %t6 = arith.andi %t5, %cols1 : i1
  %ok = arith.andi %t6, %cols2 : i1
  return %ok : i1
}

func.func @gemm(%A: !gA {tile.shape = ["M", "K"]},
                %B: !gB {tile.shape = ["K", "N"]},
                %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %okA = func.call @tma_ok(%A) : (!gA) -> i1
  %okB = func.call @tma_ok(%B) : (!gB) -> i1
  %tma = arith.andi %okA, %okB : i1
  scf.if %tma {
    %gx = arith.ceildivui %N, %c128 : index
    %gy = arith.ceildivui %M, %c256 : index
    %kt = arith.ceildivui %K, %c64 : index
    tile.kernel @gemm_ws_split_kernel blocks(%bx, %by) in [%gx, %gy]
        threads(384) {
      %pipe = tile.pipe.create : <4>
      %As = tile.alloc : !sA
      %Bs = tile.alloc : !sB
      %acc1 = tile.alloc : !fC
      %acc2 = tile.alloc : !fC
      %m0 = arith.muli %by, %c256 : index
      %m1 = arith.addi %m0, %c128 : index
      %n0 = arith.muli %bx, %c128 : index

      // The producer warpgroup: both halves of A and B per hand-off.
      tile.ws [0] registers(40) {
        scf.for %k = %c0 to %kt step %c1 {
          tile.pipe.produce_acquire %pipe[%k] : <4>
          %slot = arith.remui %k, %c4 : index
          %a1 = memref.subview %As[%slot, 0, 0, 0] [1, 1, 128, 64]
              [1, 1, 1, 1] : !sA to !vA
          %a2 = memref.subview %As[%slot, 1, 0, 0] [1, 1, 128, 64]
              [1, 1, 1, 1] : !sA to !vA
          %b = memref.subview %Bs[%slot, 0, 0] [1, 64, 128] [1, 1, 1]
              : !sB to !vB
          %k0 = arith.muli %k, %c64 : index
          tile.copy async tma %A[%m0, %k0], %a1 : !gA to !vA
          tile.copy async tma %A[%m1, %k0], %a2 : !gA to !vA
          tile.copy async tma %B[%k0, %n0], %b : !gB to !vB
          tile.pipe.produce_commit %pipe[%k] : <4>
        }
      }

      // Consumer 1: rows 0..127 of the tile, on warpgroup 1 only.
      tile.ws [1] registers(232) {
        %zero = arith.constant 0.0 : f32
        tile.fill %acc1, %zero : !fC
        scf.for %k = %c0 to %kt step %c1 {
          tile.pipe.consume_wait %pipe[%k] in_flight(0) : <4>
          %slot = arith.remui %k, %c4 : index
          %a = memref.subview %As[%slot, 0, 0, 0] [1, 1, 128, 64]
              [1, 1, 1, 1] : !sA to !vA
          %b = memref.subview %Bs[%slot, 0, 0] [1, 64, 128] [1, 1, 1]
              : !sB to !vB
          tile.gemm %a, %b, %acc1 : !vA, !vB, !fC
          tile.pipe.consume_release %pipe[%k] : <4>
        }
        tile.copy %acc1, %C[%m0, %n0] : !fC to !gC
      }

      // Consumer 2: rows 128..255, on warpgroup 2 only.
      tile.ws [2] registers(232) {
        %zero = arith.constant 0.0 : f32
        tile.fill %acc2, %zero : !fC
        scf.for %k = %c0 to %kt step %c1 {
          tile.pipe.consume_wait %pipe[%k] in_flight(0) : <4>
          %slot = arith.remui %k, %c4 : index
          %a = memref.subview %As[%slot, 1, 0, 0] [1, 1, 128, 64]
              [1, 1, 1, 1] : !sA to !vA
          %b = memref.subview %Bs[%slot, 0, 0] [1, 64, 128] [1, 1, 1]
              : !sB to !vB
          tile.gemm %a, %b, %acc2 : !vA, !vB, !fC
          tile.pipe.consume_release %pipe[%k] : <4>
        }
        tile.copy %acc2, %C[%m1, %n0] : !fC to !gC
      }
    }
  } else {
    // The fall-back: a 128 x 128 tile per block of one warpgroup.
    %gx = arith.ceildivui %N, %c128 : index
    %gy = arith.ceildivui %M, %c128 : index
    %kt = arith.ceildivui %K, %c32 : index
    tile.kernel @gemm_ws_split_fallback blocks(%bx, %by) in [%gx, %gy]
        threads(128) {
      %As = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
      %Bs = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
      %acc = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
      %zero = arith.constant 0.0 : f32
      tile.fill %acc, %zero : memref<128x128xf32, #tile.mem<fragment>>
      %m0 = arith.muli %by, %c128 : index
      %n0 = arith.muli %bx, %c128 : index
      scf.for %k = %c0 to %kt step %c1 {
        %k0 = arith.muli %k, %c32 : index
        tile.copy %A[%m0, %k0], %As
            : !gA to memref<128x32xf16, #gpu.address_space<workgroup>>
        tile.copy %B[%k0, %n0], %Bs
            : !gB to memref<32x128xf16, #gpu.address_space<workgroup>>
        tile.gemm %As, %Bs, %acc
            : memref<128x32xf16, #gpu.address_space<workgroup>>,
              memref<32x128xf16, #gpu.address_space<workgroup>>,
              memref<128x128xf32, #tile.mem<fragment>>
      }
      tile.copy %acc, %C[%m0, %n0]
          : memref<128x128xf32, #tile.mem<fragment>> to !gC
    }
  }
  return
}
