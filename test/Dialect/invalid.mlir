// RUN: tile-opt %s -split-input-file -verify-diagnostics

// One case (at least) per verifier rule of dialect/lib/TileOps.cpp and
// dialect/lib/TileDialect.cpp, per ODS constraint that matters, and per parse
// error of the custom assembly formats. The comment above each case names the
// rule.

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

// KernelOp::verify: non-empty kernel name.
func.func @kernel_empty_name() {
  // expected-error @+1 {{'tile.kernel' op requires a non-empty kernel name}}
  tile.kernel @"" blocks(%bx) in [1] threads(128) {
  }
  return
}

// -----

// KernelOp::verify: 1 to 3 grid dimensions (none).
func.func @kernel_no_grid() {
  // expected-error @+1 {{'tile.kernel' op expects 1 to 3 grid dimensions, got 0}}
  tile.kernel @k blocks() in [] threads(128) {
  }
  return
}

// -----

// KernelOp::verify: 1 to 3 grid dimensions (too many).
func.func @kernel_4d_grid() {
  // expected-error @+1 {{'tile.kernel' op expects 1 to 3 grid dimensions, got 4}}
  tile.kernel @k blocks(%a, %b, %c, %d) in [1, 1, 1, 1] threads(128) {
  }
  return
}

// -----

// KernelOp::verify: positive static grid extents (zero).
func.func @kernel_zero_extent() {
  // expected-error @+1 {{'tile.kernel' op expects positive grid extents, got 0}}
  tile.kernel @k blocks(%bx, %by) in [4, 0] threads(128) {
  }
  return
}

// -----

// KernelOp::verify: positive static grid extents (negative).
func.func @kernel_negative_extent() {
  // expected-error @+1 {{'tile.kernel' op expects positive grid extents, got -2}}
  tile.kernel @k blocks(%bx) in [-2] threads(128) {
  }
  return
}

// -----

// KernelOp::verify: one dynamic_grid operand per dynamic static_grid entry
// (only reachable through the generic form).
func.func @kernel_dynamic_count(%n: index) {
  // expected-error @+1 {{'tile.kernel' op expects 1 dynamic grid extents, got 0}}
  "tile.kernel"() <{sym_name = "k", static_grid = array<i64: -9223372036854775808, 4>,
                    threads = 128 : i64}> ({
  ^bb0(%bx: index, %by: index):
    "tile.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// KernelOp::verify: a positive thread count.
func.func @kernel_zero_threads() {
  // expected-error @+1 {{'tile.kernel' op expects a positive thread count, got 0}}
  tile.kernel @k blocks(%bx) in [1] threads(0) {
  }
  return
}

// -----

func.func @kernel_threads_not_whole_warps() {
  // expected-error @+1 {{'tile.kernel' op expects whole warps: 100 threads is not a multiple of 32 (a warp on NVIDIA GPUs; a wavefront on AMD CDNA is 64)}}
  tile.kernel @k blocks(%bx) in [1] threads(100) {
  }
  return
}

// -----

// KernelOp::verify: at most 1024 threads per block.
func.func @kernel_too_many_threads() {
  // expected-error @+1 {{'tile.kernel' op expects at most 1024 threads per block, got 2048}}
  tile.kernel @k blocks(%bx) in [1] threads(2048) {
  }
  return
}

// -----

// KernelOp::verify: no kernel nested in another kernel.
func.func @kernel_nested() {
  tile.kernel @outer blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.kernel' op cannot be nested in another tile.kernel}}
    tile.kernel @inner blocks(%by) in [1] threads(128) {
    }
  }
  return
}

// -----

// KernelOp::verifyRegions: one block index argument per grid dimension.
func.func @kernel_block_index_count() {
  // expected-error @+1 {{'tile.kernel' op expects 2 block index arguments, got 1}}
  tile.kernel @k blocks(%bx) in [4, 4] threads(128) {
  }
  return
}

// -----

// KernelOp::verifyRegions: block index arguments of index type (only reachable
// through the generic form: the custom parser gives them index type).
func.func @kernel_block_index_type() {
  // expected-error @+1 {{'tile.kernel' op expects block index arguments of index type}}
  "tile.kernel"() <{sym_name = "k", static_grid = array<i64: 4>, threads = 128 : i64}> ({
  ^bb0(%bx: i32):
    "tile.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// ODS: `threads` is an i64 attribute.
func.func @kernel_threads_attr_type() {
  // expected-error @+1 {{'tile.kernel' op attribute 'threads' failed to satisfy constraint: 64-bit signless integer attribute}}
  "tile.kernel"() <{sym_name = "k", static_grid = array<i64: 4>, threads = 128 : i32}> ({
  ^bb0(%bx: index):
    "tile.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// ODS: `sym_name` is required.
func.func @kernel_missing_name() {
  // expected-error @+1 {{'tile.kernel' op requires attribute 'sym_name'}}
  "tile.kernel"() <{static_grid = array<i64: 4>, threads = 128 : i64}> ({
  ^bb0(%bx: index):
    "tile.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// ODS: the body is a single block (SizedRegion<1>).
func.func @kernel_empty_region() {
  // expected-error @+1 {{'tile.kernel' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "tile.kernel"() <{sym_name = "k", static_grid = array<i64: 4>, threads = 128 : i64}> ({
  }) : () -> ()
  return
}

// -----

// SingleBlockImplicitTerminator: the body ends with tile.yield.
func.func @kernel_wrong_terminator() {
  // expected-error @+2 {{'tile.kernel' op expects regions to end with 'tile.yield', found 'llvm.unreachable'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'tile.yield'}}
  "tile.kernel"() <{sym_name = "k", static_grid = array<i64: 4>, threads = 128 : i64}> ({
  ^bb0(%bx: index):
    "llvm.unreachable"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Parse: the kernel name is a symbol.
func.func @kernel_parse_name() {
  // expected-error @+1 {{expected valid '@'-identifier for symbol name}}
  tile.kernel blocks(%bx) in [1] threads(128) {
  }
  return
}

// -----

// Parse: `blocks` keyword.
func.func @kernel_parse_blocks() {
  // expected-error @+1 {{expected 'blocks'}}
  tile.kernel @k (%bx) in [1] threads(128) {
  }
  return
}

// -----

// Parse: `threads` keyword.
func.func @kernel_parse_threads() {
  // expected-error @+1 {{expected 'threads'}}
  tile.kernel @k blocks(%bx) in [1] {
  }
  return
}

// -----

// Parse: the thread count is an integer literal.
func.func @kernel_parse_threads_value(%t: index) {
  // expected-error @+1 {{expected integer value}}
  tile.kernel @k blocks(%bx) in [1] threads(%t) {
  }
  return
}

// -----

// Parse: dynamic grid extents are index values.
func.func @kernel_parse_grid_type(%n: i32) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%n' expects different type than prior uses: 'index' vs 'i32'}}
  tile.kernel @k blocks(%bx) in [%n] threads(128) {
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tile.ws
//===----------------------------------------------------------------------===//

// WsOp::verify: nested in a tile.kernel.
func.func @ws_outside_kernel() {
  // expected-error @+1 {{'tile.ws' op must be nested in a tile.kernel}}
  tile.ws [0] {
  }
  return
}

// -----

// WsOp::verify: no tile.ws nested in another tile.ws.
func.func @ws_nested() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    tile.ws [0] {
      // expected-error @+1 {{'tile.ws' op cannot be nested in another tile.ws}}
      tile.ws [1] {
      }
    }
  }
  return
}

// -----

// WsOp::verify: no tile.ws nested in a tile.parallel.
func.func @ws_in_parallel() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    tile.parallel (%i) in [4] {
      // expected-error @+1 {{'tile.ws' op cannot be nested in a tile.parallel}}
      tile.ws [0] {
      }
    }
  }
  return
}

// -----

// WsOp::verify: turns need two warpgroups at least.
func.func @ws_pingpong_alone() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op takes turns (pingpong) between at least two warpgroups, got 1}}
    tile.ws [1] pingpong {
    }
  }
  return
}

// -----

// WsOp::verify: barrier 0 is the block's.
func.func @ws_barrier_zero() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op expects a barrier id other than the block's (0), got 0}}
    tile.ws [1] attributes {barrier = 0 : i64} {
    }
  }
  return
}

// -----

// WsOp::verify: turn barriers belong to pingpong regions.
func.func @ws_turns_without_pingpong() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op has turn barriers but does not take turns (pingpong)}}
    tile.ws [0, 1] attributes {turn_barrier = 2 : i64} {
    }
  }
  return
}

// -----

// WsOp::verify: store barriers belong to regions of two warpgroups or more.
func.func @ws_store_barrier_alone() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op stores per warpgroup (store_barrier) with at least two warpgroups, got 1}}
    tile.ws [1] attributes {store_barrier = 3 : i64} {
    }
  }
  return
}

// -----

// WsOp::verify: store barriers other than 0.
func.func @ws_store_barrier_zero() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op expects store barriers other than the block's (0), got 0}}
    tile.ws [0, 1] attributes {store_barrier = 0 : i64} {
    }
  }
  return
}

// -----

