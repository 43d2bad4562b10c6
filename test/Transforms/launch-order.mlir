// RUN: tile-opt %s -split-input-file --tile-launch-order="remarks=true" -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-launch-order="group=4" 2>/dev/null | FileCheck %s --check-prefix=G4
// RUN: not tile-opt %s -split-input-file --tile-launch-order="group=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// tile-launch-order: kernels whose blocks read operand panels shared along
// grid rows (y) and columns (x) get tile.launch_group; the rest keep the
// row-major order, and a kernel that has the attribute keeps it.

// BAD: error: tile-launch-order: group must be positive, got 0

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// A GEMM: A's tile moves with y, B's with x.
// CHECK-LABEL: func.func @gemm
// CHECK: tile.kernel @gemm_kernel {{.*}} attributes {tile.launch_group = 8 : i64}
// G4: tile.kernel @gemm_kernel {{.*}} attributes {tile.launch_group = 4 : i64}
func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @+1 {{launched in groups of 8 grid rows: its blocks share operand panels along both grid dimensions}}
  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(128) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%m0, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %n0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf16>
  }
  return
}

// -----

!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>

// The user's choice stays: 1 is the row-major order.
// CHECK-LABEL: func.func @kept
// CHECK: tile.kernel @kept_kernel {{.*}} attributes {tile.launch_group = 1 : i64}
// G4: tile.kernel @kept_kernel {{.*}} attributes {tile.launch_group = 1 : i64}
func.func @kept(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %gx: index, %gy: index) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  tile.kernel @kept_kernel blocks(%bx, %by) in [%gx, %gy] threads(128)
      attributes {tile.launch_group = 1 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    tile.copy %A[%m0, %c0], %As : memref<?x?xf16> to !sA
    tile.copy %B[%c0, %n0], %Bs : memref<?x?xf16> to !sB
    tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
  }
  return
}

// -----

// Element-wise: every copy moves with both indices, no panel is shared.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: tile.launch_group
// CHECK: return
func.func @elementwise(%X: memref<?x?xf32>, %Y: memref<?x?xf32>, %gx: index, %gy: index) {
  %c64 = arith.constant 64 : index
  // expected-remark @+1 {{launch order kept: no operand panels shared along both grid dimensions}}
  tile.kernel @scale blocks(%bx, %by) in [%gx, %gy] threads(128) {
    %t = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %r = arith.muli %by, %c64 : index
    %c = arith.muli %bx, %c64 : index
    tile.copy %X[%r, %c], %t : memref<?x?xf32> to memref<64x64xf32, #tile.mem<fragment>>
    tile.copy %t, %Y[%r, %c] : memref<64x64xf32, #tile.mem<fragment>> to memref<?x?xf32>
  }
  return
}

// -----

// A 1-D grid has no rows to group.
// CHECK-LABEL: func.func @one_dimensional
// CHECK-NOT: tile.launch_group
// CHECK: return
func.func @one_dimensional(%X: memref<?xf32>, %Y: memref<?xf32>, %g: index) {
  %c64 = arith.constant 64 : index
  // expected-remark @+1 {{launch order kept: no operand panels shared along both grid dimensions}}
  tile.kernel @copy1d blocks(%bx) in [%g] threads(64) {
    %t = tile.alloc : memref<64xf32, #tile.mem<fragment>>
    %o = arith.muli %bx, %c64 : index
    tile.copy %X[%o], %t : memref<?xf32> to memref<64xf32, #tile.mem<fragment>>
    tile.copy %t, %Y[%o] : memref<64xf32, #tile.mem<fragment>> to memref<?xf32>
  }
  return
}

// -----

!sA = memref<128x64xbf16, #gpu.address_space<workgroup>>
!sB = memref<256x64xbf16, #gpu.address_space<workgroup>>
!fC = memref<128x256xf32, #tile.mem<fragment>>

// A batched GEMM: the batch index z is in both panels; y and x still
// separate A's panel from B's.
// CHECK-LABEL: func.func @batched
// CHECK: tile.kernel @bmm {{.*}} attributes {tile.launch_group = 8 : i64}
func.func @batched(%A: memref<?x?x?xbf16>, %B: memref<?x?x?xbf16>, %gx: index, %gy: index, %nb: index) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  // expected-remark @+1 {{launched in groups of 8 grid rows}}
  tile.kernel @bmm blocks(%bx, %by, %bz) in [%gx, %gy, %nb] threads(256) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c256 : index
    tile.copy %A[%bz, %m0, %c0], %As : memref<?x?x?xbf16> to !sA
    tile.copy %B[%bz, %n0, %c0], %Bs : memref<?x?x?xbf16> to !sB
    tile.gemm %As, %Bs, %acc transpose_b : !sA, !sB, !fC
  }
  return
}
