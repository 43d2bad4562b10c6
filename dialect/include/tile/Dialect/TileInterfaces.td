//===- TileInterfaces.td - Tile dialect interfaces ---------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEINTERFACES_TD
#define TILE_DIALECT_TILEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Tile_LayoutAttrInterface : AttrInterface<"LayoutAttrInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    A layout of a tile: for a register tile (fragment), which thread of the
    block holds each logical element and in which register slot; for a shared
    tile, at which physical offset each logical element is stored (row-major,
    padded or swizzled). Attached to `tile.alloc` and `tile.parallel`.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{Returns true if this layout distributes elements over the
                 threads of a block (a fragment layout), false if it maps
                 elements to memory offsets (a shared-memory layout).}],
      /*retTy=*/"bool", /*methodName=*/"isDistributed">,
    InterfaceMethod<
      /*desc=*/[{Checks that the layout applies to a tile of the given shape
                 and element type (null for an iteration space), reporting
                 through `emitError` otherwise.}],
      /*retTy=*/"::llvm::LogicalResult", /*methodName=*/"verifyShape",
      /*args=*/(ins "::llvm::ArrayRef<int64_t>":$shape,
                    "::mlir::Type":$elementType,
                    "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError)>
  ];
}

#endif // TILE_DIALECT_TILEINTERFACES_TD