// WsOp::verify: turn barriers other than 0.
func.func @ws_turn_barrier_zero() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op expects turn barriers other than the block's (0), got 0}}
    tile.ws [0, 1] pingpong attributes {turn_barrier = 0 : i64} {
    }
  }
  return
}

// -----

// WsOp::verify: region_turn is [wait barrier, threads, pass barrier, threads].
func.func @ws_region_turn_size() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op expects 'region_turn' as [wait barrier, threads, pass barrier, threads], got 2 values}}
    tile.ws [1] attributes {region_turn = array<i64: 1, 256>} {
    }
  }
  return
}

// -----

// WsOp::verify: positive ids and counts in region_turn.
func.func @ws_region_turn_values() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op expects positive barrier ids and thread counts in 'region_turn'}}
    tile.ws [1] attributes {region_turn = array<i64: 1, 256, 0, 256>} {
    }
  }
  return
}

// -----

// WsOp::verify: at least one warpgroup.
func.func @ws_no_warpgroup() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.ws' op expects at least one warpgroup}}
    tile.ws [] {
    }
  }
  return
}

// -----

// WsOp::verify: non-negative warpgroup ids.
func.func @ws_negative_warpgroup() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    // expected-error @+1 {{'tile.ws' op expects non-negative warpgroup ids, got -1}}
    tile.ws [-1] {
    }
  }
  return
}

// -----

// WsOp::verify: strictly increasing warpgroup ids (duplicate).
func.func @ws_duplicate_warpgroup() {
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    // expected-error @+1 {{'tile.ws' op expects strictly increasing warpgroup ids}}
    tile.ws [1, 1] {
    }
  }
  return
}

// -----

// WsOp::verify: strictly increasing warpgroup ids (decreasing).
func.func @ws_decreasing_warpgroups() {
  tile.kernel @k blocks(%bx) in [1] threads(384) {
    // expected-error @+1 {{'tile.ws' op expects strictly increasing warpgroup ids}}
    tile.ws [2, 1] {
    }
  }
  return
}

// -----

// ODS: `registers` is an i64 attribute.
func.func @ws_registers_attr_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.ws' op attribute 'registers' failed to satisfy constraint: 64-bit signless integer attribute}}
    "tile.ws"() <{warpgroups = array<i64: 0>, registers = 40 : i32}> ({
      "tile.yield"() : () -> ()
    }) : () -> ()
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tile.yield
//===----------------------------------------------------------------------===//

// ODS (ParentOneOf): tile.yield terminates tile.kernel, tile.ws or
// tile.parallel regions only.
func.func @yield_outside_tile_region() {
  // expected-error @+1 {{'tile.yield' op expects parent op to be one of 'tile.kernel, tile.ws, tile.parallel'}}
  tile.yield
}

// -----

//===----------------------------------------------------------------------===//
// tile.alloc
//===----------------------------------------------------------------------===//

// ODS: the allocated tile has a static shape.
func.func @alloc_dynamic_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op result #0 must be statically shaped memref of any type values, but got 'memref<?x32xf16, #gpu.address_space<workgroup>>'}}
    %s = tile.alloc : memref<?x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: the tile is on chip (global).
func.func @alloc_global() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op allocated tile must be in shared, fragment or local memory, got global memory}}
    %s = tile.alloc : memref<128x32xf16>
  }
  return
}

// -----

// AllocOp::verify: the tile is on chip (unknown memory space).
func.func @alloc_unknown_space() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op allocated tile must be in shared, fragment or local memory, got unknown memory}}
    %s = tile.alloc : memref<128x32xf16, 7>
  }
  return
}

// -----

// AllocOp::verify: identity memref layout.
func.func @alloc_strided_layout() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects an identity memref layout, got strided<[40, 1]>}}
    %s = tile.alloc : memref<128x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: rank at least 1.
func.func @alloc_rank_0() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects a tile of rank at least 1}}
    %s = tile.alloc : memref<f32, #tile.mem<local>>
  }
  return
}

// -----

// AllocOp::verify (added): integer or floating-point elements (index).
func.func @alloc_index_elements() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects integer or floating-point elements, got 'index'}}
    %s = tile.alloc : memref<16xindex, #tile.mem<local>>
  }
  return
}

// -----

// AllocOp::verify (added): integer or floating-point elements (vector).
func.func @alloc_vector_elements() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects integer or floating-point elements, got 'vector<8xf16>'}}
    %s = tile.alloc : memref<16xvector<8xf16>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify (added): the tile is not empty.
func.func @alloc_empty() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects a non-empty tile, got 'memref<0x32xf16, #gpu.address_space<workgroup>>'}}
    %s = tile.alloc : memref<0x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: nested in a tile.kernel.
func.func @alloc_outside_kernel() {
  // expected-error @+1 {{'tile.alloc' op must be nested in a tile.kernel}}
  %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
  return
}

// -----

// AllocOp::verify: power-of-two alignment (not a power of two).
func.func @alloc_alignment_not_power_of_2() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects a power-of-two alignment, got 48}}
    %s = tile.alloc {alignment = 48 : i64} : memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: power-of-two alignment (zero).
func.func @alloc_alignment_zero() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects a power-of-two alignment, got 0}}
    %s = tile.alloc {alignment = 0 : i64} : memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: power-of-two alignment (negative).
func.func @alloc_alignment_negative() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects a power-of-two alignment, got -16}}
    %s = tile.alloc {alignment = -16 : i64} : memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: offset only on shared tiles.
func.func @alloc_offset_fragment() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op offset only applies to shared tiles}}
    %f = tile.alloc {offset = 0 : i64} : memref<128x32xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// AllocOp::verify: an offset at the tile's alignment.
func.func @alloc_offset_misaligned() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects an offset that is a non-negative multiple of the tile's alignment (128 bytes), got 64}}
    %s = tile.alloc {alignment = 128 : i64, offset = 64 : i64} : memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: no negative offset.
func.func @alloc_offset_negative() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects an offset that is a non-negative multiple of the tile's alignment (16 bytes), got -16}}
    %s = tile.alloc {offset = -16 : i64} : memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: alignment only on shared tiles.
func.func @alloc_alignment_fragment() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op alignment only applies to shared tiles}}
    %f = tile.alloc {alignment = 16 : i64} : memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// ODS: `alignment` is an i64 attribute.
func.func @alloc_alignment_attr_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute}}
    %s = tile.alloc {alignment = 16 : i32} : memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: local tiles have no layout.
func.func @alloc_local_layout() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op local tiles have no layout}}
    %l = tile.alloc {layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} : memref<16x8xf32, #tile.mem<local>>
  }
  return
}

// -----

// AllocOp::verify (verifyLayoutFor): a fragment has a distributed layout.
func.func @alloc_fragment_memory_layout() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects a distributed layout, got #tile.shared<pad = 16>}}
    %f = tile.alloc {layout = #tile.shared<pad = 16>} : memref<16x8xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// AllocOp::verify (verifyLayoutFor): a shared tile has a memory layout.
func.func @alloc_shared_distributed_layout() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects a memory layout, got #tile.linear<[16, 8]}}
    %s = tile.alloc {layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} : memref<16x8xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify (verifyLayoutFor -> LayoutAttrInterface::verifyShape): the
// layout fits the tile's shape.
func.func @alloc_layout_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op layout shape [16, 8] does not match the tile shape [32, 8] rounded up to powers of two}}
    %f = tile.alloc {layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} : memref<32x8xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// AllocOp::verify (verifyLayoutFor -> LayoutAttrInterface::verifyShape): the
// layout fits the tile's element type.
func.func @alloc_layout_element_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op padding of 3 bytes is not a multiple of the element size}}
    %s = tile.alloc {layout = #tile.shared<pad = 3>} : memref<16x8xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// SharedLayoutAttr::verifyShape: rows wider than the swizzle are stored as
// column panels of the swizzle width, so they must be whole panels.
func.func @alloc_swizzle_partial_panel() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op rows wider than the 64-byte swizzle must be whole 64-byte panels, got 96 bytes}}
    %s = tile.alloc {layout = #tile.shared<swizzle = 64>, alignment = 512 : i64} : memref<8x48xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: a shared tile is aligned as its layout requires (8 x the
// swizzle width).
func.func @alloc_swizzle_alignment() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op a tile with layout #tile.shared<swizzle = 128> must be aligned to at least 1024 bytes}}
    %s = tile.alloc {layout = #tile.shared<swizzle = 128>, alignment = 128 : i64} : memref<128x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: a swizzle of 8-byte units repeats every 16 x swizzle
// bytes.
func.func @alloc_swizzle_unit_alignment() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op a tile with layout #tile.shared<swizzle = 64, unit = 8> must be aligned to at least 1024 bytes}}
    %s = tile.alloc {layout = #tile.shared<swizzle = 64, unit = 8>, alignment = 512 : i64} : memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// AllocOp::verify: a shared tile is aligned as its layout requires (the
// default 16-byte alignment is not enough for a swizzled layout).
func.func @alloc_swizzle_default_alignment() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op a tile with layout #tile.shared<swizzle = 32> must be aligned to at least 256 bytes}}
    %s = tile.alloc {layout = #tile.shared<swizzle = 32>} : memref<128x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// ODS: `layout` implements LayoutAttrInterface.
func.func @alloc_layout_attr_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op attribute 'layout' failed to satisfy constraint: LayoutAttrInterface instance}}
    %f = tile.alloc {layout = 1 : i64} : memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

// CopyOp::verify: operands in a known memory space.
func.func @copy_unknown_space(%A: memref<128x32xf16, 7>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op operands must be in global, shared, fragment or local memory}}
    tile.copy %A, %s : memref<128x32xf16, 7> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: at least one operand on chip.
func.func @copy_global_to_global(%A: memref<?x?xf16>, %B: memref<128x32xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.copy' op cannot copy from global memory to global memory}}
    tile.copy %A[%m, %m], %B : memref<?x?xf16> to memref<128x32xf16>
  }
  return
}

