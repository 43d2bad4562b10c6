// RUN: tile-opt %s -split-input-file -tile-layout-inference -tile-insert-barriers -tile-plan-pipes -tile-allocate-scratch -tile-allocate-shared -tile-lower-ops -verify-diagnostics | FileCheck %s

// Rounding to an 8-bit float is the target's instruction (LLVM has no such
// types): on NVIDIA a saturating pair conversion of which one byte is kept,
// from f32 (an f64 narrowed first, an f16 widened).
// CHECK-LABEL: func.func @round_f64
// CHECK: %[[N:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[P:.*]] = nvvm.convert.f32x2.to.f8x2 %[[N]], %[[N]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E5M2)
// CHECK: %[[B:.*]] = arith.trunci %[[P]] : i16 to i8
// CHECK: arith.bitcast %[[B]] : i8 to f8E5M2
// CHECK-NOT: arith.truncf %{{.*}} to f8E5M2
func.func @round_f64() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %x = tile.alloc : memref<128xf64, #tile.mem<fragment>>
    %q = tile.alloc : memref<128xf8E5M2, #tile.mem<fragment>>
    tile.parallel (%i) in [128] {
      %v = memref.load %x[%i] : memref<128xf64, #tile.mem<fragment>>
      %r = arith.truncf %v : f64 to f8E5M2
      memref.store %r, %q[%i] : memref<128xf8E5M2, #tile.mem<fragment>>
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @round_f16
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: nvvm.convert.f32x2.to.f8x2 %[[W]], %[[W]] {{.*}} : i16(f8E4M3FN)
func.func @round_f16() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %x = tile.alloc : memref<128xf16, #tile.mem<fragment>>
    %q = tile.alloc : memref<128xf8E4M3FN, #tile.mem<fragment>>
    tile.parallel (%i) in [128] {
      %v = memref.load %x[%i] : memref<128xf16, #tile.mem<fragment>>
      %r = arith.truncf %v : f16 to f8E4M3FN
      memref.store %r, %q[%i] : memref<128xf8E4M3FN, #tile.mem<fragment>>
    }
  }
  return
}

// -----

// Chips without the conversion name themselves.
module attributes {tile.target = #tile.target<"sm_80">} {
func.func @sm80() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %x = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    %q = tile.alloc : memref<128xf8E4M3FN, #tile.mem<fragment>>
    tile.parallel (%i) in [128] {
      %v = memref.load %x[%i] : memref<128xf32, #tile.mem<fragment>>
      // expected-error @+1 {{rounding to 'f8E4M3FN' needs an 8-bit float conversion, which sm_80 does not have (sm_89 and later convert to f8E4M3FN and f8E5M2)}}
      %r = arith.truncf %v : f32 to f8E4M3FN
      memref.store %r, %q[%i] : memref<128xf8E4M3FN, #tile.mem<fragment>>
    }
  }
  return
}
}

// -----

// gfx942 rounds to its FNUZ formats with v_cvt_pk_fp8_f32 /
// v_cvt_pk_bf8_f32 (amdgpu.packed_trunc_2xfp8), after clamping to the
// largest finite value (240 for f8E4M3FNUZ, 57344 for f8E5M2FNUZ) as
// NVIDIA's satfinite does.
// CHECK-LABEL: func.func @gfx942
// CHECK: %[[LO:.*]] = arith.constant -2.400000e+02 : f32
// CHECK: %[[UP:.*]] = arith.maximumf %{{.*}}, %[[LO]] : f32
// CHECK: %[[HI:.*]] = arith.constant 2.400000e+02 : f32
// CHECK: %[[C:.*]] = arith.minimumf %[[UP]], %[[HI]] : f32
// CHECK: %[[P:.*]] = amdgpu.packed_trunc_2xfp8 %[[C]], undef into undef[word 0] : f32 to vector<4xf8E4M3FNUZ>
// CHECK: vector.extract %[[P]][0] : f8E4M3FNUZ from vector<4xf8E4M3FNUZ>
// CHECK: arith.constant 5.734400e+04 : f32
// CHECK: amdgpu.packed_trunc_2xfp8 {{.*}} : f32 to vector<4xf8E5M2FNUZ>
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @gfx942() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %x = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    %q = tile.alloc : memref<128xf8E4M3FNUZ, #tile.mem<fragment>>
    %q2 = tile.alloc : memref<128xf8E5M2FNUZ, #tile.mem<fragment>>
    tile.parallel (%i) in [128] {
      %v = memref.load %x[%i] : memref<128xf32, #tile.mem<fragment>>
      %r = arith.truncf %v : f32 to f8E4M3FNUZ
      memref.store %r, %q[%i] : memref<128xf8E4M3FNUZ, #tile.mem<fragment>>
      %r2 = arith.truncf %v : f32 to f8E5M2FNUZ
      memref.store %r2, %q2[%i] : memref<128xf8E5M2FNUZ, #tile.mem<fragment>>
    }
  }
  return
}
}

// -----

// gfx942 has no conversion to the OCP formats, gfx90a none at all.
module attributes {tile.target = #tile.target<"gfx942">} {
func.func @gfx942_ocp() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %x = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    %q = tile.alloc : memref<128xf8E4M3FN, #tile.mem<fragment>>
    tile.parallel (%i) in [128] {
      %v = memref.load %x[%i] : memref<128xf32, #tile.mem<fragment>>
      // expected-error @+1 {{rounding to 'f8E4M3FN' needs an 8-bit float conversion, which gfx942 does not have (gfx942 converts to f8E4M3FNUZ and f8E5M2FNUZ)}}
      %r = arith.truncf %v : f32 to f8E4M3FN
      memref.store %r, %q[%i] : memref<128xf8E4M3FN, #tile.mem<fragment>>
    }
  }
  return
}
}

// -----

module attributes {tile.target = #tile.target<"gfx90a">} {
func.func @gfx90a() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %x = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    %q = tile.alloc : memref<128xf8E4M3FNUZ, #tile.mem<fragment>>
    tile.parallel (%i) in [128] {
      %v = memref.load %x[%i] : memref<128xf32, #tile.mem<fragment>>
      // expected-error @+1 {{rounding to 'f8E4M3FNUZ' needs an 8-bit float conversion, which gfx90a does not have (gfx942 converts to f8E4M3FNUZ and f8E5M2FNUZ)}}
      %r = arith.truncf %v : f32 to f8E4M3FNUZ
      memref.store %r, %q[%i] : memref<128xf8E4M3FNUZ, #tile.mem<fragment>>
    }
  }
  return
}
}
