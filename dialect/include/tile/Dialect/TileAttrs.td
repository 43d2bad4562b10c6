//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEATTRS_TD
#define TILE_DIALECT_TILEATTRS_TD

include "tile/Dialect/TileBase.td"
include "tile/Dialect/TileInterfaces.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Memory spaces
//===----------------------------------------------------------------------===//

def Tile_MemorySpaceFragment : I32EnumAttrCase<"Fragment", 0, "fragment">;
def Tile_MemorySpaceLocal : I32EnumAttrCase<"Local", 1, "local">;
def Tile_MemorySpace : I32EnumAttr<"MemorySpace",
    "tile register memory spaces",
    [Tile_MemorySpaceFragment, Tile_MemorySpaceLocal]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_MemorySpaceAttr : EnumAttr<Tile_Dialect, Tile_MemorySpace, "mem"> {
  let summary = "register memory space of a tile (fragment or local)";
  let description = [{
    `#tile.mem<fragment>` marks a register tile distributed over all threads
    of the block (its thread mapping is a layout); `#tile.mem<local>` marks a
    per-thread register array. Shared memory uses
    `#gpu.address_space<workgroup>`; global memory has no memory space or
    `#gpu.address_space<global>`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Gemm warp partition policy
//===----------------------------------------------------------------------===//

def Tile_WarpPolicySquare : I32EnumAttrCase<"Square", 0, "square">;
def Tile_WarpPolicyFullRow : I32EnumAttrCase<"FullRow", 1, "full_row">;
def Tile_WarpPolicyFullCol : I32EnumAttrCase<"FullCol", 2, "full_col">;
def Tile_WarpPolicy : I32EnumAttr<"WarpPolicy",
    "how the warps of a block partition a gemm's M x N accumulator",
    [Tile_WarpPolicySquare, Tile_WarpPolicyFullRow, Tile_WarpPolicyFullCol]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_WarpPolicyAttr : EnumAttr<Tile_Dialect, Tile_WarpPolicy,
                                   "warp_policy"> {
  let summary = "gemm warp partition policy";
  let description = [{
    `square` splits the warps over M and N so that each warp's sub-tile is as
    square as possible; `full_row` gives every warp whole rows (warps split M
    only); `full_col` gives every warp whole columns (warps split N only).
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Reduction kinds
//===----------------------------------------------------------------------===//

def Tile_ReduceSum : I32EnumAttrCase<"Sum", 0, "sum">;
def Tile_ReduceMax : I32EnumAttrCase<"Max", 1, "max">;
def Tile_ReduceMin : I32EnumAttrCase<"Min", 2, "min">;
def Tile_ReduceAbsSum : I32EnumAttrCase<"AbsSum", 3, "abs_sum">;
def Tile_ReduceAbsMax : I32EnumAttrCase<"AbsMax", 4, "abs_max">;
def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "tile reduction kind",
    [Tile_ReduceSum, Tile_ReduceMax, Tile_ReduceMin, Tile_ReduceAbsSum,
     Tile_ReduceAbsMax]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind,
                                   "reduce_kind"> {
  let summary = "tile reduction kind";
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

def Tile_LinearLayoutAttr : Tile_Attr<"LinearLayout", "linear",
    [DeclareAttrInterfaceMethods<Tile_LayoutAttrInterface>]> {
  let summary = "a distributed register-tile layout, linear over GF(2)";
  let description = [{
    Maps the bits of a thread's register slot, its lane and its warp to the
    coordinate of a tile element: the element held by register `r` of lane
    `l` of warp `w` is the XOR of the basis vectors of the set bits of `r`,
    `l` and `w`. The shape is the tile's shape with each dimension rounded up
    to a power of two (elements beyond the tile are not accessed). A zero
    lane or warp basis vector means that several threads hold the same
    elements (replication).

    ```mlir
    // mma.sync m16n8 accumulator of a 16x8 tile held by one warp.
    #tile.linear<[16, 8], register = [[0, 1], [8, 0]],
                 lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$registerBases,
                        ArrayRefParameter<"int64_t">:$laneBases,
                        ArrayRefParameter<"int64_t">:$warpBases);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The layout as a `LinearLayout` (over the padded shape).
    ::mlir::tile::LinearLayout getLinearLayout() const;
    /// Builds the attribute of a distributed linear layout.
    static LinearLayoutAttr get(::mlir::MLIRContext *context,
                                const ::mlir::tile::LinearLayout &layout);
  }];
}

def Tile_SharedLayoutAttr : Tile_Attr<"SharedLayout", "shared",
    [DeclareAttrInterfaceMethods<Tile_LayoutAttrInterface>]> {
  let summary = "a shared-memory tile layout: row-major, padded or swizzled";
  let description = [{
    The physical layout of a shared tile. The trailing two dimensions (the
    last one for rank-1 tiles) form a row-major matrix, to which either an
    XOR swizzle or row padding is applied; leading dimensions (for instance
    the stage dimension of a multi-versioned buffer) stack whole matrices.

    * `swizzle = 32 | 64 | 128`: within each aligned `swizzle`-byte span of
      a row, the 16-byte chunk index is XORed with bits 7 and up of the byte
      address (the pattern TMA and wgmma use). Rows wider than `swizzle`
      bytes are split into column panels `swizzle` bytes wide, stored one
      after another, each holding all rows of the matrix (the layout TMA
      writes when it loads such a tile as several boxes, and wgmma reads);
      they must be whole panels. The tile must be aligned to 8 x `swizzle`
      bytes.
    * `unit = 16 | 8` (with a swizzle; 16 by default): the size of the
      chunks the swizzle permutes. Within each aligned `swizzle`-byte span,
      the index of the `unit`-byte chunk is XORed with the bits of the
      128-byte line index (bits 7 and up of the byte address) below
      `swizzle / unit`. 16-byte chunks keep the 16-byte vectors of copies
      and `ldmatrix` rows whole; 8-byte chunks spread the 8-byte reads of 16
      consecutive rows (AMD MFMA operand fragments) over all 32 banks while
      a 16-byte chunk still lands in one aligned 16-byte slot (its two halves
      possibly exchanged). The tile must then be aligned to
      128 x `swizzle` / `unit` bytes.
    * `pad = P`: every row is followed by P unused bytes (P a multiple of the
      element size), so consecutive rows start in different banks.

    ```mlir
    %a = tile.alloc {layout = #tile.shared<swizzle = 128>, alignment = 1024}
        : memref<128x64xf16, #gpu.address_space<workgroup>>
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$swizzle,
                        DefaultValuedParameter<"int64_t", "0">:$pad,
                        DefaultValuedParameter<"int64_t", "16">:$unit);
  let builders = [
    AttrBuilder<(ins "int64_t":$swizzle, "int64_t":$pad), [{
      return $_get($_ctxt, swizzle, pad, 16);
    }]>
  ];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Physical byte offset of the element at `coord` of a tile of `shape`
    /// with `elementBits`-bit elements.
    int64_t getByteOffset(::llvm::ArrayRef<int64_t> coord,
                          ::llvm::ArrayRef<int64_t> shape,
                          int64_t elementBits) const;
    /// Bytes the tile occupies (including padding).
    int64_t getSizeInBytes(::llvm::ArrayRef<int64_t> shape,
                           int64_t elementBits) const;
    /// Alignment the tile's base needs, in bytes.
    int64_t getRequiredAlignment() const {
      return getSwizzle() ? 128 * getSwizzle() / getUnit() : 16;
    }
    /// The memory layout (offset -> coordinate) of an unpadded tile whose
    /// dimensions are powers of two; none otherwise.
    std::optional<::mlir::tile::LinearLayout>
    getLinearLayout(::llvm::ArrayRef<int64_t> shape,
                    int64_t elementBits) const;
  }];
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

def Tile_TargetAttr : Tile_Attr<"Target", "target"> {
  let summary = "the GPU a module or kernel is compiled for";
  let description = [{
    Names the chip (`sm_80`, `sm_86`, `sm_89`, `sm_90`, `sm_90a`, `gfx90a`,
    `gfx942`) and optional code-generation features (`+ptxNN` on NVIDIA: the
    PTX ISA version, at least the chip's minimum). Attached once, as the
    discardable attribute `tile.target`, to the module (or to a
    `tile.kernel`, which then overrides the module's); every pass reads the
    chip's warp size, warpgroup size, register file, shared memory and
    instruction set from it. Modules without one are compiled for the
    default target, `sm_90a`.

    ```mlir
    module attributes {tile.target = #tile.target<"sm_80", "+ptx70">} { ... }
    ```
  }];
  let parameters = (ins StringRefParameter<"chip name">:$chip,
                        StringRefParameter<"features", [{""}]>:$features);
  let assemblyFormat = "`<` $chip (`,` $features^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The chip's description (never null for a verified attribute).
    const ::mlir::tile::ChipDescription *getDescription() const;
    /// The PTX ISA version the features ask for (`+ptx80` -> 80), or the
    /// chip's default; 0 for chips that are not NVIDIA.
    int64_t getPtxVersion() const;
  }];
}

//===----------------------------------------------------------------------===//
// Matrix-multiply instruction choice
//===----------------------------------------------------------------------===//

def Tile_MmaKindMmaSync : I32EnumAttrCase<"MmaSync", 0, "mma_sync">;
def Tile_MmaKindWgmma : I32EnumAttrCase<"Wgmma", 1, "wgmma">;
def Tile_MmaKindMfma : I32EnumAttrCase<"Mfma", 2, "mfma">;
def Tile_MmaKind : I32EnumAttr<"MmaKind", "matrix-multiply instruction family",
    [Tile_MmaKindMmaSync, Tile_MmaKindWgmma, Tile_MmaKindMfma]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}

def Tile_MmaAttr : Tile_Attr<"Mma", "mma"> {
  let summary = "the matrix-multiply instruction a gemm is computed with";
  let description = [{
    The instruction family (`mma_sync`: warp-level `mma.sync`; `wgmma`:
    Hopper warpgroup MMA; `mfma`: AMD CDNA matrix cores), the shape of one
    instruction (M, N, K) and how the warps (or waves) executing the gemm
    split its M x N accumulator (`warps = [warpsM, warpsN]`, warp id =
    m * warpsN + n). Chosen once per `tile.gemm` by `tile-select-mma` (or
    given by the user, then checked against the target) and read by layout
    inference, the lowering and the resource checks.

    ```mlir
    tile.gemm %a, %b, %c {mma = #tile.mma<mma_sync, shape = [16, 8, 16],
                                          warps = [2, 2]>} : ...
    ```
  }];
  let parameters = (ins EnumParameter<Tile_MmaKind>:$kind,
                        ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$warps);
  let assemblyFormat = [{
    `<` $kind `,` `shape` `=` `[` $shape `]` `,` `warps` `=` `[` $warps `]` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getInstrM() const { return getShape()[0]; }
    int64_t getInstrN() const { return getShape()[1]; }
    int64_t getInstrK() const { return getShape()[2]; }
    int64_t getWarpsM() const { return getWarps()[0]; }
    int64_t getWarpsN() const { return getWarps()[1]; }
  }];
}

def Tile_PipePlanAttr : Tile_Attr<"PipePlan", "pipe_plan"> {
  let summary = "how the barriers of a pipe of tensor copies count";
  let description = [{
    `tile-plan-pipes`' decision for a pipe whose hand-offs are counted by
    transaction barriers (its slots are filled by tensor copies): per slot
    a full barrier and an empty barrier, initialized with

    - `full`: the arrivals per hand-off: one per tensor copy filling the
      slot, plus one per thread that also fills it with copy-engine copies
      (`engine_threads`, arriving when its copies land);
    - `empty`: the arrivals per release: one per consumer warp, or per
      consumer thread with `per_thread` (threads that read the slot
      themselves release it after their own reads), times the blocks of
      the cluster with `cluster` (multicast copies fill the slot in every
      block, so each release also arrives at the other blocks' barrier);
    - `deferred`: a release of hand-off s frees the slot of s - 1, so that
      the slot's asynchronous MMAs stay in flight for one more hand-off.

    ```mlir
    %p = tile.pipe.create plan <full = 2, empty = 8, deferred> : <3>
    ```
  }];
  let parameters = (ins "int64_t":$full, "int64_t":$empty,
                        "int64_t":$engineThreads, "bool":$perThread,
                        "bool":$deferred, "bool":$cluster);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TILE_DIALECT_TILEATTRS_TD