// -----

// CopyOp::verify: integer or floating-point element types.
func.func @copy_vector_elements(%A: memref<?xvector<4xf32>>, %s: memref<16xvector<4xf32>, #gpu.address_space<workgroup>>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.copy' op expects integer or floating-point element types}}
    tile.copy %A[%m], %s : memref<?xvector<4xf32>> to memref<16xvector<4xf32>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: padding is a number.
func.func @copy_padding_not_number(%A: memref<?x?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<64x32xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op expects a float or integer padding, got dense<0.000000e+00> : vector<2xf16>}}
    tile.copy %A[%m, %m], %f padding(dense<0.0> : vector<2xf16>) : memref<?x?xf16> to memref<64x32xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// CopyOp::verify: padding only where global memory is read.
func.func @copy_padding_store(%A: memref<?x?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<64x32xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op 'padding' needs a copy from global memory}}
    tile.copy %f, %A[%m, %m] padding(1.0 : f16) : memref<64x32xf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}

// -----

// CopyOp::verify: the padding has the destination's element type.
func.func @copy_padding_type(%A: memref<?x?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<64x32xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op expects a padding of the destination's element type 'f32', got 'f16'}}
    tile.copy %A[%m, %m], %f padding(0xFC00 : f16) : memref<?x?xf16> to memref<64x32xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// CopyOp::verify: tensor copies pad with zero only.
func.func @copy_padding_tma(%A: memref<?x?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op 'tma' copies fill out-of-bounds elements with zero: a padding other than zero needs a copy without 'tma'}}
    tile.copy async tma %A[%m, %m], %s padding(0xFC00 : f16) : memref<?x?xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: offsets on one operand only.
func.func @copy_offsets_on_both(%A: memref<?x?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op only one operand may have offsets: the other one defines the copy extent}}
    tile.copy %A[%m, %m], %s[%m, %m] : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: source offsets only on a global operand.
func.func @copy_offsets_on_shared_source(%A: memref<?x?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<64x32xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op source offsets are only allowed on a global operand; use memref.subview for on-chip tiles}}
    tile.copy %s[%m, %m], %f : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// CopyOp::verify: target offsets only on a global operand.
func.func @copy_offsets_on_fragment_target(%m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op target offsets are only allowed on a global operand; use memref.subview for on-chip tiles}}
    tile.copy %s, %f[%m, %m] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// CopyOp::verify: one offset per dimension of the operand (source).
func.func @copy_source_offset_count(%A: memref<?x?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op expects 2 source offsets, got 3}}
    tile.copy %A[%m, %m, %m], %s : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: one offset per dimension of the operand (target).
func.func @copy_target_offset_count(%C: memref<?x?xf32>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op expects 2 target offsets, got 1}}
    tile.copy %f, %C[%m] : memref<128x128xf32, #tile.mem<fragment>> to memref<?x?xf32>
  }
  return
}

// -----

// CopyOp::verify: the operand without offsets (the tile) has a static shape.
func.func @copy_dynamic_tile(%A: memref<?x?xf16>, %s: memref<?x32xf16, #gpu.address_space<workgroup>>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.copy' op expects the operand without offsets to have a static shape, got 'memref<?x32xf16, #gpu.address_space<workgroup>>'}}
    tile.copy %A[%m, %m], %s : memref<?x?xf16> to memref<?x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: the operand without offsets has a static shape (no offsets
// at all: a dynamically shaped global source needs offsets).
func.func @copy_dynamic_global_without_offsets(%A: memref<?x?xf16>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op expects the operand without offsets to have a static shape, got 'memref<?x?xf16>'}}
    tile.copy %A, %s : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: without offsets, operands of the same shape.
func.func @copy_shape_mismatch() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<32x128xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op expects operands of the same shape, got 'memref<128x32xf16, #gpu.address_space<workgroup>>' and 'memref<32x128xf16, #tile.mem<fragment>>'}}
    tile.copy %s, %f : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// CopyOp::verify: the operand with offsets has at least the tile's rank.
func.func @copy_region_rank_too_low(%A: memref<?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op expects the operand with offsets to have rank at least 2, got 1}}
    tile.copy %A[%m], %s : memref<?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// ODS: operands are memrefs (generic form).
func.func @copy_tensor_operand(%t: tensor<128x32xf16>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op operand #0 must be memref of any type values, but got 'tensor<128x32xf16>'}}
    "tile.copy"(%t, %s) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 0>}> : (tensor<128x32xf16>, memref<128x32xf16, #gpu.address_space<workgroup>>) -> ()
  }
  return
}

// -----

// Parse: operand types are memrefs.
func.func @copy_parse_tensor_operand(%t: tensor<128x32xf16>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{invalid kind of type specified: expected builtin.memref, but found 'tensor<128x32xf16>'}}
    tile.copy %t, %s : tensor<128x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// ODS: offsets are index values.
func.func @copy_offset_type(%A: memref<?x?xf16>, %m: i32) {
  // expected-note @-1 {{prior use here}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'index' vs 'i32'}}
    tile.copy %A[%m, %m], %s : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Parse: `to` between the operand types.
func.func @copy_parse_to() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{expected 'to'}}
    tile.copy %s, %s : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tile.gemm
//===----------------------------------------------------------------------===//

// ODS: statically shaped operands.
func.func @gemm_dynamic_operand(%a: memref<?x32xf16, #gpu.address_space<workgroup>>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op operand #0 must be statically shaped memref of any type values, but got 'memref<?x32xf16, #gpu.address_space<workgroup>>'}}
    tile.gemm %a, %b, %c : memref<?x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: rank-2 operands.
func.func @gemm_rank() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects rank-2 operands, got ranks 3, 2 and 2}}
    tile.gemm %a, %b, %c : memref<2x128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: A in shared memory or a fragment.
func.func @gemm_a_global(%a: memref<128x32xf16>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op A operand must be in shared or fragment memory, got global memory}}
    tile.gemm %a, %b, %c : memref<128x32xf16>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: B in shared memory or a fragment.
func.func @gemm_b_local() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf16, #tile.mem<local>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op B operand must be in shared or fragment memory, got local memory}}
    tile.gemm %a, %b, %c : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #tile.mem<local>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: the accumulator is a fragment.
func.func @gemm_c_shared() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.gemm' op accumulator must be in fragment memory, got shared memory}}
    tile.gemm %a, %b, %c : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// GemmOp::verify: a fragment A operand is not transposed.
func.func @gemm_transposed_fragment_a() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<32x128xf16, #tile.mem<fragment>>
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op a fragment A operand cannot be transposed}}
    tile.gemm %a, %b, %c transpose_a : memref<32x128xf16, #tile.mem<fragment>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: a fragment B operand is not transposed.
func.func @gemm_transposed_fragment_b() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op a fragment B operand cannot be transposed}}
    tile.gemm %a, %b, %c transpose_b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<128x32xf16, #tile.mem<fragment>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: A and B agree on K.
func.func @gemm_k_mismatch() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<64x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op reduction dimensions disagree: A has K = 32, B has K = 64}}
    tile.gemm %a, %b, %c : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: A and B agree on K (with transpose_b: B is N x K; the
// untransposed shape is an error).
func.func @gemm_k_mismatch_transposed() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op reduction dimensions disagree: A has K = 32, B has K = 128}}
    tile.gemm %a, %b, %c transpose_b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: an M x N accumulator.
func.func @gemm_accumulator_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects a 128x64 accumulator, got 128x128}}
    tile.gemm %a, %b, %c : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify (added): M, N and K are positive.
func.func @gemm_empty(%a: memref<128x0xf16, #gpu.address_space<workgroup>>, %b: memref<0x128xf16, #gpu.address_space<workgroup>>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects non-empty operands, got M = 128, N = 128 and K = 0}}
    tile.gemm %a, %b, %c : memref<128x0xf16, #gpu.address_space<workgroup>>, memref<0x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: A and B of the same element type.
func.func @gemm_input_type_mismatch() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xbf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects A and B of the same element type, got 'f16' and 'bf16'}}
    tile.gemm %a, %b, %c : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xbf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: A and B of the same element type (fp8 mixes only with fp8).
func.func @gemm_fp8_with_f16() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf8E4M3FN, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects A and B of the same element type, got 'f8E4M3FN' and 'f16'}}
    tile.gemm %a, %b, %c : memref<128x32xf8E4M3FN, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: f32 or f16 accumulator for f16 inputs.
