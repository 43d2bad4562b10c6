// Input that verifies but failed late in tile-to-nvvm, without a location
// or with an internal message (issue 10):
//  * an explicit #gpu.address_space<global>: "<unknown>:0: conversion of
//    memref memory space ... failed" in the host lowering; it now means
//    global memory like no memory space, and compiles;
//  * a fragment allocated inside a loop: "has no layout: run
//    tile-layout-inference"; a shared tile read inside tile.parallel:
//    "'tile.alloc' op is still used after lowering";
//  * a user tile.stage on an outer loop: reported against the op count of
//    the body after tile-specialize-bounds had added its test;
//  * a tile (fragment, shared) memref outside any kernel: "<unknown>:0:
//    conversion of memref memory space ... failed", with exit code 0.
// The last three are now reported at the user's op when the pipeline
// starts.
//
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="format=isa" --verify-diagnostics -o /dev/null

// The GEMM of examples/gemm.mlir with its A operand in an explicit global
// address space.
!gA = memref<?x?xf16, #gpu.address_space<global>>
!gB = memref<?x?xf16>
!sA = memref<128x32xf16, #gpu.address_space<workgroup>>
!sB = memref<32x128xf16, #gpu.address_space<workgroup>>
!fC = memref<128x128xf32, #tile.mem<fragment>>
func.func @global_space(%A: !gA, %B: !gB, %C: !gB) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %M = memref.dim %A, %c0 : !gA
  %K = memref.dim %A, %c1 : !gA
  %N = memref.dim %B, %c1 : !gB
  %gx = arith.ceildivui %N, %c128 : index
  %gy = arith.ceildivui %M, %c128 : index
  %kt = arith.ceildivui %K, %c32 : index
  tile.kernel @gemm_kernel blocks(%bx, %by) in [%gx, %gy] threads(128) {
    %As = tile.alloc : !sA
    %Bs = tile.alloc : !sB
    %acc = tile.alloc : !fC
    %zero = arith.constant 0.0 : f32
    tile.fill %acc, %zero : !fC
    %m0 = arith.muli %by, %c128 : index
    %n0 = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %k0 = arith.muli %k, %c32 : index
      tile.copy %A[%m0, %k0], %As : !gA to !sA
      tile.copy %B[%k0, %n0], %Bs : !gB to !sB
      tile.gemm %As, %Bs, %acc : !sA, !sB, !fC
    } {tile.num_stages = 3 : i64}
    tile.copy %acc, %C[%m0, %n0] : !fC to !gB
  }
  return
}

// -----

func.func @fragment_in_loop(%A: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{'tile.alloc' op inside 'scf.for' is not supported by tile-to-nvvm: allocate tiles at the top level of the tile.kernel (a tile lives until the kernel ends wherever it is allocated)}}
      %f = tile.alloc : memref<32x32xf32, #tile.mem<fragment>>
      tile.copy %A[%i, %c0], %f : memref<?x?xf32> to memref<32x32xf32, #tile.mem<fragment>>
      tile.copy %f, %A[%c0, %i] : memref<32x32xf32, #tile.mem<fragment>> to memref<?x?xf32>
    }
  }
  return
}

// -----

func.func @shared_in_parallel(%A: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<32x32xf32, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<32x32xf32, #tile.mem<fragment>>
    tile.copy %A[%c0, %c0], %s : memref<?x?xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.parallel (%i, %j) in [32, 32] {
      // expected-error @+1 {{'memref.load' op reads a shared tile inside tile.parallel, which tile-to-nvvm does not lower: tile.parallel may access fragments and global memory; copy the tile to a fragment first}}
      %x = memref.load %s[%i, %j] : memref<32x32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %f[%i, %j] : memref<32x32xf32, #tile.mem<fragment>>
    }
    tile.copy %f, %A[%c0, %c0] : memref<32x32xf32, #tile.mem<fragment>> to memref<?x?xf32>
  }
  return
}

// -----

!g = memref<?x?xf16>
!s = memref<32x32xf16, #gpu.address_space<workgroup>>
!f = memref<32x32xf32, #tile.mem<fragment>>
func.func @outer_schedule(%A: !g, %C: !g, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : !s
    %b = tile.alloc : !s
    %acc = tile.alloc : !f
    // expected-error @+1 {{the user-given 'tile.stage' / 'tile.order' of this loop cannot be kept: tile-specialize-bounds adds a bounds test to its body before a nested loop that copies at offsets; remove the schedule or compile with specialize-bounds=false}}
    scf.for %j = %c0 to %n step %c1 {
      %j0 = arith.muli %j, %c32 : index
      tile.copy %A[%j0, %c0], %a : !g to !s
      // expected-note @+1 {{nested loop}}
      scf.for %k = %c0 to %n step %c1 {
        %k0 = arith.muli %k, %c32 : index
        tile.copy %A[%k0, %k0], %b : !g to !s
        tile.gemm %a, %b, %acc : !s, !s, !f
      } {tile.num_stages = 2 : i64}
    } {tile.num_stages = 2 : i64, tile.stage = array<i64: 0, 0, 1>, tile.order = array<i64: 0, 1, 2>}
    tile.copy %acc, %C[%c0, %c0] : !f to !g
  }
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0 has type 'memref<32x32xf32, #tile.mem<fragment>>', a tile outside any tile.kernel, which tile-to-nvvm cannot compile: host code only handles global memrefs}}
func.func @host_fragment(%f: memref<32x32xf32, #tile.mem<fragment>>) {
  return
}
