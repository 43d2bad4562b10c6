func.func @f() {
  %c = arith.constant ${N:-} : index
  %d = arith.constant ${M:-3 : index
  return
}
