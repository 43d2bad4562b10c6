// Public functions whose names the C header cannot declare (io-errors.test):
// a C keyword, a name that is not an identifier, the header's include guard
// and one of its types. The private helper needs no declaration.
func.func @"int"(%a: memref<?xf32>) {
  return
}
func.func @"a b"(%a: memref<?xf32>) {
  return
}
func.func @NAMES_H() {
  return
}
func.func @tile_memref_1d() {
  return
}
func.func private @"not C"() {
  return
}
