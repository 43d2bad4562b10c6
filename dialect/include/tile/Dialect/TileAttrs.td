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
    * `pad = P`: every row is followed by P unused bytes (P a multiple of the
      element size), so consecutive rows start in different banks.

    ```mlir
    %a = tile.alloc {layout = #tile.shared<swizzle = 128>, alignment = 1024}
        : memref<128x64xf16, #gpu.address_space<workgroup>>
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$swizzle,
                        DefaultValuedParameter<"int64_t", "0">:$pad);
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
      return getSwizzle() ? 8 * getSwizzle() : 16;
    }
    /// The memory layout (offset -> coordinate) of an unpadded tile whose
    /// dimensions are powers of two; none otherwise.
    std::optional<::mlir::tile::LinearLayout>
    getLinearLayout(::llvm::ArrayRef<int64_t> shape,
                    int64_t elementBits) const;
  }];
}

#endif // TILE_DIALECT_TILEATTRS_TD
