// RUN: tile-opt %s -split-input-file -verify-diagnostics -o /dev/null
// RUN: tile-opt %s -split-input-file --verify-roundtrip -verify-diagnostics -o /dev/null

// MLIR 22 folds `d0 - 1 >= 9223372036854775807` into a constant of -2^63
// and prints it in a form its own parser rejects ("constant too large for
// index"), so `--verify-roundtrip` failed on input that verified (fuzz
// finding roundtrip-error-8256feb9fc). Such input is now reported at the
// op when it is read (ParserGuards.cpp, checkPrinterHazards).

#set = affine_set<(d0) : (d0 - 1 >= 9223372036854775807)>
// expected-error @+1 {{'func.func' op has an affine map or set with the constant -9223372036854775808, which MLIR prints in a form its parser rejects}}
func.func @set() attributes {x.s = #set} {
  return
}

// -----

// expected-error @+1 {{'func.func' op has an affine map or set with the constant -9223372036854775808}}
func.func @map() attributes {x.m = affine_map<(d0) -> (d0 - 9223372036854775807 - 1)>} {
  return
}

// -----

// The largest constants that print back are accepted.
func.func @fine() attributes {x.m = affine_map<(d0) -> (d0 + 9223372036854775807)>} {
  return
}


// -----

// The check runs on verified IR only: an operand the parser left null (a
// value used outside the region defining it) crashed it (fuzz finding, seed
// 16 input 13688); the verifier reports it.
func.func @null_operand(%n: index) {
  // expected-error @+1 {{null operand found}}
  tile.kernel @k blocks(%bx) in [%m0] threads(128) {
    %c2 = arith.constant 2 : index
    %m0 = arith.muli %bx, %c2 : index
  }
  return
}
