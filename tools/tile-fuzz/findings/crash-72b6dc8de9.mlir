func.func private @decl()!idx2 = index
!alias2 = !idx2
func.func @spread() attributes {a = array<
  !alias2= 3>} {
  return
}
