// tile-prepare-host: host functions that launch kernels check their
// arguments, report through the tile runtime, launch on its current stream
// and skip empty grids; public functions get a C interface.
// RUN: tile-opt %s -split-input-file --tile-prepare-host | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-prepare-host="runtime=false c-interface=false" | FileCheck %s --check-prefix=PLAIN

module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k(%a: memref<?x?xf16>, %b: memref<?x?xf16>) kernel {
      gpu.return
    }
  }
  // CHECK-DAG: llvm.mlir.global internal constant @[[NAME:.*]]("gemm\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[NEGATIVE:.*]]("argument #0 has negative size \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[INDIM1:.*]](" in dimension 1\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[NULL0:.*]]("argument #0 (memref<?x?xf16>) is a null pointer but not empty\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[STRIDE1:.*]]("argument #1 has a non-positive stride in dimension 0\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[SHAPE:.*]]("argument #1 dimension 0 ('K') differs from argument #0 dimension 1 ('K')\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[EXACT:.*]]("argument #1 dimension 1 must be 64, got \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[INNER:.*]](" in dimension 1, but its type requires 1\00")
  // The arguments get the fully dynamic type of their rank, so that the
  // checks read the descriptor's sizes, strides and offset.
  // CHECK-LABEL: func.func @gemm(
  // CHECK-SAME: %arg0: memref<?x?xf16, strided<[?, ?], offset: ?>> {tile.shape = ["M", "K"]}
  // CHECK-SAME: %arg1: memref<?x?xf16, strided<[?, ?], offset: ?>> {tile.shape = ["K", "64"]}
  // CHECK-SAME: attributes {llvm.emit_c_interface}
  // CHECK: %[[N:.*]] = llvm.mlir.addressof @[[NAME]]
  // CHECK: call @tileRtHostBegin(%[[N]])
  // Negative sizes first.
  // CHECK: %[[META:.*]], %{{.*}}, %[[SZ0:[^ ,:]+]]:2, %{{.*}}:2 = memref.extract_strided_metadata %arg0
  // CHECK: arith.cmpi slt, %[[SZ0]]#0
  // CHECK: %[[NEG1:.*]] = arith.cmpi slt, %[[SZ0]]#1
  // CHECK-NEXT: scf.if %[[NEG1]] {
  // CHECK-NEXT: llvm.mlir.addressof @[[NEGATIVE]]
  // CHECK-NEXT: arith.index_cast %[[SZ0]]#1
  // CHECK-NEXT: llvm.mlir.addressof @[[INDIM1]]
  // CHECK: memref.extract_aligned_pointer_as_index %arg0
  // CHECK: scf.if
  // CHECK: %[[M:.*]] = llvm.mlir.addressof @[[NULL0]]
  // CHECK-NEXT: call @tileRtHostArgError(%[[N]], %[[M]])
  // CHECK: memref.extract_strided_metadata %arg1
  // CHECK: llvm.mlir.addressof @[[STRIDE1]]
  // CHECK: llvm.mlir.addressof @[[INNER]]
  // CHECK: llvm.mlir.addressof @[[SHAPE]]
  // CHECK: %[[E:.*]] = llvm.mlir.addressof @[[EXACT]]
  // CHECK-NEXT: %[[V:.*]] = arith.index_cast %{{.*}} : index to i64
  // CHECK-NEXT: %[[S:.*]] = llvm.mlir.addressof
  // CHECK-NEXT: call @tileRtHostArgErrorValue(%[[N]], %[[E]], %[[V]], %[[S]])
  // CHECK: %[[FAILED:.*]] = call @tileRtHostFailed()
  // CHECK: %[[OK:.*]] = arith.cmpi eq, %[[FAILED]]
  // CHECK: %[[STREAM:.*]] = call @tileRtHostStream()
  // CHECK: %[[TOKEN:.*]] = builtin.unrealized_conversion_cast %[[STREAM]] : !llvm.ptr to !gpu.async.token
  // CHECK: scf.if %[[OK]] {
  // CHECK: %[[A:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, 1] : memref<?x?xf16, strided<[?, ?], offset: ?>> to memref<?x?xf16>
  // CHECK: %[[B:.*]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, 1] : memref<?x?xf16, strided<[?, ?], offset: ?>> to memref<?x?xf16>
  // CHECK: memref.dim %[[A]]
  // CHECK: %[[NONEMPTY:.*]] = arith.cmpi sgt
  // CHECK: scf.if %[[NONEMPTY]] {
  // CHECK-NEXT: gpu.launch_func async [%[[TOKEN]]] @k_module::@k
  // CHECK-SAME: args(%[[A]] : memref<?x?xf16>, %[[B]] : memref<?x?xf16>)
  // CHECK: call @tileRtHostEnd(%[[STREAM]])
  // CHECK-NEXT: return
  // CHECK: func.func private @tileRtHostBegin(!llvm.ptr)
  // CHECK: func.func private @tileRtHostArgError(!llvm.ptr, !llvm.ptr)
  // CHECK: func.func private @tileRtHostArgErrorValue(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  // CHECK: func.func private @tileRtHostFailed() -> i32
  // CHECK: func.func private @tileRtHostStream() -> !llvm.ptr
  // CHECK: func.func private @tileRtHostEnd(!llvm.ptr)

  // PLAIN-LABEL: func.func @gemm(
  // PLAIN-SAME: memref<?x?xf16> {tile.shape = ["M", "K"]}
  // PLAIN-NOT: llvm.emit_c_interface
  // PLAIN-NOT: tileRt
  // PLAIN: scf.if
  // PLAIN-NEXT: gpu.launch_func @k_module::@k
  // PLAIN-NOT: tileRt
  func.func @gemm(%A: memref<?x?xf16> {tile.shape = ["M", "K"]},
                  %B: memref<?x?xf16> {tile.shape = ["K", "64"]}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %m = memref.dim %A, %c0 : memref<?x?xf16>
    gpu.launch_func @k_module::@k blocks in (%m, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%A : memref<?x?xf16>, %B : memref<?x?xf16>)
    return
  }
}