func.func @gemm_f16_bad_accumulator() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xbf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects an f32 or f16 accumulator for f16 inputs, got 'bf16'}}
    tile.gemm %a, %b, %c : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xbf16, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: f32 accumulator for bf16 inputs.
func.func @gemm_bf16_f16_accumulator() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xbf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects an f32 accumulator for 'bf16' inputs, got 'f16'}}
    tile.gemm %a, %b, %c : memref<128x32xbf16, #gpu.address_space<workgroup>>, memref<32x128xbf16, #gpu.address_space<workgroup>>, memref<128x128xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: f32 accumulator for fp8 inputs.
func.func @gemm_fp8_f16_accumulator() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf8E5M2, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects an f32 accumulator for 'f8E5M2' inputs, got 'f16'}}
    tile.gemm %a, %b, %c : memref<128x32xf8E5M2, #gpu.address_space<workgroup>>, memref<32x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<128x128xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: i32 accumulator for i8 inputs.
func.func @gemm_i8_f32_accumulator() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xi8, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xi8, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects an i32 accumulator for i8 inputs, got 'f32'}}
    tile.gemm %a, %b, %c : memref<128x32xi8, #gpu.address_space<workgroup>>, memref<32x128xi8, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: supported input element types (f64).
func.func @gemm_f64_inputs() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf64, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf64, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf64, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op unsupported input element type 'f64': expected f16, bf16, f32, an 8-bit float or i8}}
    tile.gemm %a, %b, %c : memref<128x32xf64, #gpu.address_space<workgroup>>, memref<32x128xf64, #gpu.address_space<workgroup>>, memref<128x128xf64, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: supported input element types (unsigned i8 is not i8;
// tile.alloc rejects ui8 tiles, so the operands come from arguments).
func.func @gemm_ui8_inputs(%a: memref<128x32xui8, #gpu.address_space<workgroup>>,
                           %b: memref<32x128xui8, #gpu.address_space<workgroup>>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %c = tile.alloc : memref<128x128xi32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op unsupported input element type 'ui8': expected f16, bf16, f32, an 8-bit float or i8}}
    tile.gemm %a, %b, %c : memref<128x32xui8, #gpu.address_space<workgroup>>, memref<32x128xui8, #gpu.address_space<workgroup>>, memref<128x128xi32, #tile.mem<fragment>>
  }
  return
}

// -----

// ODS: `policy` is a #tile.warp_policy attribute (generic form).
func.func @gemm_policy_attr_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{invalid properties {policy = 1 : i64} for op tile.gemm: Invalid attribute `policy` in property conversion: 1 : i64}}
    "tile.gemm"(%a, %b, %c) <{policy = 1 : i64}> : (memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>) -> ()
  }
  return
}

// -----

// Parse: the policy is one of the #tile.warp_policy cases.
func.func @gemm_parse_policy() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+2 {{expected ::mlir::tile::WarpPolicy to be one of: square, full_row, full_col}}
    // expected-error @+1 {{failed to parse Tile_WarpPolicyAttr parameter 'value' which is to be a `::mlir::tile::WarpPolicy`}}
    tile.gemm %a, %b, %c policy <diagonal> : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// Parse: the optional keywords come in their documented order.
func.func @gemm_parse_keyword_order() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{expected ':'}}
    tile.gemm %a, %b, %c clear_accum transpose_b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<128x32xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tile.fill
//===----------------------------------------------------------------------===//

// FillOp::verify: the filled tile is on chip.
func.func @fill_global(%A: memref<128x32xf16>, %v: f16) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.fill' op filled tile must be in shared, fragment or local memory, got global memory}}
    tile.fill %A, %v : memref<128x32xf16>
  }
  return
}

// -----

// ODS (TypesMatchWith): the value has the element type of the tile (generic
// form; the custom form infers the value type, see the next case).
func.func @fill_value_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    %v = arith.constant 0.0 : f16
    // expected-error @+1 {{'tile.fill' op failed to verify that value type matches the element type of the tile}}
    "tile.fill"(%f, %v) : (memref<128x128xf32, #tile.mem<fragment>>, f16) -> ()
  }
  return
}

// -----

// Parse: in the custom form, the value type is the tile's element type.
func.func @fill_parse_value_type(%v: f16) {
  // expected-note @-1 {{prior use here}}
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<128x128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'f32' vs 'f16'}}
    tile.fill %f, %v : memref<128x128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// ODS: the filled tile has a static shape (checked by the parser, which
// needs the element type).
func.func @fill_dynamic(%s: memref<?xf32, #gpu.address_space<workgroup>>, %v: f32) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{custom op 'tile.fill' 'target' must be statically shaped memref of any type values, but got 'memref<?xf32, #gpu.address_space<workgroup>>'}}
    tile.fill %s, %v : memref<?xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tile.parallel
//===----------------------------------------------------------------------===//

// ParallelOp::verify: at least one dimension.
func.func @parallel_no_dims() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op expects at least one dimension}}
    tile.parallel () in [] {
    }
  }
  return
}

// -----

// ParallelOp::verify: positive extents (zero).
func.func @parallel_zero_extent() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op expects positive extents, got 0}}
    tile.parallel (%i, %j) in [4, 0] {
    }
  }
  return
}

// -----

// ParallelOp::verify: positive extents (negative).
func.func @parallel_negative_extent() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op expects positive extents, got -4}}
    tile.parallel (%i) in [-4] {
    }
  }
  return
}

// -----

// ParallelOp::verifyRegions: one induction variable per dimension.
func.func @parallel_iv_count() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op expects 2 induction variables, got 1}}
    tile.parallel (%i) in [4, 4] {
    }
  }
  return
}

// -----

// ParallelOp::verifyRegions: index induction variables (only reachable
// through the generic form).
func.func @parallel_iv_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op expects induction variables of index type}}
    "tile.parallel"() <{extents = array<i64: 4>}> ({
    ^bb0(%i: i32):
      "tile.yield"() : () -> ()
    }) : () -> ()
  }
  return
}

// -----

// ParallelOp::verifyRegions: no block-cooperative op in the body (fill).
func.func @parallel_nested_fill() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %l = tile.alloc : memref<4xf32, #tile.mem<local>>
    %v = arith.constant 0.0 : f32
    tile.parallel (%i) in [4] {
      // expected-error @+1 {{'tile.fill' op cannot be nested in a tile.parallel: its body is executed per element}}
      tile.fill %l, %v : memref<4xf32, #tile.mem<local>>
    }
  }
  return
}

// -----

// ParallelOp::verifyRegions: no block-cooperative op in the body, also in
// nested regions (copy under scf.if).
func.func @parallel_nested_copy(%c: i1) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<4xf32, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<4xf32, #tile.mem<fragment>>
    tile.parallel (%i) in [4] {
      scf.if %c {
        // expected-error @+1 {{'tile.copy' op cannot be nested in a tile.parallel: its body is executed per element}}
        tile.copy %s, %f : memref<4xf32, #gpu.address_space<workgroup>> to memref<4xf32, #tile.mem<fragment>>
      }
    }
  }
  return
}

// -----

// ParallelOp::verifyRegions: no block-cooperative op in the body (gemm).
func.func @parallel_nested_gemm() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<16x16xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<16x16xf32, #tile.mem<fragment>>
    tile.parallel (%i) in [4] {
      // expected-error @+1 {{'tile.gemm' op cannot be nested in a tile.parallel: its body is executed per element}}
      tile.gemm %a, %a, %c : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #tile.mem<fragment>>
    }
  }
  return
}

// -----

// ParallelOp::verifyRegions: no block-cooperative op in the body (reduce).
func.func @parallel_nested_reduce() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<4x8xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<4xf32, #tile.mem<fragment>>
    tile.parallel (%i) in [4] {
      // expected-error @+1 {{'tile.reduce' op cannot be nested in a tile.parallel: its body is executed per element}}
      tile.reduce <sum> %s, %r dim 1 : memref<4x8xf32, #tile.mem<fragment>> to memref<4xf32, #tile.mem<fragment>>
    }
  }
  return
}

// -----

// ParallelOp::verifyRegions (added): no tile.alloc in the body.
func.func @parallel_nested_alloc() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    tile.parallel (%i) in [4] {
      // expected-error @+1 {{'tile.alloc' op cannot be nested in a tile.parallel: its body is executed per element}}
      %l = tile.alloc : memref<4xf32, #tile.mem<local>>
    }
  }
  return
}

// -----

// ParallelOp::verifyRegions (added): no tile.parallel in the body.
func.func @parallel_nested_parallel() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    tile.parallel (%i) in [4] {
      // expected-error @+1 {{'tile.parallel' op cannot be nested in a tile.parallel: its body is executed per element}}
      tile.parallel (%j) in [8] {
      }
    }
  }
  return
}

// -----

// Block-cooperative ops outside a kernel (detail::verifyInKernel; a
// tile.kernel inside a tile.parallel is then reported by KernelOp::verify,
// inside a kernel).
func.func @parallel_outside_kernel() {
  // expected-error @+1 {{'tile.parallel' op must be nested in a tile.kernel (it runs on the threads of a block)}}
  tile.parallel (%i) in [4] {
  }
  return
}

// -----

