// RUN: tile-opt %s -split-input-file -tile-convert-gpu-to-rocdl -verify-diagnostics
//
// tile-convert-gpu-to-rocdl (the kernel half of tile-to-rocdl) lowers the
// gpu.modules of an AMD target; kernels lowered for NVIDIA are rejected at
// the op (the LLVM translation would give them PTX's calling convention,
// on which the AMDGPU backend aborts: a tile-fuzz finding).

module attributes {gpu.container_module, tile.target = #tile.target<"gfx942">} {
  gpu.module @k {
    // expected-error @+1 {{'llvm.func' op carries 'nvvm.kernel': it was lowered for NVIDIA GPUs, and the target is gfx942}}
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">} {
  // expected-error @+1 {{'gpu.module' op is compiled for sm_90a, not an AMD chip: tile-convert-gpu-to-rocdl lowers kernels for gfx90a and gfx942}}
  gpu.module @k {
  }
}

// -----

// Nothing to lower: no error, whatever the target.
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @f() {
    return
  }
}

// -----

// A kernel taking a tile memory space (fuzz finding
// unlocated-error-c23a194235: the conversion failed at <unknown>).
module attributes {gpu.container_module, tile.target = #tile.target<"gfx942">} {
  gpu.module @kernels {
    // expected-error @+1 {{'gpu.func' op uses 'memref<?xi32, #tile.mem<local>>': tile memory spaces are lowered by tile-lower-ops (a tile lives in a tile.kernel); a gpu kernel takes global or workgroup memory}}
    gpu.func @fill(%out: memref<?xi32, #tile.mem<local>>) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      memref.store %v, %out[%tid] : memref<?xi32, #tile.mem<local>>
      gpu.return
    }
  }
}
