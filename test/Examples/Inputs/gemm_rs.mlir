// A GPU correctness check of the register-A (RS) form of Hopper wgmma:
// C = A * B where each K step loads the A tile from global memory straight
// into a register fragment (tile.copy global -> fragment) and the B tile
// into shared memory, so that on sm_90a the gemm is a wgmma with A from
// registers and B from a shared-memory descriptor.
//
//   A: M x K, B: K x N, C: M x N, all bf16 (row-major); f32 accumulation.
//
// The host functions have the signature and `tile.shape` annotations of
// examples/gemm.mlir's `gemm`, so that tile-gemm-bench checks them against
// cuBLAS and a CPU reference. Each block computes a 128 x 128 tile of C
// stepping K by 64; edges need no care (copies read zeros outside the
// tensors and drop writes outside them).
//
//   gemm            256 threads: 2 warpgroups, 64 rows (one m64n128k16
//                   slab) each.
//   gemm_1wg        128 threads: 1 warpgroup, two 64-row slabs (registers of
//                   the second slab of the A fragment and the accumulator).
//   gemm_pipelined  gemm with a 3-stage pipeline: B through TMA (kernel
//                   gemm_rs_pipelined_kernel_tma, where the tensors allow it)
//                   or cp.async, A loaded in the gemm's stage; the wgmma
//                   group completes in each iteration (a gemm reading
//                   registers is never left in flight).
//
// The first two K loops are not pipelined: the check is about the
// instruction and its register layout, not speed.
//
// GPU check: here, build the bundle (tile-gemm-bench, the runtime) and add
// this library to it:
//
//   scripts/gpu-bundle.sh
//   mkdir -p build-gpu/aot/rs
//   ./build/bin/tile-compile test/Examples/Inputs/gemm_rs.mlir \
//       -o build-gpu/aot/rs/libgemm.so --header build-gpu/aot/rs/gemm.h \
//       --chip sm_90a --format bin --runtime-dir build/lib
//
// then on the GPU machine (device tool: carry ["build-gpu"]):
//
//   cd build-gpu && export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$PWD &&
//   for f in gemm gemm_1wg gemm_pipelined; do
//     ./tile-gemm-bench --check --library=aot/rs/libgemm.so --function=$f \
//         --dtype=bf16 \
//         --shapes=128x128x64,256x256x512,1000x520x200,4095x4097x1023,4096x4096x4096 \
//       || echo "FAILED: $f"
//   done
//
// test/Conversion/ptxas.mlir assembles its kernels for sm_90a.

!gA = memref<?x?xbf16>
!gB = memref<?x?xbf16>
!gC = memref<?x?xbf16>
!fA = memref<128x64xbf16, #tile.mem<fragment>>
!sB = memref<64x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

func.func @gemm(%A: !gA {tile.shape = ["M", "K"]},
                %B: !gB {tile.shape = ["K", "N"]},
                %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %c128 : index
  %gy = arith.ceildivui %M, %c128 : index
  %kt = arith.ceildivui %K, %c64 : index

  tile.kernel @gemm_rs_kernel blocks(%bx, %by) in [%gx, %gy] threads(256) {
    %Af = tile.alloc : !fA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC

    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0], %Af : !gA to !fA
      tile.copy %B[%k0, %n0], %Bs : !gB to !sB
      tile.gemm %Af, %Bs, %acc : !fA, !sB, !fC
    }

    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}

func.func @gemm_1wg(%A: !gA {tile.shape = ["M", "K"]},
                    %B: !gB {tile.shape = ["K", "N"]},
                    %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %c128 : index
  %gy = arith.ceildivui %M, %c128 : index
  %kt = arith.ceildivui %K, %c64 : index

  tile.kernel @gemm_rs_1wg_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(128) {
    %Af = tile.alloc : !fA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC

    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0], %Af : !gA to !fA
      tile.copy %B[%k0, %n0], %Bs : !gB to !sB
      tile.gemm %Af, %Bs, %acc : !fA, !sB, !fC
    }

    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}

func.func @gemm_pipelined(%A: !gA {tile.shape = ["M", "K"]},
                          %B: !gB {tile.shape = ["K", "N"]},
                          %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %c128 : index
  %gy = arith.ceildivui %M, %c128 : index
  %kt = arith.ceildivui %K, %c64 : index

  tile.kernel @gemm_rs_pipelined_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(256) {
    %Af = tile.alloc : !fA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC

    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0], %Af : !gA to !fA
      tile.copy %B[%k0, %n0], %Bs : !gB to !sB
      tile.gemm %Af, %Bs, %acc : !fA, !sB, !fC
    } {tile.num_stages = 3 : i64}

    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