func.func @copy_outside_kernel(%A: memref<?xf32>, %f: memref<64xf32, #tile.mem<fragment>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.copy' op must be nested in a tile.kernel (it runs on the threads of a block)}}
  tile.copy %A[%c0], %f : memref<?xf32> to memref<64xf32, #tile.mem<fragment>>
  return
}

// -----

func.func @fill_outside_kernel(%f: memref<64xf32, #tile.mem<fragment>>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'tile.fill' op must be nested in a tile.kernel (it runs on the threads of a block)}}
  tile.fill %f, %z : memref<64xf32, #tile.mem<fragment>>
  return
}

// -----

func.func @gemm_outside_kernel(%a: memref<64x32xf16, #gpu.address_space<workgroup>>, %b: memref<32x64xf16, #gpu.address_space<workgroup>>, %c: memref<64x64xf32, #tile.mem<fragment>>) {
  // expected-error @+1 {{'tile.gemm' op must be nested in a tile.kernel (it runs on the threads of a block)}}
  tile.gemm %a, %b, %c : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  return
}

// -----

func.func @reduce_outside_kernel(%s: memref<4x8xf32, #tile.mem<fragment>>, %r: memref<4xf32, #tile.mem<fragment>>) {
  // expected-error @+1 {{'tile.reduce' op must be nested in a tile.kernel (it runs on the threads of a block)}}
  tile.reduce <sum> %s, %r dim 1 : memref<4x8xf32, #tile.mem<fragment>> to memref<4xf32, #tile.mem<fragment>>
  return
}

// -----

// ParallelOp::verify (verifyLayoutFor): the layout is distributed.
func.func @parallel_memory_layout() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op expects a distributed layout, got #tile.shared<>}}
    tile.parallel (%i) in [4] attributes {layout = #tile.shared<>} {
    }
  }
  return
}

// -----

// ParallelOp::verify (verifyLayoutFor -> LayoutAttrInterface::verifyShape):
// the layout fits the iteration space.
func.func @parallel_layout_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op layout shape [16, 8] does not match the tile shape [16, 16] rounded up to powers of two}}
    tile.parallel (%i, %j) in [16, 16] attributes {layout = #tile.linear<[16, 8], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>} {
    }
  }
  return
}

// -----

// ODS: `layout` implements LayoutAttrInterface (the custom parser checks the
// attribute dictionary like generated parsers do).
func.func @parallel_layout_attr_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op attribute 'layout' failed to satisfy constraint: LayoutAttrInterface instance}}
    tile.parallel (%i) in [4] attributes {layout = "rows"} {
    }
  }
  return
}

// -----

// Parse: the extents are integer literals.
func.func @parallel_parse_dynamic_extent(%n: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{expected integer value}}
    tile.parallel (%i) in [%n] {
    }
  }
  return
}

// -----

// Parse: `in` keyword.
func.func @parallel_parse_in() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{expected 'in'}}
    tile.parallel (%i) [4] {
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

// ReduceOp::verify: source in a fragment or a local array.
func.func @reduce_shared_source() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #gpu.address_space<workgroup>>
    %r = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.reduce' op source must be in fragment or local memory, got shared memory}}
    tile.reduce <sum> %s, %r dim 1 : memref<128x64xf32, #gpu.address_space<workgroup>> to memref<128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// ReduceOp::verify: target in a fragment or a local array.
func.func @reduce_global_target(%r: memref<128xf32>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.reduce' op target must be in fragment or local memory, got global memory}}
    tile.reduce <sum> %s, %r dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32>
  }
  return
}

// -----

// ReduceOp::verify: source and target of the same element type.
func.func @reduce_element_type_mismatch() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<128xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.reduce' op expects source and target of the same element type, got 'f32' and 'f16'}}
    tile.reduce <max> %s, %r dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// ReduceOp::verify: float or signless integer elements.
func.func @reduce_unsigned_elements(%s: memref<128x64xui32, #tile.mem<fragment>>, %r: memref<128xui32, #tile.mem<fragment>>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.reduce' op expects float or signless integer elements, got 'ui32'}}
    tile.reduce <sum> %s, %r dim 1 : memref<128x64xui32, #tile.mem<fragment>> to memref<128xui32, #tile.mem<fragment>>
  }
  return
}

// -----

// ReduceOp::verify: reduction dimension in range (too large).
func.func @reduce_dim_too_large() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.reduce' op reduction dimension 2 is out of range for a rank-2 source}}
    tile.reduce <sum> %s, %r dim 2 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// ReduceOp::verify: reduction dimension in range (negative).
func.func @reduce_dim_negative() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.reduce' op reduction dimension -1 is out of range for a rank-2 source}}
    tile.reduce <sum> %s, %r dim -1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// ReduceOp::verify: the target shape is the source shape without `dim`.
func.func @reduce_target_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.reduce' op expects a target of shape [128] (or with dimension 1 of size 1), got 'memref<64xf32, #tile.mem<fragment>>'}}
    tile.reduce <sum> %s, %r dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// ReduceOp::verify: the target shape is the source shape without `dim` (a
// kept dimension has size 1).
func.func @reduce_target_keepdim_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<1x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.reduce' op expects a target of shape [128] (or with dimension 1 of size 1), got 'memref<1x64xf32, #tile.mem<fragment>>'}}
    tile.reduce <sum> %s, %r dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<1x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// ODS: `dim` is an i64 attribute (generic form).
func.func @reduce_dim_attr_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.reduce' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute}}
    "tile.reduce"(%s, %r) <{dim = 1 : i32, kind = #tile.reduce_kind<sum>}> : (memref<128x64xf32, #tile.mem<fragment>>, memref<128xf32, #tile.mem<fragment>>) -> ()
  }
  return
}

// -----

// ODS: `kind` is required (generic form).
func.func @reduce_missing_kind() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.reduce' op requires attribute 'kind'}}
    "tile.reduce"(%s, %r) <{dim = 1 : i64}> : (memref<128x64xf32, #tile.mem<fragment>>, memref<128xf32, #tile.mem<fragment>>) -> ()
  }
  return
}

// -----

// Parse: the kind is one of the #tile.reduce_kind cases.
func.func @reduce_parse_kind() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    // expected-error @+2 {{expected ::mlir::tile::ReduceKind to be one of: sum, max, min, abs_sum, abs_max}}
    // expected-error @+1 {{failed to parse Tile_ReduceKindAttr parameter 'value' which is to be a `::mlir::tile::ReduceKind`}}
    tile.reduce <mean> %s, %r dim 1 : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// Parse: `dim` keyword.
func.func @reduce_parse_dim() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x64xf32, #tile.mem<fragment>>
    %r = tile.alloc : memref<128xf32, #tile.mem<fragment>>
    // expected-error @+1 {{expected 'dim'}}
    tile.reduce <sum> %s, %r : memref<128x64xf32, #tile.mem<fragment>> to memref<128xf32, #tile.mem<fragment>>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Memory spaces and enum attributes
//===----------------------------------------------------------------------===//

// Parse: #tile.mem is fragment or local.
// expected-error @+2 {{expected ::mlir::tile::MemorySpace to be one of: fragment, local}}
// expected-error @+1 {{failed to parse Tile_MemorySpaceAttr parameter 'value' which is to be a `::mlir::tile::MemorySpace`}}
func.func @bad_memory_space(%a: memref<4xf32, #tile.mem<shared>>) {
  return
}

// -----

// Parse: unknown tile attribute mnemonic.
// expected-error @+1 {{unknown attribute `layout_foo` in dialect `tile`}}
func.func @unknown_attr() attributes {x = #tile.layout_foo<1>} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// Discardable attributes: kernel resource annotations
//===----------------------------------------------------------------------===//

// TileDialect::verifyOperationAttribute: resource annotations only on kernels.
// expected-error @+1 {{'tile.shared_memory_bytes' may only be attached to a tile.kernel}}
func.func @shared_memory_bytes_on_func() attributes {tile.shared_memory_bytes = 0 : i64} {
  return
}

// -----

// TileDialect::verifyOperationAttribute: resource annotations are integers.
func.func @fragment_registers_not_integer() {
  // expected-error @+1 {{'tile.fragment_registers' must be an integer}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.fragment_registers = "many"} {
  }
  return
}

// -----

// TileDialect::verifyOperationAttribute: launch and warp-specialization
// choices only on kernels, of the right kind.
// expected-error @+1 {{'tile.blocks_per_sm' may only be attached to a tile.kernel}}
func.func @blocks_per_sm_on_func() attributes {tile.blocks_per_sm = 2 : i64} {
  return
}

// -----

func.func @blocks_per_sm_zero() {
  // expected-error @+1 {{'tile.blocks_per_sm' must be a positive integer}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.blocks_per_sm = 0 : i64} {
  }
  return
}

// -----

// expected-error @+1 {{'tile.warp_specialize' may only be attached to a tile.kernel}}
func.func @warp_specialize_on_func() attributes {tile.warp_specialize = true} {
  return
}

// -----

func.func @warp_specialize_not_bool() {
  // expected-error @+1 {{'tile.warp_specialize' must be a boolean}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.warp_specialize = 1 : i64} {
  }
  return
}

// -----

// expected-error @+1 {{'tile.sparse_in_flight' may only be attached to a tile.kernel}}
func.func @sparse_in_flight_on_func() attributes {tile.sparse_in_flight = true} {
  return
}

