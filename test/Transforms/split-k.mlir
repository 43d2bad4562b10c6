// RUN: tile-opt %s -split-input-file --tile-split-k="remarks=true" -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-split-k="splits=4" 2>/dev/null | FileCheck %s --check-prefix=S4
// RUN: tile-opt %s -split-input-file --tile-split-k="decide=false" 2>/dev/null | FileCheck %s --check-prefix=OFF

// tile-split-k: a GEMM kernel's K loop split over more blocks where its grid
// leaves multiprocessors idle; the count is picked on the host, at run time.

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

// The count: min(most, multiprocessors / blocks, trips / 32), split where >= 2.
// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[C:.*]]: memref<?x?xf16>, %[[GX:.*]]: index, %[[GY:.*]]: index, %[[KT:.*]]: index)
// CHECK: %[[SPAN:.*]] = arith.maxsi
// CHECK: %[[TRIPS:.*]] = arith.ceildivui %[[SPAN]], %{{.*}} : index
// CHECK: %[[BLOCKS:.*]] = arith.muli %[[GX]], %[[GY]] : index
// CHECK: %[[SMS:.*]] = arith.constant 132 : index
// CHECK: %[[FILL:.*]] = arith.divui %[[SMS]], %{{.*}} : index
// CHECK: %[[EIGHT:.*]] = arith.constant 32 : index
// CHECK: %[[DEEP:.*]] = arith.divui %[[TRIPS]], %[[EIGHT]] : index
// CHECK: %[[LEAST:.*]] = arith.minui %[[FILL]], %[[DEEP]] : index
// CHECK: %[[MOST:.*]] = arith.constant 16 : index
// CHECK: %[[S:.*]] = arith.minui %[[LEAST]], %[[MOST]] : index
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[SPLIT:.*]] = arith.cmpi uge, %[[S]], %[[TWO]] : index
// CHECK: scf.if %[[SPLIT]] {
// The workspace: S x gy tiles of 64 rows, gx tiles of 128 columns, on a
// stream; nothing launched if it could not be allocated.
// CHECK: %[[CHUNK:.*]] = arith.ceildivui %[[TRIPS]], %[[S]] : index
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[WS:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] ({{.*}}) : memref<?x?xf32>
// CHECK: gpu.wait [%[[T1]]]
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[WS]]
// CHECK: %[[MADE:.*]] = arith.cmpi ne, %[[PTR]]
// CHECK: scf.if %[[MADE]] {
// The partial sums: the split is the grid's z; its part of the loop; the
// accumulator to the workspace in place of the epilogue.
// CHECK: tile.kernel @gemm_kernel_split blocks(%[[X:.*]], %[[Y:.*]], %[[Z:.*]]) in [%[[GX]], %[[GY]], %[[S]]] threads(128) attributes {tile.launch_group = 2 : i64, tile.split_k = 1 : i64, tile.split_tail = 1 : i64} {
// CHECK: %[[ACC:.*]] = tile.alloc : memref<64x128xf32, #tile.mem<fragment>>
// CHECK: tile.fill %[[ACC]]
// CHECK: %[[STRIDE:.*]] = arith.muli %[[CHUNK]], %{{.*}} : index
// CHECK: %[[FROM:.*]] = arith.muli %[[Z]], %[[STRIDE]] : index
// CHECK: %[[FIRST:.*]] = arith.addi %{{.*}}, %[[FROM]] : index
// CHECK: %[[END:.*]] = arith.addi %[[FIRST]], %[[STRIDE]] : index
// CHECK: %[[LAST:.*]] = arith.minsi %[[END]], %[[KT]] : index
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step
// CHECK: tile.gemm
// CHECK: } {tile.num_stages = 3 : i64}
// CHECK: %[[ZR:.*]] = arith.muli %[[Z]], %[[GY]] : index
// CHECK: %[[ZY:.*]] = arith.addi %[[ZR]], %[[Y]] : index
// CHECK: %[[ROW:.*]] = arith.muli %[[ZY]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.muli %[[X]], %{{.*}} : index
// CHECK: tile.copy %[[ACC]], %[[WS]][%[[ROW]], %[[COL]]] : memref<64x128xf32, #tile.mem<fragment>> to memref<?x?xf32>
// CHECK-NOT: tile.copy
// CHECK: }
// The sum in split order, then the epilogue; the shared operand tiles are
// gone. The tile's 64 rows are spread over 4 blocks of 16 (the grid's z):
// the tiles of the accumulator's shape are 16 rows, moved 16 z rows down.
// CHECK: tile.kernel @gemm_kernel_reduce blocks(%[[RX:.*]], %[[RY:.*]], %[[RZ:.*]]) in [%[[GX]], %[[GY]], 4] threads(128) attributes {tile.split_k = 1 : i64} {
// CHECK: %[[SIXTEEN:.*]] = arith.constant 16 : index
// CHECK: %[[SLICE:.*]] = arith.muli %[[RZ]], %[[SIXTEEN]] : index
// CHECK-NOT: xf16, #gpu.address_space<workgroup>
// CHECK: %[[RACC:.*]] = tile.alloc : memref<16x128xf32, #tile.mem<fragment>>
// CHECK: tile.fill %[[RACC]]
// CHECK: %[[M0:.*]] = arith.muli %[[RY]], %{{.*}} : index
// CHECK: %[[PART:.*]] = tile.alloc : memref<16x128xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[S]] step
// CHECK: %[[PZ:.*]] = arith.muli %[[I]], %[[GY]] : index
// CHECK: %[[PY:.*]] = arith.addi %[[PZ]], %[[RY]] : index
// CHECK: %[[PROW:.*]] = arith.muli %[[PY]], %{{.*}} : index
// CHECK: %[[PCOL:.*]] = arith.muli %[[RX]], %{{.*}} : index
// CHECK: %[[SROW:.*]] = arith.addi %[[PROW]], %[[SLICE]] : index
// CHECK: tile.copy %[[WS]][%[[SROW]], %[[PCOL]]], %[[PART]] : memref<?x?xf32> to memref<16x128xf32, #gpu.address_space<workgroup>>
// CHECK: tile.parallel (%[[R:.*]], %[[K:.*]]) in [16, 128] {
// CHECK: memref.load %[[RACC]][%[[R]], %[[K]]]
// CHECK: memref.load %[[PART]][%[[R]], %[[K]]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[RACC]][%[[R]], %[[K]]]
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [16, 128] {
// CHECK: arith.maximumf
// CHECK: %[[CROW:.*]] = arith.addi %[[M0]], %[[SLICE]] : index
// CHECK: tile.copy %[[RACC]], %[[C]][%[[CROW]], %{{.*}}] : memref<16x128xf32, #tile.mem<fragment>> to memref<?x?xf16>
// CHECK: }
// CHECK: %[[F0:.*]] = gpu.wait async
// CHECK: %[[F1:.*]] = gpu.dealloc async [%[[F0]]] %[[WS]]
// CHECK: gpu.wait [%[[F1]]]
// CHECK: } else {
// The kernel as written.
// CHECK: tile.kernel @gemm_kernel blocks(%{{.*}}, %{{.*}}) in [%[[GX]], %[[GY]]] threads(128) attributes {tile.launch_group = 2 : i64, tile.split_k = 1 : i64} {
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KT]] step

