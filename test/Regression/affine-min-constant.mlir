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