// -----

func.func @sparse_in_flight_not_bool() {
  // expected-error @+1 {{'tile.sparse_in_flight' must be a boolean}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.sparse_in_flight = 1 : i64} {
  }
  return
}

// -----

// expected-error @+1 {{'tile.pingpong' may only be attached to a tile.kernel}}
func.func @pingpong_on_func() attributes {tile.pingpong = true} {
  return
}

// -----

func.func @pingpong_not_bool() {
  // expected-error @+1 {{'tile.pingpong' must be a boolean}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.pingpong = 1 : i64} {
  }
  return
}

// -----

func.func @alternate_tiles_not_bool() {
  // expected-error @+1 {{'tile.alternate_tiles' must be a boolean}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.alternate_tiles = 2 : i64} {
  }
  return
}

// -----

// expected-error @+1 {{'tile.alternate_tiles' may only be attached to a tile.kernel}}
func.func @alternate_tiles_on_func() attributes {tile.alternate_tiles = true} {
  return
}

// -----

func.func @tile_loop_not_loop() {
  // expected-error @+1 {{'tile.tile_loop' may only be attached to an scf.for loop}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.tile_loop} {
  }
  return
}

// -----

func.func @tile_loop_not_unit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.tile_loop' must be a unit attribute}}
    scf.for %i = %c0 to %n step %c1 {
    } {tile.tile_loop = 1 : i64}
  }
  return
}

// -----

func.func @unroll_not_loop() {
  // expected-error @+1 {{'tile.unroll' may only be attached to an scf.for loop}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.unroll = 2 : i64} {
  }
  return
}

// -----

func.func @unroll_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.unroll' must be 1 or 2}}
    scf.for %i = %c0 to %n step %c1 {
    } {tile.unroll = 4 : i64}
  }
  return
}

// -----

func.func @turn_wait_outside_ws() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.turn_wait' op must be nested in a tile.ws region: turns pass between the regions of a kernel}}
    tile.turn_wait
  }
  return
}

// -----

func.func @turn_pass_in_parallel() {
  tile.kernel @k blocks(%bx) in [1] threads(256) {
    tile.ws [0] {
      tile.parallel (%i) in [128] {
        // expected-error @+1 {{'tile.turn_pass' op cannot be nested in a tile.parallel: its threads execute different numbers of iterations}}
        tile.turn_pass
      }
    }
  }
  return
}

// -----

// expected-error @+1 {{'tile.launch_group' may only be attached to a tile.kernel}}
func.func @launch_group_on_func() attributes {tile.launch_group = 8 : i64} {
  return
}

// -----

func.func @launch_group_not_positive() {
  // expected-error @+1 {{'tile.launch_group' must be a positive integer}}
  tile.kernel @k blocks(%bx, %by) in [1, 1] threads(128) attributes {tile.launch_group = 0 : i64} {
  }
  return
}

// -----

func.func @launch_group_not_integer() {
  // expected-error @+1 {{'tile.launch_group' must be a positive integer}}
  tile.kernel @k blocks(%bx, %by) in [1, 1] threads(128) attributes {tile.launch_group = true} {
  }
  return
}

// -----

func.func @launch_group_one_dimensional() {
  // expected-error @+1 {{'tile.launch_group' groups grid rows: the kernel needs a grid of at least two dimensions}}
  tile.kernel @k blocks(%bx) in [4] threads(128) attributes {tile.launch_group = 8 : i64} {
  }
  return
}

// -----

// One grid dimension, row-major order: nothing to group, accepted.
func.func @launch_group_one_on_1d() {
  tile.kernel @k blocks(%bx) in [4] threads(128) attributes {tile.launch_group = 1 : i64} {
  }
  return
}

// -----

func.func @persistent_negative() {
  // expected-error @+1 {{'tile.persistent' must be a non-negative integer}}
  tile.kernel @k blocks(%bx, %by) in [1, 1] threads(128) attributes {tile.persistent = -1 : i64} {
  }
  return
}

// -----

func.func @persistent_one_dimensional() {
  // expected-error @+1 {{'tile.persistent' loops over the tiles of a grid of at least two dimensions}}
  tile.kernel @k blocks(%bx) in [4] threads(128) attributes {tile.persistent = 132 : i64} {
  }
  return
}

// -----

func.func @cluster_of_three() {
  // expected-error @+1 {{'tile.cluster' must be 1 or 2 (blocks per cluster)}}
  tile.kernel @k blocks(%bx) in [4] threads(128) attributes {tile.cluster = 3 : i64} {
  }
  return
}

// -----

func.func @cluster_on_func() attributes {tile.cluster = 2 : i64} {
  return
}
// expected-error @-3 {{'tile.cluster' may only be attached to a tile.kernel}}

// -----

func.func @multicast_without_tma(%A: memref<?x?xf16>) {
  tile.kernel @k blocks(%bx) in [2] threads(128) attributes {tile.cluster = 2 : i64} {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.multicast' may only be attached to a tensor copy (tile.copy async tma)}}
    tile.copy %A[%c0, %c0], %s {tile.multicast} : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @multicast_without_cluster(%A: memref<?x?xf16>) {
  tile.kernel @k blocks(%bx) in [2] threads(128) {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.multicast' needs a kernel with tile.cluster = 2}}
    tile.copy async tma %A[%c0, %c0], %s {tile.multicast} : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @exact_stages_on_kernel() {
  // expected-error @+1 {{'tile.exact_stages' may only be attached to an scf.for loop}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.exact_stages} {
  }
  return
}

// -----

func.func @exact_stages_not_unit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.exact_stages' must be a unit attribute}}
  scf.for %i = %c0 to %n step %c1 {
  } {tile.exact_stages = 2 : i64, tile.num_stages = 2 : i64}
  return
}

// -----

func.func @register_prefetch_on_kernel() {
  // expected-error @+1 {{'tile.register_prefetch' may only be attached to an scf.for loop}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.register_prefetch = true} {
  }
  return
}

// -----

func.func @register_prefetch_not_bool(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.register_prefetch' must be a boolean}}
  scf.for %i = %c0 to %n step %c1 {
  } {tile.register_prefetch, tile.num_stages = 1 : i64}
  return
}

// -----

func.func @rotate_on_kernel() {
  // expected-error @+1 {{'tile.rotate' may only be attached to an scf.for loop}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.rotate = true} {
  }
  return
}

// -----

func.func @rotate_not_bool(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.rotate' must be a boolean}}
  scf.for %i = %c0 to %n step %c1 {
  } {tile.rotate = 1 : i64}
  return
}

// -----

