// An FP8 GEMM whose A operand comes from registers (wgmma's RS form): each
// K block of A is copied into a fragment, B (N x K) into shared memory.
// e4m3 in, bf16 out, per-tensor scales (the signature of
// examples/fp8_gemm.mlir's @fp8_gemm_tensor, which scripts/fp8-torch.py
// checks on the GPU).

!gA = memref<?x?xf8E4M3FN>
!gB = memref<?x?xf8E4M3FN>
!gC = memref<?x?xbf16>
!gS = memref<?xf32>
!fA = memref<64x64xf8E4M3FN, #tile.mem<fragment>>
!sB = memref<128x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

func.func @fp8_rs(%A: !gA {tile.shape = ["M", "K"]},
                  %B: !gB {tile.shape = ["N", "K"]},
                  %sa: !gS {tile.shape = ["1"]},
                  %sb: !gS {tile.shape = ["1"]},
                  %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 64 : index
  %BN = arith.constant 128 : index
  %BK = arith.constant 64 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c0 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @fp8_rs_kernel blocks(%bx, %by) in [%gx, %gy] threads(128) {
    %Af = tile.alloc : !fA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %BM : index
    %n0 = arith.muli %bx, %BN : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %BK : index
      tile.copy %A[%m0, %k0], %Af : !gA to !fA
      tile.copy %B[%n0, %k0], %Bs : !gB to !sB
      tile.gemm %Af, %Bs, %acc transpose_b : !fA, !sB, !fC
    }
    %a = memref.load %sa[%c0] : !gS
    %b = memref.load %sb[%c0] : !gS
    %s = arith.mulf %a, %b : f32
    tile.parallel (%i, %j) in [64, 128] {
      %x = memref.load %acc[%i, %j] : !fC
      %y = arith.mulf %x, %s : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