// S4: %[[MOST:.*]] = arith.constant 4 : index
// S4: arith.minui %{{.*}}, %[[MOST]] : index
// S4: tile.kernel @gemm_kernel_split

// OFF-LABEL: func.func @gemm(
// OFF-NOT: scf.if
// OFF-NOT: _split
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @gemm(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{split-K: up to 16 splits of the K loop where the grid leaves multiprocessors idle (picked at run time)}}
  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(128) attributes {tile.launch_group = 2 : i64} {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %m0 = arith.muli %by, %c64 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %n0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    tile.parallel (%i, %j) in [64, 128] {
      %v = memref.load %acc[%i, %j] : !fC
      %r = arith.maximumf %v, %zero : f32
      memref.store %r, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf16>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

// A one-dimensional grid gets a second dimension; splits stack on rows.
// CHECK-LABEL: func.func @row
// CHECK: tile.kernel @row_kernel_split blocks(%[[X:.*]], %[[Z:.*]]) in [%{{.*}}, %{{.*}}] threads(128)
// CHECK: tile.gemm
// CHECK: }
// CHECK: %[[ZR:.*]] = arith.muli %[[Z]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.muli %[[ZR]], %{{.*}} : index
// CHECK: tile.copy %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}]
// CHECK: tile.kernel @row_kernel_reduce blocks(%{{.*}}, %{{.*}}) in [%{{.*}}, 4]
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @row(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{split-K: up to 16 splits}}
  tile.kernel @row_kernel blocks(%bx) in [%gx] threads(128) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %c128 = arith.constant 128 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %c64 = arith.constant 64 : index
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%c0, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %n0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %acc, %C[%c0, %n0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>
!fR = memref<64xf32, #tile.mem<fragment>>

// An epilogue that indexes another register tile by the row (a row scale)
// is not sliced: one block per tile sums and stores it whole.
// CHECK-LABEL: func.func @row_scaled
// CHECK: tile.kernel @row_scaled_kernel_reduce blocks(%{{.*}}, %{{.*}}) in [%{{.*}}, %{{.*}}] threads(128) attributes {tile.split_k = 1 : i64} {
// CHECK: tile.alloc : memref<64x128xf32, #tile.mem<fragment>>
// CHECK: tile.alloc : memref<64x128xf32, #gpu.address_space<workgroup>>
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [64, 128]
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @row_scaled(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %S: memref<?xf32>, %C: memref<?x?xf32>, %gx: index, %gy: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{split-K: up to 16 splits}}
  tile.kernel @row_scaled_kernel blocks(%bx, %by) in [%gx, %gy] threads(128) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %scale = tile.alloc : !fR
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %m0 = arith.muli %by, %c64 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c64 : index
      tile.copy %A[%m0, %k0], %As : memref<?x?xf16> to !sA
      tile.copy %B[%k0, %n0], %Bs : memref<?x?xf16> to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    }
    tile.copy %S[%m0], %scale : memref<?xf32> to !fR
    tile.parallel (%i, %j) in [64, 128] {
      %v = memref.load %acc[%i, %j] : !fC
      %s = memref.load %scale[%i] : !fR
      %r = arith.mulf %v, %s : f32
      memref.store %r, %acc[%i, %j] : !fC
    }
    tile.copy %acc, %C[%m0, %n0] : !fC to memref<?x?xf32>
  }
  return
}
}

