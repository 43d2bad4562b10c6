// RUN: tile-opt %s -split-input-file --tile-split-k -verify-diagnostics

// tile-split-k: a kernel that asks for split-K (tile.split_k > 1) and breaks
// one of the rules the rewrite needs.

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @grid3(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its grid has three dimensions}}
  tile.kernel @k blocks(%x, %y, %z) in [%gx, 2, 2] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @no_loop(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its body has no loop}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @two_loops(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its body has more than one loop}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @results(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its loop has results}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %r = scf.for %k = %c0 to %kt step %c1 iter_args(%i = %c0) -> (index) {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
      scf.yield %k : index
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @inner_bounds(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its loop bounds are computed in the kernel}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %ub = arith.addi %bx, %kt : index
    scf.for %k = %c0 to %ub step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @no_gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its loop has no tile.gemm}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @two_accs(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its gemms accumulate into different tiles}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %acc2 = tile.alloc : !fC
    tile.fill %acc2, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
      tile.gemm %As, %Bs, %acc2 : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @clear(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: a gemm of its loop may overwrite the accumulator}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc clear_accum : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @f16_acc(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its accumulator is not a two-dimensional f32 register tile}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : memref<64x128xf16, #tile.mem<fragment>>
    %zero = arith.constant 0.0 : f16
    tile.fill %acc, %zero : memref<64x128xf16, #tile.mem<fragment>>
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, memref<64x128xf16, #tile.mem<fragment>>
    }
    tile.copy %acc, %C[%c0, %c0] : memref<64x128xf16, #tile.mem<fragment>> to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @used_in_loop(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its accumulator is used in the loop other than by its gemms}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
      tile.copy %acc, %C[%c0, %k] : !fC to memref<?x?xf32>
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @nonzero_fill(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its accumulator is written before the loop other than by a zero fill}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %one = arith.constant 1.0 : f32
    tile.fill %acc, %one : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @global_write(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: it writes global memory before its epilogue}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    memref.store %zero, %C[%c0, %c0] : memref<?x?xf32>
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @reads_loop_tile(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its epilogue reads a tile its loop writes}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    %Cf = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    tile.copy %As, %Cf : !sA to memref<64x64xf32, #tile.mem<fragment>>
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @handwritten(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: it has hand-written 'tile.ws'}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    tile.ws [0] {
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"gfx942">} {
func.func @amd(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 needs a workspace allocated by the CUDA runtime: the kernel's target is not an NVIDIA chip}}
  tile.kernel @k blocks(%bx) in [%gx] threads(256) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

func.func @zero(%gx: index) {
  // expected-error @below {{'tile.split_k' must be a positive integer}}
  tile.kernel @k blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 0 : i64} {
  }
  return
}

// -----

!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x256xf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

module attributes {tile.target = #tile.target<"sm_89">} {
func.func @too_large(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{tile.split_k = 4 cannot split the kernel's loop: its accumulator's 131072 bytes, which the reduction stages in shared memory, exceed the chip's 101376}}
  tile.kernel @k blocks(%bx) in [%gx] threads(256) attributes {tile.split_k = 4 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %A[%c0, %k], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k, %c0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %c0] : !fC to memref<?x?xf32>
  }
  return
}
}