// -----

// A function that launches nothing gets no runtime calls; a private one no
// C interface. A static grid needs no emptiness test; a function with a
// result returns poison when a check fails.
module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @no_launch(
  // CHECK-SAME: attributes {llvm.emit_c_interface}
  // CHECK-NOT: tileRt
  // CHECK: return
  func.func @no_launch(%A: memref<4xf32>) {
    return
  }
  // CHECK-LABEL: func.func private @helper(
  // CHECK-NOT: llvm.emit_c_interface
  func.func private @helper() {
    return
  }
  // CHECK-LABEL: func.func @with_result(
  // CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i32) {
  // CHECK-NOT: scf.if
  // CHECK: gpu.launch_func async
  // CHECK: scf.yield %{{.*}} : i32
  // CHECK: } else {
  // CHECK: %[[P:.*]] = ub.poison : i32
  // CHECK: scf.yield %[[P]] : i32
  // CHECK: call @tileRtHostEnd
  // CHECK: return %[[R]] : i32
  func.func @with_result(%A: memref<8xf32>) -> i32 {
    %c1 = arith.constant 1 : index
    %r = arith.constant 7 : i32
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return %r : i32
  }
}

// -----

// Static sizes, strides and offset are checked against the caller's
// descriptor: FlashAttention's memref<?x?x128xf16> has sizes [?, ?, 128],
// strides [?, 128, 1] and offset 0. Calls in the module cast their operands
// to the new argument type; after the checks the body sees the type it was
// written for.
module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k(%q: memref<?x?x128xf16>) kernel {
      gpu.return
    }
  }
  // CHECK-DAG: llvm.mlir.global internal constant @[[SIZE:.*]]("argument #0 dimension 2 must be 128, got \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[NOTHING:.*]]("\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[NULL:.*]]("argument #0 (memref<?x?x128xf16>) is a null pointer but not empty\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[POSITIVE:.*]]("argument #0 has a non-positive stride in dimension 0\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[STRIDE:.*]]("argument #0 has stride \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[DIM1:.*]](" in dimension 1, but its type requires 128\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[DIM2:.*]](" in dimension 2, but its type requires 1\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[OFFSET:.*]]("argument #0 has offset \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[ZERO:.*]](", but its type requires 0\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[SPAN0:.*]]("argument #0 dimension 0: (size - 1) * stride overflows 64 bits (stride \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[SPAN1:.*]]("argument #0 dimension 1: (size - 1) * stride overflows 64 bits (stride \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[SPAN2:.*]]("argument #0 dimension 2: (size - 1) * stride overflows 64 bits (stride \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[EXTENT:.*]](" and sizes and strides whose extent overflows 64-bit byte offsets\00")
  // CHECK-LABEL: func.func @fa(
  // CHECK-SAME: %[[ARG:.*]]: memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>)
  // CHECK: %{{.*}}, %[[OFF:[^ ,]+]], %[[SIZES:[^ ,:]+]]:3, %[[STRIDES:[^ ,:]+]]:3 = memref.extract_strided_metadata %[[ARG]]
  // CHECK: %[[C128:.*]] = arith.constant 128 : index
  // CHECK: %[[BAD:.*]] = arith.cmpi ne, %[[SIZES]]#2, %[[C128]]
  // CHECK: scf.if %[[BAD]] {
  // CHECK: %[[B:.*]] = llvm.mlir.addressof @[[SIZE]]
  // CHECK-NEXT: %[[V:.*]] = arith.index_cast %[[SIZES]]#2 : index to i64
  // CHECK-NEXT: %[[A:.*]] = llvm.mlir.addressof @[[NOTHING]]
  // CHECK-NEXT: call @tileRtHostArgErrorValue(%{{.*}}, %[[B]], %[[V]], %[[A]])
  // CHECK: %[[NONEMPTY:.*]] = arith.andi
  // CHECK: llvm.mlir.addressof @[[NULL]]
  // Strides: positive in dimension 0, the type's in dimensions 1 and 2,
  // unless the dimension has at most one element or the memref is empty.
  // CHECK: %[[GT0:.*]] = arith.cmpi sgt, %[[SIZES]]#0, %[[C1:.*]] : index
  // CHECK: %[[MANY0:.*]] = arith.andi %[[NONEMPTY]], %[[GT0]]
  // CHECK: %[[NP:.*]] = arith.cmpi sle, %[[STRIDES]]#0
  // CHECK: arith.andi %[[MANY0]], %[[NP]]
  // CHECK: llvm.mlir.addressof @[[POSITIVE]]
  // CHECK: %[[GT1:.*]] = arith.cmpi sgt, %[[SIZES]]#1, %[[C1]] : index
  // CHECK: %[[MANY1:.*]] = arith.andi %[[NONEMPTY]], %[[GT1]]
  // CHECK: %[[S128:.*]] = arith.constant 128 : index
  // CHECK: %[[NE1:.*]] = arith.cmpi ne, %[[STRIDES]]#1, %[[S128]]
  // CHECK: %[[BAD1:.*]] = arith.andi %[[MANY1]], %[[NE1]]
  // CHECK: scf.if %[[BAD1]] {
  // CHECK: %[[B1:.*]] = llvm.mlir.addressof @[[STRIDE]]
  // CHECK-NEXT: %[[V1:.*]] = arith.index_cast %[[STRIDES]]#1 : index to i64
  // CHECK-NEXT: %[[A1:.*]] = llvm.mlir.addressof @[[DIM1]]
  // CHECK-NEXT: call @tileRtHostArgErrorValue(%{{.*}}, %[[B1]], %[[V1]], %[[A1]])
  // CHECK: arith.cmpi ne, %[[STRIDES]]#2
  // CHECK: llvm.mlir.addressof @[[DIM2]]
  // The offset, unless the memref is empty.
  // CHECK: %[[NEOFF:.*]] = arith.cmpi ne, %[[OFF]], %{{.*}} : index
  // CHECK: %[[BADOFF:.*]] = arith.andi %{{.*}}, %[[NEOFF]]
  // CHECK: scf.if %[[BADOFF]] {
  // CHECK: %[[BO:.*]] = llvm.mlir.addressof @[[OFFSET]]
  // CHECK-NEXT: %[[VO:.*]] = arith.index_cast %[[OFF]] : index to i64
  // CHECK-NEXT: %[[AO:.*]] = llvm.mlir.addressof @[[ZERO]]
  // CHECK-NEXT: call @tileRtHostArgErrorValue(%{{.*}}, %[[BO]], %[[VO]], %[[AO]])
  // The extent: (size - 1) * stride in each dimension, their sum with the
  // offset and the end in bytes, in 64-bit arithmetic that detects
  // overflow.
  // CHECK: arith.mulsi_extended
  // CHECK: llvm.mlir.addressof @[[SPAN0]]
  // CHECK: arith.mulsi_extended
  // CHECK: llvm.mlir.addressof @[[SPAN1]]
  // CHECK: arith.mulsi_extended
  // CHECK: llvm.mlir.addressof @[[SPAN2]]
  // CHECK: %[[BYTES:.*]] = arith.constant 2 : i64
  // CHECK: arith.mulsi_extended %{{.*}}, %[[BYTES]] : i64
  // CHECK: llvm.mlir.addressof @[[EXTENT]]
  // CHECK: call @tileRtHostFailed()
  // CHECK: scf.if
  // CHECK: %{{.*}}, %{{.*}}, %[[SZ:[^ ,:]+]]:3, %[[ST:[^ ,:]+]]:3 = memref.extract_strided_metadata %[[ARG]]
  // CHECK-NEXT: %[[Q:.*]] = memref.reinterpret_cast %[[ARG]] to offset: [0], sizes: [%[[SZ]]#0, %[[SZ]]#1, 128], strides: [%[[ST]]#0, 128, 1] : memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>> to memref<?x?x128xf16>
  // CHECK: gpu.launch_func async {{.*}} args(%[[Q]] : memref<?x?x128xf16>)
  func.func @fa(%Q: memref<?x?x128xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bh = memref.dim %Q, %c0 : memref<?x?x128xf16>
    gpu.launch_func @k_module::@k blocks in (%bh, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%Q : memref<?x?x128xf16>)
    return
  }
  // CHECK-LABEL: func.func @caller(
  // CHECK-SAME: %[[X:.*]]: memref<?x?x128xf16>)
  // CHECK: %[[C:.*]] = memref.cast %[[X]] : memref<?x?x128xf16> to memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>
  // CHECK-NEXT: call @fa(%[[C]]) : (memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>) -> ()
  func.func @caller(%x: memref<?x?x128xf16>) {
    call @fa(%x) : (memref<?x?x128xf16>) -> ()
    return
  }
}

