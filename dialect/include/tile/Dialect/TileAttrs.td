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

#endif // TILE_DIALECT_TILEATTRS_TD
