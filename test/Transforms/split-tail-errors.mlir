// RUN: tile-opt %s -split-input-file --tile-persistent-blocks --tile-split-tail -verify-diagnostics

// tile-split-tail: a kernel that asks for its last wave split
// (tile.split_tail > 1) and breaks one of the rules the rewrite needs.

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @per_tile(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @below {{tile.split_tail = 4 cannot split the kernel's last wave: it is not persistent}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(256) attributes {tile.persistent = 0 : i64, tile.split_tail = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%by, %bx] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @paired(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @below {{tile.split_tail = 4 cannot split the kernel's last wave: its tiles are paired in clusters}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(256) attributes {tile.cluster = 2 : i64, tile.split_tail = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%by, %bx] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @biased(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @below {{tile.split_tail = 4 cannot split the kernel's last wave: its accumulator is written before the loop other than by a zero fill}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(256) attributes {tile.split_tail = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 1.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%by, %bx] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx942">} {
func.func @amd(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @below {{tile.split_tail = 2 needs a workspace allocated by the CUDA runtime: the kernel's target is not an NVIDIA chip}}
  tile.kernel @k blocks(%bx, %by) in [%gx, %gy] threads(256) attributes {tile.persistent = 64 : i64, tile.split_tail = 2 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%by, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %bx], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 4 : i64}
    tile.copy %acc, %C[%by, %bx] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

func.func @zero(%gx: index) {
  // expected-error @below {{'tile.split_tail' must be a positive integer}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_tail = 0 : i64} {
  }
  return
}

// -----

func.func @not_kernel() attributes {tile.split_tail = 2 : i64} {
  // expected-error @above {{'tile.split_tail' may only be attached to a tile.kernel}}
  return
}

