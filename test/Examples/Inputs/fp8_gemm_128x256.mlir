// The per-tensor FP8 GEMM of examples/fp8_gemm.mlir with 128 x 256 tiles
// and fast accumulation (`promote_k = 0`: the tensor core sums all of K).
// Without the attribute it is @fp8_gemm_tensor below (the example's
// per-tensor kernel until it took 128 x 128 tiles), which promotes its
// partial sums every 128 of K with m64n128k32 instructions, two per 64-row
// slab.

!gA = memref<?x?xf8E4M3FN>
!gB = memref<?x?xf8E4M3FN>
!gC = memref<?x?xbf16>
!gS = memref<?xf32>
!gS2 = memref<?x?xf32>
!sA = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<256x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>
!fS = memref<128xf32, #tile.mem<fragment>>
!gCol = memref<?xf32, strided<[?], offset: ?>>

func.func @fp8_gemm_fast(%A: !gA {tile.shape = ["M", "K"]},
                           %B: !gB {tile.shape = ["N", "K"]},
                           %sa: !gS {tile.shape = ["1"]},
                           %sb: !gS {tile.shape = ["1"]},
                           %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 256 : index
  %BK = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c0 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @fp8_gemm_fast_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %BM : index
    %n0 = arith.muli %bx, %BN : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %BK : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%n0, %k0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc transpose_b {promote_k = 0 : i64} : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    %a = memref.load %sa[%c0] : !gS
    %b = memref.load %sb[%c0] : !gS
    %s = arith.mulf %a, %b : f32
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %y = arith.mulf %x, %s : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}

func.func @fp8_gemm_tensor(%A: !gA {tile.shape = ["M", "K"]},
                           %B: !gB {tile.shape = ["N", "K"]},
                           %sa: !gS {tile.shape = ["1"]},
                           %sb: !gS {tile.shape = ["1"]},
                           %C: !gC {tile.shape = ["M", "N"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BM = arith.constant 128 : index
  %BN = arith.constant 256 : index
  %BK = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c0 : !gB
  %gx = arith.ceildivui %N, %BN : index
  %gy = arith.ceildivui %M, %BM : index
  %kt = arith.ceildivui %K, %BK : index
  tile.kernel @fp8_gemm_tensor_kernel blocks(%bx, %by) in [%gx, %gy]
      threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %BM : index
    %n0 = arith.muli %bx, %BN : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %BK : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%n0, %k0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc transpose_b : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    %a = memref.load %sa[%c0] : !gS
    %b = memref.load %sb[%c0] : !gS
    %s = arith.mulf %a, %b : f32
    tile.parallel (%i, %j) in [128, 256] {
      %x = memref.load %acc[%i, %j] : !fC
      %y = arith.mulf %x, %s : f32
      memref.store %y, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to !gC
  }
  return
}
