// Findings of the fuzzers in session 20:
//  * a hand-off loop whose step is -2^63 made tile-check-handoffs negate
//    the step's coefficient before testing it (UBSan: signed overflow):
//    only a positive step is negated now, and the loop is not proved;
//  * a static row stride of 2^62 f16 made tile-select-tma overflow the
//    byte count (see test/Transforms/select-tma.mlir, @huge_stride).
//
// RUN: tile-opt %s -tile-check-handoffs -verify-diagnostics -o /dev/null

module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @min_step(%n: index) {
    tile.kernel @k blocks(%bx) in [1] threads(256) {
      %c0 = arith.constant 0 : index
      %min = arith.constant -9223372036854775808 : index
      %pipe = tile.pipe.create : <2>
      tile.ws [0] {
        scf.for %k = %c0 to %n step %min {
          // expected-warning @below {{cannot prove that its slot's previous use (hand-off s - 2) is committed before this acquire}}
          tile.pipe.produce_acquire %pipe[%k] : <2>
          tile.pipe.produce_commit %pipe[%k] : <2>
        }
      }
      tile.ws [1] {
        scf.for %k = %c0 to %n step %min {
          // expected-warning @below {{cannot prove that its slot's previous use (hand-off s - 2) is released before this wait}}
          tile.pipe.consume_wait %pipe[%k] in_flight(0) : <2>
          tile.pipe.consume_release %pipe[%k] : <2>
        }
      }
    }
    return
  }
}