// -----

!sA = memref<64x64xf16, #gpu.address_space<workgroup>>
!sB = memref<64x128xf16, #gpu.address_space<workgroup>>
!fC = memref<64x128xf32, #tile.mem<fragment>>

// tile.split_k = 1 opts out; AMD targets are not picked.
// CHECK-LABEL: func.func @opted_out
// CHECK-NOT: _split
// CHECK: tile.kernel @kept blocks
// CHECK-SAME: tile.split_k = 1
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @opted_out(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{K loop not split: tile.split_k = 1}}
  tile.kernel @kept blocks(%bx) in [%gx] threads(128) attributes {tile.split_k = 1 : i64} {
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

// CHECK-LABEL: func.func @amd
// CHECK-NOT: _split
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @amd(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %gx: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{K loop not split: its target is not an NVIDIA chip}}
  tile.kernel @amd_kernel blocks(%bx) in [%gx] threads(256) {
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

!sQ = memref<64x64xf16, #gpu.address_space<workgroup>>
!fS = memref<64x64xf32, #tile.mem<fragment>>

// A kernel whose accumulator its loop rescales (FlashAttention's) is not
// a split-K candidate: the pass says why and leaves it.
// CHECK-LABEL: func.func @rescaled
// CHECK-NOT: _split
module attributes {tile.target = #tile.target<"sm_90a">} {
func.func @rescaled(%Q: memref<?x?xf16>, %O: memref<?x?xf32>, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{K loop not split: its accumulator is used in the loop other than by its gemms}}
  tile.kernel @attention blocks(%bx) in [4] threads(128) {
    %Qs = tile.alloc : !sQ
    %acc = tile.alloc : !fS
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    tile.fill %acc, %zero : !fS
    scf.for %k = %c0 to %kt step %c1 {
      tile.copy %Q[%c0, %k], %Qs : memref<?x?xf16> to !sQ
      tile.parallel (%i, %j) in [64, 64] {
        %v = memref.load %acc[%i, %j] : !fS
        %s = arith.mulf %v, %half : f32
        memref.store %s, %acc[%i, %j] : !fS
      }
      tile.gemm %Qs, %Qs, %acc : !sQ, !sQ, !fS
    }
    tile.copy %acc, %O[%c0, %c0] : !fS to memref<?x?xf32>
  }
  return
}
}
