func.func @f() {
  tile.kernel @k blocks(%b) in [1] threads(0) {
  }
  return
}