func.func @hand_off_on_fragment_copy(%a: memref<64xf32, #tile.mem<fragment>>, %b: memref<64xf32, #tile.mem<fragment>>) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.hand_off' may only be attached to a tile.copy from global memory into a shared tile}}
    tile.copy %a, %b {tile.hand_off = false} : memref<64xf32, #tile.mem<fragment>> to memref<64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

func.func @hand_off_not_bool(%g: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.hand_off' must be a boolean}}
    tile.copy %g[%c0, %c0], %s {tile.hand_off} : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// TileDialect::verifyOperationAttribute: no unknown tile.* attribute.
func.func @unknown_discardable_attr() {
  // expected-error @+1 {{unknown tile dialect attribute 'tile.stages'}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.stages = 3 : i64} {
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Discardable attributes: pipelined loops
//===----------------------------------------------------------------------===//

// TileDialect::verifyOperationAttribute: pipeline attributes only on scf.for
// (tile.num_stages).
func.func @num_stages_on_kernel() {
  // expected-error @+1 {{'tile.num_stages' may only be attached to an scf.for loop}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.num_stages = 2 : i64} {
  }
  return
}

// -----

// TileDialect::verifyOperationAttribute: pipeline attributes only on scf.for
// (tile.stage, on scf.parallel).
func.func @stage_on_scf_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.stage' may only be attached to an scf.for loop}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {tile.stage = array<i64>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.num_stages is an integer.
func.func @num_stages_not_integer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.num_stages' must be an integer}}
  scf.for %i = %c0 to %n step %c1 {
  } {tile.num_stages = 2.0 : f32}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.num_stages is non-negative.
func.func @num_stages_negative(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.num_stages' must be non-negative, got -1}}
  scf.for %i = %c0 to %n step %c1 {
  } {tile.num_stages = -1 : i64}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.stage is an array<i64>.
func.func @stage_not_dense_array(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.stage' must be an array<i64>}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
  } {tile.num_stages = 2 : i64, tile.stage = [0]}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.order is an array<i64> (not of
// another element type).
func.func @order_i32_array(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.order' must be an array<i64>}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
  } {tile.num_stages = 2 : i64, tile.order = array<i32: 0>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.stage requires tile.num_stages.
func.func @stage_without_num_stages(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.stage' requires 'tile.num_stages'}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
  } {tile.stage = array<i64: 0>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.order requires tile.num_stages.
func.func @order_without_num_stages(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.order' requires 'tile.num_stages'}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
  } {tile.order = array<i64: 0>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: one tile.stage entry per body op
// (terminator excluded).
func.func @stage_entry_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.stage' has 3 entries but the loop body has 2 operations}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
    %y = arith.addi %x, %c1 : index
  } {tile.num_stages = 2 : i64, tile.stage = array<i64: 0, 0, 1>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: one tile.order entry per body op.
func.func @order_entry_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.order' has 1 entries but the loop body has 2 operations}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
    %y = arith.addi %x, %c1 : index
  } {tile.num_stages = 2 : i64, tile.order = array<i64: 0>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: stages in [0, num_stages).
func.func @stage_out_of_range(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.stage' entry 2 is out of range [0, 2)}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
    %y = arith.addi %x, %c1 : index
  } {tile.num_stages = 2 : i64, tile.stage = array<i64: 0, 2>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: stages in [0, num_stages) (negative).
func.func @stage_negative(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.stage' entry -1 is out of range [0, 3)}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
  } {tile.num_stages = 3 : i64, tile.stage = array<i64: -1>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: stages in [0, 1) when not pipelined.
func.func @stage_without_pipelining(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.stage' entry 1 is out of range [0, 1)}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
  } {tile.num_stages = 0 : i64, tile.stage = array<i64: 1>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.order is a permutation
// (duplicate entry).
func.func @order_duplicate(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.order' must be a permutation of [0, 2)}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
    %y = arith.addi %x, %c1 : index
  } {tile.num_stages = 2 : i64, tile.order = array<i64: 1, 1>}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.order is a permutation
// (out-of-range entry).
func.func @order_out_of_range(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.order' must be a permutation of [0, 2)}}
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %c1 : index
    %y = arith.addi %x, %c1 : index
  } {tile.num_stages = 2 : i64, tile.order = array<i64: 0, 2>}
  return
}

// -----

// CopyOp::verify: 'in_bounds' asserts bounds of a global operand.
func.func @in_bounds_without_global() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op 'in_bounds' needs a global operand}}
    tile.copy in_bounds %s, %f : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// CopyOp::verify: 'tma' copies are asynchronous.
func.func @tma_not_async(%A: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op 'tma' copies are asynchronous: add 'async'}}
    tile.copy tma %A[%c0, %c0], %s : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: 'tma' copies move 2-D tiles of tensors of rank 2 to 5
// (a 1-D tensor).
func.func @tma_rank_1(%A: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op 'tma' copies move 2-D tiles of tensors of rank 2 to 5 without converting the element type}}
    tile.copy async tma %A[%c0], %s : memref<?xf16> to memref<64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: 'tma' copies do not convert (f32 -> f16).
func.func @tma_converting(%A: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op 'tma' copies move 2-D tiles of tensors of rank 2 to 5 without converting the element type}}
    tile.copy async tma %A[%c0, %c0, %c0], %s : memref<?x?x?xf32> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// CopyOp::verify: only copies from global to shared memory can be
// asynchronous (shared -> fragment).
func.func @async_copy_shared_to_fragment() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op only copies from global to shared memory can be asynchronous}}
    tile.copy async %s, %f : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// CopyOp::verify: only copies from global to shared memory can be
// asynchronous (global -> fragment).
func.func @async_copy_global_to_fragment(%A: memref<?x?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<128x32xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op only copies from global to shared memory can be asynchronous}}
    tile.copy async %A[%m, %m], %f : memref<?x?xf16> to memref<128x32xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// CopyOp::verify: only copies from global to shared memory can be
// asynchronous (shared -> global).
func.func @async_copy_shared_to_global(%A: memref<?x?xf16>, %m: index) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op only copies from global to shared memory can be asynchronous}}
    tile.copy async %s, %A[%m, %m] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
  }
  return
}

// -----

// ODS constraint: tile.mma_wait counts a non-negative number of groups.
func.func @mma_wait_negative() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.mma_wait' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
    tile.mma_wait -1
  }
  return
}

// -----

// ODS constraint: tile.async_wait counts a non-negative number of groups.
func.func @async_wait_negative() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.async_wait' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
    tile.async_wait -1
  }
  return
}

// -----

// AllocOp::verify: element types the lowering can size and store.
func.func @alloc_i4() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op the tile has element type 'i4', which tiles do not support: use i8, i16, i32 or i64 (signless), f16, bf16, f32, f64, or 8-bit floats (f8E4M3FN, f8E5M2 and their FNUZ flavours)}}
    %t = tile.alloc : memref<32xi4, #tile.mem<fragment>>
  }
  return
}

// -----

// AllocOp::verify: at most 2^32 elements, each dimension padded to a power
// of two (3 x 2^31 pads to 2^33).
func.func @alloc_too_large() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.alloc' op expects a tile of at most 2^32 elements (each dimension padded to a power of two), got 'memref<3x2147483648xf32, #tile.mem<fragment>>'}}
    %t = tile.alloc : memref<3x2147483648xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// ParallelOp::verify: at most 2^32 iterations once padded.
func.func @parallel_too_large() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.parallel' op expects at most 2^32 iterations (each extent padded to a power of two), got [4294967297]}}
    tile.parallel (%i) in [4294967297] {
    }
  }
  return
}

// -----

// CopyOp::verify: no conversion between bf16 and f16.
func.func @copy_bf16_to_f16(%A: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %f = tile.alloc : memref<16x16xbf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op cannot convert 'bf16' to 'f16' directly: copy through an f32 tile}}
    tile.copy %f, %A[%c0, %c0] : memref<16x16xbf16, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}

// -----

// FillOp::verify: i1 only in register tiles.
func.func @fill_shared_i1(%s: memref<16xi1, #gpu.address_space<workgroup>>, %v: i1) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.fill' op the filled tile has element type 'i1', which tiles do not support}}
    tile.fill %s, %v : memref<16xi1, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.pipeline_stage only on the
// stage guards and releases tile-inject-pipeline writes.
func.func @pipeline_stage_on_for(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.pipeline_stage' may only be attached to an scf.if or a tile.pipe.consume_release}}
  scf.for %i = %c0 to %n step %c1 {
  } {tile.pipeline_stage = 0 : i64}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.pipeline_stage is a
// non-negative integer.
func.func @pipeline_stage_negative(%p: i1) {
  // expected-error @+1 {{'tile.pipeline_stage' must be a non-negative integer}}
  scf.if %p {
  } {tile.pipeline_stage = -1 : i64}
  return
}

// -----

// expected-error @+1 {{'tile.tma_store' may only be attached to a tile.copy of a fragment into global memory}}
func.func @tma_store_on_func() attributes {tile.tma_store = 2 : i64} {
  return
}

// -----

func.func @tma_store_out_of_range(%C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %acc = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.tma_store' must be 0 (no tensor store) or a power of two up to 2 (staging buffers of 128-byte panel rows)}}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store = 3 : i64} : memref<64x64xf32, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}

// -----

func.func @tma_store_panel_range(%C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %acc = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.tma_store_panel' must be 32, 64 or 128 (bytes of a panel row)}}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store_panel = 48 : i64} : memref<64x64xf32, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}

// -----

// A zero panel width beside a buffer count is reported on the width (the
// count's check divided by it).
func.func @tma_store_panel_zero(%C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %acc = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.tma_store_panel' must be 32, 64 or 128 (bytes of a panel row)}}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store = 2 : i64, tile.tma_store_panel = 0 : i64} : memref<64x64xf32, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}

// -----

func.func @tma_store_four_wide_buffers(%C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %acc = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.tma_store' must be 0 (no tensor store) or a power of two up to 4 (staging buffers of 64-byte panel rows)}}
    tile.copy %acc, %C[%c0, %c0] {tile.tma_store = 8 : i64, tile.tma_store_panel = 64 : i64} : memref<64x64xf32, #tile.mem<fragment>> to memref<?x?xf16>
  }
  return
}

// -----

// expected-error @+1 {{'tile.tma_store_panel' may only be attached to a tile.copy of a fragment into global memory}}
func.func @tma_store_panel_on_func() attributes {tile.tma_store_panel = 64 : i64} {
  return
}

// -----

func.func @tma_store_on_a_load(%A: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %s = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.tma_store' may only be attached to a tile.copy of a fragment into global memory}}
    tile.copy %A[%c0, %c0], %s {tile.tma_store = 2 : i64} : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// GemmOp::verify: either clear_accum or accumulate.
func.func @gemm_clear_and_accumulate(%p: i1) {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op either clears its accumulator (clear_accum) or says when it accumulates (accumulate), not both}}
    tile.gemm %a, %a, %c accumulate(%p) transpose_b clear_accum : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: a non-negative count of MMA groups in flight.
func.func @gemm_negative_in_flight() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects a non-negative count of MMA groups in flight, got -1}}
    tile.gemm %a, %a, %c transpose_b {mma_groups_in_flight = -1 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: a promotion span that divides K.
func.func @gemm_promotion_span() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x96xf8E4M3FN, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects promote_k to be 0 or to divide K = 96, got 64}}
    tile.gemm %a, %a, %c transpose_b {promote_k = 64 : i64} : memref<64x96xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x96xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: a product handed over in chunks that divide N.
func.func @gemm_consumer_chunk_divides() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects consumer_chunk to divide N = 64, got 48}}
    tile.gemm %a, %a, %c transpose_b clear_accum {consumer_chunk = 48 : i64} : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: a product handed over in chunks is a fresh one.
