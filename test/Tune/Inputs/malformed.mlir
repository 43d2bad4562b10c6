// ${IN_COMMENT}: placeholders in comments are left alone.
func.func @f() {
  %c = arith.constant ${9X} : index
  return
}
