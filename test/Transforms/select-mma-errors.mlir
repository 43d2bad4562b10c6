// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-select-mma

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// wgmma is not an sm_80 instruction.
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @wgmma_on_sm80() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma needs sm_90a; the target is sm_80}}
    tile.gemm %a, %b, %c {mma = #tile.mma<wgmma, shape = [64, 64, 16], warps = [1, 1]>} : !sA, !sB, !fC
  }
  return
}
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// MFMA is AMD's.
func.func @mfma_on_nvidia() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mfma is an AMD instruction; the target is sm_90a}}
    tile.gemm %a, %b, %c {mma = #tile.mma<mfma, shape = [32, 32, 8], warps = [2, 2]>} : !sA, !sB, !fC
  }
  return
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// The wrong instruction shape for f16.
func.func @wrong_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mma.sync on sm_90a has the shape m16n8k16 for 'f16' inputs, got m16n8k8}}
    tile.gemm %a, %b, %c {mma = #tile.mma<mma_sync, shape = [16, 8, 8], warps = [2, 2]>} : !sA, !sB, !fC
  }
  return
}

// -----

!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// A partition over another number of warps than execute the gemm.
func.func @wrong_warps() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{the mma choice partitions the gemm over 2x4 warps, but it is executed by 4 warps}}
    tile.gemm %a, %b, %c {mma = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [2, 4]>} : !sA, !sB, !fC
  }
  return
}

// -----

!sA = memref<64x32xf32, #gpu.address_space<workgroup>>
!sB = memref<32x64xf32, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>

// Element types the target's instruction does not take, named at selection.
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @tf32_selection() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mma.sync on sm_80 supports f16 and bf16 inputs, got 'f32'}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

// Invalid attribute parameters.
// expected-error @+1 {{expects warps = [warpsM, warpsN], got 1 sizes}}
func.func @bad_attr() attributes {x = #tile.mma<mma_sync, shape = [16, 8, 16], warps = [4]>} {
  return
}

// -----

// N may be a multiple of 8 that is not a power of two (m64n144); M and K
// may not.
func.func @n144_attr() attributes {x = #tile.mma<wgmma, shape = [64, 144, 32], warps = [8, 1]>} {
  return
}

// -----

// expected-error @+1 {{instruction sizes must be positive powers of two (N also a multiple of 8), got [64, 148, 32]}}
func.func @n148_attr() attributes {x = #tile.mma<wgmma, shape = [64, 148, 32], warps = [8, 1]>} {
  return
}

// -----

// expected-error @+1 {{instruction sizes must be positive powers of two (N also a multiple of 8), got [48, 128, 32]}}
func.func @m48_attr() attributes {x = #tile.mma<wgmma, shape = [48, 128, 32], warps = [8, 1]>} {
  return
}

// -----

// A pinned wgmma must have the instruction shape of the gemm (m64nNk16).
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @wgmma_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma computes this gemm with m64nNk16, N a multiple of 8 dividing 64, got m64n128k16}}
    tile.gemm %a, %b, %c {mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [4, 1]>} : !sA, !sB, !fC
  }
  return
}

// -----

// wgmma splits the gemm along M over all the warps that execute it.
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @wgmma_warps() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma splits the gemm along M over its 4 warps: expected warps = [4, 1]}}
    tile.gemm %a, %b, %c {mma = #tile.mma<wgmma, shape = [64, 64, 16], warps = [2, 2]>} : !sA, !sB, !fC
  }
  return
}

// -----

// wgmma runs on whole warpgroups; M must cover 64 rows per warpgroup.
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @wgmma_rows() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma needs M to be a multiple of 64 x 2 warpgroups, got 64}}
    tile.gemm %a, %b, %c {mma = #tile.mma<wgmma, shape = [64, 64, 16], warps = [8, 1]>} : !sA, !sB, !fC
  }
  return
}

// -----

// wgmma reads A from shared memory or registers (the RS form), but B from
// shared memory only.
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!fB = memref<32x64xf16, #tile.mem<fragment>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @wgmma_register_b() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !fB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma reads B from shared memory}}
    tile.gemm %a, %b, %c {mma = #tile.mma<wgmma, shape = [64, 64, 16], warps = [4, 1]>} : !sA, !fB, !fC
  }
  return
}

// -----

// A pinned wgmma cannot read a B tile whose layout is fixed unswizzled.
!sA = memref<64x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x64xf16, #gpu.address_space<workgroup>>
!fC = memref<64x64xf32, #tile.mem<fragment>>
func.func @wgmma_unswizzled_b() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc {layout = #tile.shared<>} : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma needs swizzled operands: the B tile's layout is fixed to padded or unswizzled rows}}
    tile.gemm %a, %b, %c {mma = #tile.mma<wgmma, shape = [64, 64, 16], warps = [4, 1]>} : !sA, !sB, !fC
  }
  return
}

// -----

// A 128 x 192 accumulator on sm_80: mma.sync's layouts cover power-of-two
// tiles only (wgmma's pads the columns to one: select-mma.mlir).

!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x192xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x192xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_80">} {
func.func @mma_sync_n192() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{mma.sync needs N to be a power of two and a multiple of 8, got 192}}
    tile.gemm %a, %b, %c : !sA, !sB, !fC
  }
  return
}
}

// -----

// An instruction that does not divide the tile's width.

!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x192xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x192xf32, #tile.mem<fragment>>

func.func @wgmma_n192_asked() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma computes this gemm with m64nNk16, N a multiple of 8 dividing 192, got m64n128k16}}
    tile.gemm %a, %b, %c {mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [8, 1]>} : !sA, !sB, !fC
  }
  return
}

// -----

// 192 rows: the accumulator's rows are not padded.

!sA = memref<192x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xbf16, #gpu.address_space<workgroup>>
!fC = memref<192x128xf32, #tile.mem<fragment>>

func.func @wgmma_m192_asked() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !sA
    %b = tile.alloc : !sB
    %c = tile.alloc : !fC
    // expected-error @+1 {{wgmma needs M to be a power of two here (the accumulator's register layout), got 192}}
    tile.gemm %a, %b, %c {mma = #tile.mma<wgmma, shape = [64, 128, 16], warps = [4, 1]>} : !sA, !sB, !fC
  }
  return
}