func.func @gemm_consumer_chunk_clears() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op hands its product to a tile.parallel in column chunks (consumer_chunk), so it clears its accumulator (clear_accum), completes its MMAs and neither promotes nor keeps partial sums}}
    tile.gemm %a, %a, %c transpose_b {consumer_chunk = 32 : i64} : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: a gemm that promotes completes its MMAs.
func.func @gemm_promotion_in_flight() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op promotes its partial sums (promote_k), so it completes its MMAs: it can neither leave MMA groups in flight nor accumulate on a condition}}
    tile.gemm %a, %a, %c transpose_b {promote_k = 128 : i64, mma_groups_in_flight = 1 : i64} : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: partials of another type.
func.func @gemm_partials_0() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %p = tile.alloc : memref<64x32xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects partials of the accumulator's type 'memref<64x64xf32, #tile.mem<fragment>>', got 'memref<64x32xf32, #tile.mem<fragment>>'}}
    tile.gemm %a, %a, %c partials(%p : memref<64x32xf32, #tile.mem<fragment>>) transpose_b {promote_k = 128 : i64, mma_groups_in_flight = 1 : i64} : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: partials without one span.
func.func @gemm_partials_1() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %p = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op keeps partial sums in flight (partials), which needs promote_k = K = 128}}
    tile.gemm %a, %a, %c partials(%p : memref<64x64xf32, #tile.mem<fragment>>) transpose_b {promote_k = 64 : i64, mma_groups_in_flight = 1 : i64} : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: partials not in flight.
func.func @gemm_partials_2() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %p = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op keeps partial sums in flight (partials), which needs mma_groups_in_flight = 1}}
    tile.gemm %a, %a, %c partials(%p : memref<64x64xf32, #tile.mem<fragment>>) transpose_b {promote_k = 128 : i64} : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: partials with clear_accum.
func.func @gemm_partials_3() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %p = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op keeps partial sums in flight (partials): it adds them to its accumulator, which it cannot clear}}
    tile.gemm %a, %a, %c partials(%p : memref<64x64xf32, #tile.mem<fragment>>) transpose_b clear_accum {promote_k = 128 : i64, mma_groups_in_flight = 1 : i64} : memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// PipePlanAttr::verify: at least one arrival per hand-off and release.
func.func @pipe_plan_no_arrivals() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{expects at least one arrival per hand-off and per release, got full = 0 and empty = 8}}
    %p = tile.pipe.create plan <full = 0, empty = 8> : !tile.pipe<2>
  }
  return
}

// -----

// PipePlanAttr::verify: copy-engine threads beside at least one tensor copy.
func.func @pipe_plan_engine_threads() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{expects engine_threads in [0, full), counting beside at least one tensor copy; got 128 of 128}}
    %p = tile.pipe.create plan <full = 128, empty = 8, engine_threads = 128> : !tile.pipe<2>
  }
  return
}

// -----

// PipePlanAttr::parse: the flags it knows.
func.func @pipe_plan_unknown_flag() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{expected engine_threads, per_thread, deferred or cluster, got 'eager'}}
    %p = tile.pipe.create plan <full = 1, empty = 8, eager> : !tile.pipe<2>
  }
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.pipeline_drain on loops only.
func.func @pipeline_drain_on_if(%p: i1) {
  // expected-error @+1 {{'tile.pipeline_drain' may only be attached to an scf.for loop}}
  scf.if %p {
  } {tile.pipeline_drain = 1 : i64}
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.pipeline_drain is a
// non-negative integer.
func.func @pipeline_drain_negative(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.pipeline_drain' must be a non-negative integer}}
  scf.for %i = %c0 to %n step %c1 {
  } {tile.pipeline_drain = -1 : i64}
  return
}

// -----

// CopyOp::verify / ReduceOp::verify: a scratch tile lives in shared memory.
func.func @scratch_not_shared() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %x = tile.alloc : memref<64x64xf16, #tile.mem<fragment>>
    %y = tile.alloc : memref<64x64xf16, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.copy' op scratch tile must be in shared memory, got fragment memory}}
    tile.copy %x, %y scratch(%y : memref<64x64xf16, #tile.mem<fragment>>) : memref<64x64xf16, #tile.mem<fragment>> to memref<64x64xf16, #tile.mem<fragment>>
  }
  return
}

// -----

// TileDialect::verifyOperationAttribute: tile.proxy_fence is a unit
// attribute.
func.func @proxy_fence_not_unit() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    // expected-error @+1 {{'tile.proxy_fence' must be a unit attribute}}
    tile.async_wait 0 {tile.proxy_fence = 1 : i64}
  }
  return
}

// -----

// GemmOp::verify: a 2:4-sparse A is read from shared memory.
func.func @gemm_sparse_a_shared() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x32xf16, #tile.mem<fragment>>
    %e = tile.alloc : memref<64x4xi16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op reads a 2:4-sparse A (sparse) from shared memory, K contiguous: A cannot be a fragment or transposed}}
    tile.gemm %a, %b, %c sparse(%e : memref<64x4xi16, #gpu.address_space<workgroup>>) : memref<64x32xf16, #tile.mem<fragment>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: the metadata is in shared memory.
func.func @gemm_sparse_meta_shared() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    %e = tile.alloc : memref<64x4xi16, #tile.mem<fragment>>
    %b = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op sparsity metadata must be in shared memory, got fragment memory}}
    tile.gemm %a, %b, %c sparse(%e : memref<64x4xi16, #tile.mem<fragment>>) : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: a 2:4-sparse A is f16 or bf16.
func.func @gemm_sparse_type() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x32xf32, #gpu.address_space<workgroup>>
    %e = tile.alloc : memref<64x4xi16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<64x64xf32, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op 2:4-sparse A (sparse) is f16 or bf16, got 'f32'}}
    tile.gemm %a, %b, %c sparse(%e : memref<64x4xi16, #gpu.address_space<workgroup>>) : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: K (twice A's columns) is a multiple of 32.
func.func @gemm_sparse_k() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x8xf16, #gpu.address_space<workgroup>>
    %e = tile.alloc : memref<64x1xi16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<16x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op 2:4-sparse A (sparse) needs K (twice A's 8 columns) to be a multiple of 32, got 16}}
    tile.gemm %a, %b, %c sparse(%e : memref<64x1xi16, #gpu.address_space<workgroup>>) : memref<64x8xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: the metadata is M x K/16 of i16.
func.func @gemm_sparse_meta_shape() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    %e = tile.alloc : memref<64x2xi32, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op expects the sparsity metadata of a 64x64 A as 64x4 i16 (a word per 16 of K), got 'memref<64x2xi32, #gpu.address_space<workgroup>>'}}
    tile.gemm %a, %b, %c sparse(%e : memref<64x2xi32, #gpu.address_space<workgroup>>) : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: B's K is the logical K (twice A's columns).
func.func @gemm_sparse_b_k() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    %e = tile.alloc : memref<64x4xi16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<32x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op reduction dimensions disagree: A has K = 64, B has K = 32}}
    tile.gemm %a, %b, %c sparse(%e : memref<64x4xi16, #gpu.address_space<workgroup>>) : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

// GemmOp::verify: a sparse gemm neither promotes nor hands over in parts.
func.func @gemm_sparse_promote() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x32xf16, #gpu.address_space<workgroup>>
    %e = tile.alloc : memref<64x4xi16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<64x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.gemm' op with a 2:4-sparse A (sparse) neither promotes partial sums nor hands its product over in parts}}
    tile.gemm %a, %b, %c sparse(%e : memref<64x4xi16, #gpu.address_space<workgroup>>) {promote_k = 64 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

func.func @consumer_late_not_clearing() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x16xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<16x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.consumer_late' may only be attached to a clearing tile.gemm (clear_accum)}}
    tile.gemm %a, %b, %c {tile.consumer_late = true} : memref<64x16xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

func.func @epilogue_late_without_partials() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x16xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<16x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.epilogue_late' may only be attached to a tile.kernel or to a tile.gemm that promotes one K block late (partials)}}
    tile.gemm %a, %b, %c {tile.epilogue_late} : memref<64x16xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

func.func @epilogue_late_kernel_not_bool() {
  // expected-error @+1 {{'tile.epilogue_late' must be a boolean}}
  tile.kernel @k blocks(%bx) in [1] threads(128) attributes {tile.epilogue_late = 1 : i64} {
  }
  return
}

// -----

func.func @epilogue_late_gemm_not_unit() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x16xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<16x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    %p = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.epilogue_late' on a tile.gemm must be a unit attribute}}
    tile.gemm %a, %b, %c partials(%p : memref<64x64xf32, #tile.mem<fragment>>) {promote_k = 16 : i64, tile.epilogue_late = true} : memref<64x16xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}

// -----

func.func @consumer_late_not_bool() {
  tile.kernel @k blocks(%bx) in [1] threads(128) {
    %a = tile.alloc : memref<64x16xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc : memref<16x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc : memref<64x64xf32, #tile.mem<fragment>>
    // expected-error @+1 {{'tile.consumer_late' must be a boolean}}
    tile.gemm %a, %b, %c clear_accum {tile.consumer_late = 1 : i64} : memref<64x16xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #tile.mem<fragment>>
  }
  return
}
