// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-select-mma

// FP8 operands must be stored K-contiguous on NVIDIA: B as N x K ("TN").
!sA = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @b_k_by_n() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{FP8 matrix instructions read B with K contiguous only: store B as N x K ("TN", B transposed) and use transpose_b}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}

// -----

!sA = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @a_k_by_m() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{FP8 matrix instructions read A with K contiguous only: store A as M x K, without transpose_a}}
    tile.gemm %a, %b, %c transpose_a transpose_b : !sA, !sB, !fC
  }
  return
}

// -----

// Chips without FP8 matrix instructions name themselves.
!sA = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @sm80() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{8-bit float inputs need FP8 matrix instructions, which sm_80 does not have (sm_89 and later)}}
    tile.gemm %a, %b, %c transpose_b : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @gfx90a() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{fp8 inputs need fp8 matrix cores, which gfx90a does not have (they start with gfx942)}}
    tile.gemm %a, %b, %c transpose_b : !sA, !sB, !fC
  }
  return
}
}

// -----

// The flavours: NVIDIA reads the OCP formats, gfx942 the FNUZ ones.
!sA = memref<64x64xf8E4M3FNUZ, #gpu.address_space<workgroup>>
!sB = memref<64x64xf8E4M3FNUZ, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @fnuz_on_nvidia() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{'f8E4M3FNUZ' is the FNUZ flavour of CDNA3; NVIDIA's FP8 instructions read f8E4M3FN and f8E5M2}}
    tile.gemm %a, %b, %c transpose_b : !sA, !sB, !fC
  }
  return
}

// -----

!sA = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @ocp_on_gfx942() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{fp8 MFMA on gfx942 reads the FNUZ flavours (f8E4M3FNUZ, f8E5M2FNUZ), got 'f8E4M3FN'}}
    tile.gemm %a, %b, %c transpose_b : !sA, !sB, !fC
  }
  return
}
}

// -----

// mma.sync on 8-bit floats is PTX ISA 8.4's.
!sA = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
module attributes {tile.target = #tile.target<"sm_89", "+ptx80">} {
func.func @old_ptx() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mma.sync on 8-bit floats needs PTX ISA 8.4, but sm_89 is compiled with +ptx80 here (the target's features)}}
    tile.gemm %a, %b, %c transpose_b : !sA, !sB, !fC
  }
  return
}
}

// -----

// A pinned promotion span wgmma cannot take.
!sA = memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
!sB = memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @bad_span() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma promotes partial sums every multiple of 32 of K, got promote_k = 16}}
    tile.gemm %a, %b, %c transpose_b {mma = #tile.mma<wgmma, shape = [64, 64, 32], warps = [4, 1]>, promote_k = 16 : i64} : !sA, !sB, !fC
  }
  return
}

// -----

// FP8 wgmma sums its products in reduced precision: the partial sums are
// promoted every 128 of K, which completes the gemm's MMAs. A gemm that
// asks to leave MMA groups in flight cannot have that chosen for it (a
// fuzz finding: the choice made a gemm the verifier rejects).
!sA = memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @promotion_in_flight() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %c = tile.alloc : !fC
    // expected-error @+1 {{needs its partial sums promoted every 128 of K (wgmma on sm_90a), which completes its MMAs: it can neither leave MMA groups in flight nor accumulate on a condition (promote_k = 0 opts out)}}
    tile.gemm %a, %a, %c transpose_b {mma_groups_in_flight = 1 : i64} : !sA, !sA, !fC
  }
  return
}