// -----

// Other layouts: a static size 1 allows any stride (no check of dimension
// 1's); an explicit strided layout's static strides and offset are checked,
// and so are those of an affine map that is strided (a transposition); a
// fully dynamic layout keeps its type, and so does a layout that is not
// strided (its static sizes cannot be read).
#transposed = affine_map<(d0, d1) -> (d1 * 4 + d0)>
#folded = affine_map<(d0, d1) -> (d0 floordiv 2 + d1)>
module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("argument #0 dimension 0 must be 4, got \00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}(" in dimension 0, but its type requires 8\00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}(" in dimension 2, but its type requires 1\00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("argument #1 has stride \00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}(" in dimension 0, but its type requires 3\00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("argument #1 has offset \00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}(", but its type requires 5\00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("argument #3 has stride \00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("argument #2 has negative offset \00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}(" in dimension 1, but its type requires 4\00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("argument #4 (memref<4x4xf32, affine_map<(d0, d1) -> (d0 floordiv 2 + d1)>>) is a null pointer but not empty\00")
  // CHECK-LABEL: func.func @layouts(
  // CHECK-SAME: %[[A:[^:]+]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>,
  // CHECK-SAME: %{{[^:]+}}: memref<?xf32, strided<[?], offset: ?>>,
  // CHECK-SAME: %{{[^:]+}}: memref<?x?xf32, strided<[?, ?], offset: ?>>,
  // CHECK-SAME: %{{[^:]+}}: memref<?x?xf32, strided<[?, ?], offset: ?>>,
  // CHECK-SAME: %{{[^:]+}}: memref<4x4xf32, #{{[^>]+}}>)
  // CHECK: %{{.*}}, %{{.*}}, %[[SIZES:[^ ,:]+]]:3, %[[STRIDES:[^ ,:]+]]:3 = memref.extract_strided_metadata %[[A]]
  // CHECK-NOT: %[[STRIDES]]#1
  // CHECK: call @tileRtHostFailed()
  // CHECK: memref.reinterpret_cast %[[A]] to offset: [0], sizes: [4, 1, 8], strides: [8, 8, 1]
  // CHECK-SAME: to memref<4x1x8xf32>
  // CHECK: memref.reinterpret_cast %{{.*}} to offset: [5], sizes: [%{{.*}}], strides: [3]
  // CHECK-SAME: to memref<?xf32, strided<[3], offset: 5>>
  // CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [4, 4], strides: [1, 4]
  // CHECK-SAME: to memref<4x4xf32, #{{.*}}>
  // CHECK-NOT: memref.reinterpret_cast
  // CHECK: gpu.launch_func
  func.func @layouts(%A: memref<4x1x8xf32>,
                     %B: memref<?xf32, strided<[3], offset: 5>>,
                     %C: memref<?x?xf32, strided<[?, ?], offset: ?>>,
                     %D: memref<4x4xf32, #transposed>,
                     %E: memref<4x4xf32, #folded>) {
    %c1 = arith.constant 1 : index
    %x = memref.load %A[%c1, %c1, %c1] : memref<4x1x8xf32>
    %y = memref.load %B[%c1] : memref<?xf32, strided<[3], offset: 5>>
    %z = memref.load %C[%c1, %c1] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %w = memref.load %D[%c1, %c1] : memref<4x4xf32, #transposed>
    %v = memref.load %E[%c1, %c1] : memref<4x4xf32, #folded>
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// A bound in tile.shape ("N<=4096"): the size must not exceed it; the name
// is shared as without one.
module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // CHECK-DAG: llvm.mlir.global internal constant @[[BOUND:.*]]("argument #0 dimension 0 ('N') must be at most 4096, got \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[SAME:.*]]("argument #1 dimension 0 ('N') differs from argument #0 dimension 0 ('N')\00")
  // CHECK-LABEL: func.func @bounded(
  // CHECK-SAME: {tile.shape = ["N<=4096"]}
  // CHECK: %{{.*}}, %{{.*}}, %[[SZ:[^ ,:]+]], %{{.*}} = memref.extract_strided_metadata %arg0
  // CHECK: %[[MAX:.*]] = arith.constant 4096 : index
  // CHECK: %[[OVER:.*]] = arith.cmpi sgt, %[[SZ]], %[[MAX]] : index
  // CHECK: scf.if %[[OVER]] {
  // CHECK: llvm.mlir.addressof @[[BOUND]]
  // CHECK: call @tileRtHostArgErrorValue(
  // CHECK: llvm.mlir.addressof @[[SAME]]
  // CHECK: gpu.launch_func
  func.func @bounded(%x: memref<?xf32> {tile.shape = ["N<=4096"]},
                     %y: memref<?xf32> {tile.shape = ["N"]}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// A size derived from a name ("ceil(K/128)", block scales): compared with
// the named size divided by 128 and rounded up, whichever argument names it
// first.
module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // CHECK-DAG: llvm.mlir.global internal constant @[[QUOT:.*]]("argument #0 dimension 1 must be ceil(K/128) = ceil(argument #1 dimension 1 / 128), got \00")
  // CHECK-LABEL: func.func @quotient(
  // CHECK: %{{.*}}, %{{.*}}, %[[SZS:[^ ,:]+]]:2, %{{.*}} = memref.extract_strided_metadata %arg0
  // CHECK: %{{.*}}, %{{.*}}, %[[SZA:[^ ,:]+]]:2, %{{.*}} = memref.extract_strided_metadata %arg1
  // CHECK: %[[C128:.*]] = arith.constant 128 : index
  // CHECK: %[[WANT:.*]] = arith.ceildivui %[[SZA]]#1, %[[C128]] : index
  // CHECK: %[[BAD:.*]] = arith.cmpi ne, %[[SZS]]#1, %[[WANT]] : index
  // CHECK: scf.if %[[BAD]] {
  // CHECK: llvm.mlir.addressof @[[QUOT]]
  // CHECK: gpu.launch_func
  func.func @quotient(%s: memref<?x?xf32> {tile.shape = ["M", "ceil(K/128)"]},
                      %a: memref<?x?xf8E4M3FN> {tile.shape = ["M", "K"]}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// A multiple of a derived size ("2*ceil(K/4)", the kept values of a
// 2:4-sparse A): the rounded-up quotient times the factor.
module attributes {gpu.container_module} {
  gpu.module @k_module {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  // CHECK-DAG: llvm.mlir.global internal constant @[[PROD:.*]]("argument #0 dimension 1 must be 2*ceil(K/4) = 2*ceil(argument #1 dimension 0 / 4), got \00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[GROUP:.*]]("argument #0 dimension 0 must be 4*HKV = 4*(argument #1 dimension 0), got \00")
  // CHECK-LABEL: func.func @factor(
  // CHECK: %{{.*}}, %{{.*}}, %[[SZV:[^ ,:]+]]:2, %{{.*}} = memref.extract_strided_metadata %arg0
  // CHECK: %{{.*}}, %{{.*}}, %[[SZB:[^ ,:]+]]:2, %{{.*}} = memref.extract_strided_metadata %arg1
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[Q:.*]] = arith.ceildivui %[[SZB]]#0, %[[C4]] : index
  // CHECK: %[[C2:.*]] = arith.constant 2 : index
  // CHECK: %[[WANT:.*]] = arith.muli %[[Q]], %[[C2]] : index
  // CHECK: %[[BAD:.*]] = arith.cmpi ne, %[[SZV]]#1, %[[WANT]] : index
  // CHECK: scf.if %[[BAD]] {
  // CHECK: llvm.mlir.addressof @[[PROD]]
  func.func @factor(%v: memref<?x?xf16> {tile.shape = ["M", "2*ceil(K/4)"]},
                    %b: memref<?x?xf16> {tile.shape = ["K", "N"]}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return
  }
  // A multiple of a named size (grouped-query attention: four query heads
  // per key and value head).
  // CHECK-LABEL: func.func @product(
  // CHECK: %{{.*}}, %{{.*}}, %[[SZQ:[^ ,:]+]]:2, %{{.*}} = memref.extract_strided_metadata %arg0
  // CHECK: %{{.*}}, %{{.*}}, %[[SZK:[^ ,:]+]]:2, %{{.*}} = memref.extract_strided_metadata %arg1
  // CHECK: %[[Q1:.*]] = arith.ceildivui %[[SZK]]#0, %{{.*}} : index
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[WANTQ:.*]] = arith.muli %[[Q1]], %[[C4]] : index
  // CHECK: %[[BADQ:.*]] = arith.cmpi ne, %[[SZQ]]#0, %[[WANTQ]] : index
  // CHECK: scf.if %[[BADQ]] {
  // CHECK: llvm.mlir.addressof @[[GROUP]]
  func.func @product(%q: memref<?x?xf16> {tile.shape = ["4*HKV", "D"]},
                     %k: memref<?x?xf16> {tile.shape = ["HKV", "D"]}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k_module::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// A device workspace (tile-split-k's) is allocated and freed in order on the
// runtime's stream, without the streams and waits of its own it has when
// launches are synchronous.
module attributes {gpu.container_module} {
  gpu.module @w_module {
    gpu.func @w(%a: memref<?x?xf32>) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @workspace(
  // CHECK: %[[STREAM:.*]] = call @tileRtHostStream()
  // CHECK: %[[TOKEN:.*]] = builtin.unrealized_conversion_cast %[[STREAM]] : !llvm.ptr to !gpu.async.token
  // CHECK-NOT: gpu.wait
  // CHECK: %{{.*}}, %{{.*}} = gpu.alloc async [%[[TOKEN]]] (%{{.*}}, %{{.*}}) : memref<?x?xf32>
  // CHECK-NOT: gpu.wait
  // CHECK: gpu.launch_func async [%[[TOKEN]]] @w_module::@w
  // CHECK-NOT: gpu.wait
  // CHECK: gpu.dealloc async [%[[TOKEN]]]
  // CHECK-NOT: gpu.wait
  // CHECK: call @tileRtHostEnd(%[[STREAM]])
  // PLAIN-LABEL: func.func @workspace(
  // PLAIN: %[[T0:.*]] = gpu.wait async
  // PLAIN: gpu.alloc async [%[[T0]]]
  // PLAIN: gpu.wait [%{{.*}}]
  // PLAIN: gpu.launch_func  @w_module::@w
  // PLAIN: gpu.dealloc async
  // PLAIN: gpu.wait [%{{.*}}]
  func.func @workspace(%n: index) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %ws, %t1 = gpu.alloc async [%t0] (%n, %n) : memref<?x?xf32>
    gpu.wait [%t1]
    gpu.launch_func @w_module::@w blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%ws : memref<?x?xf32>)
    %t2 = gpu.wait async
    %t3 = gpu.dealloc async [%t2] %ws : memref<?x?xf32>
    gpu.wait [%t3]
    return
  }
}
